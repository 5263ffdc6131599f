"""OpenAI-compatible servers as named targets: one test per server rule, each body checked
against what the server documents (``servers_support.problems_for``)."""

from __future__ import annotations

import base64
import copy
import json
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec._providers.openai_chat.servers import SERVERS, server_for_model, server_for_url
from chatcodec._providers.openai_chat.servers.fitting import nearest_effort
from chatcodec._strict.fields import payload_problems
from providers.openai_chat.servers_support import assert_valid_for, convert, rule_losses

ANTHROPIC = Path(__file__).resolve().parents[2] / "fixtures" / "anthropic" / "request"

SIGNED_CALL: dict[str, Any] = {
    "id": "call_1",
    "type": "function",
    "function": {"name": "weather", "arguments": '{"city":"Paris"}'},
    "extra_content": {"google": {"thought_signature": "c2lnbmF0dXJl"}},
}
TOOL = {"type": "function", "function": {"name": "weather", "parameters": {"type": "object"}}}


def _tool_loop(**assistant: Any) -> dict[str, Any]:
    """A current turn: the user asks, the model calls, the tool answers."""
    call = {key: value for key, value in SIGNED_CALL.items() if key != "extra_content"}
    return {
        "model": "some-model",
        "messages": [
            {"role": "user", "content": "Weather in Paris?"},
            {"role": "assistant", "content": None, "tool_calls": [call], **assistant},
            {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
        ],
        "tools": [TOOL],
    }


def _anthropic_thinking() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((ANTHROPIC / "thinking_replay_with_tool_result.json").read_text())
    return loaded


# --- choosing the server ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("model", "server"),
    [
        ("deepseek-reasoner", "deepseek"),
        ("deepseek-v4-pro", "deepseek"),
        ("gemini-3-flash-preview", "gemini"),
        ("grok-4", "xai"),
        ("kimi-k2-thinking", "kimi"),
        ("moonshotai/kimi-k2-instruct", None),  # Groq's and OpenRouter's spelling
        ("mistral-large-latest", "mistral"),
        ("magistral-medium-2509", "mistral"),
        ("gpt-5.5", None),  # OpenAI is the default, never inferred
        ("deepseek-ai/DeepSeek-R1", None),  # Together, vLLM and others serve it too
        ("deepseek-r1:8b", None),  # an Ollama tag
        ("mistral-nemo", None),  # an Ollama model as much as a Mistral one
        ("google/gemini-3-flash-preview", None),  # OpenRouter's spelling
    ],
)
def test_a_model_id_names_a_server_only_when_one_server_spells_it_so(model: str, server: str | None) -> None:
    found = server_for_model(model)
    assert (found.name if found is not None else None) == server


@pytest.mark.parametrize(
    ("url", "server"),
    [
        ("https://api.openai.com/v1", "openai"),
        ("https://my-resource.openai.azure.com/openai/v1", "azure"),
        ("https://generativelanguage.googleapis.com/v1beta/openai/", "gemini"),
        ("https://api.deepseek.com", "deepseek"),
        ("https://api.moonshot.ai/v1", "kimi"),
        ("https://openrouter.ai/api/v1", "openrouter"),
        ("http://localhost:11434/v1", "ollama"),
        ("https://api.groq.com/openai/v1", "groq"),
        ("https://api.mistral.ai/v1", "mistral"),
        ("https://api.x.ai/v1", "xai"),
        ("https://api.together.xyz/v1", "together"),
        ("http://localhost:8000/v1", None),  # vLLM or SGLang: any host, named by option only
    ],
)
def test_a_base_url_names_the_server_it_points_at(url: str, server: str | None) -> None:
    found = server_for_url(url)
    assert (found.name if found is not None else None) == server


def test_an_unknown_server_name_is_refused_with_the_known_ones() -> None:
    with pytest.raises(chatcodec.ChatcodecError, match="deepseek"):
        convert(_tool_loop(), server="deepsek")


def test_with_no_server_named_a_body_read_and_written_again_is_the_same() -> None:
    """What an openai-chat reading kept came from some server: written back as it came."""
    body = _tool_loop(reasoning_content="thinking", prefix=True)
    body |= {"top_k": 5, "provider": {"order": ["x"]}}
    converted, losses = convert(copy.deepcopy(body))
    assert converted == body
    assert losses == []


# --- OpenAI and Azure -------------------------------------------------------------------


def test_openai_named_gets_only_the_sdk_fields() -> None:
    body = _tool_loop(reasoning_content="thinking") | {"top_k": 5, "data_sources": []}
    converted, losses = convert(body, server="openai")
    assert rule_losses(losses, "openai") == [  # (top_k read, written after the fields kept as they came)
        ("$.data_sources", "data_sources"),
        ("$.top_k", "top_k"),
        ("$.messages[1].reasoning_content", "reasoning in reasoning_content"),
    ]
    assert_valid_for("openai", converted)


def test_azure_takes_its_on_your_data_sources_and_openai_does_not() -> None:
    body = _tool_loop() | {"data_sources": [{"type": "azure_search", "parameters": {}}]}
    converted, losses = convert(body, server="azure")
    assert converted["data_sources"] == body["data_sources"]
    assert rule_losses(losses, "azure") == []
    assert_valid_for("azure", converted)


# --- Gemini -----------------------------------------------------------------------------


def test_gemini_gets_its_signatures_in_extra_content_and_openai_does_not() -> None:
    body = _tool_loop()
    body["messages"][1]["tool_calls"] = [copy.deepcopy(SIGNED_CALL)]
    body["model"] = "gemini-3-flash-preview"
    converted, losses = convert(body)  # the model names Gemini's endpoint
    assert converted["messages"][1]["tool_calls"][0]["extra_content"] == SIGNED_CALL["extra_content"]
    assert losses == []
    to_openai, openai_losses = convert(body, server="openai")
    assert "extra_content" not in to_openai["messages"][1]["tool_calls"][0]
    assert rule_losses(openai_losses, "openai") == [
        ("$.messages[1].tool_calls[0].extra_content", "Gemini thought signature")
    ]
    assert_valid_for("openai", to_openai)


def test_gemini_reports_an_unsigned_first_call_or_sends_the_documented_sentinel() -> None:
    body = _tool_loop() | {"model": "gemini-3-flash-preview"}
    reported, losses = convert(body)
    assert rule_losses(losses, "gemini") == [("$.messages[1].tool_calls[0]", "thought signature")]
    assert "extra_content" not in reported["messages"][1]["tool_calls"][0]
    signed, _ = convert(body, missing_signature="skip")
    sentinel = {"google": {"thought_signature": "skip_thought_signature_validator"}}
    assert signed["messages"][1]["tool_calls"][0]["extra_content"] == sentinel
    older, older_losses = convert(body | {"model": "gemini-2.5-flash"})
    assert rule_losses(older_losses, "gemini") == []
    assert_valid_for("gemini", older)


def test_gemini_takes_efforts_up_to_high() -> None:
    converted, losses = convert(_tool_loop(), server="gemini", extra_fields={"reasoning_effort": "xhigh"})
    assert converted["reasoning_effort"] == "high"
    assert ("$.reasoning_effort", "reasoning_effort 'xhigh'") in rule_losses(losses, "gemini")


# --- DeepSeek ---------------------------------------------------------------------------


def test_deepseek_gets_reasoning_back_on_each_step_of_the_tool_loop() -> None:
    """Another provider's thinking goes to ``reasoning_content``; a step without any gets an empty one."""
    converted, _ = convert(_anthropic_thinking(), "anthropic", server="deepseek", model="deepseek-reasoner")
    steps = [message for message in converted["messages"] if message.get("tool_calls")]
    assert steps
    assert all(isinstance(step.get("reasoning_content"), str) for step in steps)
    assert steps[-1]["reasoning_content"].startswith("The user is asking")
    assert_valid_for("deepseek", converted)
    bare, bare_losses = convert(_tool_loop() | {"model": "deepseek-reasoner"})
    assert bare["messages"][1]["reasoning_content"] == ""
    assert rule_losses(bare_losses, "deepseek") == [
        ("$.messages[1].reasoning_content", "reasoning of a tool-loop step")
    ]
    chat, chat_losses = convert(_tool_loop() | {"model": "deepseek-chat"})
    assert "reasoning_content" not in chat["messages"][1]
    assert rule_losses(chat_losses, "deepseek") == []


def test_deepseek_gets_reasoning_back_on_the_tool_call_steps_of_earlier_turns_too() -> None:
    body = _tool_loop() | {"model": "deepseek-reasoner"}
    body["messages"] += [{"role": "assistant", "content": "Sunny."}, {"role": "user", "content": "And Rome?"}]
    converted, losses = convert(body)
    assert converted["messages"][1]["reasoning_content"] == ""
    assert rule_losses(losses, "deepseek") == [("$.messages[1].reasoning_content", "reasoning of a tool-loop step")]
    assert_valid_for("deepseek", converted)


def test_deepseek_takes_max_tokens_text_content_and_high_or_max_effort() -> None:
    body = _tool_loop(reasoning_content="r") | {
        "model": "deepseek-reasoner",
        "max_completion_tokens": 100,
        "reasoning_effort": "medium",
    }
    body["messages"][0]["content"] = [
        {"type": "text", "text": "What is this?"},
        {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}},
    ]
    converted, losses = convert(body)
    assert converted["max_tokens"] == 100
    assert converted["reasoning_effort"] == "high"
    assert converted["messages"][0]["content"] == [{"type": "text", "text": "What is this?"}]
    assert [what for _, what in rule_losses(losses, "deepseek")] == [
        "max_completion_tokens",
        "reasoning_effort 'medium'",
        "image_url part",
    ]
    assert_valid_for("deepseek", converted)


# --- Kimi -------------------------------------------------------------------------------


def test_kimi_thinking_models_get_reasoning_back_in_the_tool_loop() -> None:
    bare, losses = convert(_tool_loop() | {"model": "kimi-k2-thinking"})
    assert bare["messages"][1]["reasoning_content"] == ""
    assert rule_losses(losses, "kimi") == [("$.messages[1].reasoning_content", "reasoning of a tool-loop step")]
    assert_valid_for("kimi", bare)
    instruct, instruct_losses = convert(_tool_loop() | {"model": "kimi-k2-0905-preview"})
    assert "reasoning_content" not in instruct["messages"][1]
    assert rule_losses(instruct_losses, "kimi") == []


# --- OpenRouter -------------------------------------------------------------------------


def test_openrouter_gets_signed_reasoning_as_details_and_cache_control() -> None:
    converted, losses = convert(_anthropic_thinking(), "anthropic", server="openrouter")
    step = next(message for message in converted["messages"] if message.get("tool_calls"))
    (detail,) = step["reasoning_details"]
    assert detail["type"] == "reasoning.text"
    assert detail["format"] == "anthropic-claude-v1"
    assert "signature" in detail
    assert rule_losses(losses, "openrouter") == []
    assert_valid_for("openrouter", converted)
    breakpoint = {"type": "text", "text": "long", "prompt_cache_breakpoint": {"mode": "explicit"}}
    cached, cached_losses = convert(
        {"model": "m", "messages": [{"role": "user", "content": [breakpoint]}]}, server="openrouter"
    )
    assert cached["messages"][0]["content"][0] == {
        "type": "text",
        "text": "long",
        "cache_control": {"type": "ephemeral"},
    }
    assert rule_losses(cached_losses, "openrouter") == [
        ("$.messages[0].content[0].prompt_cache_breakpoint", "cache breakpoint")
    ]


# --- vLLM and SGLang --------------------------------------------------------------------


def test_vllm_keeps_its_sampling_extras_and_reads_reasoning_as_reasoning() -> None:
    converted, losses = convert(_tool_loop(reasoning_content="r") | {"top_k": 20, "min_p": 0.1}, server="vllm")
    assert converted["top_k"] == 20
    assert converted["min_p"] == 0.1
    assert converted["messages"][1]["reasoning"] == "r"
    assert "reasoning_content" not in converted["messages"][1]
    assert rule_losses(losses, "vllm") == []  # the same text where vLLM reads it: nothing lost (issue 108)
    assert_valid_for("vllm", converted)


def test_reasoning_text_moved_to_the_field_a_server_reads_is_no_loss_and_signed_details_still_are() -> None:
    """A harness sends back the field its last answer came in (``reasoning_content``); vLLM
    reads ``reasoning``: the same text moved there is a respelling, as the same reasoning read
    from an Anthropic body is written there with no report (issue 108: a loss on every vLLM
    request). Reasoning details with a signature lose the signature: still reported."""
    _, from_chat = convert(_tool_loop(reasoning_content="I call it."), server="vllm")
    anthropic = {
        "model": "m",
        "max_tokens": 100,
        "messages": [
            {"role": "user", "content": "Weather in Paris?"},
            {"role": "assistant", "content": [{"type": "thinking", "thinking": "I call it.", "signature": ""}]},
        ],
    }
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(
        anthropic, source="anthropic", target="openai-chat", options={"server": "vllm"}, losses=losses, on_loss="ignore"
    )
    assert rule_losses(from_chat, "vllm") == rule_losses(losses, "vllm") == []
    signed = [{"type": "reasoning.text", "text": "I call it.", "signature": "c2ln", "index": 0}]
    converted, details = convert(_tool_loop(reasoning_details=signed), server="vllm")
    assert converted["messages"][1]["reasoning"] == "I call it."
    assert rule_losses(details, "vllm") == [("$.messages[1].reasoning_details", "reasoning in reasoning_details")]


def test_sglang_reads_reasoning_as_reasoning_content() -> None:
    converted, losses = convert(_tool_loop(reasoning="r") | {"regex": "a+"}, server="sglang")
    assert converted["messages"][1]["reasoning_content"] == "r"
    assert converted["regex"] == "a+"
    assert rule_losses(losses, "sglang") == []
    assert_valid_for("sglang", converted)


# --- Ollama -----------------------------------------------------------------------------


def test_ollama_gets_only_the_fields_its_compatibility_page_lists() -> None:
    body = _tool_loop() | {"logit_bias": {"1": 2}, "user": "u", "max_completion_tokens": 10, "seed": 1}
    converted, losses = convert(body, server="ollama")
    assert converted["max_tokens"] == 10
    assert converted["seed"] == 1
    assert [what for _, what in rule_losses(losses, "ollama")] == ["logit_bias", "max_completion_tokens", "user"]
    assert_valid_for("ollama", converted)


# --- Groq -------------------------------------------------------------------------------


def test_groq_gets_none_of_the_fields_it_answers_400_to() -> None:
    body = _tool_loop(reasoning_content="r") | {"logprobs": True, "top_logprobs": 2, "n": 2}
    body["messages"][0]["name"] = "alice"
    converted, losses = convert(body, server="groq")
    assert [what for _, what in rule_losses(losses, "groq")] == [
        "logprobs",
        "top_logprobs",
        "name",
        "reasoning in reasoning_content",
        "n 2",
    ]
    assert "n" not in converted
    assert_valid_for("groq", converted)


# --- Mistral ----------------------------------------------------------------------------


def test_mistral_gets_its_seed_as_random_seed_and_no_logit_bias() -> None:
    body = _tool_loop() | {"model": "mistral-large-latest", "seed": 7, "logit_bias": {"1": 2}}
    body["messages"][0]["content"] = [
        {"type": "text", "text": "Read this"},
        {"type": "file", "file": {"file_data": "data:application/pdf;base64,AA==", "filename": "a.pdf"}},
    ]
    converted, losses = convert(body)
    assert converted["random_seed"] == 7
    assert "seed" not in converted
    assert [what for _, what in rule_losses(losses, "mistral")] == ["logit_bias", "seed"]
    assert_valid_for("mistral", converted)


def test_mistral_gets_a_pdf_file_part_as_a_document_url_not_dropped() -> None:
    pdf = "data:application/pdf;base64,AA=="
    body = {
        "model": "mistral-large-latest",
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Read these"},
                    {"type": "file", "file": {"file_data": pdf, "filename": "a.pdf"}},
                    {"type": "file", "file": {"file_id": "file-abc"}},
                ],
            }
        ],
    }
    converted, losses = convert(body)
    assert converted["messages"][0]["content"][1:] == [{"type": "document_url", "document_url": pdf}]
    assert rule_losses(losses, "mistral") == [("$.messages[0].content[2]", "file part")]
    assert_valid_for("mistral", converted)


def test_mistral_gets_prefix_true_on_a_final_assistant_message() -> None:
    body = {
        "model": "mistral-large-latest",
        "messages": [{"role": "user", "content": "Write a haiku"}, {"role": "assistant", "content": "Autumn"}],
    }
    converted, losses = convert(body)
    assert converted["messages"][-1] == {"role": "assistant", "content": "Autumn", "prefix": True}
    assert rule_losses(losses, "mistral") == [("$.messages[1].prefix", "final assistant message")]
    assert_valid_for("mistral", converted)
    body["messages"].append({"role": "user", "content": "Another"})
    converted, losses = convert(body)
    assert "prefix" not in converted["messages"][1]
    assert rule_losses(losses, "mistral") == []


# --- xAI --------------------------------------------------------------------------------


def test_xai_reasoning_models_get_no_penalties_or_stop() -> None:
    body = _tool_loop() | {"model": "grok-4", "presence_penalty": 0.5, "stop": ["x"]}
    converted, losses = convert(body)
    assert "presence_penalty" not in converted
    assert "stop" not in converted
    assert [what for _, what in rule_losses(losses, "xai")] == ["presence_penalty", "stop"]
    assert_valid_for("xai", converted)
    plain, plain_losses = convert(body | {"model": "grok-4-fast-non-reasoning"})
    assert plain["presence_penalty"] == 0.5
    assert rule_losses(plain_losses, "xai") == []


# --- Together ---------------------------------------------------------------------------


def test_together_keeps_its_extras_and_takes_no_reasoning_back() -> None:
    converted, losses = convert(_tool_loop(reasoning="r") | {"repetition_penalty": 1.1}, server="together")
    assert converted["repetition_penalty"] == 1.1
    assert "reasoning" not in converted["messages"][1]
    assert rule_losses(losses, "together") == [("$.messages[1].reasoning", "reasoning in reasoning")]
    assert_valid_for("together", converted)


# --- efforts ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("effort", "efforts", "nearest"),
    [
        ("medium", ("high", "max"), "high"),
        ("xhigh", ("high", "max"), "max"),
        ("max", ("none", "minimal", "low", "medium", "high", "xhigh"), "xhigh"),
        ("minimal", ("none", "low", "medium", "high"), "low"),
        ("none", ("high", "max"), None),  # no reasoning is not the least reasoning
    ],
)
def test_an_effort_a_server_does_not_take_becomes_the_nearest_it_does(
    effort: str, efforts: tuple[str, ...], nearest: str | None
) -> None:
    assert nearest_effort(effort, efforts) == nearest


def test_every_server_names_a_source_for_each_fact() -> None:
    for server in SERVERS.values():
        assert server.docs.startswith("https://")
        assert server.reasoning_source
        assert server.efforts_source
        assert server.parts_source
        assert all(refusal.source for refusal in server.refuses)
        assert all(rule.source.startswith("https://") for rule in server.rules)
        assert all(row.source for row in server.extensions)


# --- the recorded Gemini requests -------------------------------------------------------

GEMINI = Path(__file__).resolve().parents[2] / "fixtures" / "gemini" / "request"


def _signatures(body: dict[str, Any]) -> list[str]:
    """The thought signature of each function call of a Gemini body, in order."""
    found: list[str] = []
    for content in body.get("contents", []):
        for part in content.get("parts", []):
            signature = part.get("thoughtSignature", part.get("thought_signature"))
            if ("functionCall" in part or "function_call" in part) and signature is not None:
                found.append(signature)
    return found


def _sent_signatures(body: dict[str, Any]) -> list[str]:
    return [
        call["extra_content"]["google"]["thought_signature"]
        for message in body["messages"]
        for call in message.get("tool_calls", [])
        if "extra_content" in call
    ]


@pytest.mark.parametrize("name", sorted(path.name for path in GEMINI.glob("*.json")))
def test_a_recorded_gemini_request_converts_for_openai_and_for_gemini_with_its_signatures(name: str) -> None:
    body = json.loads((GEMINI / name).read_text())
    to_openai, losses = convert(copy.deepcopy(body), "gemini", model="gpt-5.5")
    assert_valid_for("openai", to_openai)
    dropped = [what for _, what in rule_losses(losses, "openai") if what == "Gemini thought signature"]
    assert len(dropped) == len(_signatures(body))
    to_gemini, _ = convert(copy.deepcopy(body), "gemini", model="gemini-3-flash-preview")
    assert_valid_for("gemini", to_gemini)
    assert _sent_signatures(to_gemini) == _signatures(body)


# --- one documented request shape per server --------------------------------------------

SHAPES = Path(__file__).resolve().parents[2] / "fixtures" / "openai-chat" / "servers"


@pytest.mark.parametrize("name", list(SERVERS))
def test_a_request_in_a_servers_documented_shape_is_written_for_it_unchanged(name: str) -> None:
    """Each server's own fields, reasoning and parts survive being written for it, and the
    body is what that server documents (provenance: ``PROVENANCE.md``)."""
    body = json.loads((SHAPES / f"{name}.json").read_text())
    converted, losses = convert(copy.deepcopy(body), server=name)
    assert converted == body
    assert [loss for loss in losses if loss.kind == "rule"] == []
    assert_valid_for(name, converted)


# --- strict reading for one server ------------------------------------------------------


def test_strict_reading_for_one_server_accepts_its_extensions_and_no_other_servers() -> None:
    body = _tool_loop(reasoning_content="r") | {"thinking": {"type": "enabled"}}
    assert payload_problems("openai-chat", "request", body, server="deepseek") == []
    refused = payload_problems("openai-chat", "request", body, server="groq")
    assert [problem.location for problem in refused] == [("thinking",), ("messages", 1, "reasoning_content")]
    assert payload_problems("openai-chat", "request", body) == []  # every server's, as before
    with pytest.raises(chatcodec.ProviderLookupError, match="deepseek"):
        payload_problems("openai-chat", "request", body, server="deepsek")


@pytest.mark.parametrize("server", ["openai", "deepseek", "mistral"])
def test_a_text_file_a_server_takes_no_such_file_for_goes_as_its_text(server: str) -> None:
    text = base64.b64encode(b"hello notes").decode()
    body = {
        "model": "some-model",
        "messages": [
            {
                "role": "user",
                "content": [
                    {"type": "file", "file": {"file_data": f"data:text/markdown;base64,{text}", "filename": "a.md"}},
                    {"type": "file", "file": {"file_data": f"data:application/zip;base64,{text}", "filename": "a.zip"}},
                ],
            }
        ],
    }
    converted, losses = convert(body, server=server)
    assert converted["messages"][0]["content"] == [{"type": "text", "text": "hello notes"}]
    assert rule_losses(losses, server) == [
        ("$.messages[0].content[0]", "text file"),
        ("$.messages[0].content[1]", "file part"),
    ]
    assert_valid_for(server, converted)


def test_mistral_gets_another_providers_thinking_as_a_leading_thinking_chunk() -> None:
    anthropic = {
        "model": "magistral-medium-latest",
        "max_tokens": 100,
        "messages": [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "hmm", "signature": "sig"},
                    {"type": "text", "text": "Sure"},
                ],
            },
            {"role": "user", "content": "more"},
        ],
    }
    converted, _ = convert(anthropic, "anthropic", server="mistral")
    assert converted["messages"][1] == {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": [{"type": "text", "text": "hmm"}]},
            {"type": "text", "text": "Sure"},
        ],
    }
    assert_valid_for("mistral", converted)


def test_mistral_gets_interleaved_thinking_in_its_place_not_merged() -> None:
    """Issue 61: Mistral's reasoning models answer with thinking chunks among the text
    chunks (https://docs.mistral.ai/capabilities/reasoning/: ``content`` is a list of
    ``{"type": "thinking", "thinking": [...]}`` and ``{"type": "text"}`` chunks); Claude's
    interleaved thinking (thinking, text, thinking, text) goes back in that order, each
    thinking in its own chunk, not merged into one leading chunk."""
    anthropic = {
        "model": "magistral-medium-latest",
        "max_tokens": 100,
        "messages": [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "first", "signature": "s1"},
                    {"type": "text", "text": "Checking."},
                    {"type": "thinking", "thinking": "second", "signature": "s2"},
                    {"type": "text", "text": "The answer is 4."},
                ],
            },
            {"role": "user", "content": "more"},
        ],
    }
    converted, losses = convert(anthropic, "anthropic", server="mistral")
    assert converted["messages"][1] == {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": [{"type": "text", "text": "first"}]},
            {"type": "text", "text": "Checking."},
            {"type": "thinking", "thinking": [{"type": "text", "text": "second"}]},
            {"type": "text", "text": "The answer is 4."},
        ],
    }
    assert [loss.path for loss in losses if loss.path.startswith("$.messages[1]")] == [
        "$.messages[1].content[0].signature",
        "$.messages[1].content[2].signature",
    ]
    assert_valid_for("mistral", converted)


_VIDEO = {"type": "video_url", "video_url": {"url": "https://example.com/clip.mp4"}}
_IMAGE = {"type": "image_url", "image_url": {"url": "https://example.com/cat.png"}}


def _user_parts(model: str, part: dict[str, Any]) -> dict[str, Any]:
    return {"model": model, "messages": [{"role": "user", "content": [{"type": "text", "text": "what?"}, part]}]}


@pytest.mark.parametrize(
    ("server", "model", "part", "kept"),
    [
        ("kimi", "kimi-k2.5", _VIDEO, True),
        ("kimi", "kimi-k2-0905-preview", _VIDEO, False),
        ("deepseek", "deepseek-v4-flash-vision-exp", _IMAGE, True),
        ("deepseek", "deepseek-chat", _IMAGE, False),
        ("vllm", "Qwen/Qwen2.5-VL-7B-Instruct", _VIDEO, True),
        ("sglang", "Qwen/Qwen2.5-VL-7B-Instruct", _VIDEO, True),
        ("together", "Qwen/Qwen2.5-VL-72B-Instruct", _VIDEO, True),
    ],
)
def test_a_models_own_part_types_are_sent_and_others_are_a_rule_loss(
    server: str, model: str, part: dict[str, Any], kept: bool
) -> None:
    """Kimi K2.5 takes ``video_url`` where earlier Kimi models take images only; DeepSeek's
    vision model takes ``image_url`` where its text models take text; vLLM, SGLang and
    Together take ``video_url`` for every model (each server's docs, in its module)."""
    body, losses = convert(_user_parts(model, part), server=server)
    sent = body["messages"][0]["content"]
    assert (part in sent) is kept, sent
    assert bool(rule_losses(losses, server)) is not kept, losses
