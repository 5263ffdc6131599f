"""The facts the provider laws need about this codec, only the spec gives them: the
``chatcodec.laws`` entry point names :func:`entry`, so ``chatcodec check-codec
mcp-sampling`` runs every law over the installed codec with the fixtures of the spec's
examples (``fixtures/``, provenance in its ``MANIFEST.md``), the SDK's types as the oracle
of every body the codec writes, the ``stopReason`` words, and the settings the wire has.
Needs the ``testing`` extra (Hypothesis, mcp-types).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import chatcodec
from chatcodec.codec_kit import as_dict, as_list
from chatcodec.testing import ProviderEntry, SingleHop, chat_requests, chat_responses
from chatcodec_mcp_sampling.finish_reason import WORDS
from chatcodec_mcp_sampling.markers import PROVIDER

FIXTURES = Path(__file__).parent / "fixtures"


def _same_as_sdk(kind: Any, body: dict[str, Any]) -> None:
    """``body`` passes the SDK's type and names no field the type does not have (the SDK's
    models ignore unknown keys, so what they dump back is compared with the body)."""
    model = kind.model_validate(body)
    back = model.model_dump(mode="json", by_alias=True, exclude_unset=True)
    assert back == body, f"the SDK's {kind.__name__} reads {back}, not {body}"


def check_request(body: dict[str, Any]) -> None:
    from mcp_types import CreateMessageRequestParams

    _same_as_sdk(CreateMessageRequestParams, body)


def check_response(body: dict[str, Any]) -> None:
    from mcp_types import CreateMessageResultWithTools

    _same_as_sdk(CreateMessageResultWithTools, body)


def check_stream(events: list[dict[str, Any]]) -> None:
    raise AssertionError(f"MCP sampling has no streams, yet {len(events)} events were checked")


def with_finish_reason(body: dict[str, Any], word: str) -> dict[str, Any]:
    changed = copy.deepcopy(body)
    changed["stopReason"] = word
    return changed


def _scrubbed(value: object) -> object:
    """A generated value without any codec's bags or opaque parts: only a decoder writes them."""
    items = as_list(value)
    if items is not None:
        return [_scrubbed(item) for item in items if (as_dict(item) or {}).get("type") != "opaque"]
    fields = as_dict(value)
    if fields is not None:
        return {
            key: _scrubbed(item) for key, item in fields.items() if key not in ("provider_metadata", "provider_options")
        }
    return value


def _plain(request: chatcodec.ChatRequest) -> chatcodec.ChatRequest:
    return chatcodec.ChatRequest.model_validate(_scrubbed(request.model_dump(mode="json")))


def _parts(content: Any) -> Any:
    return [{"type": "text", "text": content}] if isinstance(content, str) else content


def reading(request: chatcodec.ChatRequest) -> object:
    """What a request reads back as when nothing is lost: every turn's content a list of
    parts (a text is one text block), the system turns one text."""
    data: dict[str, Any] = request.model_dump(mode="json", exclude_none=True)
    for message in data.get("messages", []):
        if message["role"] in ("system", "developer"):
            message["role"] = "system"
            content = message["content"]
            message["content"] = content if isinstance(content, str) else "".join(p.get("text", "") for p in content)
        else:
            message["content"] = _parts(message["content"])
            for part in message["content"]:
                if part.get("type") == "tool_result":
                    part["content"] = _parts(part.get("content", []))
    return data


def _no_deep_value(events: list[dict[str, Any]], value: object) -> tuple[list[dict[str, Any]], int]:
    raise AssertionError("MCP sampling has no streams")


def entry() -> ProviderEntry:
    """The entry, built on first use (the strategies need Hypothesis)."""
    return ProviderEntry.minimal(
        PROVIDER,
        names_in_prose=("mcp", "model context protocol"),
        finish_reasons=WORDS,
        with_finish_reason=with_finish_reason,
        finish_reason_fixture="spec_text_end_turn.json",
        streams=None,
        shaped_responses=lambda: chat_responses(finished=True),
        single_hop=SingleHop(requests=lambda: chat_requests().map(_plain), original=reading, decoded=reading),
        tool_name_rule=None,
        deep_kept_value=_no_deep_value,
        check_request=check_request,
        check_response=check_response,
        check_stream=check_stream,
        unplaced_response_fields=("id", "created", "usage"),
        fixtures=FIXTURES,
    )
