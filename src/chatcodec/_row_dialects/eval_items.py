"""OpenAI Evals items: the rows of an eval run's JSONL data source, and the output items a
run gives back, read as conversations.

A data source row is ``{"item": {...}, "sample": {...}}``: ``item`` is the eval's own data
under the names its ``item_schema`` gives (here ``input``, the prompt, beside
``ground_truth`` and the like, which graders read as ``{{item.ground_truth}}``), ``sample``
the model's answer graders read as ``{{sample.output_text}}``
(https://platform.openai.com/docs/api-reference/evals, ``EvalJsonlFileContentSource``;
https://platform.openai.com/docs/guides/evals). ``item.input`` is text (one user turn) or a
list of OpenAI Chat messages; the sample's ``output_text``, its ``output`` messages or its
first choice's message is the answer.

An output item (``GET /evals/{eval_id}/runs/{run_id}/output_items``, ``"object":
"eval.run.output_item"``) holds the data source row as ``datasource_item`` and the run's
``sample`` as ``{"input": [messages], "output": [messages], "model", "usage", ...}``: the
conversation is the messages the model was sent, then its answer
(https://platform.openai.com/docs/api-reference/evals/getRunOutputItem).

Every field that is no part of a conversation (the item's ``ground_truth``, the sample's
``usage``, an output item's ``datasource_item``) is a loss naming its path.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from chatcodec._losses import Loss
from chatcodec._narrow import as_dict, as_list
from chatcodec._row_dialects.layout import TrainingRowError

OUTPUT_ITEM: Final = "eval.run.output_item"
"""The ``object`` of an eval run's output item."""


def read_eval_item(row: Mapping[str, Any], notes: list[Loss]) -> dict[str, Any]:
    """The OpenAI Chat body of an eval item: its input, then the sample's answer."""
    if "item" not in row and ("datasource_item" in row or row.get("object") == OUTPUT_ITEM):
        return _read_output_item(row, notes)
    item = as_dict(row.get("item"))
    if item is None:
        raise TrainingRowError(
            "expected the eval item object (or an output item's datasource_item and sample)", "$.item", "eval_item"
        )
    given = item.get("input")
    if isinstance(given, str):
        messages: list[Any] = [{"role": "user", "content": given}]
    else:
        listed = as_list(given)
        if listed is None:
            raise TrainingRowError("expected the prompt as text or a list of messages", "$.item.input", "eval_item")
        messages = list(listed)
    _report_fields(item, "$.item", ("input",), "eval item field", notes)
    sample = row.get("sample")
    if sample is not None:
        messages += _answer(sample, notes)
    return {"messages": messages}


def _read_output_item(row: Mapping[str, Any], notes: list[Loss]) -> dict[str, Any]:
    """An output item's conversation: the sample's ``input`` messages, then its ``output``."""
    sample = as_dict(row.get("sample"))
    if sample is None:
        raise TrainingRowError("expected the output item's sample object", "$.sample", "eval_item")
    sent = as_list(sample.get("input"))
    if sent is None:
        raise TrainingRowError("expected the messages the model was sent", "$.sample.input", "eval_item")
    answer = _output_messages(sample)
    _report_fields(sample, "$.sample", ("input", "output"), "eval sample field", notes)
    datasource_item = as_dict(row.get("datasource_item"))
    if datasource_item is not None:
        _report_fields(datasource_item, "$.datasource_item", (), "eval item field", notes)
    return {"messages": [*sent, *answer]}


def _output_messages(sample: Mapping[str, Any]) -> list[Any]:
    listed = as_list(sample.get("output"))
    if listed is None:
        raise TrainingRowError("expected the sample's output messages", "$.sample.output", "eval_item")
    for index, message in enumerate(listed):
        fields = as_dict(message)
        if fields is None:
            raise TrainingRowError("expected a message object", f"$.sample.output[{index}]", "eval_item")
    return list(listed)


def _report_fields(fields: Mapping[str, Any], path: str, placed: tuple[str, ...], what: str, notes: list[Loss]) -> None:
    for key in fields:
        if key not in placed:
            notes.append(Loss(f"{path}.{key}", what, "a conversation has no place for it", "metadata"))


def _answer(sample: object, notes: list[Loss]) -> list[Any]:
    fields = as_dict(sample)
    if fields is None:
        raise TrainingRowError("expected the sample object", "$.sample", "eval_item")
    if isinstance(fields.get("output_text"), str):
        read = "output_text"
        answer: list[Any] = [{"role": "assistant", "content": fields["output_text"]}]
    elif "output" in fields:  # the shape of an output item's sample: a list of messages
        read, answer = "output", _output_messages(fields)
    else:
        choice = as_dict((as_list(fields.get("choices")) or [None])[0])
        message = None if choice is None else as_dict(choice.get("message"))
        if message is None:
            raise TrainingRowError(
                "expected the sample's output_text, output messages or choices[0].message", "$.sample", "eval_item"
            )
        read, answer = "choices", [message]
    _report_fields(fields, "$.sample", (read,), "eval sample field", notes)
    return answer
