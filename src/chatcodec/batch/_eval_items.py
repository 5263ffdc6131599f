"""OpenAI Evals items: the rows of an eval run's JSONL data source, read as conversations.

Each line is ``{"item": {...}, "sample": {...}}``: ``item`` is the eval's own data under
the names its ``item_schema`` gives (here ``input``, the prompt, beside ``ground_truth``
and the like, which graders read as ``{{item.ground_truth}}``), ``sample`` the model's
answer graders read as ``{{sample.output_text}}``
(https://platform.openai.com/docs/api-reference/evals, ``EvalJsonlFileContentSource``;
https://platform.openai.com/docs/guides/evals). ``item.input`` is text (one user turn) or a
list of OpenAI Chat messages; the sample's ``output_text`` (or its first choice's message)
is the answer. The item's other fields are no part of a conversation: each is a loss
naming its path.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._losses import Loss
from chatcodec._narrow import as_dict, as_list
from chatcodec.batch._training_layout import TrainingRowError


def read_eval_item(row: Mapping[str, Any], notes: list[Loss]) -> dict[str, Any]:
    """The OpenAI Chat body of an eval item: its input, then the sample's answer."""
    item = as_dict(row.get("item"))
    if item is None:
        raise TrainingRowError("expected the eval item object", "$.item", "eval_item")
    given = item.get("input")
    if isinstance(given, str):
        messages: list[Any] = [{"role": "user", "content": given}]
    else:
        listed = as_list(given)
        if listed is None:
            raise TrainingRowError("expected the prompt as text or a list of messages", "$.item.input", "eval_item")
        messages = list(listed)
    for key in item:
        if key != "input":
            why = "a conversation has no place for an eval item's own field"
            notes.append(Loss(f"$.item.{key}", "eval item field", why, "metadata"))
    sample = row.get("sample")
    if sample is not None:
        messages += _answer(sample, notes)
    return {"messages": messages}


def _answer(sample: object, notes: list[Loss]) -> list[Any]:
    fields = as_dict(sample)
    if fields is None:
        raise TrainingRowError("expected the sample object", "$.sample", "eval_item")
    if isinstance(fields.get("output_text"), str):
        read = "output_text"
        answer: list[Any] = [{"role": "assistant", "content": fields["output_text"]}]
    else:
        choice = as_dict((as_list(fields.get("choices")) or [None])[0])
        message = None if choice is None else as_dict(choice.get("message"))
        if message is None:
            raise TrainingRowError("expected the sample's output_text or choices[0].message", "$.sample", "eval_item")
        read, answer = "choices", [message]
    for key in fields:
        if key != read:
            notes.append(Loss(f"$.sample.{key}", "eval sample field", "a conversation has no place for it", "metadata"))
    return answer
