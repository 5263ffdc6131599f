"""The values a turn is made of, refused at their path when a caller's data holds something else.

A turn comes from the caller as often as from ``render_turns``: a trajectory row's turn
mappings, a gateway's records read back, a sampler's logprobs. Python would take a string for
a list of ids (``list("abc")`` is ``['a', 'b', 'c']``) and a ``None`` would fail later as a bare
TypeError far from its place; each value is checked here once, for every caller.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from chatcodec import PayloadError
from chatcodec._training import tokens


def _listed(given: object, what: str, path: str) -> Sequence[object]:
    if not isinstance(given, Sequence) or isinstance(given, str | bytes):
        raise PayloadError(f"expected a list of {what}, not {type(given).__name__}", path)
    return cast("Sequence[object]", given)


def token_ids(given: object, path: str) -> list[int]:
    """A list of token ids, by the one rule for a sampled id (:func:`.tokens.ids_fault`:
    integers from 0 to 2**63-1)."""
    ids = list(_listed(given, "token ids", path))
    fault = tokens.ids_fault(ids)
    if fault is not None:
        raise PayloadError(f"expected a token id: {fault[1]}", f"{path}{fault[0]}")
    return cast("list[int]", ids)


def logprobs(given: object, path: str) -> list[float] | None:
    """One answer's logprobs as a list of numbers (None: sampled without them)."""
    if given is None:
        return None
    numbers: list[float] = []
    for position, value in enumerate(_listed(given, "logprobs (or null)", path)):
        if not tokens.is_logprob(value):
            raise PayloadError(f"expected a number (a finite one), not {value!r}", f"{path}[{position}]")
        numbers.append(float(cast("float", value)))
    return numbers


def one_per_completion_id(found: list[float] | None, completion_ids: list[int], path: str) -> list[float] | None:
    """``found`` logprobs, refused when they are not one per completion id."""
    if found is not None and len(found) != len(completion_ids):
        raise PayloadError(f"expected one logprob per completion id ({len(completion_ids)}), not {len(found)}", path)
    return found


def message_index(given: object, path: str) -> int:
    """A message's index in the episode (an integer, 0 or more)."""
    if isinstance(given, bool) or not isinstance(given, int) or given < 0:
        raise PayloadError(f"expected a message index (an integer, 0 or more), not {given!r}", path)
    return given


def text_or_none(given: object, path: str) -> str | None:
    """A turn's note (its ``prompt_break``, its ``parent_turn``): a text, or absent."""
    if given is not None and not isinstance(given, str):
        raise PayloadError(f"expected a text or null, not {type(given).__name__}", path)
    return given
