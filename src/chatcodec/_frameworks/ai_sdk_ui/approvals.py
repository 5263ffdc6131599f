"""A tool part's ``approval`` (the AI SDK 6 approval flow) <-> the ``ModelMessage`` parts
``convertToModelMessages`` makes of it.

A tool that needs approval puts ``approval: {id}`` on its part (``approval-requested``); the
user's answer adds ``approved`` and an optional ``reason`` (``approval-responded``); a denied
call ends ``output-denied``. ``convertToModelMessages`` sends the approval as a
``tool-approval-request`` after the call in the assistant turn and, once answered, a
``tool-approval-response`` in the tool message, before the call's result. Both forms read it
as those parts (the request an opaque ``ai-sdk-model`` part after the call, the response in
the tool message's ``ai-sdk-model`` bag with its place, as :mod:`..ai_sdk_model.messages`
keeps it), so each form writes what the other read and any other format reports it. What of
``approval`` has no place there (``descriptor``) stays in the call's bag.

A denied call is answered: a provider refuses a turn after a call with no result, so the
denial is an error result whose text is the approval's reason, else :data:`DENIED_TEXT`, as
``convertToModelMessages`` answers it (and pydantic-ai's Vercel adapter, with its own text).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec.codec_kit import as_dict, as_list
from chatcodec.contract import LossRecorder, Steps

DENIED_TEXT = "Tool call execution denied."
"""The text ``convertToModelMessages`` (the ``ai`` package, 6.0.325) gives the error result of
a call denied with no reason."""

MODEL = "ai-sdk-model"
"""The form whose parts an approval reads as."""
REQUEST = "tool-approval-request"
RESPONSE = "tool-approval-response"
_REQUESTED = ("signature", "inputSchemaInput")
"""The fields of an ``approval`` a ``tool-approval-request`` carries beside its id."""


def _requested(approval: Mapping[str, Any]) -> dict[str, Any]:
    """The fields of ``approval`` its request carries, as ``convertToModelMessages`` copies
    them: a ``signature`` that is set, an ``inputSchemaInput`` that is there at all."""
    carried = {"signature": approval["signature"]} if approval.get("signature") is not None else {}
    if "inputSchemaInput" in approval:
        carried["inputSchemaInput"] = approval["inputSchemaInput"]
    return carried


_ANSWERS: Mapping[str, tuple[object, ...]] = {
    "approval-requested": (None,),
    "approval-responded": (True, False),
    "output-available": (True,),
    "output-error": (True,),
    "output-denied": (False,),
}
"""The ``approved`` an approval has in each state that holds one (AI SDK 6's
``UIToolInvocation``; None: not answered yet)."""


def approval_of(part: Mapping[str, Any]) -> dict[str, Any] | None:
    """A tool part's ``approval`` when it is one the AI SDK takes (an object with a string
    ``id``, answered as its state says), so the writer finds the state again from the approval
    parts; None otherwise (kept whole in the call's bag)."""
    approval = as_dict(part.get("approval"))
    if approval is None or not isinstance(approval.get("id"), str):
        return None
    approved = approval.get("approved")  # by identity: 1 is no True
    return approval if any(approved is answer for answer in _ANSWERS.get(str(part.get("state")), ())) else None


def request_part(part: Mapping[str, Any], approval: Mapping[str, Any]) -> dict[str, Any]:
    """The opaque ``tool-approval-request`` part read after a tool part's call."""
    request: dict[str, Any] = {"type": REQUEST, "approvalId": approval["id"], "toolCallId": part["toolCallId"]}
    request.update(_requested(approval))
    return {"type": "opaque", "provider": MODEL, "data": request}


def response_part(part: Mapping[str, Any], approval: Mapping[str, Any]) -> dict[str, Any] | None:
    """The ``tool-approval-response`` of an answered approval (``approved`` a boolean), for
    the tool message after the call; None when the approval is not answered."""
    if not isinstance(approval.get("approved"), bool):
        return None
    response: dict[str, Any] = {"type": RESPONSE, "approvalId": approval["id"], "approved": approval["approved"]}
    if approval.get("reason") is not None:
        response["reason"] = approval["reason"]
    if part.get("providerExecuted") is not None:
        response["providerExecuted"] = part["providerExecuted"]
    return response


def read(part: Mapping[str, Any]) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """A tool part's approval as the request part read after its call and the response for
    the tool message after the turn; (None, None) for a part with no approval to send."""
    approval = approval_of(part)
    if approval is None:
        return None, None
    return request_part(part, approval), response_part(part, approval)


def without_sent(part: Mapping[str, Any]) -> Mapping[str, Any]:
    """``part`` with what its approval parts carry taken out of its ``approval`` (the rest of
    it, if any, left for the call's bag)."""
    approval = approval_of(part)
    if approval is None:
        return part
    rest = unread(approval)
    return {key: rest if key == "approval" else value for key, value in part.items() if key != "approval" or rest}


def unread(approval: Mapping[str, Any]) -> dict[str, Any]:
    """What of ``approval`` neither approval part carries (kept in the call's bag)."""
    answered = isinstance(approval.get("approved"), bool)
    sent = {"id", *_requested(approval)}
    if answered:
        sent |= {"approved", *(("reason",) if approval.get("reason") is not None else ())}
    return {key: value for key, value in approval.items() if key not in sent}


def denial_text(part: Mapping[str, Any]) -> str:
    """The error text answering a denied tool part: its approval's reason, else the AI SDK's."""
    reason = (as_dict(part.get("approval")) or {}).get("reason")
    return reason if isinstance(reason, str) else DENIED_TEXT


def is_request(part: Mapping[str, Any]) -> bool:
    """Whether a canonical part is a ``tool-approval-request`` (as either form reads it)."""
    data = part.get("data")
    return part["type"] == "opaque" and part.get("provider") == MODEL and (as_dict(data) or {}).get("type") == REQUEST


def take_responses(metadata: Mapping[str, Any] | None) -> tuple[Mapping[str, Any] | None, list[Any]]:
    """A tool message's approval responses (the ``ai-sdk-model`` bag's ``approvals``: its
    non-result parts with their places), and ``metadata`` without them."""
    bag = as_dict(metadata.get(MODEL)) if metadata else None
    if metadata is None or bag is None or "approvals" not in bag:
        return metadata, []
    rest = {key: value for key, value in bag.items() if key != "approvals"}
    trimmed = {name: value for name, value in metadata.items() if name != MODEL}
    if rest:
        trimmed[MODEL] = rest
    responses: list[Any] = []
    for entry in as_list(bag["approvals"]) or []:
        place = as_list(entry)
        responses.append(place[1] if place is not None and len(place) == 2 else entry)
    return trimmed or None, responses


class Approvals:
    """The approvals a ``UIMessage`` writer folds into the tool parts it wrote, by id."""

    def __init__(self, losses: LossRecorder) -> None:
        self.losses = losses
        self.tools: dict[str, dict[str, Any]] = {}

    def request(self, request: Mapping[str, Any], calls: Mapping[str, dict[str, Any]], at: Steps) -> None:
        """Fold a ``tool-approval-request`` into its call's tool part (``approval-requested``)."""
        call_id, approval_id = request.get("toolCallId"), request.get("approvalId")
        tool = calls.get(call_id) if isinstance(call_id, str) else None
        if tool is None or not isinstance(approval_id, str):
            why = "a UIMessage keeps an approval on its call's part, and this one's call is not before it"
            self.losses.add(at, "tool approval request", why)
            return
        for key in request:
            if key not in ("type", "approvalId", "toolCallId", *_REQUESTED):
                self.losses.add((*at, key), key, "a UI tool part's approval has no such field")
        approval = {"id": approval_id, **(as_dict(tool.get("approval")) or {})}
        approval.update((key, request[key]) for key in _REQUESTED if key in request)
        tool["approval"] = approval
        if tool["state"] == "input-available":
            tool["state"] = "approval-requested"
        self.tools[approval_id] = tool

    def respond(self, response: object, at: Steps) -> None:
        """Fold a ``tool-approval-response`` into the tool part it answers (``approval-responded``)."""
        entry = as_dict(response) or {}
        approval_id = entry.get("approvalId")
        tool = self.tools.get(approval_id) if isinstance(approval_id, str) else None
        if entry.get("type") != RESPONSE or tool is None or not isinstance(entry.get("approved"), bool):
            what = f"tool message part {entry.get('type')!r}"
            self.losses.add(at, what, "a UIMessage keeps an approval's answer on its call's part, not found here")
            return
        tool["approval"].update(approved=entry["approved"])
        if "reason" in entry:
            tool["approval"]["reason"] = entry["reason"]
        for key in entry:
            if key not in ("type", "approvalId", "approved", "reason", "providerExecuted"):
                self.losses.add((*at, key), key, "a UI tool part's approval has no such field")
        if entry.get("providerExecuted", tool.get("providerExecuted")) != tool.get("providerExecuted"):
            why = "a UI tool part says once whether the provider ran it"
            self.losses.add((*at, "providerExecuted"), "providerExecuted", why)
        if tool["state"] == "approval-requested":
            tool["state"] = "approval-responded"
