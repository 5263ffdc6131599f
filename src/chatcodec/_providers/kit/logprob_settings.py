"""The canonical log-probability settings and a choice's tokens, read, written or reported (kit module).

``logprobs`` (return each generated token's log probability) and ``top_logprobs`` (how
many of the likeliest tokens to return beside it) are top-level request fields of the
same names in OpenAI Chat ("logprobs: boolean ... top_logprobs: integer between 0 and 20",
API reference) and Ollama's ``/api/chat`` ("logprobs", "top_logprobs": ollama
``docs/api.md``); Responses has ``top_logprobs`` and asks for the log probabilities by an
``include`` entry, Gemini by ``generationConfig.responseLogprobs`` and ``logprobs``, each in
its own folder. A format with neither reports them, except ``logprobs: false`` and
``top_logprobs: 0``, which ask for nothing (:data:`NOTHING_ASKED`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._losses import LossRecorder, Steps

LOGPROB_SETTINGS = ("logprobs", "top_logprobs")
"""The canonical fields, each spelled the same where a format has it at the top level."""

NOTHING_ASKED: Mapping[str, object] = {"logprobs": False, "top_logprobs": 0}
"""The values that ask for no log probabilities: no loss where a format has no field."""


def read_logprob_settings(wire: Mapping[str, Any], canonical: dict[str, Any]) -> list[str]:
    """The settings ``wire`` holds under the canonical names into ``canonical`` (a boolean
    ``logprobs``, a whole ``top_logprobs`` of 0 or more; another value stays where it is);
    returns the keys read."""
    read: list[str] = []
    logprobs = wire.get("logprobs")
    if type(logprobs) is bool:
        canonical["logprobs"] = logprobs
        read.append("logprobs")
    top = wire.get("top_logprobs")
    if type(top) is int and top >= 0:
        canonical["top_logprobs"] = top
        read.append("top_logprobs")
    return read


def write_logprob_settings(request: Mapping[str, Any], wire: dict[str, Any]) -> None:
    """The canonical settings into ``wire`` under the same names."""
    for key in LOGPROB_SETTINGS:
        value = request.get(key)
        if value is not None:
            wire[key] = value


def report_logprob_settings(request: Mapping[str, Any], losses: LossRecorder, target: str) -> None:
    """A loss for each setting that asks for log probabilities of a format with none."""
    if _LOGPROB_KEYS.isdisjoint(request):  # most requests: one look in C
        return
    for key in LOGPROB_SETTINGS:
        value = request.get(key)
        if value is not None and not (type(value) is type(NOTHING_ASKED[key]) and value == NOTHING_ASKED[key]):
            losses.add((key,), key, f"{target} returns no log probabilities", "setting")


_LOGPROB_KEYS = frozenset(LOGPROB_SETTINGS)


LOGPROBS_WHY = "{target} answers carry no token log probabilities"


def report_choice_logprobs(response: Mapping[str, Any], losses: LossRecorder, target: str) -> None:
    """A loss for each choice of canonical response data whose ``logprobs`` a format with
    no place for them leaves out (its writer never reads the field)."""
    for index, choice in enumerate(response.get("choices") or ()):
        if choice.get("logprobs"):
            losses.add(("choices", index, "logprobs"), "token log probabilities", LOGPROBS_WHY.format(target=target))


def report_finish_logprobs(logprobs: object, losses: LossRecorder, at: Steps, target: str) -> None:
    """The same for a stream's finish event (``at`` is the event's place)."""
    if logprobs:
        losses.add((*at, "logprobs"), "token log probabilities", LOGPROBS_WHY.format(target=target))
