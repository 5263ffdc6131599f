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

__all__ = ["settled"]

_STREAM_FLAG = "$.stream"


def settled(recorder: LossRecorder, policy: Mapping[str, LossAction], upstream: str) -> list[Loss]:
    """The request's losses (the stream flag's left out), or a 400 listing those
    ``policy`` refuses."""
    found: list[Loss] = []
    recorder.settle("ignore", found)
    losses = [loss for loss in found if loss.path != _STREAM_FLAG]
    refused = [loss for loss in losses if loss_action(policy, loss.kind) == "error"]
    if refused:
        error = LossError(refused)
        raise RefusalError(400, f"--on-loss error: the request cannot be sent to {upstream} whole: {error}")
    return losses
