"""MCP sampling's law facts (the params of a ``sampling/createMessage`` request and the
``CreateMessageResult`` a client answers with, spec 2025-11-25): its ``stopReason`` words, what
a request reads back as when nothing is lost, and what a result has no place for (an id, a
clock, token counts). The spec's examples (``tests/fixtures/mcp-sampling/``) and the MCP SDK's
types as the oracle of every written body are stated by ``tests/test_mcp_sampling_laws.py``,
which passes them to :func:`entry` (the SDK is a test dependency, never chatcodec's)."""

from __future__ import annotations

import copy
from typing import Any

import chatcodec
from chatcodec._frameworks.mcp_sampling.finish_reason import WORDS
from chatcodec._frameworks.mcp_sampling.markers import PROVIDER
from chatcodec._providers.kit.logprob_settings import NOTHING_ASKED
from chatcodec.testing._answers import chat_responses
from chatcodec.testing._laws.entry import ProviderEntry, SingleHop
from chatcodec.testing._strategies import chat_requests


def check_stream(events: list[dict[str, Any]]) -> None:
    raise AssertionError(f"MCP sampling has no streams, yet {len(events)} events were checked")


def with_finish_reason(body: dict[str, Any], word: str) -> dict[str, Any]:
    changed = copy.deepcopy(body)
    changed["stopReason"] = word
    return changed


def _parts(content: Any) -> Any:
    return [{"type": "text", "text": content}] if isinstance(content, str) else content


def reading(request: chatcodec.ChatRequest) -> object:
    """What a request reads back as when nothing is lost: every turn's content a list of
    parts (a text is one text block), the system turns one text, and no setting that asks for
    nothing (``stream: false``: sampling answers whole; ``logprobs: false``, ``top_logprobs: 0``:
    the kit leaves them out unreported, ``NOTHING_ASKED``)."""
    data: dict[str, Any] = request.model_dump(mode="json", exclude_none=True)
    for key, nothing in (("stream", False), *NOTHING_ASKED.items()):
        if key in data and type(data[key]) is type(nothing) and data[key] == nothing:
            del data[key]
    for message in data.get("messages", []):
        if message["role"] in ("system", "developer"):  # a developer turn sent as system is reported
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


def entry(**stated: Any) -> ProviderEntry:
    """The facts the codec's spec gives, for ``chatcodec check-codec mcp-sampling``; ``stated``
    adds the test suite's (``fixtures``, ``check_request``, ``check_response``). The finish
    words are checked on a recorded result, so only with the recordings (the installed package
    ships none)."""
    stated.setdefault("check_stream", check_stream)
    recorded = "fixtures" in stated
    return ProviderEntry.minimal(
        PROVIDER,
        names_in_prose=("mcp", "model context protocol"),
        finish_reasons=WORDS if recorded else {},
        with_finish_reason=with_finish_reason,
        finish_reason_fixture="spec_text_end_turn.json" if recorded else "",
        streams=None,
        shaped_responses=lambda: chat_responses(finished=True),
        single_hop=SingleHop(requests=lambda: chat_requests(bags=False), original=reading, decoded=reading),
        tool_name_rule=None,
        deep_kept_value=_no_deep_value,
        unplaced_response_fields=("id", "created", "usage"),
        **stated,
    )
