"""Wire keys starting with ``_`` are user data, never markers.

Bags once used every ``_``-prefixed key as a marker, so an unknown wire key such as
``_trace`` was dropped silently at every level. The kit now keeps a wire key that starts
with ``_`` escaped (one more ``_``); markers are exactly the keys with one leading ``_``.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec._losses import LossRecorder
from chatcodec._providers.anthropic.markers import KIT as ANTHROPIC_KIT
from chatcodec._providers.kit.bags import (
    bag_key,
    is_marker,
    leftovers,
    restore_fields,
    split_fields,
    wire_fields,
    wire_key,
)

FIXTURES = Path(__file__).resolve().parent / "fixtures"
PROVIDERS = ["openai-chat", "anthropic", "gemini"]


def _load(provider: str, kind: str) -> list[tuple[str, Any]]:
    return [
        (path.name, json.loads(path.read_text(encoding="utf-8")))
        for path in sorted((FIXTURES / provider / kind).glob("*.json"))
    ]


def _with_underscored_keys(payload: Any) -> Any:
    """A copy with ``_robust`` and ``__deeper`` added to every object in the payload."""
    value = copy.deepcopy(payload)
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.values())
            node["_robust"] = "kept"
            node["__deeper"] = [1, {"_inner": None}]
        elif isinstance(node, list):
            stack.extend(node)
    return value


def _decodes(provider: str, kind: str, payload: Any) -> bool:
    try:
        (chatcodec.decode_request if kind == "request" else chatcodec.decode_response)(provider, payload)
    except chatcodec.ChatcodecError:
        return False
    return True


def _cases(kind: str) -> list[Any]:
    return [
        pytest.param(provider, payload, id=f"{provider}/{name}")
        for provider in PROVIDERS
        for name, payload in _load(provider, kind)
        if _decodes(provider, kind, payload)
    ]


def test_the_marker_rule() -> None:
    assert [is_marker(key) for key in ("_nulls", "__trace", "trace", "_", "__")] == [True, False, False, True, False]
    for key in ("_trace", "__trace", "trace", "_", ""):
        assert not is_marker(bag_key(key))
        assert wire_key(bag_key(key)) == key


def test_the_kit_keeps_underscored_wire_keys_and_restores_them() -> None:
    wire = {"role": "user", "_trace": 1, "__double": 2, "plain": None}
    bag = split_fields(wire, ("role",))
    assert bag == {"__trace": 1, "___double": 2, "_nulls": ["plain"]}
    assert restore_fields(bag) == {"_trace": 1, "__double": 2, "plain": None}
    assert wire_fields(bag) == {"_trace": 1, "__double": 2}
    assert leftovers(wire, ("role", "plain")) == {"__trace": 1, "___double": 2}


def test_another_provider_reports_underscored_wire_keys_by_their_wire_name() -> None:
    """Through Anthropic's own kit: a new ``ProviderKit("anthropic")`` would take the real
    one's place in the kit table for every later test (``test_markers`` then failed)."""
    losses = LossRecorder()
    ANTHROPIC_KIT.report_foreign(losses, {"openai-chat": {"__trace": 1, "_nulls": ["x"]}}, ("messages", 0))
    (loss,) = losses.losses
    assert "['_trace']" in loss.what


@pytest.mark.parametrize(("provider", "payload"), _cases("request"))
def test_underscored_keys_at_every_level_of_a_request_round_trip(provider: str, payload: Any) -> None:
    mutated = _with_underscored_keys(payload)
    losses: list[chatcodec.Loss] = []
    decoded = chatcodec.decode_request(provider, mutated)
    assert chatcodec.encode_request(provider, decoded, on_loss="ignore", losses=losses) == mutated
    assert losses == []


@pytest.mark.parametrize(("provider", "payload"), _cases("response"))
def test_underscored_keys_at_every_level_of_a_response_round_trip(provider: str, payload: Any) -> None:
    mutated = _with_underscored_keys(payload)
    losses: list[chatcodec.Loss] = []
    decoded = chatcodec.decode_response(provider, mutated)
    assert chatcodec.encode_response(provider, decoded, on_loss="ignore", losses=losses) == mutated
    assert losses == []


@pytest.mark.parametrize("source", ["openai-chat", "anthropic"])
def test_underscored_keys_crossing_providers_are_reported(source: str) -> None:
    target = "anthropic" if source == "openai-chat" else "openai-chat"
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": [{"type": "text", "text": "hi", "_part": 1}], "_msg": 2}
    ]
    payload = {"model": "m", "max_tokens": 5, "messages": messages, "_top": 3}
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(payload, source=source, target=target, on_loss="ignore", losses=losses)
    reported = " ".join(loss.what for loss in losses)
    for key in ("_part", "_msg", "_top"):
        assert f"'{key}'" in reported, (key, reported)
