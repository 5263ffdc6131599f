"""Writing an image part to OpenAI Chat: one of its type and source alone (an agent's
screenshot read from Anthropic, or from a data URL) goes to ``_encode_image`` with no bag to
report; an image with anything more (another provider's bag, a cache marker, a detail) takes
the general way, which reports what OpenAI cannot carry. Both write the same part."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from chatcodec import Loss

_DATA = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ"
_SOURCE = {"type": "base64", "media_type": "image/png", "data": _DATA}
_URL = f"data:image/png;base64,{_DATA}"


def _written(image: dict[str, Any]) -> tuple[Any, list[tuple[str, str]]]:
    losses: list[Loss] = []
    request = {"model": "gpt-5.1", "messages": [{"role": "user", "content": [{"type": "text", "text": "see"}, image]}]}
    body = chatcodec.encode_request("openai-chat", request, on_loss="ignore", losses=losses)
    return body["messages"][0]["content"][1], [(loss.path, loss.what) for loss in losses]


@pytest.mark.parametrize(
    "source",
    [
        _SOURCE,
        {"type": "url", "url": "https://example.com/a.png"},
        {"type": "base64", "media_type": "image/x y", "data": _DATA},
    ],
)
def test_an_image_of_its_type_and_source_is_written_as_the_general_way_writes_it(source: dict[str, Any]) -> None:
    plain, plain_losses = _written({"type": "image", "source": source})
    general, general_losses = _written({"type": "image", "source": source, "provider_metadata": {"openai-chat": {}}})
    assert plain == general
    assert plain_losses == general_losses


def test_a_screenshot_is_its_data_url() -> None:
    assert _written({"type": "image", "source": _SOURCE}) == ({"type": "image_url", "image_url": {"url": _URL}}, [])


def test_another_providers_bag_on_an_image_is_still_reported() -> None:
    part, losses = _written({"type": "image", "source": _SOURCE, "provider_metadata": {"gemini": {"x": 1}}})
    assert part == {"type": "image_url", "image_url": {"url": _URL}}
    assert [what for _, what in losses] == ["gemini data ['x']"]
