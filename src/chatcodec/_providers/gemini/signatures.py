"""The thought-signature rule of Gemini 3 function calling.

Google's "Thought signatures" guide (ai.google.dev/gemini-api/docs/thought-signatures):
in the *current turn* (everything after the last user prompt that is not only function
responses), the first ``functionCall`` part of every model step must carry the
``thoughtSignature`` the model returned with it, or Gemini 3 models answer 400 "Function
call is missing a thought_signature in functionCall parts". A history that passed
through another format has no signature to send. Google documents one way out: the
sentinel value ``"skip_thought_signature_validator"``, which skips the check (at some
cost in reasoning quality).

The encoder never invents a signature. ``provider_options["gemini"]["missing_signature"]``
chooses what happens to an unsigned first call:

* ``"report"`` (the default): sent as it is, and reported as a loss (the request will
  fail on Gemini 3 models);
* ``"skip"``: the documented sentinel is written, and nothing is reported.

Models known not to validate (``gemini-1.x``, ``gemini-2.x``) are left alone.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Literal

from chatcodec._providers.gemini.markers import SKIP_SENTINEL
from chatcodec.contract import LossRecorder, Steps

if TYPE_CHECKING:  # messages.py applies the rule to the turns it builds
    from chatcodec._providers.gemini.messages import WireTurn

MissingSignature = Literal["report", "skip"]
"""What the encoder does with an unsigned first call (see the module docstring)."""

_NOT_VALIDATING = re.compile(r"(^|/)gemini-[12](\.|-)")


def missing_signature_policy(value: object) -> MissingSignature:
    """The policy for an option value (anything but ``"skip"`` is ``"report"``)."""
    return "skip" if value == "skip" else "report"


def needs_signatures(model: str | None) -> bool:
    """Whether ``model`` may validate signatures (unknown models are assumed to)."""
    return model is None or _NOT_VALIDATING.search(model) is None


def apply_signature_rule(
    turns: list[WireTurn], policy: MissingSignature, losses: LossRecorder, exempt: list[dict[str, Any]]
) -> None:
    """Sign (with the sentinel) or report each unsigned first call of the current turn;
    calls in ``exempt`` (sent by Gemini itself without one) are left as they came."""
    for turn in turns[_current_turn_start(turns) :]:
        if turn.role != "model" or turn.first_call is None:
            continue
        part, position = turn.first_call
        if "thoughtSignature" in part or any(part is call for call in exempt):
            continue
        sign_or_report(part, ("messages", turn.message, "content", position), policy, losses)


def sign_or_report(part: dict[str, Any], at: Steps, policy: MissingSignature, losses: LossRecorder) -> None:
    """The rule for one unsigned first call of a step in the current turn: the sentinel,
    or a loss."""
    if policy == "skip":
        part["thoughtSignature"] = SKIP_SENTINEL
    else:
        losses.add(
            at,
            "thought signature",
            "the first function call of a Gemini 3 step needs one and none is known; "
            'set provider_options["gemini"]["missing_signature"] = "skip" to send the documented sentinel',
        )


def _current_turn_start(turns: list[WireTurn]) -> int:
    """Index of the last user prompt (a user turn with anything but function responses)."""
    for index in range(len(turns) - 1, -1, -1):
        turn = turns[index]
        if turn.role == "user" and any("functionResponse" not in part for part in turn.parts):
            return index
    return 0
