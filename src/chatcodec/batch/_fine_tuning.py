"""A fine-tuning row held to the fine-tuning format, not to the API's.

OpenAI's supervised fine-tuning rows are Chat Completions bodies without ``model`` (the job
names it), whose assistant messages may carry ``weight``: 1 trains on that answer, 0 leaves
it out (https://platform.openai.com/docs/guides/supervised-fine-tuning, multi-turn chat
examples; Together and Mistral take the same rows). The Chat Completions API defines no
``weight``, so strict reading of an API request refuses it as an unknown field; a row that
names no model is no API request, and there ``weight`` is known, on assistant messages,
0 or 1. ``chatcodec validate --strict`` checks a fine-tuning file's weights by these rules
and the rest of each row by the API's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from chatcodec._errors import Problem
from chatcodec._narrow import as_dict, as_list
from chatcodec._row_dialects.sharegpt import WEIGHT

__all__ = ["WEIGHT_RULE", "is_fine_tuning_row", "without_weights"]

WEIGHT_RULE: Final = "training_weight"
"""The rule a ``weight`` the fine-tuning format refuses breaks."""


def is_fine_tuning_row(fields: Mapping[str, Any]) -> bool:
    """Whether a Chat Completions body is a fine-tuning row: it names no model (the job does)."""
    return "model" not in fields and as_list(fields.get("messages")) is not None


def without_weights(fields: Mapping[str, Any]) -> tuple[dict[str, Any], list[Problem]]:
    """``fields`` without its messages' ``weight``, for the API's strict check of the rest,
    and a problem for each weight the fine-tuning format refuses (on a message other than
    an answer, or a value other than 0 or 1)."""
    messages = as_list(fields.get("messages")) or []
    problems: list[Problem] = []
    kept: list[Any] = []
    for index, message in enumerate(messages):
        entry = as_dict(message)
        if entry is None or WEIGHT not in entry:
            kept.append(message)
            continue
        problem = _weight_problem(entry, ("messages", index, WEIGHT))
        if problem is not None:
            problems.append(problem)
        kept.append({key: value for key, value in entry.items() if key != WEIGHT})
    return {**fields, "messages": kept}, problems


def _weight_problem(message: Mapping[str, Any], location: tuple[int | str, ...]) -> Problem | None:
    value = message[WEIGHT]
    if message.get("role") != "assistant":
        why = "`weight`: on assistant messages only (a fine-tuning row trains on answers, or leaves one out with 0)"
        return Problem(location, WEIGHT_RULE, why, value)
    if type(value) is not int or value not in (0, 1):
        return Problem(location, WEIGHT_RULE, "`weight`: 0 or 1 (0 leaves the answer out of training)", value)
    return None
