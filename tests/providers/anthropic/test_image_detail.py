"""An image's ``detail`` from OpenAI Chat to Anthropic: OpenAI Chat's reader reads it as
canonical ``ImagePart.detail``, and Anthropic's writer drops it (``"auto"`` silently, a
real hint with a loss)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, get_args

import pytest

import chatcodec
from chatcodec._losses import LossRecorder
from chatcodec._model.content import ImagePart
from chatcodec._providers.openai_chat import common_shapes
from chatcodec._registry import get_codec

EXAMPLE = Path(__file__).resolve().parents[3] / "examples" / "agent_session.openai-chat.json"
URL = "https://example.com/cat.png"


def _body(image_url: dict[str, Any]) -> dict[str, Any]:
    content = [{"type": "text", "text": "look"}, {"type": "image_url", "image_url": image_url}]
    return {"model": "gpt-4.1", "max_completion_tokens": 100, "messages": [{"role": "user", "content": content}]}


def _general(body: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The general path's conversion (strict reading takes it) and its losses."""
    losses: list[chatcodec.Loss] = []
    converted = chatcodec.convert_request(
        body, source="openai-chat", target="anthropic", on_loss="ignore", losses=losses, strict=True
    )
    return converted, [str(loss) for loss in losses]


@pytest.mark.parametrize("detail", ["auto", "low", "high"])
def test_an_image_detail_converts_as_strict_reading_converts_it(detail: str) -> None:
    """Strict reading checks the payload first and then reads it as the default does."""
    body = _body({"url": URL, "detail": detail})
    losses: list[chatcodec.Loss] = []
    wire = chatcodec.convert_request(
        copy.deepcopy(body), source="openai-chat", target="anthropic", on_loss="ignore", losses=losses
    )
    assert (wire, [str(loss) for loss in losses]) == _general(body)


def test_a_real_hint_is_a_loss_at_its_path_and_auto_is_none() -> None:
    _, high = _general(_body({"url": URL, "detail": "high"}))
    _, auto = _general(_body({"url": URL, "detail": "auto"}))
    assert high == ["$.messages[0].content[1].detail: image detail 'high' (Anthropic has no resolution hint)"]
    assert auto == []


def test_the_openai_chat_reader_reads_detail_as_canonical_and_keeps_other_values() -> None:
    reader = get_codec("openai-chat")
    decoded = reader.read_request(_body({"url": URL, "detail": "low"}))
    assert decoded["messages"][0]["content"][1] == {
        "type": "image",
        "source": {"type": "url", "url": URL},
        "detail": "low",
    }
    original = reader.read_request(_body({"url": URL, "detail": "original"}))["messages"][0]["content"][1]
    assert original["provider_metadata"] == {"openai-chat": {"image_url": {"detail": "original"}}}  # kept in a bag


def test_the_writer_drops_detail_and_writes_a_marker_beside_it() -> None:
    image = {
        "type": "image",
        "source": {"type": "url", "url": URL},
        "detail": "low",
        "cache_control": {"type": "ephemeral"},
    }
    request = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": [image]}]}
    recorder = LossRecorder()
    body = chatcodec.get_codec("anthropic").write_request(request, recorder)
    assert body["messages"][0]["content"] == [
        {"type": "image", "source": {"type": "url", "url": URL}, "cache_control": {"type": "ephemeral"}}
    ]
    assert [loss.what for loss in recorder.losses] == ["image detail 'low'"]


def test_the_details_spelled_by_the_openai_chat_reader_are_the_canonical_type() -> None:
    """``common_shapes.IMAGE_DETAILS`` spells out ``ImagePart.detail`` so the reader loads no model;
    a value added to the type must be added there too."""
    assert get_args(get_args(ImagePart.model_fields["detail"].annotation)[0]) == common_shapes.IMAGE_DETAILS


def test_the_bundled_agent_session_converts_with_its_image_detail_reported() -> None:
    """``bench/convert_throughput.py``'s default dataset is this session: its ``"high"``
    image detail is Anthropic's one loss of that kind."""
    body = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(body, source="openai-chat", target="anthropic", on_loss="ignore", losses=losses)
    assert [loss.what for loss in losses if "image detail" in loss.what] == ["image detail 'high'"]
