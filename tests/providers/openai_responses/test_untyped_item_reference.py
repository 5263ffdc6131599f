"""A Responses ``input`` item reference given without ``type``: the openai SDK's
``ItemReference`` (``openai.types.responses.response_input_item_param``) has ``id``
required and ``type: Optional[Literal["item_reference"]]`` not required, so ``{"id":
"msg_..."}`` is a valid ``ResponseInputItemParam``. It was refused (``type`` required); it is
read as the reference it is (kept whole, as a typed one is) and written back exactly."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import chatcodec
from providers.openai_responses.responses_support import assert_request_matches_sdk


def _body(reference: dict[str, Any]) -> dict[str, Any]:
    return {"model": "gpt-4.1", "input": [{"role": "user", "content": "go on"}, reference]}


@pytest.mark.parametrize("reference", [{"id": "msg_abc123"}, {"id": "msg_abc123", "type": None}])
@pytest.mark.parametrize("strict", [False, True])
def test_an_untyped_reference_is_read_and_written_back_exactly(reference: dict[str, Any], strict: bool) -> None:
    body = _body(reference)
    assert_request_matches_sdk(body)  # the SDK's type takes it
    request = chatcodec.decode_request("openai-responses", copy.deepcopy(body), strict=strict)
    assert request.model_dump()["messages"][1]["content"][0]["data"] == reference  # kept whole, as a typed one
    back = chatcodec.convert_request(
        copy.deepcopy(body), source="openai-responses", target="openai-responses", strict=strict
    )
    assert back == body


def test_it_reads_as_a_typed_reference_does_for_another_format() -> None:
    untyped, typed = _body({"id": "msg_abc123"}), _body({"type": "item_reference", "id": "msg_abc123"})
    kinds: list[list[str]] = []
    for body in (untyped, typed):
        losses: list[chatcodec.Loss] = []
        chatcodec.convert_request(body, source="openai-responses", target="anthropic", on_loss="ignore", losses=losses)
        kinds.append([loss.kind for loss in losses])
    assert kinds[0]  # the stored item cannot be sent: reported
    assert kinds[0] == kinds[1]  # the same way as a typed reference


@pytest.mark.parametrize(
    ("item", "path"),
    [
        ({"id": 5}, "$.input[1].id"),
        ({}, "$.input[1].type"),
        ({"id": "msg_1", "role": "assistant"}, "$.input[1].content"),
    ],
)
def test_what_is_no_reference_stays_refused(item: dict[str, Any], path: str) -> None:
    with pytest.raises(chatcodec.ValidationError) as refused:
        chatcodec.decode_request("openai-responses", _body(item))
    assert path in refused.value.paths
