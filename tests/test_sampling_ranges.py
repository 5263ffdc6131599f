"""Each target's documented sampling ranges, one table per provider (``rules.SAMPLING_RANGES``,
each row with the page that states it): the writer sends a value outside as the nearest bound
and reports it (``sampling_range``), and strict reading refuses it, as the provider answers 400.

From the documentation: Anthropic's Messages reference gives "Required range: 0 <= x <= 1" for
``temperature`` and ``top_p`` and "x >= 0" for ``top_k``; OpenAI's Chat reference ``temperature``
"between 0 and 2" and the penalties "between -2.0 and 2.0"; Responses ``temperature`` 0 to 2;
Gemini's GenerationConfig ``temperature`` [0.0, 2.0] and ``topP``, and Vertex AI's ``presencePenalty``
and ``frequencyPenalty`` ("up to, but not including, 2.0. Its minimum value is -2.0"); Bedrock's
InferenceConfiguration ``temperature`` and ``topP`` minimum 0, maximum 1; OpenAI Chat's ``logit_bias``
"bias value from -100 to 100"; Responses' ``max_output_tokens`` at least 16 (the API's own 400,
"Expected a value >= 16"). Gemini's ``topK`` has no documented range (ai.google.dev, google-genai and
Vertex AI state none), and neither has Responses ``logit_bias``, which Responses does not take.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest

import chatcodec

BODIES: dict[str, dict[str, Any]] = {
    "anthropic": {"model": "claude-sonnet-4-5", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]},
    "openai-chat": {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]},
    "openai-responses": {"model": "gpt-4o", "input": "hi"},
    "gemini": {"contents": [{"role": "user", "parts": [{"text": "hi"}]}]},
    "bedrock-converse": {"modelId": "m", "messages": [{"role": "user", "content": [{"text": "hi"}]}]},
}
"""A minimal request of each format strict reading has a field set for."""
CANONICAL = {
    "topP": "top_p",
    "presencePenalty": "presence_penalty",
    "frequencyPenalty": "frequency_penalty",
    "max_output_tokens": "max_tokens",
}
"""Wire keys spelt otherwise than the canonical request field."""


def _ranges(provider: str) -> list[Any]:
    return list(importlib.import_module(f"chatcodec._providers.{provider.replace('-', '_')}.rules").SAMPLING_RANGES)


CASES = [pytest.param(provider, item, id=f"{provider}-{item.key}") for provider in BODIES for item in _ranges(provider)]


def _with(provider: str, item: Any, value: float) -> dict[str, Any]:
    body = dict(BODIES[provider])
    holder = body
    for step in item.at:
        holder[step] = dict(holder.get(step, {}))
        holder = holder[step]
    holder[item.key] = {"50256": value} if item.each else value  # `logit_bias`: token id to bias
    return body


def test_every_range_names_its_documentation() -> None:
    assert len(CASES) >= 16
    assert all(case.values[1].source.startswith("https://") for case in CASES)  # type: ignore[union-attr]


@pytest.mark.parametrize(("provider", "item"), CASES)
def test_strict_reading_takes_the_bounds_and_refuses_beyond(provider: str, item: Any) -> None:
    taken = [item.low, item.high - 0.01 if item.exclusive_high else item.high]
    for bound in taken:
        if bound is not None:
            chatcodec.decode_request(provider, _with(provider, item, bound), strict=True)
    refused = item.high if item.exclusive_high else None if item.high is None else item.high + 0.5
    beyond = [*([] if item.low is None else [item.low - 1]), *([] if refused is None else [refused])]
    for value in beyond:
        with pytest.raises(chatcodec.ValidationError, match=r"(below the minimum|above the maximum|not below)"):
            chatcodec.decode_request(provider, _with(provider, item, value), strict=True)


@pytest.mark.parametrize(("provider", "item"), [case for case in CASES if not case.values[1].each])  # type: ignore[union-attr]
def test_the_writer_sends_a_value_outside_as_the_nearest_bound_and_reports_it(provider: str, item: Any) -> None:
    field = CANONICAL.get(item.key, item.key)
    if item.high is None:
        bound, outside = item.low, item.low - 1
    else:
        bound, outside = (round(item.high - 0.01, 2), item.high) if item.exclusive_high else (item.high, item.high + 1)
    request = chatcodec.ChatRequest(
        model=BODIES[provider].get("model", "gemini-2.5-flash"),
        messages=[chatcodec.UserMessage(content="hi")],
        **{field: outside},
    )
    losses: list[chatcodec.Loss] = []
    options = {"api_version": "2023-06-01"} if provider == "anthropic" else None  # 2026-10-21 takes no temperature
    body = chatcodec.encode_request(provider, request, on_loss="ignore", losses=losses, options=options)
    holder = body
    for step in item.at:
        holder = holder[step]
    assert holder[item.key] == bound
    path = "$." + ".".join((*item.at, item.key))
    assert [loss.path for loss in losses if "sampling_range" in loss.why] == [path]


def test_a_value_inside_every_range_is_sent_as_it_is() -> None:
    request = chatcodec.ChatRequest(
        model="m", messages=[chatcodec.UserMessage(content="hi")], temperature=0.5, top_p=0.5
    )
    for provider in ("openai-chat", "openai-responses", "gemini", "bedrock-converse"):
        losses: list[chatcodec.Loss] = []
        chatcodec.encode_request(provider, request, on_loss="ignore", losses=losses)
        assert not [loss for loss in losses if "sampling_range" in loss.why], provider


# --- the OpenAI-compatible servers: each its own documented ranges --------------------------------

SERVER_RANGES: dict[str, dict[str, tuple[float | None, float | None]]] = {
    "vllm": {"temperature": (0, None), "top_p": (0, 1), "frequency_penalty": (-2, 2), "presence_penalty": (-2, 2)},
    "sglang": {"temperature": (0, None), "top_p": (0, 1), "frequency_penalty": (-2, 2), "presence_penalty": (-2, 2)},
    "kimi": {"temperature": (0, 1), "top_p": (0, 1), "frequency_penalty": (-2, 2), "presence_penalty": (-2, 2)},
    "mistral": {"top_p": (0, 1), "frequency_penalty": (-2, 2), "presence_penalty": (-2, 2)},
    "together": {"temperature": (0, 1)},
    "gemini": {"temperature": (0, 2), "top_p": (0, 1)},
    "ollama": {},
    "openrouter": {"temperature": (0, 2), "top_p": (0, 1), "frequency_penalty": (-2, 2), "presence_penalty": (-2, 2)},
}
"""From each server's reference: vLLM's ``SamplingParams._verify_args`` ("temperature must be
non-negative", "top_p must be in (0, 1]", the penalties "[-2, 2]"), SGLang's sampling parameters
page (the same), Moonshot's chat reference (``temperature`` "from 0 to 1"), Mistral's (``top_p``
[0 .. 1], the penalties [-2 .. 2], ``temperature`` only "we recommend between 0.0 and 0.7"),
Together's (``temperature`` "A decimal number from 0-1"), Gemini's GenerationConfig, Ollama's
compatibility page (no range), OpenRouter's parameters page. The others (OpenAI, Azure, DeepSeek,
Groq, xAI) document OpenAI's."""
OPENAI_RANGES = {"temperature": (0, 2), "top_p": (0, 1), "frequency_penalty": (-2, 2), "presence_penalty": (-2, 2)}
PROBES = {
    "temperature": (-0.5, 1.5, 3.5),
    "top_p": (-0.5, 0.5, 1.5),
    "frequency_penalty": (-2.5, 1.5, 2.5),
    "presence_penalty": (-2.5, 1.5, 2.5),
}
"""A value below and above each documented range (and any an undocumented range leaves alone),
and one inside OpenAI's own that a narrower server refuses."""


def _server_ranges(server: str) -> dict[str, tuple[float | None, float | None]]:
    return SERVER_RANGES.get(server, OPENAI_RANGES)


@pytest.mark.parametrize("server", ["openai", "azure", "deepseek", "groq", "xai", *SERVER_RANGES])
@pytest.mark.parametrize("key", sorted(PROBES))
def test_a_named_server_gets_its_own_documented_range(server: str, key: str) -> None:
    low, high = _server_ranges(server).get(key, (None, None))
    for value in PROBES[key]:
        body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], key: value}
        losses: list[chatcodec.Loss] = []
        written = chatcodec.convert_request(
            body,
            source="openai-chat",
            target="openai-chat",
            on_loss="ignore",
            losses=losses,
            options={"server": server},
        )
        clamped = low if low is not None and value < low else high if high is not None and value > high else None
        source_low, source_high = OPENAI_RANGES[key]
        if not source_low <= value <= source_high:  # the body's own format refuses it: sent as it came
            clamped = None
        reported = [loss.path for loss in losses if "sampling_range" in loss.why]
        if key not in written:  # a server that takes no such field (xAI's reasoning models, Groq) drops it itself
            continue
        assert written[key] == (value if clamped is None else clamped), (server, key, value)
        assert reported == ([] if clamped is None else [f"$.{key}"])


@pytest.mark.parametrize("server", ["openai", "azure", "deepseek", "groq", "xai", *SERVER_RANGES])
@pytest.mark.parametrize("key", sorted(PROBES))
def test_strict_reading_for_a_named_server_takes_what_its_writer_sends(server: str, key: str) -> None:
    """Strict reading of a body for ``server`` (``options={"server": ...}``) holds it to the
    same documented range as the writer's ``sampling_range`` rule: a value inside is read, a
    value outside is refused at its path (vLLM takes a temperature of 3.5, Kimi none above 1,
    Ollama documents no range at all)."""
    low, high = _server_ranges(server).get(key, (None, None))
    for value in (*PROBES[key], *(bound for bound in (low, high) if bound is not None)):
        body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], key: value}
        outside = (low is not None and value < low) or (high is not None and value > high)
        if not outside:
            read = chatcodec.decode_request("openai-chat", body, strict=True, options={"server": server})
            assert getattr(read, key) == value, (server, key, value)
            continue
        with pytest.raises(chatcodec.ValidationError, match=rf"\$\.{key}: .*\[rule: out_of_range\]"):
            chatcodec.decode_request("openai-chat", body, strict=True, options={"server": server})


def test_kimi_takes_no_temperature_above_1_and_a_value_openai_refuses_is_sent_as_it_came() -> None:
    """Clamped only where the target's range is narrower than the body's own (issue 61): 1.5 is
    an OpenAI temperature Kimi refuses; 2.5 is no OpenAI temperature, the caller's to answer for."""
    for temperature, expected in (
        (1.5, {"vllm": 1.5, "kimi": 1.0, "openai": 1.5}),
        (2.5, {"vllm": 2.5, "kimi": 2.5, "openai": 2.5}),
    ):
        body = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "temperature": temperature}
        for server, sent in expected.items():
            written = chatcodec.convert_request(
                body, source="openai-chat", target="openai-chat", on_loss="ignore", options={"server": server}
            )
            assert written["temperature"] == sent, (temperature, server)


def test_every_server_range_names_its_documentation() -> None:
    from chatcodec._providers.openai_chat.servers import SERVERS

    for server in SERVERS.values():
        for item in server.sampling_ranges or ():
            assert item.source.startswith("https://"), server.name


def test_openai_chat_logit_bias_values_are_held_to_minus_100_to_100_each() -> None:
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}], "logit_bias": {"50256": -150, "13": 7}}
    losses: list[chatcodec.Loss] = []
    written = chatcodec.convert_request(
        body, source="openai-chat", target="openai-chat", on_loss="ignore", losses=losses
    )
    assert written["logit_bias"] == {"50256": -100, "13": 7}
    assert [loss.path for loss in losses if "sampling_range" in loss.why] == ["$.logit_bias['50256']"]
    with pytest.raises(chatcodec.ValidationError, match=r"logit_bias\['50256'\].*below the minimum, -100"):
        chatcodec.decode_request("openai-chat", body, strict=True)


def test_a_canonical_max_tokens_below_16_reaches_responses_as_16_reported() -> None:
    request = chatcodec.ChatRequest(model="gpt-4o", messages=[chatcodec.UserMessage(content="hi")], max_tokens=1)
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request("openai-responses", request, on_loss="ignore", losses=losses)
    assert body["max_output_tokens"] == 16
    assert [loss.path for loss in losses if "sampling_range" in loss.why] == ["$.max_output_tokens"]
