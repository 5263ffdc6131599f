"""Nova's own rules, each from the user guide (the fixtures' PROVENANCE.md gives the pages):
the two spellings of ``inferenceConfig``, ``reasoningConfig`` in either place, the model in
the URL, what InvokeModel does not take, the stream's ``chunk`` events, Bedrock batch rows."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec._losses import LossRecorder
from chatcodec.cli import main

FIXTURES = Path(__file__).parents[2] / "fixtures" / "bedrock-nova"
USER = {"role": "user", "content": [{"text": "hi"}]}


def _request(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((FIXTURES / "request" / name).read_text(encoding="utf-8"))
    return loaded


def test_a_snake_marker_that_is_not_a_list_of_names_writes_the_camel_spelling() -> None:
    """Found by the fuzz run (``encode_request[bedrock-nova]``): a ``_snake`` marker the caller
    wrote in ``provider_options`` as a number raised a TypeError from inside the writer. A
    marker that names no setting marks none, so the documented camel spelling is written."""
    request = {
        "messages": [{"role": "user", "content": "hi"}],
        "max_tokens": 512,
        "top_k": 50,
        "provider_options": {"bedrock-nova": {"schemaVersion": "messages-v1", "_snake": 3533000}},
    }
    body = chatcodec.encode_request("bedrock-nova", request)
    assert body["inferenceConfig"] == {"maxTokens": 512, "topK": 50}


@pytest.mark.parametrize(
    ("body_name", "max_key", "top_p_key", "top_k_key"),
    [
        ("system_camel_case.json", "maxTokens", "topP", "topK"),
        ("snake_case_inference.json", "max_new_tokens", "top_p", "top_k"),
    ],
)
def test_either_spelling_reads_as_the_canonical_settings_and_comes_back(
    body_name: str, max_key: str, top_p_key: str, top_k_key: str
) -> None:
    body = _request(body_name)
    request = chatcodec.decode_request("bedrock-nova", body)
    config = body["inferenceConfig"]
    assert (request.max_tokens, request.top_p, request.top_k) == (config[max_key], config[top_p_key], config[top_k_key])
    assert chatcodec.encode_request("bedrock-nova", request) == body


def test_another_format_is_written_with_the_camel_case_names() -> None:
    body = {"model": "m", "max_tokens": 10, "top_p": 0.5, "messages": [{"role": "user", "content": "hi"}]}
    written = chatcodec.convert_request(body, source="openai-chat", target="bedrock-nova", on_loss="ignore")
    assert written["inferenceConfig"] == {"maxTokens": 10, "topP": 0.5}


@pytest.mark.parametrize("body_name", ["reasoning_config.json", "reasoning_in_inference_config.json"])
def test_reasoning_config_reads_as_an_effort_and_goes_back_where_it_was(body_name: str) -> None:
    body = _request(body_name)
    request = chatcodec.decode_request("bedrock-nova", body)
    assert request.reasoning is not None
    assert request.reasoning.enabled is True
    assert request.reasoning.effort in ("low", "medium")
    assert chatcodec.encode_request("bedrock-nova", request) == body


def test_a_budget_is_reported_nova_takes_an_effort() -> None:
    body = {"model": "claude-sonnet-4-5", "max_tokens": 2000, "thinking": {"type": "enabled", "budget_tokens": 1024}}
    body["messages"] = [{"role": "user", "content": "hi"}]
    losses = LossRecorder()
    written = chatcodec.get_codec("bedrock-nova").encode_request(chatcodec.decode_request("anthropic", body), losses)
    assert written["reasoningConfig"] == {"type": "enabled"}
    assert "$.reasoning.budget_tokens" in [loss.path for loss in losses.losses]


def test_the_model_is_in_the_url_not_the_body() -> None:
    body = {"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}
    written = chatcodec.convert_request(body, source="openai-chat", target="bedrock-nova")
    assert "model" not in written
    assert "modelId" not in written


def test_a_document_is_reported_invoke_takes_none() -> None:
    pdf = {"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERg=="}}
    request = chatcodec.ChatRequest(messages=[chatcodec.UserMessage(content=[pdf, {"type": "text", "text": "sum up"}])])
    losses = LossRecorder()
    written = chatcodec.get_codec("bedrock-nova").encode_request(request, losses)
    assert written["messages"] == [{"role": "user", "content": [{"text": "sum up"}]}]
    assert [loss.path for loss in losses.losses] == ["$.messages[0].content[0]"]


def test_a_video_keeps_its_bucket_owner() -> None:
    body = _request("video_s3_location.json")
    request = chatcodec.decode_request("bedrock-nova", body)
    video = request.messages[0].parts[0]
    assert isinstance(video, chatcodec.VideoPart)
    assert video.source.model_dump(exclude_none=True) == {
        "type": "url",
        "url": "s3://my-bucket/videos/clip.mp4",
        "media_type": "video/mp4",
    }


def test_tool_results_and_text_in_one_turn_are_runs_and_one_turn_again() -> None:
    body = _request("tool_use_multi_turn.json")
    body["messages"][2]["content"].append({"text": "and the second most popular?"})
    request = chatcodec.decode_request("bedrock-nova", body)
    assert [message.role for message in request.messages] == ["user", "assistant", "tool", "user"]
    assert chatcodec.encode_request("bedrock-nova", request) == body


def _chunk(event: dict[str, Any]) -> dict[str, Any]:
    return {"chunk": {"bytes": base64.b64encode(json.dumps(event).encode()).decode()}}


def test_a_stream_reads_the_same_as_chunks_or_as_their_events() -> None:
    lines = (FIXTURES / "stream" / "tool_use.jsonl").read_text(encoding="utf-8").splitlines()
    events = [json.loads(line) for line in lines]
    as_events = chatcodec.accumulate_stream("bedrock-nova", events)
    as_chunks = chatcodec.accumulate_stream("bedrock-nova", [_chunk(event) for event in events])
    assert as_chunks == as_events
    assert [part.type for part in as_events.choices[0].message.parts] == ["text", "tool_use"]
    assert as_events.usage is not None
    assert as_events.usage.input_tokens == 416


def test_bedrock_batch_rows_carry_nova_bodies(tmp_path: Path) -> None:
    body = _request("system_camel_case.json")
    source = tmp_path / "rows.jsonl"
    source.write_text(json.dumps({"recordId": "r1", "modelInput": body}) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    code = main(
        [
            "convert",
            str(source),
            "--from",
            "bedrock-batch:bedrock-nova",
            "--to",
            "bedrock-batch:bedrock-nova",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    assert json.loads(out.read_text(encoding="utf-8")) == {"recordId": "r1", "modelInput": body}
    told = tmp_path / "told.jsonl"
    assert (
        main(
            [
                "convert",
                str(source),
                "--from",
                "bedrock-batch",
                "--to",
                "openai-batch",
                "--model",
                "m",
                "--out",
                str(told),
            ]
        )
        == 0
    )
    row = json.loads(told.read_text(encoding="utf-8"))
    assert row["body"]["messages"][0]["role"] == "system"
    assert body["system"][0]["text"] in json.dumps(row["body"]["messages"][0])


@pytest.mark.parametrize(
    ("where", "block"),
    [
        ("user", {"reasoningContent": {"reasoningText": {"text": "r"}}}),
        ("user", {"toolUse": {"toolUseId": "t1", "name": "f", "input": {}}}),
        ("assistant", {"toolResult": {"toolUseId": "t1", "content": [{"text": "42"}]}}),
        ("assistant", {"video": {"format": "mp4", "source": {"s3Location": {"uri": "s3://b/v.mp4"}}}}),
        ("system", {"image": {"format": "png", "source": {"bytes": "iVBORw0KGgo="}}}),
    ],
)
def test_a_block_its_turn_cannot_hold_is_kept_whole_and_sent_back(where: str, block: dict[str, Any]) -> None:
    """A block canonical cannot hold in that role (a server tool's result in an assistant
    turn, Nova 2's web grounding) is an opaque part, as Converse's reader keeps it, not a
    canonical message refused by its own validation."""
    turns: list[dict[str, Any]] = [{"role": "user", "content": [{"text": "q"}]}]
    body: dict[str, Any] = {"messages": turns}
    if where == "system":
        body["system"] = [{"text": "rules"}, block]
    elif where == "user":
        turns[0]["content"].append(block)
    else:
        turns.append({"role": "assistant", "content": [block]})
    request = chatcodec.decode_request("bedrock-nova", body)
    assert "opaque" in [part.type for message in request.messages for part in message.parts]
    assert chatcodec.encode_request("bedrock-nova", request, on_loss="error") == body


def test_system_tools_and_interleaved_order_come_back_as_sent() -> None:
    """Nova 2's built-in tools are ``systemTool`` entries beside ``toolSpec``s in ``toolConfig``
    (https://docs.aws.amazon.com/nova/latest/nova2-userguide/using-tools.html): kept whole, in order."""
    spec = {"toolSpec": {"name": "lookup", "inputSchema": {"json": {"type": "object", "properties": {}}}}}
    body = {"messages": [USER], "toolConfig": {"tools": [{"systemTool": {"name": "nova_grounding"}}, spec]}}
    codec = chatcodec.get_codec("bedrock-nova")
    request = codec.decode_request(body)
    assert [tool.name for tool in request.tools or ()] == ["lookup"]
    assert [tool.data for tool in request.provider_tools or ()] == [{"systemTool": {"name": "nova_grounding"}}]
    losses = LossRecorder()
    assert codec.encode_request(request, losses) == body
    assert losses.losses == []


def test_what_nova_tools_lack_is_reported() -> None:
    """Bedrock's prompt caching caches Nova's ``system`` and ``messages``, not ``tools``; Nova's
    tool guide has no ``strict``; Bedrock rejects an empty description."""
    tool = {"name": "f", "description": "", "parameters": {"type": "object"}, "strict": True}
    request = chatcodec.ChatRequest(
        messages=[chatcodec.UserMessage(content="hi")],
        tools=[{**tool, "cache_control": {"type": "ephemeral"}}],
        tool_choice={"type": "none"},
    )
    losses = LossRecorder()
    written = chatcodec.get_codec("bedrock-nova").encode_request(request, losses)
    assert written["toolConfig"] == {
        "tools": [{"toolSpec": {"name": "f", "inputSchema": {"json": {"type": "object"}}}}]
    }
    assert sorted(loss.path for loss in losses.losses) == [
        "$.tool_choice",
        "$.tools[0].cache_control",
        "$.tools[0].description",
        "$.tools[0].strict",
    ]


def _thinking_request(**thinking: Any) -> chatcodec.ChatRequest:
    return chatcodec.ChatRequest.model_validate(
        {
            "model": "us.amazon.nova-2-lite-v1:0",
            "messages": [
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": [{"type": "thinking", **thinking}, {"type": "text", "text": "ok"}]},
                {"role": "user", "content": "more"},
            ],
        }
    )


def test_nova_reasoning_goes_back_as_reasoning_text_and_anothers_signed_thinking_does_not() -> None:
    """Nova's reasoning is unsigned (the user guide's ``reasoningContent.reasoningText``):
    its own, or unsigned thinking of unknown origin, is sent as it came; Claude's signed
    thinking (the AWS family's thinking writer, Nova's body serving no Claude) is not sent,
    reported."""
    own = chatcodec.encode_request("bedrock-nova", _thinking_request(text="plan", provider="bedrock-nova"))
    assert own["messages"][1]["content"][0] == {"reasoningContent": {"reasoningText": {"text": "plan"}}}
    unknown = chatcodec.encode_request("bedrock-nova", _thinking_request(text="plan"))
    assert unknown["messages"][1]["content"][0] == {"reasoningContent": {"reasoningText": {"text": "plan"}}}
    losses = LossRecorder()
    signed = _thinking_request(text="plan", provider="anthropic", signature="sig", model="claude-sonnet-4-5")
    written = chatcodec.get_codec("bedrock-nova").encode_request(signed, losses)
    assert written["messages"][1]["content"] == [{"text": "ok"}]
    assert [loss.what for loss in losses.losses] == ["thinking part"]


@pytest.mark.parametrize(
    "reasoning",
    [
        {"reasoningText": {"text": "plan", "signature": "sig"}},
        {"redactedContent": base64.b64encode(b"x").decode()},
    ],
)
def test_signed_or_redacted_reasoning_is_kept_whole(reasoning: dict[str, Any]) -> None:
    """Nova's body serves no Claude: a signature or ``redactedContent`` (Claude's) is kept
    whole in its block, and goes back as it came."""
    body = {
        "messages": [
            {"role": "user", "content": [{"text": "hi"}]},
            {"role": "assistant", "content": [{"reasoningContent": reasoning}, {"text": "ok"}]},
        ]
    }
    request = chatcodec.decode_request("bedrock-nova", body)
    assert request.messages[1].parts[0].type == "opaque"
    assert chatcodec.encode_request("bedrock-nova", request) == body


def _encoded_with_losses(message: dict[str, Any]) -> tuple[dict[str, Any], LossRecorder]:
    request = chatcodec.ChatRequest.model_validate({"model": "us.amazon.nova-2-lite-v1:0", "messages": [message]})
    losses = LossRecorder()
    return chatcodec.get_codec("bedrock-nova").encode_request(request, losses), losses


def test_a_document_is_reported_its_body_has_no_document_blocks() -> None:
    """ "Document Support is limited to only Converse API" (the Nova user guide): the AWS
    family's part writer reports a document for Nova's body (``Body.lacks``) and sends the
    rest of the turn."""
    document = {"type": "document", "source": {"type": "text", "text": "notes", "media_type": "text/plain"}}
    written, losses = _encoded_with_losses({"role": "user", "content": [{"type": "text", "text": "read"}, document]})
    assert written["messages"] == [{"role": "user", "content": [{"text": "read"}]}]
    assert [(loss.path, loss.why) for loss in losses.losses] == [
        ("$.messages[0].content[1]", "Amazon Nova's body has no document blocks")
    ]


def test_a_marked_last_item_of_a_tool_result_is_a_cache_point_after_the_result() -> None:
    """A ``toolResult`` holds no ``cachePoint``; one right after it caches the same prefix
    (Bedrock's prompt caching caches Nova's ``messages``), as Converse writes it."""
    call = {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "f", "arguments": "{}"}]}
    marked = {"type": "text", "text": "42", "cache_control": {"type": "ephemeral"}}
    result = {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": [marked]}]}
    request = chatcodec.ChatRequest.model_validate(
        {"model": "us.amazon.nova-2-lite-v1:0", "messages": [{"role": "user", "content": "q"}, call, result]}
    )
    written = chatcodec.encode_request("bedrock-nova", request)
    assert written["messages"][2]["content"] == [
        {"toolResult": {"toolUseId": "t1", "content": [{"text": "42"}]}},
        {"cachePoint": {"type": "default"}},
    ]


@pytest.mark.parametrize("role", ["user", "tool"])
def test_a_message_marker_on_a_part_already_marked_is_one_cache_point(role: str) -> None:
    """A message's ``cache_control`` is a ``cachePoint`` after its last block; when that block
    is marked already (its part's own marker), one point marks it, as on Converse: a second
    point in a row marks nothing more and counts against the request's cache points. A text
    block holds its point (Nova's InvokeModel form); a ``toolResult`` has it after it."""
    if role == "tool":
        part = {"type": "tool_result", "tool_use_id": "t1", "content": "ok", "cache_control": {"type": "ephemeral"}}
    else:
        part = {"type": "text", "text": "hi", "cache_control": {"type": "ephemeral"}}
    request = {"messages": [{"role": role, "content": [part], "cache_control": {"type": "ephemeral"}}]}
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request("bedrock-nova", request, on_loss="ignore", losses=losses)
    blocks = body["messages"][-1]["content"]
    assert ["cachePoint" in block for block in blocks] == ([False, True] if role == "tool" else [True])
    assert [loss for loss in losses if loss.what == "cache_control"] == []


@pytest.mark.parametrize("effort", ["low", "high", "minimal"])
def test_an_effort_beside_disabled_reasoning_is_reported_nova_sends_disabled_alone(effort: str) -> None:
    """Nova's ``reasoningConfig`` is ``{"type": "disabled"}`` or ``{"type": "enabled",
    "maxReasoningEffort": ...}``: an effort asked beside disabled reasoning (which Converse
    carries as Claude's ``outputConfig.effort``) has no place, so it is reported."""
    request = {"messages": [{"role": "user", "content": "hi"}], "reasoning": {"enabled": False, "effort": effort}}
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request("bedrock-nova", request, on_loss="ignore", losses=losses)
    assert body["reasoningConfig"] == {"type": "disabled"}
    assert [(loss.path, loss.what) for loss in losses] == [("$.reasoning.effort", f"effort {effort!r}")]
