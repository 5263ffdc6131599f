"""A request's history as a target format can hold it: one place for the turn-level rules
that several encoders share, each format saying which of them it needs.

- ``freeform_calls=False``: a tool call kept whole from another format (an OpenAI Chat custom
  call) cannot be sent, so it goes with its results (:mod:`.unsent_calls`; a result without
  its call is a 400 everywhere);
- ``results_follow_calls=True``: a message between a call and its results moves after the
  results (:mod:`.result_order`);
- ``developer_role=False``: a ``developer`` message is sent as ``system``, reported
  (:mod:`.roles`).

Each rewrite is reported as a loss, and loss paths after a move count messages in the order
that is sent.
"""

from __future__ import annotations

from chatcodec.losses import LossRecorder
from chatcodec.providers.result_order import with_results_after_calls
from chatcodec.providers.roles import report_developer_roles
from chatcodec.providers.unsent_calls import without_unsent_calls
from chatcodec.request import ChatRequest


def history_for(
    request: ChatRequest,
    losses: LossRecorder,
    provider: str,
    name: str,
    *,
    freeform_calls: bool,
    results_follow_calls: bool,
    developer_role: bool,
) -> ChatRequest:
    """``request`` with its messages as ``provider`` (called ``name`` in loss texts) takes them."""
    if not freeform_calls:
        request = without_unsent_calls(request, losses, provider, name)
    if results_follow_calls:
        request = with_results_after_calls(request, losses, name)
    if not developer_role:
        report_developer_roles(request.messages, losses, name)
    return request
