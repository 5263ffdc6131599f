"""Four request fields real OpenAI Chat clients send, carried where the target has a home for
them: vLLM's ``top_k`` and litellm's ``thinking`` (read into canonical ``top_k`` and reasoning,
written by Anthropic, given back as they came by OpenAI Chat), and OpenAI's ``prompt_cache_key``
and ``safety_identifier`` (canonical fields of their own, written by OpenAI Chat and Responses
both ways, reported by every other format). Each is checked into each target, written back to
OpenAI Chat unchanged, accepted by the SDK types where there is one, and converted by the
direct paths as the canonical path converts it."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from bench import feature_shapes

import chatcodec
from chatcodec._direct.table import canonical_only, direct_path
from chatcodec._losses import LossRecorder
from chatcodec._registry import available_formats
from providers.anthropic.anthropic_support import assert_valid_request as assert_valid_anthropic
from providers.openai_chat.openai_chat_support import assert_request_matches_sdk as assert_valid_chat
from providers.openai_responses.responses_support import assert_request_matches_sdk as assert_valid_responses

_OLD_API = {"api_version": "2023-06-01"}
"""The Anthropic API version that still takes ``top_k`` (the newer one's rule removes it)."""


def _chat(**fields: Any) -> dict[str, Any]:
    return {"model": "claude-sonnet-4-5", "max_tokens": 4096, "messages": [{"role": "user", "content": "hi"}], **fields}


def _responses(**fields: Any) -> dict[str, Any]:
    return {"model": "gpt-5", "input": "hi", **fields}


def _convert(
    body: dict[str, Any], target: str, source: str = "openai-chat", **options: Any
) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    losses: list[chatcodec.Loss] = []
    out = chatcodec.convert_request(
        copy.deepcopy(body), source=source, target=target, on_loss="ignore", losses=losses, options=options or None
    )
    return out, [(loss.path, loss.kind) for loss in losses if loss.kind not in ("default", "required")]


_THINKING = {
    "enabled": ({"type": "enabled", "budget_tokens": 2048}, {"enabled": True, "budget_tokens": 2048}),
    "disabled": ({"type": "disabled"}, {"enabled": False}),
    "adaptive": ({"type": "adaptive"}, {"adaptive": True}),
}


# --- the reading ----------------------------------------------------------------------------


@pytest.mark.parametrize("kind", list(_THINKING))
def test_litellm_thinking_is_read_as_canonical_reasoning(kind: str) -> None:
    thinking, config = _THINKING[kind]
    request = chatcodec.decode_request("openai-chat", _chat(thinking=thinking, top_k=40))
    assert request.reasoning is not None
    assert request.reasoning.model_dump(exclude_none=True) == config
    assert request.top_k == 40
    assert request.provider_options == {
        "openai-chat": {"_max_tokens_key": "max_tokens", "_passed": ["top_k", "thinking"]}
    }


def test_the_keys_are_read_into_their_canonical_fields() -> None:
    request = chatcodec.decode_request("openai-chat", _chat(prompt_cache_key="session-7", safety_identifier="h1"))
    assert (request.prompt_cache_key, request.safety_identifier) == ("session-7", "h1")
    assert request.provider_options == {"openai-chat": {"_max_tokens_key": "max_tokens"}}
    request = chatcodec.decode_request(
        "openai-responses", _responses(prompt_cache_key="session-7", safety_identifier="h1")
    )
    assert (request.prompt_cache_key, request.safety_identifier) == ("session-7", "h1")
    assert request.provider_options is None


_KEPT = {
    "vLLM's top_k of -1 (all tokens)": {"top_k": -1},
    "a top_k of true": {"top_k": True},
    "thinking beside reasoning_effort": {
        "thinking": {"type": "enabled", "budget_tokens": 2048},
        "reasoning_effort": "low",
    },
    "thinking beside OpenRouter's reasoning": {"thinking": {"type": "adaptive"}, "reasoning": {"effort": "low"}},
    "a thinking type it does not know": {"thinking": {"type": "auto"}},
    "thinking with another key": {"thinking": {"type": "enabled", "budget_tokens": 2048, "display": "summarized"}},
    "a disabled thinking with a budget": {"thinking": {"type": "disabled", "budget_tokens": 0}},
    "a negative budget": {"thinking": {"type": "enabled", "budget_tokens": -1}},
    "a cache key of a number": {"prompt_cache_key": 7},
}


@pytest.mark.parametrize("fields", list(_KEPT.values()), ids=list(_KEPT))
def test_a_value_it_cannot_read_exactly_is_kept_as_it_came(fields: dict[str, Any]) -> None:
    body = _chat(**fields)
    request = chatcodec.decode_request("openai-chat", body)
    kept = (request.provider_options or {}).get("openai-chat", {})
    unread = [key for key in fields if key not in ("reasoning_effort", "reasoning")]
    assert all(kept[key] == fields[key] for key in unread)
    assert "_passed" not in kept
    assert _convert(body, "openai-chat") == (body, [])
    _, losses = _convert(body, "anthropic")
    assert ("$.provider_options", "setting") in losses


# --- the writing -----------------------------------------------------------------------------

_FIELDS = {
    "top_k": {"top_k": 40},
    **{f"thinking {kind}": {"thinking": thinking} for kind, (thinking, _) in _THINKING.items()},
    "prompt_cache_key": {"prompt_cache_key": "session-7"},
    "safety_identifier": {"safety_identifier": "h1"},
    "all four": {"top_k": 5, "thinking": {"type": "adaptive"}, "prompt_cache_key": "k", "safety_identifier": "s"},
}


@pytest.mark.parametrize("fields", list(_FIELDS.values()), ids=list(_FIELDS))
def test_openai_chat_to_openai_chat_gives_the_body_back_unchanged(fields: dict[str, Any]) -> None:
    body = _chat(**fields)
    out, losses = _convert(body, "openai-chat")
    assert (out, losses) == (body, [])
    assert json.dumps(out, sort_keys=True) == json.dumps(body, sort_keys=True)


def test_top_k_and_thinking_are_written_by_anthropic() -> None:
    out, losses = _convert(_chat(top_k=40), "anthropic", **_OLD_API)  # (the SDK's types, newer, have no top_k)
    assert (out["top_k"], losses) == (40, [])
    for kind, (thinking, _) in _THINKING.items():
        out, losses = _convert(_chat(thinking=thinking), "anthropic")
        assert (out["thinking"], losses) == (thinking, []), kind
        assert_valid_anthropic(out)


def test_the_keys_are_written_by_both_openai_formats_both_ways() -> None:
    keys = {"prompt_cache_key": "session-7", "safety_identifier": "h1"}
    out, losses = _convert(_chat(**keys), "openai-responses")
    assert ({key: out[key] for key in keys}, losses) == (keys, [])
    assert_valid_responses(out)
    back, losses = _convert(_responses(**keys), "openai-chat", source="openai-responses")
    assert ({key: back[key] for key in keys}, losses) == (keys, [])
    assert_valid_chat(back)
    assert _convert(_responses(**keys), "openai-responses", source="openai-responses") == (_responses(**keys), [])


_HOMES = {"openai-chat", "openai-responses", "canonical"}
"""The formats with a field for the keys (canonical's own data holds every field)."""


@pytest.mark.parametrize("target", available_formats())
def test_every_other_format_reports_the_keys(target: str) -> None:
    request = chatcodec.ChatRequest(
        model="m",
        max_tokens=64,
        messages=[chatcodec.UserMessage(content="hi")],
        prompt_cache_key="session-7",
        safety_identifier="h1",
    )
    losses: list[chatcodec.Loss] = []
    out = chatcodec.encode_request(target, request, on_loss="ignore", losses=losses)
    reported = [loss.path for loss in losses if loss.path in ("$.prompt_cache_key", "$.safety_identifier")]
    written = "session-7" in json.dumps(out)
    if target in _HOMES:
        assert (written, reported) == (True, [])
    else:
        assert (written, reported) == (False, ["$.prompt_cache_key", "$.safety_identifier"])


def test_top_k_is_reported_where_there_is_no_home_and_written_where_there_is() -> None:
    assert _convert(_chat(top_k=40), "openai-responses")[1] == [("$.top_k", "setting")]
    assert _convert(_chat(top_k=40), "bedrock-converse")[1] == [("$.top_k", "setting")]
    out, losses = _convert(_chat(top_k=40), "gemini")
    assert (out["generationConfig"]["topK"], losses) == (40, [])


def test_reasoning_a_caller_changed_is_written_as_an_effort_not_as_the_thinking_read() -> None:
    request = chatcodec.decode_request("openai-chat", _chat(thinking={"type": "adaptive"}, top_k=3))
    changed = request.model_copy(update={"reasoning": chatcodec.ReasoningConfig(effort="low"), "top_k": 9})
    out = chatcodec.encode_request("openai-chat", changed, on_loss="ignore")
    assert "thinking" not in out
    assert (out["reasoning_effort"], out["top_k"]) == ("low", 9)


def test_canonical_top_k_and_thinking_not_read_from_openai_chat_are_still_reported_there() -> None:
    body = {"model": "m", "max_tokens": 64, "messages": [{"role": "user", "content": "hi"}], "top_k": 40}
    body["thinking"] = {"type": "enabled", "budget_tokens": 2048}
    out, losses = _convert(body, "openai-chat", source="anthropic")
    assert "top_k" not in out
    assert "thinking" not in out
    assert ("$.top_k", "setting") in losses
    assert out["reasoning_effort"] == "low"


# --- the direct paths ------------------------------------------------------------------------

_PAIRS = [("openai-chat", "anthropic"), ("openai-chat", "openai-responses"), ("openai-responses", "openai-chat")]


def _outcome(body: dict[str, Any], source: str, target: str) -> str:
    losses: list[chatcodec.Loss] = []
    out = chatcodec.convert_request(copy.deepcopy(body), source=source, target=target, on_loss="ignore", losses=losses)
    return json.dumps([out, [repr(loss) for loss in losses]])


_DIRECT = {
    **_FIELDS,
    **_KEPT,
    "thinking beside OpenRouter's reasoning, its usage too": {
        "thinking": {"type": "adaptive"},
        "reasoning": {"effort": "low"},
        "usage": {"include": True},
    },
}
_TAKEN = {"top_k", "thinking enabled", "thinking disabled", "thinking adaptive", "all four", "a cache key of a number"}
"""The variants each pair's direct path takes from OpenAI Chat (the usual request's settings)."""
_TAKEN_FROM_RESPONSES = {"prompt_cache_key", "safety_identifier"}


@pytest.mark.parametrize(("source", "target"), _PAIRS)
@pytest.mark.parametrize("name", list(_DIRECT))
def test_the_direct_paths_write_them_as_the_canonical_path(name: str, source: str, target: str) -> None:
    body = json.loads(json.dumps(feature_shapes.body(source, target, 3, ())))  # an agent's session
    body.update(_DIRECT[name])
    convert = direct_path(source, target)
    assert convert is not None
    taken = convert(copy.deepcopy(body), LossRecorder(), chatcodec.get_codec(target)) is not None
    if name in (_TAKEN | _TAKEN_FROM_RESPONSES if source == "openai-chat" else _TAKEN_FROM_RESPONSES):
        assert taken
    for _ in range(2):  # a first request, then a repeated one
        direct = _outcome(body, source, target)
        with canonical_only():
            canonical = _outcome(body, source, target)
        assert direct == canonical
