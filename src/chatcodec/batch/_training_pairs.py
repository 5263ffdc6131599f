"""Preference pairs of the training dialects (:mod:`chatcodec._row_dialects.dialects`): TRL's
``{"prompt", "chosen", "rejected"}`` (its implicit prompt too), LLaMA-Factory's ShareGPT
preference row, OpenAI's DPO row and chatcodec's ``preference`` form, read into a
:class:`PreferencePair` whose parts convert as bodies and messages, and written back. Kept
apart from the conversations' reading and writing: one job each.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from chatcodec._losses import Loss
from chatcodec._narrow import as_dict
from chatcodec._row_dialects import sharegpt
from chatcodec._row_dialects.dialects import WRITTEN_FROM, message_list, unplaced_fields
from chatcodec._row_dialects.layout import SHAREGPT, ConversationLayout, TrainingRowError

__all__ = ["PreferencePair", "pair_part_format", "read_pair", "with_empty_fields", "write_pair"]


@dataclass(frozen=True, slots=True)
class PreferencePair:
    """A prompt and two completions, each in one format."""

    prompt: dict[str, Any]
    """The prompt as a request body (``messages``, ``tools``, settings)."""
    chosen: list[Any]
    """The preferred completion's messages."""
    rejected: list[Any]
    """The other completion's messages."""
    implicit: bool = False
    """The row gave no prompt: each side is the whole conversation (TRL's implicit prompt)."""


def read_pair(row: Mapping[str, Any], dialect: str, layout: ConversationLayout = SHAREGPT) -> PreferencePair:
    """The pair of a pair dialect's row (``preference``: canonical data; else OpenAI shapes)."""
    if dialect == "openai-dpo":
        prompt = as_dict(row.get("input"))
        if prompt is None:
            raise TrainingRowError("expected the prompt object", "$.input")
        chosen, rejected = row.get("preferred_output"), row.get("non_preferred_output")
        return PreferencePair(
            prompt, message_list(chosen, "$.preferred_output"), message_list(rejected, "$.non_preferred_output")
        )
    if dialect == "sharegpt-preference":
        chosen = _sharegpt_answer(row.get("chosen"), "$.chosen", layout)
        return PreferencePair(
            sharegpt.read_sharegpt(row, layout), chosen, _sharegpt_answer(row.get("rejected"), "$.rejected", layout)
        )
    chosen, rejected = message_list(row.get("chosen"), "$.chosen"), message_list(row.get("rejected"), "$.rejected")
    if dialect == "trl-preference" and "prompt" not in row:  # TRL's implicit prompt: the shared start
        shared = next(
            (index for index, (one, other) in enumerate(zip(chosen, rejected, strict=False)) if one != other),
            min(len(chosen), len(rejected)),
        )
        return PreferencePair({"messages": chosen[:shared]}, chosen[shared:], rejected[shared:], implicit=True)
    if dialect == "preference":
        prompt = as_dict(row.get("prompt"))
        if prompt is None:
            raise TrainingRowError("expected a canonical request", "$.prompt")
    else:
        prompt = {"messages": message_list(row.get("prompt"), "$.prompt")}
        if row.get("tools") is not None:
            prompt["tools"] = row["tools"]
    return PreferencePair(prompt, chosen, rejected)


def _sharegpt_answer(value: object, path: str, layout: ConversationLayout) -> list[Any]:
    """LLaMA-Factory's ``chosen``/``rejected``: one assistant message ``{from, value}``."""
    fields = as_dict(value)
    if fields is None or fields.get(layout.role) != layout.tag_of("assistant"):
        raise TrainingRowError(f"expected an assistant message ({layout.role}: {layout.tag_of('assistant')!r})", path)
    text = fields.get(layout.content)
    if not isinstance(text, str):
        raise TrainingRowError("expected text", f"{path}.{layout.content}")
    return [{"role": "assistant", "content": text}]


def write_pair(
    pair: PreferencePair, dialect: str, losses: list[Loss], layout: ConversationLayout = SHAREGPT
) -> dict[str, Any]:
    """A pair dialect's row from a pair in its format (see :func:`read_pair`)."""
    if dialect == "openai-dpo":
        return {"input": pair.prompt, "preferred_output": pair.chosen, "non_preferred_output": pair.rejected}
    if dialect == "preference":
        return {"prompt": pair.prompt, "chosen": pair.chosen, "rejected": pair.rejected}
    if dialect == "sharegpt-preference":
        messages = message_list(pair.prompt.get("messages"), "$.prompt.messages")
        losses += [
            replace(loss, path=f"$.prompt{loss.path[1:]}")
            for loss in unplaced_fields(pair.prompt, ("messages", "tools"), dialect)
        ]
        row = sharegpt.write_sharegpt(pair.prompt, messages, layout, losses)
        for side, answer in (("chosen", pair.chosen), ("rejected", pair.rejected)):
            text = _only_text_answer(answer, f"$.{side}", layout)
            row[side] = {layout.role: layout.tag_of("assistant"), layout.content: text}
        return row
    prompt = pair.prompt.get("messages", [])
    if pair.implicit:
        return {"chosen": [*prompt, *pair.chosen], "rejected": [*prompt, *pair.rejected]}
    row = {"prompt": prompt, "chosen": pair.chosen, "rejected": pair.rejected}
    for key, value in pair.prompt.items():
        if key == "tools":
            row["tools"] = value
        elif key != "messages":
            losses.append(Loss(f"$.prompt.{key}", key, f"{dialect} rows keep no request settings", "setting"))
    return row


def _only_text_answer(answer: list[Any], path: str, layout: ConversationLayout) -> str:
    message = as_dict(answer[0]) if len(answer) == 1 else None
    content = None if message is None else message.get("content")
    if (
        message is None
        or message.get("role") != "assistant"
        or not isinstance(content, str)
        or message.get("tool_calls")
    ):
        raise TrainingRowError(f"{layout.messages} preference rows hold one assistant text answer per side", path)
    return content


def with_empty_fields(original: Mapping[str, Any], written: Mapping[str, Any]) -> dict[str, Any]:
    """``written`` in ``original``'s key order, with the empty fields of ``original`` it
    lacks in their places: a codec drops a value equal to its default (OpenAI DPO's
    documented ``"tools": []``), which the same dialect written again keeps."""
    merged = {
        key: written.get(key, value) for key, value in original.items() if key in written or value in ([], {}, None)
    }
    return merged | {key: value for key, value in written.items() if key not in merged}


def pair_part_format(dialect: str) -> str:
    """The format a pair dialect's parts are written in."""
    return "canonical" if dialect == "preference" else WRITTEN_FROM
