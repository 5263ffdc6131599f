"""A candidate's ``logprobsResult`` <-> the canonical choice's token log probabilities.

A request with ``generationConfig.responseLogprobs`` gets each candidate's
``logprobsResult`` (https://ai.google.dev/api/generate-content#LogprobsResult; google-genai
``LogprobsResult``): ``chosenCandidates``, one ``Candidate`` (``token``, ``tokenId``,
``logProbability``) per decoding step, and with ``logprobs: n`` also ``topCandidates``,
one ``{"candidates": [...]}`` per step ("The length of this list is equal to the total
number of decoding steps"), plus ``logProbabilitySum`` ("not supported in Vertex AI").
Step ``i``'s chosen candidate is the canonical token ``i`` (``token``, ``logprob``) and
its top candidates the token's ``top_logprobs``.

What canonical has no field for stays in the candidate's bag under ``logprobsResult``, in
the same shape with the canonical fields taken out: each step's ``tokenId`` (Gemini's
vocabulary id), ``logProbabilitySum``, and that ``topCandidates`` was sent where no step
had one. The writer puts the tokens back into that shape; another format reports it as
Gemini data it has no field for. Gemini has no ``bytes``: a token whose bytes are not its
text's UTF-8 (a token cut inside a character) is reported. ``avgLogprobs``, the
candidate's "average log probability", is not carried: it stays in the bag (a Gemini
answer's own), and is never computed for another format's answer.

A ``logprobsResult`` of another shape (a step without its token, lists of unequal length)
stays in the bag whole, as it came.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec.codec_kit import as_dict, as_list, is_a_double, unicode_text, unmapped_fields
from chatcodec.contract import LossRecorder, Steps

RESULT = "logprobsResult"
CHOSEN, TOP = "chosenCandidates", "topCandidates"
_MAPPED = ("token", "logProbability")


def take_logprobs(bag: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The canonical tokens of a candidate's ``logprobsResult`` (in ``bag``, its leftover
    fields), the bag keeping only what canonical has no field for; None, the bag untouched,
    when there are none or they are spelled otherwise."""
    result = as_dict(bag.get(RESULT))
    if result is None:
        return None
    chosen = as_list(result.get(CHOSEN))
    top = as_list(result.get(TOP)) if TOP in result else None
    if not chosen or (top is not None and len(top) != len(chosen)):
        return None
    tokens: list[dict[str, Any]] = []
    rest_chosen: list[dict[str, Any]] = []
    rest_top: list[dict[str, Any]] = []
    for step, entry in enumerate(chosen):
        token = _token(entry)
        if token is None:
            return None
        rest_chosen.append(unmapped_fields(entry, _MAPPED))
        if top is not None:
            alternatives = _step(top[step])
            if alternatives is None:
                return None
            tokens_at, rest_at = alternatives
            if tokens_at:
                token["top_logprobs"] = tokens_at
            rest_top.append(rest_at)
        tokens.append(token)
    rest = {key: value for key, value in result.items() if key not in (CHOSEN, TOP)}
    if any(rest_chosen):
        rest[CHOSEN] = rest_chosen
    if top is not None and (any(rest_top) or not any("top_logprobs" in token for token in tokens)):
        rest[TOP] = rest_top  # what the steps' candidates hold besides canonical's, or that the key came
    if rest:
        bag[RESULT] = rest
    else:
        del bag[RESULT]
    return tokens


def _token(entry: object) -> dict[str, Any] | None:
    fields = as_dict(entry)
    if fields is None:
        return None
    token, logprob = fields.get("token"), fields.get("logProbability")
    if not isinstance(token, str) or not unicode_text(token):
        return None
    if not is_a_double(logprob):  # a double in the API (JSON may hold -Infinity, 1e400)
        return None
    return {"token": token, "logprob": logprob}


def _step(step: object) -> tuple[list[dict[str, Any]], dict[str, Any]] | None:
    """One ``topCandidates`` step: its tokens, and what else it holds (each candidate's
    ``tokenId``, under ``candidates``, and the step's other fields)."""
    fields = as_dict(step)
    listed = None if fields is None else as_list(fields.get("candidates"))
    if fields is None or listed is None:  # a step without its list: kept whole
        return None
    tokens: list[dict[str, Any]] = []
    rests: list[dict[str, Any]] = []
    for entry in listed:
        token = _token(entry)
        if token is None:
            return None
        tokens.append(token)
        rests.append(unmapped_fields(entry, _MAPPED))
    rest = {key: value for key, value in fields.items() if key != "candidates"}
    if any(rests):
        rest["candidates"] = rests
    return tokens, rest


def write_logprobs(
    tokens: Sequence[Mapping[str, Any]], kept: object, losses: LossRecorder, at: Steps
) -> dict[str, Any]:
    """The ``logprobsResult`` for canonical tokens, over ``kept`` (what the candidate's bag
    kept of one, :func:`take_logprobs`): each step's fields back where they were."""
    rest = dict(as_dict(kept) or {})
    rest_chosen = as_list(rest.pop(CHOSEN, None)) or []
    rest_top = as_list(rest.pop(TOP, None)) if TOP in rest else None
    matched = len(rest_chosen) == len(tokens) and (rest_top is None or len(rest_top) == len(tokens))
    if not matched:
        rest_chosen, rest_top = [], None
    result: dict[str, Any] = {}
    if rest_top is not None or any(token.get("top_logprobs") for token in tokens):
        result[TOP] = [
            _top_step(token.get("top_logprobs") or (), rest_top[step] if rest_top is not None else None)
            for step, token in enumerate(tokens)
        ]
    result[CHOSEN] = [_entry(token, rest_chosen[step] if rest_chosen else None) for step, token in enumerate(tokens)]
    result.update(rest)
    _report_bytes(tokens, losses, at)
    return result


def _entry(token: Mapping[str, Any], kept: object) -> dict[str, Any]:
    return {"token": token["token"], "logProbability": token["logprob"], **(as_dict(kept) or {})}


def _top_step(alternatives: Sequence[Mapping[str, Any]], kept: object) -> dict[str, Any]:
    rest = dict(as_dict(kept) or {})
    rests = as_list(rest.pop("candidates", None)) or []
    if len(rests) != len(alternatives):
        rests = [None] * len(alternatives)
    return {"candidates": [_entry(token, rests[index]) for index, token in enumerate(alternatives)], **rest}


def _report_bytes(tokens: Sequence[Mapping[str, Any]], losses: LossRecorder, at: Steps) -> None:
    """A loss when a token's (or an alternative's) bytes are not its text's UTF-8."""
    for token in tokens:
        for item in (token, *(token.get("top_logprobs") or ())):
            data = item.get("bytes")
            if data is not None and bytes(data) != item["token"].encode("utf-8", "surrogatepass"):
                why = "Gemini's candidates carry no bytes: a token's bytes that are not its text's UTF-8 are lost"
                losses.add((*at, "logprobs"), "token bytes", why)
                return


def join_results(earlier: object, later: object) -> object:
    """A stream's ``logprobsResult`` so far with a later chunk's: each chunk's steps follow
    the ones before (its ``chosenCandidates`` and ``topCandidates`` appended), its other
    fields replace theirs; a result of another shape replaces the one before, as any
    candidate field of a later chunk does."""
    before, after = as_dict(earlier), as_dict(later)
    if before is None or after is None:
        return later
    joined = {**before, **after}
    for key in (CHOSEN, TOP):
        listed, more = as_list(before.get(key)), as_list(after.get(key))
        if listed is not None and more is not None:
            joined[key] = [*listed, *more]
    return joined
