"""The reasoning of the gateway's own model, written by a front whose API signs reasoning.

Anthropic's ``thinking`` block requires a ``signature``; a model the gateway serves itself (a
token upstream, or an inference server whose sampled ids it records) signs nothing. A
conversion of unsigned reasoning to Anthropic reports the signature it makes up, since its
reader may replay the block to Anthropic, which verifies it. The gateway's answer goes to a
harness that sends it back to the gateway, which renders the reasoning's text or passes it to
the same server, and verifies nothing: each reasoning part is given the signature the front's
API writes on reasoning no one signed (:attr:`~chatcodec.contract.Front.own_reasoning_signature`,
Anthropic's ``""``), which its writer takes as given, so no noise loss hides the real ones on
every turn. The same answer converted outside the gateway still reports it. Sent back to the
server that sampled it, the block's signature is the gateway's own mark, taken out before the
request is written (:func:`unsigned_request`): the server never had one, so nothing is lost.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from chatcodec._model.stream_records import AnyStreamRecord, ThinkingSignatureDeltaRecord, ThinkingStartRecord
from chatcodec._narrow import as_dict, as_list
from chatcodec._registry import get_edge


def own_signature(front: str) -> str | None:
    """The signature the ``front``'s API writes on reasoning no one signed (None: it writes none)."""
    offered = get_edge(front).front
    return None if offered is None else offered.own_reasoning_signature


def signed_message(message: dict[str, Any], signature: str | None) -> dict[str, Any]:
    """``message`` (canonical data) with each thinking part that has no signature given ``signature``."""
    content = as_list(message.get("content"))
    if signature is None or content is None:
        return message
    parts: list[Any] = []
    for item in content:
        part = as_dict(item)
        unsigned = part is not None and part.get("type") == "thinking" and "signature" not in part
        parts.append({**part, "signature": signature} if unsigned and part is not None else item)
    return {**message, "content": parts}


def signed_response(response: dict[str, Any], signature: str | None) -> dict[str, Any]:
    """``response`` (canonical data) with each choice's message's unsigned reasoning signed."""
    choices = as_list(response.get("choices"))
    if signature is None or choices is None:
        return response
    signed: list[Any] = []
    for item in choices:
        choice = as_dict(item)
        message = None if choice is None else as_dict(choice.get("message"))
        signed.append(
            item if choice is None or message is None else {**choice, "message": signed_message(message, signature)}
        )
    return {**response, "choices": signed}


def signed_events(event: AnyStreamRecord, signature: str) -> Iterator[AnyStreamRecord]:
    """``event``, and after a thinking part's start the ``signature`` as its first signature
    delta (a signature the upstream sends after it is written as it comes)."""
    yield event
    if type(event) is ThinkingStartRecord:
        yield ThinkingSignatureDeltaRecord(index=event.index, choice=event.choice, delta=signature)


def unsigned_request(request: dict[str, Any], signature: str | None) -> dict[str, Any]:
    """``request`` (canonical data) with the ``signature`` the front gave its own model's
    reasoning taken off each thinking part that holds exactly it (the messages copied only
    where one does)."""
    messages = as_list(request.get("messages"))
    if signature is None or messages is None:
        return request
    changed = False
    kept: list[Any] = []
    for item in messages:
        message = as_dict(item)
        content = None if message is None else as_list(message.get("content"))
        if message is None or content is None or not any(_marked(part, signature) for part in content):
            kept.append(item)
            continue
        changed = True
        parts = [_unmarked(part) if _marked(part, signature) else part for part in content]
        kept.append({**message, "content": parts})
    return {**request, "messages": kept} if changed else request


def _marked(part: Any, signature: str) -> bool:
    found = as_dict(part)
    return found is not None and found.get("type") == "thinking" and found.get("signature") == signature


def _unmarked(part: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in part.items() if key != "signature"}
