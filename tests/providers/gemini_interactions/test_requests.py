"""Interactions requests, both ways: the recorded shapes (recorded_shapes.py, each naming its
source) read and written back exactly, every body written parses with google-genai 3.6.1's
``CreateModelInteraction`` (when installed), and what another format cannot carry is a loss
at its path."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import chatcodec
from chatcodec import ValidationError
from providers.gemini_interactions.interactions_support import CODEC, sdk_checked, write_request
from providers.gemini_interactions.recorded_shapes import AGENT_TURN, CONTENT_LIST_INPUT, STRING_INPUT

NAME = "gemini-interactions"


@pytest.mark.parametrize("body", [STRING_INPUT, AGENT_TURN, CONTENT_LIST_INPUT], ids=["string", "steps", "contents"])
def test_a_request_round_trips_through_its_own_format_exactly(body: dict[str, Any]) -> None:
    written, losses = write_request(CODEC.read_request(copy.deepcopy(body)))
    assert written == body
    assert losses == []
    sdk_checked("CreateModelInteraction", written)


def test_the_steps_read_as_one_conversation() -> None:
    request = CODEC.decode_request(copy.deepcopy(AGENT_TURN))
    assert [message.role for message in request.messages] == [
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
        "user",
    ]
    thinking, first, second = (part.model_dump() for part in request.messages[2].parts)
    assert thinking == {"type": "thinking", "text": "Two cities.", "signature": "c2lnbmF0dXJlLTE=", "provider": NAME}
    assert [(call["id"], call["arguments"]) for call in (first, second)] == [
        ("call_1", '{"city":"Paris"}'),
        ("call_2", '{"city":"Lyon"}'),
    ]
    results = [part.model_dump() for part in request.messages[3].parts]
    assert [(result["tool_use_id"], result["content"]) for result in results] == [
        ("call_1", "18C, sunny"),
        ("call_2", '{"temperature":16}'),
    ]
    assert (request.max_tokens, request.stop, request.model_dump()["tool_choice"]) == (1024, ["END"], {"type": "auto"})
    assert request.reasoning is not None
    assert request.reasoning.effort == "high"
    assert request.response_format is not None
    assert request.response_format.json_schema == {"type": "object"}
    assert [tool.name for tool in request.tools] == ["get_weather"]
    assert [tool.data for tool in request.provider_tools] == [{"type": "google_search"}]


def test_previous_interaction_id_is_a_reported_loss_toward_a_stateless_format() -> None:
    """The history the id names is on Google's server, not in the request: an OpenAI Chat
    request made of it lacks that history, and says so."""
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(
        copy.deepcopy(AGENT_TURN), source=NAME, target="openai-chat", on_loss="ignore", losses=losses
    )
    assert any("previous_interaction_id" in loss.path or "previous_interaction_id" in loss.what for loss in losses)


def test_an_openai_chat_agent_session_converts_with_only_reported_losses() -> None:
    """Images, parallel calls, their results and a reasoning setting: to Interactions (a body
    the SDK parses) and back, the conversation is the same, and each change was reported."""
    session = {
        "model": "gemini-3-flash-preview",
        "reasoning_effort": "low",
        "messages": [
            {"role": "system", "content": "You are a weather assistant."},
            {
                "role": "user",
                "content": [
                    {"type": "text", "text": "Weather in Paris and Lyon? And this picture?"},
                    {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
                ],
            },
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "c1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city":"Paris"}'},
                    },
                    {
                        "id": "c2",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city":"Lyon"}'},
                    },
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "18C"},
            {"role": "tool", "tool_call_id": "c2", "content": "16C"},
        ],
        "tools": [
            {
                "type": "function",
                "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {}}},
            }
        ],
    }
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(session, source="openai-chat", target=NAME, on_loss="ignore", losses=losses)
    assert losses == []
    sdk_checked("CreateModelInteraction", body)
    assert [step["type"] for step in body["input"]] == [
        "user_input",
        "function_call",
        "function_call",
        "function_result",
        "function_result",
    ]
    assert body["input"][0]["content"][1] == {"type": "image", "data": "iVBORw0KGgo=", "mime_type": "image/png"}
    assert body["generation_config"] == {"thinking_level": "low"}
    back = chatcodec.convert_request(body, source=NAME, target="openai-chat", on_loss="ignore")
    again = chatcodec.convert_request(session, source="openai-chat", target="openai-chat", on_loss="ignore")
    assert back["messages"] == again["messages"]


def test_another_providers_thinking_is_reported_not_sent() -> None:
    request = {
        "model": "gemini-3-flash-preview",
        "messages": [
            {"role": "user", "content": "Hi"},
            {
                "role": "assistant",
                "content": [{"type": "thinking", "text": "hm", "signature": "x", "provider": "anthropic"}],
            },
        ],
    }
    body, losses = write_request(request)
    assert body["input"] == [{"type": "user_input", "content": [{"type": "text", "text": "Hi"}]}]
    assert [(loss.path, loss.what) for loss in losses] == [("$.messages[1].content[0]", "thinking")]


def test_a_system_message_with_no_text_left_writes_no_system_instruction() -> None:
    """Its only part dropped (reported), there is no instruction to send: an empty
    ``system_instruction`` would say one, which no request said."""
    opaque = {"type": "opaque", "provider": "anthropic", "data": {"type": "container_upload", "file_id": "f"}}
    request = {
        "model": "gemini-3-flash-preview",
        "messages": [{"role": "system", "content": [opaque]}, {"role": "user", "content": "Hi"}],
    }
    body, losses = write_request(request)
    assert "system_instruction" not in body
    assert [(loss.path, loss.what) for loss in losses] == [("$.messages[0].content[0]", "opaque part")]
    sdk_checked("CreateModelInteraction", body)


def test_the_older_schema_spelling_round_trips() -> None:
    """``response_format`` as the schema itself beside ``response_mime_type`` (the field the
    SDK marks deprecated) reads as a JSON schema and is written back in that spelling."""
    body = {
        "model": "m",
        "input": "x",
        "response_format": {"type": "object", "properties": {"a": {"type": "string"}}},
        "response_mime_type": "application/json",
    }
    request = CODEC.decode_request(copy.deepcopy(body))
    assert request.response_format is not None
    assert request.response_format.type == "json_schema"
    assert write_request(CODEC.read_request(copy.deepcopy(body)))[0] == body


@pytest.mark.parametrize(
    ("choice", "canonical"),
    [
        ("any", {"type": "required"}),
        ("none", {"type": "none"}),
        ({"allowed_tools": {"mode": "any", "tools": ["f"]}}, {"type": "tool", "name": "f"}),
    ],
)
def test_tool_choice_both_ways(choice: object, canonical: dict[str, Any]) -> None:
    body = {"model": "m", "input": "x", "generation_config": {"tool_choice": choice}}
    request = CODEC.read_request(copy.deepcopy(body))
    assert request["tool_choice"] == canonical
    assert write_request(request)[0] == body


def test_a_bad_step_names_its_path() -> None:
    body = {"model": "m", "input": [{"type": "function_call", "id": "c", "arguments": {}}]}
    with pytest.raises(ValidationError) as caught:
        CODEC.read_request(body)
    assert "input" in str(caught.value)
    assert "name" in str(caught.value)


def test_a_blank_tool_name_is_sent_fitted_and_reported() -> None:
    """The Interactions types document no rule for a function's name (google-genai 3.6.1
    ``Function.name``), but a blank one names no tool: fitted, and reported at its path."""
    request = {
        "model": "m",
        "messages": [{"role": "user", "content": "x"}],
        "tools": [{"type": "function", "name": " ", "parameters": {"type": "object", "properties": {}}}],
    }
    body, losses = write_request(request)
    assert body["tools"][0]["name"].strip()
    assert [loss.path for loss in losses] == ["$.tools[0].name"]


def test_a_turn_of_one_text_reads_as_its_text_and_the_model_option_names_the_model() -> None:
    request = CODEC.read_request(
        {"model": "m", "input": [{"type": "user_input", "content": [{"type": "text", "text": "x"}]}]}
    )
    assert request["messages"] == [{"role": "user", "content": "x"}]
    written = chatcodec.encode_request(
        NAME, {"messages": request["messages"]}, options={"model": "gemini-3-flash-preview"}
    )
    assert written == {
        "model": "gemini-3-flash-preview",
        "input": [{"type": "user_input", "content": [{"type": "text", "text": "x"}]}],
    }


@pytest.mark.parametrize(
    "body",
    [
        {"model": "gemini-3-flash-preview", "input": []},
        {"model": "gemini-3-flash-preview", "input": [{"type": "user_input"}]},
        {"model": "gemini-3-flash-preview", "input": [{"type": "user_input", "content": []}]},
        {
            "model": "gemini-3-flash-preview",
            "input": [
                {"type": "user_input", "content": [{"type": "text", "text": "Hi"}]},
                {"type": "model_output"},
                {"type": "user_input", "content": [{"type": "text", "text": "Again?"}]},
            ],
        },
    ],
    ids=["empty-input", "user-input-without-content", "user-input-of-no-content", "model-output-without-content"],
)
def test_an_input_of_nothing_round_trips_exactly(body: dict[str, Any]) -> None:
    """The gaps the last session noted: ``input: []`` and a step without ``content`` are written
    back as they came (the SDK's ``UserInputStep.content`` and ``ModelOutputStep.content`` are
    optional), and parse with google-genai 3.6.1's types."""
    written, losses = write_request(CODEC.read_request(copy.deepcopy(body)))
    assert written == body
    assert losses == []
    sdk_checked("CreateModelInteraction", written)


def test_a_generate_content_thought_signature_is_reported_not_moved() -> None:
    """A Gemini ``generateContent`` history (https://ai.google.dev/gemini-api/docs/thought-signatures:
    a thought part and a call's ``thoughtSignature``) toward Interactions: no Google page says the
    API takes such a signature on a ``thought`` step, so each is reported at its place, never
    sent (``families/google/thought_signatures.py`` says why)."""
    history = {
        "contents": [
            {"role": "user", "parts": [{"text": "Weather in Paris?"}]},
            {
                "role": "model",
                "parts": [
                    {"thought": True, "text": "Need the weather.", "thoughtSignature": "c2lnLTE="},
                    {
                        "functionCall": {"name": "get_weather", "args": {"city": "Paris"}},
                        "thoughtSignature": "c2lnLTI=",
                    },
                ],
            },
            {"role": "user", "parts": [{"functionResponse": {"name": "get_weather", "response": {"c": 18}}}]},
        ]
    }
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        history,
        source="gemini",
        target=NAME,
        on_loss="ignore",
        losses=losses,
        options={"model": "gemini-3-flash-preview"},
    )
    assert [step["type"] for step in body["input"]] == ["user_input", "function_call", "function_result"]
    assert "c2lnLTI=" not in str(body)
    assert [(loss.path, loss.what) for loss in losses] == [
        ("$.contents[1].parts[0]", "thinking"),
        ("$.contents[1].parts[1]", "gemini data ['thoughtSignature']"),
    ]
    sdk_checked("CreateModelInteraction", body)


@pytest.mark.parametrize("content", ["", "Be terse."])
def test_a_system_prompt_strings_foreign_bag_is_reported_not_dropped(content: str) -> None:
    # a string system prompt's bag was dropped without a report (a list's was reported):
    # found by law_losses once the strategies drew a system string with another format's bag
    request = chatcodec.ChatRequest.model_validate(
        {
            "model": "m",
            "messages": [{"role": "system", "content": content, "provider_metadata": {"anthropic": {"x": 1}}}],
        }
    )
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_request("gemini-interactions", request, on_loss="ignore", losses=losses)
    assert [(loss.path, loss.what) for loss in losses] == [("$.messages[0]", "anthropic data ['x']")]


def test_an_images_auto_detail_is_the_apis_default_and_the_law_facts_say_so() -> None:
    """``detail: "auto"`` is sent as no ``resolution`` (the API's default) and reads back as none,
    with no report; the law facts held it the caller's, so the losses law failed on such a draw
    (the long profile's, a URL image)."""
    from chatcodec.testing._laws.built_in.gemini_interactions import entry

    image = {"type": "image", "source": {"type": "url", "url": "https://example.com/a.png"}, "detail": "auto"}
    request = chatcodec.validate_model(chatcodec.ChatRequest, {"messages": [{"role": "user", "content": [image]}]})
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request("gemini-interactions", request, on_loss="ignore", losses=losses)
    assert [loss for loss in losses if loss.kind != "required"] == []
    decoded = chatcodec.decode_request("gemini-interactions", body)
    single_hop = entry().single_hop
    assert single_hop.decoded(decoded) == single_hop.original(request)
