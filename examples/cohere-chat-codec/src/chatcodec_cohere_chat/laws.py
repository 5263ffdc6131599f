"""The facts the provider laws need about this codec, only the API reference gives them: the
``chatcodec.laws`` entry point names :func:`entry`, so ``chatcodec check-codec cohere-chat``
runs every law over the installed codec with the fixtures of the documentation's examples
(``fixtures/``, provenance in its ``MANIFEST.md``), the SDK's v2 types as the oracle of every
body the codec writes, and the ``finish_reason`` words. Needs the ``testing`` extra
(Hypothesis, cohere).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import chatcodec
from chatcodec.codec_kit import as_list
from chatcodec.testing import ProviderEntry, SingleHop, chat_requests, chat_responses
from chatcodec_cohere_chat.finish_reason import WORDS
from chatcodec_cohere_chat.markers import PROVIDER
from chatcodec_cohere_chat.settings import SETTINGS

FIXTURES = Path(__file__).parent / "fixtures"

_REQUEST_KEYS = frozenset({"model", "messages", "stream", *SETTINGS})
"""The body's keys the SDK's ``chat`` takes as arguments, beyond those its types check below."""


def _no_extra(model: object, at: str) -> None:
    """``model`` (the SDK's types allow extra keys) holds none, nested models neither."""
    from pydantic import BaseModel

    if not isinstance(model, BaseModel):
        return
    extra = model.model_extra or {}
    assert not extra, f"the SDK's {type(model).__name__} at {at} has no field {sorted(extra)}"
    for name in type(model).model_fields:
        value: object = getattr(model, name)
        items: list[object] = as_list(value) or [value]
        for index, item in enumerate(items):
            _no_extra(item, f"{at}.{name}[{index}]")


def _same_as_sdk(kind: Any, body: object, at: str) -> None:
    from pydantic import TypeAdapter

    adapter: TypeAdapter[Any] = TypeAdapter(kind)
    model = adapter.validate_python(body)
    back = adapter.dump_python(model, mode="json", by_alias=True, exclude_unset=True)
    assert back == body, f"the SDK's {kind} reads {back}, not {body}"
    _no_extra(model, at)


def check_request(body: dict[str, Any]) -> None:
    """Each message passes the SDK's ``ChatMessageV2``, each tool its ``ToolV2``, and every
    other key is an argument of its ``v2.chat`` (``RawV2Client.chat``), of the type it takes."""
    import inspect

    from cohere import ChatMessageV2, CitationOptions, Document, Thinking, ToolV2
    from cohere.v2.raw_client import RawV2Client

    arguments = set(inspect.signature(RawV2Client.chat).parameters) - {"self", "request_options"}
    unknown = set(body) - arguments - {"stream"}
    assert not unknown, f"v2.chat takes no {sorted(unknown)}"
    assert isinstance(body["model"], str)
    for index, message in enumerate(body["messages"]):
        _same_as_sdk(ChatMessageV2, message, f"messages[{index}]")
    for index, tool in enumerate(body.get("tools", [])):
        _same_as_sdk(ToolV2, tool, f"tools[{index}]")
    for index, document in enumerate(body.get("documents", [])):
        if not isinstance(document, str):
            _same_as_sdk(Document, document, f"documents[{index}]")
    for key, kind in (("thinking", Thinking), ("citation_options", CitationOptions)):
        if key in body:
            _same_as_sdk(kind, body[key], key)
    assert body.get("tool_choice", "NONE") in ("REQUIRED", "NONE")
    assert set(body) - _REQUEST_KEYS <= arguments


def check_response(body: dict[str, Any]) -> None:
    from cohere import V2ChatResponse

    _same_as_sdk(V2ChatResponse, body, "response")


def check_stream(events: list[dict[str, Any]]) -> None:
    raise AssertionError(f"this codec reads no Cohere streams, yet {len(events)} events were checked")


def with_finish_reason(body: dict[str, Any], word: str) -> dict[str, Any]:
    changed = copy.deepcopy(body)
    changed["finish_reason"] = word
    return changed


def reading(request: chatcodec.ChatRequest) -> object:
    """What a request reads back as when nothing is lost: an ``auto`` tool choice is no choice
    (the model chooses), and a tool message of several results is one message per result (a
    developer turn sent as a system turn is reported, so it is no silent rewrite)."""
    data: dict[str, Any] = request.model_dump(mode="json", exclude_none=True)
    if data.get("tool_choice") == {"type": "auto"}:
        del data["tool_choice"]
    messages: list[dict[str, Any]] = []
    for message in data.get("messages", []):
        if message["role"] == "tool" and isinstance(message["content"], list):
            messages.extend({**message, "content": [part]} for part in message["content"])
            continue
        messages.append(message)
    if "messages" in data:
        data["messages"] = messages
    return data


def _no_deep_value(events: list[dict[str, Any]], value: object) -> tuple[list[dict[str, Any]], int]:
    raise AssertionError("this codec reads no streams")


def entry() -> ProviderEntry:
    """The entry, built on first use (the strategies need Hypothesis)."""
    return ProviderEntry.minimal(
        PROVIDER,
        names_in_prose=("cohere",),
        finish_reasons=WORDS,
        with_finish_reason=with_finish_reason,
        finish_reason_fixture="docs_basic_response.json",
        streams=None,
        shaped_responses=lambda: chat_responses(finished=True),
        single_hop=SingleHop(requests=lambda: chat_requests(bags=False), original=reading, decoded=reading),
        tool_name_rule=None,
        deep_kept_value=_no_deep_value,
        check_request=check_request,
        check_response=check_response,
        check_stream=check_stream,
        unplaced_response_fields=("created", "model"),
        fixtures=FIXTURES,
    )
