"""An empty system prompt (a system message with no parts: Bedrock Converse's ``system: []``,
botocore's ``SystemContentBlocks`` list with no member) says nothing to the model. A format
whose instructions are messages sends none for it: OpenAI refuses ``content: []`` ("Invalid
'messages[0].content': empty array. Expected an array with minimum length 1"), Gemini a
``Content`` of no parts ("contents.parts must not be empty"), Ollama would get an empty
turn. The shared history rules leave it out, unreported (an empty prompt is no prompt, the
target's default: no loss, as ``_losses`` says of such values); a format with a top-level prompt that
can say ``system: []`` (Anthropic's ``system`` list of text blocks, Bedrock's) writes it."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from chatcodec._registry import PROVIDER_NAMES, get_codec

TARGETS = [name for name in PROVIDER_NAMES if hasattr(get_codec(name), "encode_request")]
BEDROCK = {"modelId": "m", "system": [], "messages": [{"role": "user", "content": [{"text": "hi"}]}]}
EMPTY_SYSTEM = [pytest.param("system", id="system"), pytest.param("developer", id="developer")]


def _instructions(target: str, body: dict[str, Any]) -> list[Any]:
    """What ``body`` sends as instructions, read back: the system and developer messages."""
    request = chatcodec.decode_request(target, body)
    return [message for message in request.messages if message.role in ("system", "developer")]


@pytest.mark.parametrize("target", TARGETS)
def test_bedrock_system_of_no_blocks_is_no_empty_instruction_message(target: str) -> None:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(BEDROCK, source="bedrock-converse", target=target, on_loss="ignore", losses=losses)
    empty = [message for message in _instructions(target, body) if not message.content]
    capabilities = get_codec(target).capabilities
    if capabilities.empty_system:  # a top-level ``system: []``, as Bedrock itself says it
        assert capabilities.system != "messages"
        assert body["system"] == []
        assert len(empty) == 1
    else:
        assert empty == []
        assert [loss for loss in losses if loss.path.startswith("$.messages")] == []


@pytest.mark.parametrize("role", EMPTY_SYSTEM)
@pytest.mark.parametrize("target", TARGETS)
def test_an_empty_instruction_anywhere_is_sent_as_nothing_or_as_itself(target: str, role: str) -> None:
    """A canonical request with an empty system or developer message, first and after a turn:
    the target's body is the body of the request without them, or (a format
    that can say an empty prompt) that body with ``system: []``."""
    empty = {"role": role, "content": []}
    user, answer = {"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}
    with_empty = {"model": "m", "max_tokens": 5, "messages": [empty, user, answer, empty, user]}
    without = {**with_empty, "messages": [user, answer, user]}
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request(target, with_empty, on_loss="ignore", losses=losses)
    if not get_codec(target).capabilities.empty_system:
        assert body == chatcodec.encode_request(target, without, on_loss="ignore")
        assert [loss for loss in losses if loss.path.startswith("$.messages")] == []
    else:  # the leading one is the top-level ``system: []``; a later one is an empty turn, reported
        assert body.pop("system") == []
        assert body == chatcodec.encode_request(target, without, on_loss="ignore")
        assert "$.messages[3]" in {loss.path for loss in losses}


@pytest.mark.parametrize("name", ["", "planner"])
@pytest.mark.parametrize("target", [target for target in TARGETS if not get_codec(target).capabilities.empty_system])
def test_an_empty_instruction_with_a_name_is_not_left_out_unsaid(target: str, name: str) -> None:
    """A name is something the message says, even ``""``: such a message is no empty prompt,
    so it is not left out silently; the writer sends or reports what it holds."""
    request = {
        "model": "m",
        "messages": [{"role": "system", "content": [], "name": name}, {"role": "user", "content": "hi"}],
    }
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request(target, request, on_loss="ignore", losses=losses)
    reported = [loss for loss in losses if loss.path.startswith("$.messages[0]")]
    back = chatcodec.decode_request(target, body)
    assert reported or any(message.name == name for message in back.messages), (target, body, losses)
