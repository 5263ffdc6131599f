"""Losses named at their place in the conversation the caller gave, not in canonical messages.

A render or a template row reads its input as a canonical request first, whose numbering is
not the input's (Anthropic's top-level ``system`` is canonical message 0; an OpenAI tool
message is one result of a grouped message). The source codec says where each canonical
message came from (``ProviderCodec.message_origins``, the contract every codec can fill in);
the loss recorder asks for that only when a loss is rendered, as a conversion's losses do.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, cast

from chatcodec import ChatRequest, get_codec
from chatcodec.contract import LossRecorder, ProviderCodec, Steps


def trace_to_source(recorder: LossRecorder, payload: object, source: str, request: ChatRequest) -> None:
    """Have ``recorder`` name losses at their place in ``payload`` (read by ``source``), where
    the source's codec tells origins and the payload is JSON data; else leave them canonical."""
    place = source_place(
        payload, source, lambda: [message.model_dump(mode="json", by_alias=True) for message in request.messages]
    )
    if place is not None:
        recorder.trace(place)


def source_place(
    payload: object, source: str, messages: Callable[[], list[dict[str, Any]]]
) -> Callable[[Steps], Steps] | None:
    """A canonical path's place in ``payload`` (read by ``source`` into ``messages``, asked for
    only when a path is placed), or None where the source's codec tells no origins."""
    codec = get_codec(source)
    if not isinstance(codec, ProviderCodec) or not isinstance(payload, Mapping):
        return None
    fields = cast("Mapping[str, Any]", payload)

    @cache
    def origins() -> list[Any]:
        return codec.message_origins(fields, messages())

    return _placed(origins)


def _placed(origins: Callable[[], list[Any]]) -> Callable[[Steps], Steps]:
    def place(path: Steps) -> Steps:
        if len(path) < 2 or path[0] != "messages" or not isinstance(path[1], int):
            return path
        found = origins()
        if not 0 <= path[1] < len(found):
            return path
        placed: Steps = found[path[1]].place(path[2:])
        return placed

    return place
