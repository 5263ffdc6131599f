"""The ``turns`` of a ``trajectory`` row: what the sampler saw and wrote at each answer.

A trajectory row is a conversation (``messages``, ``tools``, in a chat template's shapes) and
one record per answer, the fields of ``chatcodec.SampledTurn`` that a trainer reads:
``message_index`` (the answer's place in the row's ``messages``), ``prompt_ids``,
``completion_ids`` and ``logprobs`` (one per completion id, or ``null``). A wire body has no
place for them, so leaving the dialect reports the column; a turn whose fields are not their
type, whose logprobs are not one per completion id, or whose message is no answer of the row,
is refused at its path (a trainer would pair ids with the wrong answer).
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping
from typing import Any, Final

from chatcodec._losses import Loss
from chatcodec._narrow import as_dict, as_list
from chatcodec._row_dialects.layout import TrainingRowError
from chatcodec._row_dialects.rollout_columns import NAMED, TokenType, fits

TURN_FIELDS: Final = ("message_index", "prompt_ids", "completion_ids", "logprobs")
"""A turn's fields, in the order they are written (and read back from Parquet's struct)."""

_RULE: Final = "trajectory_turns"


def turn_records(row: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The row's turns, checked; each as the row gave it."""
    turns = as_list(row.get("turns"))
    if turns is None:
        raise TrainingRowError("a trajectory row holds its turns as a list", "$.turns", _RULE)
    messages = as_list(row.get("messages")) or []
    checked: list[dict[str, Any]] = []
    for number, value in enumerate(turns):
        turn = as_dict(value)
        path = f"$.turns[{number}]"
        if turn is None:
            raise TrainingRowError("expected a turn {message_index, prompt_ids, completion_ids, logprobs}", path, _RULE)
        _check_answer(turn.get("message_index"), messages, f"{path}.message_index")
        for name in ("prompt_ids", "completion_ids"):
            _check_values(turn.get(name), f"{path}.{name}", integers=True)
        logprobs = turn.get("logprobs")
        if logprobs is not None:
            _check_values(logprobs, f"{path}.logprobs", integers=False)
            if len(logprobs) != len(turn["completion_ids"]):
                why = f"expected one logprob per completion id ({len(turn['completion_ids'])}), not {len(logprobs)}"
                raise TrainingRowError(why, f"{path}.logprobs", _RULE)
        checked.append(turn)
    return checked


def _check_answer(index: object, messages: list[Any], path: str) -> None:
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(messages):
        raise TrainingRowError(f"expected the index of one of the row's {len(messages)} messages", path, _RULE)
    if (as_dict(messages[index]) or {}).get("role") != "assistant":
        raise TrainingRowError(f"messages[{index}] is no assistant message: a turn is an answer", path, _RULE)


def _check_values(value: object, path: str, *, integers: bool) -> None:
    listed = as_list(value)
    if listed is None:
        raise TrainingRowError("expected a list", path, _RULE)
    kind: TokenType = "int" if integers else "float"
    for index, item in enumerate(listed):
        if not fits(item, kind, nullable=False):  # an id past int64 has no place in a Parquet column
            raise TrainingRowError(f"expected {NAMED[kind]}, not {reprlib.repr(item)}", f"{path}[{index}]", _RULE)


def turns_losses(row: Mapping[str, Any], target: str) -> list[Loss]:
    """A loss for the row's turns, which ``target`` has no place for."""
    if row.get("turns") is None:
        return []
    return [Loss("$.turns", "episode turns", f"{target} has no place for a trajectory's turns", "metadata")]
