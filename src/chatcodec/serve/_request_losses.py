"""The losses of a request on its way upstream, and the operator's policy for them.

Two questions the server used to answer with one flag (``--strict``) are apart:

- **is the request well formed?** ``--validate`` reads it as its provider would (an
  unknown field, a value out of range, an orphan tool result: a 400), and passes what the
  official SDKs send (:attr:`~chatcodec.serve.ServeConfig.validate`);
- **may it reach the upstream changed?** ``--on-loss report`` sends it and reports the
  losses; ``--on-loss error`` refuses it, listing them, unless every loss is of a kind in
  ``--allow-loss`` (:attr:`~chatcodec.serve.ServeConfig.loss_policy`).

A well-formed request may lose nothing and still be refused by the policy, and a request
whose every loss is allowed passes unvalidated: so a Gemini stream, Claude Code's
``cache_control`` or a google-genai tool loop's thought signatures are not refused for
being well formed.

The stream flag is carried by each upstream's edge (``Upstream.body`` puts it in the body,
or ``Upstream.url`` picks Gemini's ``streamGenerateContent`` and Bedrock's
``converse-stream``), so a writer's note that its body has no ``stream`` field is no loss
of the server's: the upstream streams all the same.
"""

from __future__ import annotations

from collections.abc import Mapping

from chatcodec._losses import Loss, LossAction, LossError, LossRecorder, loss_action
from chatcodec.serve._refusal import RefusalError

__all__ = ["LossRefusalError", "refuse_unless_allowed", "settled"]

_STREAM_FLAG = "$.stream"


class LossRefusalError(RefusalError):
    """A request refused by ``--on-loss error``, with all its losses (for the
    ``chatcodec-losses`` header and the log line, as an answer sent would have them)."""

    def __init__(self, losses: list[Loss], refused: list[Loss], upstream: str) -> None:
        super().__init__(400, f"--on-loss error: the request cannot be sent to {upstream} whole: {LossError(refused)}")
        self.losses = losses


def settled(recorder: LossRecorder, policy: Mapping[str, LossAction], upstream: str) -> list[Loss]:
    """The request's losses (the stream flag's left out), or a 400 listing those
    ``policy`` refuses."""
    found: list[Loss] = []
    recorder.settle("ignore", found)
    losses = [loss for loss in found if loss.path != _STREAM_FLAG]
    refuse_unless_allowed(losses, policy, upstream)
    return losses


def refuse_unless_allowed(losses: list[Loss], policy: Mapping[str, LossAction], upstream: str) -> None:
    """A 400 listing the ``losses`` that ``policy`` refuses, if any: the writer's, and those
    of the request before it was read (a seal this server did not write, left out)."""
    refused = [loss for loss in losses if loss_action(policy, loss.kind) == "error"]
    if refused:
        raise LossRefusalError(losses, refused, upstream)
