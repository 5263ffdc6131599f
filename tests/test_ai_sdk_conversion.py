"""``ai-sdk-ui`` -> ``ai-sdk-model`` held to the AI SDK's own ``convertToModelMessages`` (the
``ai`` package js/package-lock.json pins, 6.0.325, run in node by js/ai_sdk_check.mjs, which
also checks what it gives with ``modelMessageSchema``), and to pydantic-ai's Vercel adapter
(``pydantic_ai.ui.vercel_ai.VercelAIAdapter.load_messages``, pydantic-ai-slim 2.68.0), for what
issue 76 found the two forms did not carry: other providers' ``providerMetadata``, a system
message's text parts, a media type with parameters, a failed call's ``rawInput``, a message of
data parts only, a denied call and tool approvals. Each history also comes back exactly through
its own form.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from js_packages import node_with_packages, run_in_js


def _convert(body: Any, source: str, target: str) -> tuple[Any, list[chatcodec.Loss]]:
    losses: list[chatcodec.Loss] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        written = chatcodec.convert_request(
            body, source=source, target=target, options={"skip_rules": "*"}, losses=losses
        )
    return written, losses


def _sdk_converted(ui_messages: list[dict[str, Any]], tmp_path: Path) -> list[dict[str, Any]]:
    """What ``convertToModelMessages`` makes of ``ui_messages`` (each message of it checked
    with ``modelMessageSchema``)."""
    batch = tmp_path / "batch.json"
    batch.write_text(json.dumps([{"kind": "ui", "messages": ui_messages}]))
    result = run_in_js([node_with_packages(), "ai_sdk_check.mjs", str(batch)])
    assert result.returncode == 0, result.stderr
    [verdict] = json.loads(result.stdout)
    assert verdict["valid"], verdict["errors"]
    converted: list[dict[str, Any]] = verdict["converted"]
    return converted


def _exact_through_its_own_form(history: dict[str, Any], fmt: str = "ai-sdk-ui") -> None:
    written, losses = _convert(history, fmt, fmt)
    assert written == history
    assert losses == []


USER = {"id": "u1", "role": "user", "parts": [{"type": "text", "text": "Tidy my files."}]}


def _assistant(*parts: dict[str, Any]) -> dict[str, Any]:
    return {"id": "a1", "role": "assistant", "parts": list(parts)}


OPTIONED = {
    "messages": [
        {
            "id": "s1",
            "role": "system",
            "parts": [
                {"type": "text", "text": "Be brief. "},
                {"type": "text", "text": "Answer in French.", "providerMetadata": {"openai": {"note": 1}}},
            ],
        },
        {
            "id": "u1",
            "role": "user",
            "parts": [
                {"type": "text", "text": "Read it.", "providerMetadata": {"openai": {"itemId": "msg_1"}}},
                {
                    "type": "file",
                    "mediaType": "application/pdf",
                    "url": "https://x.test/a.pdf",
                    "providerMetadata": {"mistral": {"pages": 2}},
                },
            ],
        },
        _assistant(
            {"type": "reasoning", "text": "Look.", "providerMetadata": {"openai": {"itemId": "rs_1"}}},
            {
                "type": "tool-read",
                "toolCallId": "c1",
                "state": "input-available",
                "input": {},
                "callProviderMetadata": {"xai": {"trace": "t"}},
            },
        ),
    ]
}


def test_other_providers_metadata_is_sent_as_provider_options(tmp_path: Path) -> None:
    """A UI part's ``providerMetadata`` (a call's ``callProviderMetadata``) of a provider
    chatcodec does not model is the ``providerOptions`` ``convertToModelMessages`` writes on
    the part it makes (a system message's parts' merged into the message's), not a loss; a
    system message's text parts are joined with nothing between them, as the AI SDK joins them."""
    written, losses = _convert(OPTIONED, "ai-sdk-ui", "ai-sdk-model")
    sdk = _sdk_converted(OPTIONED["messages"], tmp_path)
    assert written["messages"][0] == sdk[0]
    assert written["messages"][1]["content"][0] == sdk[1]["content"][0]
    assert written["messages"][1]["content"][1] == sdk[1]["content"][1]
    assert written["messages"][2] == sdk[2]
    assert all("providerMetadata" not in loss.what for loss in losses)
    back, back_losses = _convert({"messages": sdk}, "ai-sdk-model", "ai-sdk-ui")
    assert back["messages"][2]["parts"] == OPTIONED["messages"][2]["parts"]
    assert back["messages"][1]["parts"][1] == OPTIONED["messages"][1]["parts"][1]
    assert not [loss for loss in back_losses if loss.path.startswith("$.messages[1].content")]
    _exact_through_its_own_form(OPTIONED)


ANSWERED = {
    "messages": [
        USER,
        _assistant(
            {
                "type": "tool-read",
                "toolCallId": "c1",
                "state": "output-available",
                "input": {},
                "output": "3",
                "callProviderMetadata": {"xai": {"trace": "t"}},
                "resultProviderMetadata": {"xai": {"ran": "r"}},
            }
        ),
    ]
}


def test_an_answered_tool_part_s_call_options_are_its_result_s_provider_options_too() -> None:
    """``convertToModelMessages`` writes a client-run tool part's ``callProviderMetadata`` as
    the ``providerOptions`` of both parts it makes, the ``tool-call`` and the ``tool-result``
    (the AI SDK's own test "should handle assistant message with tool output available",
    packages/ai/src/ui/convert-to-model-messages.test.ts), and sends no
    ``resultProviderMetadata`` for it: that one stays reported (issue 108)."""
    written, losses = _convert(ANSWERED, "ai-sdk-ui", "ai-sdk-model")
    call, result = written["messages"][1]["content"][0], written["messages"][2]["content"][0]
    assert call["providerOptions"] == result["providerOptions"] == {"xai": {"trace": "t"}}
    assert result == {
        "type": "tool-result",
        "toolCallId": "c1",
        "toolName": "read",
        "output": {"type": "text", "value": "3"},
        "providerOptions": {"xai": {"trace": "t"}},
    }
    assert [loss.what for loss in losses if "ProviderMetadata" in loss.what] == [
        "ai-sdk-ui data ['resultProviderMetadata']"
    ]
    _exact_through_its_own_form(ANSWERED)


@pytest.mark.parametrize("media_type", ["application/pdf; name=report.pdf", "Application/PDF"])
def test_a_media_type_with_parameters_is_recognised(media_type: str, tmp_path: Path) -> None:
    """``application/pdf; name=report.pdf`` (and ``Application/PDF``: RFC 9110 makes the type
    case-insensitive) is a PDF to every provider; the AI SDK forms keep it as it was spelt,
    as ``convertToModelMessages`` passes it on."""
    part = {"type": "file", "mediaType": media_type, "url": "data:application/pdf;base64,JVBERi0xLjQK"}
    history = {"messages": [{"id": "u1", "role": "user", "parts": [{"type": "text", "text": "Sum up."}, part]}]}
    anthropic, _ = _convert(history, "ai-sdk-ui", "anthropic")
    assert anthropic["messages"][0]["content"][1]["source"] == {
        "type": "base64",
        "media_type": "application/pdf",
        "data": "JVBERi0xLjQK",
    }
    bedrock, _ = _convert(history, "ai-sdk-ui", "bedrock-converse")
    assert bedrock["messages"][0]["content"][1]["document"]["format"] == "pdf"
    written, losses = _convert(history, "ai-sdk-ui", "ai-sdk-model")
    assert (
        written["messages"][0]["content"][1]["mediaType"]
        == _sdk_converted(history["messages"], tmp_path)[0]["content"][1]["mediaType"]
    )
    assert losses == [loss for loss in losses if loss.what == "ai-sdk-ui data ['id']"]
    _exact_through_its_own_form(history)
    _exact_through_its_own_form(written, "ai-sdk-model")


def test_a_data_url_spelling_its_own_type_comes_back_as_it_came() -> None:
    """A ``data:`` URL whose own media type is not the part's ``mediaType`` (parameters, or
    another type) is written back as it came, in both forms."""
    url = "data:application/pdf;name=report.pdf;base64,JVBERi0xLjQK"
    ui = {
        "messages": [
            {"id": "u1", "role": "user", "parts": [{"type": "file", "mediaType": "application/pdf", "url": url}]}
        ]
    }
    model = {"messages": [{"role": "user", "content": [{"type": "file", "data": url, "mediaType": "application/pdf"}]}]}
    _exact_through_its_own_form(ui)
    _exact_through_its_own_form(model, "ai-sdk-model")


RAW_INPUT = {
    "messages": [
        USER,
        _assistant(
            {
                "type": "tool-delete",
                "toolCallId": "c1",
                "state": "output-error",
                "rawInput": '{"path": "a.txt"',
                "errorText": "Invalid input: unexpected end of JSON.",
            },
            {
                "type": "tool-delete",
                "toolCallId": "c2",
                "state": "output-error",
                "rawInput": {"path": 7},
                "errorText": "path: expected a string",
            },
        ),
    ]
}


def test_a_failed_call_without_input_is_sent_with_its_raw_input(tmp_path: Path) -> None:
    """An ``output-error`` tool part with ``rawInput`` and no ``input`` (an input that did not
    parse or validate) is sent with ``rawInput`` as the call's input, as
    ``convertToModelMessages`` sends it, not as ``{}``."""
    written, losses = _convert(RAW_INPUT, "ai-sdk-ui", "ai-sdk-model")
    sdk = _sdk_converted(RAW_INPUT["messages"], tmp_path)
    assert written["messages"][1:] == sdk[1:]
    assert not [loss for loss in losses if "rawInput" in loss.what]
    openai, _ = _convert(RAW_INPUT, "ai-sdk-ui", "openai-chat")
    assert openai["messages"][1]["tool_calls"][1]["function"]["arguments"] == '{"path":7}'
    _exact_through_its_own_form(RAW_INPUT)


def _pydantic_ai(ui_messages: list[dict[str, Any]]) -> list[Any]:
    """pydantic-ai's messages for ``ui_messages``, read by its Vercel adapter."""
    from pydantic import TypeAdapter
    from pydantic_ai.ui.vercel_ai import VercelAIAdapter
    from pydantic_ai.ui.vercel_ai.request_types import UIMessage

    return VercelAIAdapter.load_messages(TypeAdapter(list[UIMessage]).validate_python(ui_messages))


DATA_ONLY = {
    "messages": [
        USER,
        {"id": "d1", "role": "user", "parts": [{"type": "data-weather", "data": {"city": "Paris"}}]},
        {"id": "d2", "role": "assistant", "parts": [{"type": "data-progress", "data": 0.5}]},
        {"id": "a1", "role": "assistant", "parts": [{"type": "text", "text": "Sunny."}]},
    ]
}


@pytest.mark.parametrize("target", ["ai-sdk-model", "openai-chat", "anthropic", "pydantic-ai"])
def test_a_message_of_data_parts_only_is_left_out(target: str, tmp_path: Path) -> None:
    """A ``UIMessage`` of app data parts only has nothing to send: left out, reported at its
    path, as pydantic-ai's adapter leaves it out and ``convertToModelMessages`` leaves out
    such an assistant message (an empty turn is refused by the providers)."""
    written, losses = _convert(DATA_ONLY, "ai-sdk-ui", target)
    assert len(written["messages"]) == 2  # pydantic-ai's too: no user prompt of [], no response of no parts
    assert {"$.messages[1]", "$.messages[2]"} <= {loss.path.split(".content")[0] for loss in losses}
    assert [message.kind for message in _pydantic_ai(DATA_ONLY["messages"])] == ["request", "response"]
    if target == "ai-sdk-model":
        assert [message["role"] for message in _sdk_converted(DATA_ONLY["messages"], tmp_path)] == [
            "user",
            "user",  # the AI SDK keeps an empty user message, which the providers refuse
            "assistant",
        ]
    _exact_through_its_own_form(DATA_ONLY)


def _tool(call_id: str, state: str, **fields: Any) -> dict[str, Any]:
    return {"type": "tool-delete", "toolCallId": call_id, "state": state, "input": {"path": call_id}, **fields}


DENIED = {
    "messages": [
        USER,
        _assistant(
            _tool("c1", "output-denied", approval={"id": "ap1", "approved": False, "reason": "Keep that one."}),
            _tool("c2", "output-denied", approval={"id": "ap2", "approved": False}),
        ),
    ]
}


def test_a_denied_call_is_answered_as_the_ai_sdk_answers_it(tmp_path: Path) -> None:
    """An ``output-denied`` tool part (AI SDK 6's approval flow) is a call with an error
    result: the approval's reason, else ``convertToModelMessages``'s "Tool call execution
    denied." (pydantic-ai answers with the reason too). Before, the call was left without a
    result, which OpenAI and Anthropic refuse on every later turn."""
    written, _ = _convert(DENIED, "ai-sdk-ui", "ai-sdk-model")
    assert written["messages"][1:] == _sdk_converted(DENIED["messages"], tmp_path)[1:]
    anthropic, _ = _convert(DENIED, "ai-sdk-ui", "anthropic")
    assert anthropic["messages"][2]["content"] == [
        {"type": "tool_result", "tool_use_id": "c1", "content": "Keep that one.", "is_error": True},
        {"type": "tool_result", "tool_use_id": "c2", "content": "Tool call execution denied.", "is_error": True},
    ]
    returns = [part for message in _pydantic_ai(DENIED["messages"]) for part in message.parts]
    assert [(part.tool_call_id, part.content, part.outcome) for part in returns if part.part_kind == "tool-return"] == [
        ("c1", "Keep that one.", "denied"),
        ("c2", "The tool call was denied.", "denied"),  # pydantic-ai's own text (its ToolDenied's)
    ]
    _exact_through_its_own_form(DENIED)


APPROVALS = {
    "messages": [
        USER,
        _assistant(
            _tool("c1", "approval-requested", approval={"id": "ap1"}),
            _tool("c2", "approval-responded", approval={"id": "ap2", "approved": True, "reason": "Fine."}),
            _tool("c3", "output-available", output="deleted", approval={"id": "ap3", "approved": True}),
            _tool("c4", "output-denied", approval={"id": "ap4", "approved": False, "reason": "No."}),
            {"type": "step-start"},
            {"type": "text", "text": "Done what I may.", "state": "done"},
        ),
    ]
}


def test_tool_approvals_travel_between_the_two_forms(tmp_path: Path) -> None:
    """A tool part's ``approval`` is the ``tool-approval-request`` (after its call) and
    ``tool-approval-response`` (in the tool message, before its result) parts
    ``convertToModelMessages`` makes of it, and those parts, as the AI SDK writes them, are
    the UI parts' approvals again; any other format reports them."""
    written, losses = _convert(APPROVALS, "ai-sdk-ui", "ai-sdk-model")
    sdk = _sdk_converted(APPROVALS["messages"], tmp_path)
    assert written["messages"][1:] == sdk[1:]
    assert [loss.path for loss in losses] == ["$.messages[0]", "$.messages[1]"]  # the UIMessage ids
    back, back_losses = _convert({"messages": sdk}, "ai-sdk-model", "ai-sdk-ui")
    assert back["messages"][1]["parts"] == APPROVALS["messages"][1]["parts"]
    assert back_losses == []
    _exact_through_its_own_form(APPROVALS)
    _exact_through_its_own_form({"messages": sdk}, "ai-sdk-model")
    _, openai_losses = _convert(APPROVALS, "ai-sdk-ui", "openai-chat")
    reported = {(loss.path, loss.what) for loss in openai_losses}
    assert ("$.messages[1].content[1]", "ai-sdk-model block") in reported  # a request
    assert ("$.messages[2]", "ai-sdk-model data ['approvals']") in reported  # the responses


def test_an_approval_keeps_what_the_model_form_has_no_place_for() -> None:
    """An approval's ``descriptor`` rides on the call (reported by ``ai-sdk-model``); its
    ``signature`` travels in the request part, as ``convertToModelMessages`` sends it."""
    approval = {"id": "ap1", "descriptor": {"title": "Delete"}, "signature": "hmac"}
    history = {"messages": [USER, _assistant(_tool("c1", "approval-requested", approval=approval))]}
    _exact_through_its_own_form(history)
    written, losses = _convert(history, "ai-sdk-ui", "ai-sdk-model")
    assert written["messages"][1]["content"][1] == {
        "type": "tool-approval-request",
        "approvalId": "ap1",
        "toolCallId": "c1",
        "signature": "hmac",
    }
    assert ("$.messages[1].content[0]", "ai-sdk-ui data ['approval']") in {(loss.path, loss.what) for loss in losses}


def test_an_answer_with_no_part_a_ui_message_holds_is_still_one_message() -> None:
    # Found by the framework fuzz (convert_response[langchain->ai-sdk-ui]): an answer whose one
    # block has no place in a UIMessage (here a LangChain block of an unknown type, kept opaque)
    # left the writer no message, and an IndexError escaped. The answer is one assistant
    # UIMessage (the AI SDK's UIMessage requires id, role and parts), its part reported.
    answer = {"type": "ai", "data": {"content": [{"type": "odd", "text": "The capital is Paris."}]}}
    losses: list[chatcodec.Loss] = []
    written = chatcodec.convert_response(
        answer, source="langchain", target="ai-sdk-ui", on_loss="ignore", losses=losses
    )
    assert [message["role"] for message in written["messages"]] == ["assistant"]
    assert written["messages"][0]["parts"] == []
    assert losses


ANSWERED_NOT_RUN = {
    "messages": [
        USER,
        _assistant(_tool("c1", "approval-responded", approval={"id": "ap1", "approved": True, "reason": "Fine."})),
    ]
}


def test_an_approval_answered_before_its_call_ran_is_its_own_tool_message(tmp_path: Path) -> None:
    """Issue 101: a call approved but not run yet has no result, so ``convertToModelMessages``
    sends its ``tool-approval-response`` in a tool message holding nothing else (the next
    ``streamText`` step runs the call). A canonical tool message holds results: the answer rides
    on the assistant turn before it, and each AI SDK form writes it back where it has it (it was
    a ValidationError, an empty tool message)."""
    written, losses = _convert(ANSWERED_NOT_RUN, "ai-sdk-ui", "ai-sdk-model")
    sdk = _sdk_converted(ANSWERED_NOT_RUN["messages"], tmp_path)
    assert written["messages"][1:] == sdk[1:]
    assert sdk[-1] == {
        "role": "tool",
        "content": [{"type": "tool-approval-response", "approvalId": "ap1", "approved": True, "reason": "Fine."}],
    }
    assert [loss.path for loss in losses] == ["$.messages[0]", "$.messages[1]"]  # the UIMessage ids
    back, back_losses = _convert({"messages": sdk}, "ai-sdk-model", "ai-sdk-ui")
    assert back["messages"][1]["parts"] == ANSWERED_NOT_RUN["messages"][1]["parts"]
    assert back_losses == []
    _exact_through_its_own_form(ANSWERED_NOT_RUN)
    _exact_through_its_own_form({"messages": sdk}, "ai-sdk-model")
    _, openai_losses = _convert(ANSWERED_NOT_RUN, "ai-sdk-ui", "openai-chat")
    assert ("$.messages[1]", "ai-sdk-model data ['approval_responses']") in {
        (loss.path, loss.what) for loss in openai_losses
    }


def test_an_assistants_image_is_a_file_part_as_the_ai_sdk_writes_it(tmp_path: Path) -> None:
    """An assistant ``ModelMessage`` holds ``file`` parts, never ``image`` ones
    (``modelMessageSchema``'s assistant content): a generated image of the assistant is written
    as ``convertToModelMessages`` writes it, its provider metadata for a provider chatcodec does
    not model kept as the part's ``providerOptions`` (issue 101; an ``image`` part failed the schema)."""
    image = {
        "type": "file",
        "mediaType": "image/png",
        "url": "https://e.com/a.png",
        "providerMetadata": {"acme": {"x": 1}},
    }
    history = {"messages": [USER, _assistant(image)]}
    written, losses = _convert(history, "ai-sdk-ui", "ai-sdk-model")
    sdk = _sdk_converted(history["messages"], tmp_path)
    assert written["messages"][1:] == sdk[1:]
    assert [loss.path for loss in losses] == ["$.messages[0]", "$.messages[1]"]  # the UIMessage ids
    _exact_through_its_own_form(history)
    _exact_through_its_own_form({"messages": sdk}, "ai-sdk-model")
