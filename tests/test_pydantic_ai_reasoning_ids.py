"""pydantic-ai histories recorded against OpenAI's Responses API replay with their reasoning
item ids (issue 65 follow-up).

pydantic-ai maps a Responses ``reasoning`` item to one ``ThinkingPart`` per summary, each with
the item's ``id`` and the first with its ``encrypted_content`` as ``signature``
(``pydantic_ai.models.openai._reasoning.map_reasoning_item``, the oracle here), and sends a
``ThinkingPart`` back as a reasoning item only when it has an ``id``. chatcodec keeps that id
where the Responses reader keeps a reasoning item's (the first thinking part's
``openai-responses`` bag), so the id was reported lost on the way to Responses, and a
Responses history read into pydantic-ai came without ids.
"""

from __future__ import annotations

from typing import Any

from openai.types.responses import ResponseReasoningItem
from pydantic_ai.messages import (
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    TextPart,
    ThinkingPart,
    UserPromptPart,
)
from pydantic_ai.models.openai._reasoning import map_reasoning_item

import chatcodec

REASONING: dict[str, Any] = {
    "id": "rs_68c1",
    "type": "reasoning",
    "summary": [{"type": "summary_text", "text": "First, the units."}, {"type": "summary_text", "text": "Then add."}],
    "encrypted_content": "gAAAAB-enc",
}
"""A reasoning item of two summaries, as the Responses API returns one with
``include: ["reasoning.encrypted_content"]`` (checked by the openai SDK's type below)."""


def _history(thinking: list[ThinkingPart]) -> list[dict[str, Any]]:
    messages: list[ModelMessage] = [
        ModelRequest(parts=[UserPromptPart("2 m + 30 cm?")]),
        ModelResponse(parts=[*thinking, TextPart("2.3 m")], model_name="gpt-5", provider_name="openai"),
        ModelRequest(parts=[UserPromptPart("In feet?")]),
    ]
    stored: list[dict[str, Any]] = ModelMessagesTypeAdapter.dump_python(messages, mode="json")
    return stored


def test_a_recorded_reasoning_item_goes_to_responses_with_its_id() -> None:
    """The parts pydantic-ai made of a reasoning item are sent as that one item, id and all,
    with no loss reported for the id."""
    thinking = map_reasoning_item(ResponseReasoningItem.model_validate(REASONING), "openai")
    assert [part.id for part in thinking] == ["rs_68c1", "rs_68c1"]
    losses: list[chatcodec.Loss] = []
    sent = chatcodec.convert_request(
        {"messages": _history(thinking), "model": "gpt-5"},
        source="pydantic-ai",
        target="openai-responses",
        on_loss="ignore",
        losses=losses,
    )
    assert [item for item in sent["input"] if item.get("type") == "reasoning"] == [REASONING]
    assert [loss.path for loss in losses if loss.path.startswith("$.messages[1].parts")] == []
    back = chatcodec.convert_request(sent, source="openai-responses", target="pydantic-ai", on_loss="ignore")
    loaded = ModelMessagesTypeAdapter.validate_python(back["messages"])[1]
    assert isinstance(loaded, ModelResponse)
    parts = [part for part in loaded.parts if isinstance(part, ThinkingPart)]
    assert [(part.content, part.id, part.provider_name) for part in parts] == [
        (part.content, part.id, part.provider_name) for part in thinking
    ]


def test_a_responses_history_reads_into_pydantic_ai_with_the_ids_pydantic_ai_gives() -> None:
    """A Responses body read into pydantic-ai gives each summary's ``ThinkingPart`` the item's
    id, as pydantic-ai's own mapping does (so pydantic-ai replays it as a reasoning item), and
    one of them the encrypted content."""
    body = {
        "model": "gpt-5",
        "input": [
            {"role": "user", "content": "2 m + 30 cm?"},
            REASONING,
            {"role": "assistant", "content": "2.3 m"},
            {"role": "user", "content": "In feet?"},
        ],
    }
    written = chatcodec.convert_request(body, source="openai-responses", target="pydantic-ai", on_loss="ignore")
    response = ModelMessagesTypeAdapter.validate_python(written["messages"])[1]
    assert isinstance(response, ModelResponse)
    parts = [part for part in response.parts if isinstance(part, ThinkingPart)]
    expected = map_reasoning_item(ResponseReasoningItem.model_validate(REASONING), "openai")
    assert [(part.content, part.id) for part in parts] == [(part.content, part.id) for part in expected]
    assert [part.signature for part in parts if part.signature] == ["gAAAAB-enc"]
    again = chatcodec.convert_request(written, source="pydantic-ai", target="openai-responses", on_loss="ignore")
    assert [item for item in again["input"] if item.get("type") == "reasoning"] == [REASONING]


def test_ids_of_each_kind_come_back_exactly_through_pydantic_ai() -> None:
    """Two items in a row, an id repeated for a second summary, and a null id each come back
    as they were through pydantic-ai's own format."""
    thinking = [
        ThinkingPart("a", id="rs_1", signature="enc1", provider_name="openai"),
        ThinkingPart("b", id="rs_1", provider_name="openai"),
        ThinkingPart("c", id="rs_2", signature="enc2", provider_name="openai"),
        ThinkingPart("d", provider_name="openai"),
    ]
    stored = {"messages": _history(thinking)}
    losses: list[chatcodec.Loss] = []
    assert chatcodec.convert_request(stored, source="pydantic-ai", target="pydantic-ai", losses=losses) == stored
    assert losses == []
    sent = chatcodec.convert_request(stored, source="pydantic-ai", target="openai-responses", on_loss="ignore")
    assert [item.get("id") for item in sent["input"] if item.get("type") == "reasoning"] == ["rs_1", "rs_2"]
