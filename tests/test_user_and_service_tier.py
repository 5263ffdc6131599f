"""The canonical ``user`` and ``service_tier`` of a request: each format reads its own
spelling into them and writes them in its own, so no provider reads another provider's
bag; a tier a format does not have, or an end-user id it has no field for, is a loss."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec

HI = {"role": "user", "content": "hi"}

BODIES: dict[str, dict[str, Any]] = {
    "openai-chat": {"model": "m", "messages": [HI], "user": "u-1", "service_tier": "flex"},
    "openai-responses": {"model": "m", "input": "hi", "user": "u-1", "service_tier": "flex"},
    "anthropic": {
        "model": "m",
        "max_tokens": 5,
        "messages": [HI],
        "metadata": {"user_id": "u-1"},
        "service_tier": "standard_only",
    },
    "bedrock-converse": {"modelId": "m", "messages": [{"role": "user", "content": [{"text": "hi"}]}]},
    "gemini": {"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "serviceTier": "standard"},
}
"""A body per format spelling the fields it has (Bedrock's tier is added below)."""
BODIES["bedrock-converse"]["serviceTier"] = {"type": "flex"}

READ: dict[str, tuple[str | None, str | None]] = {
    "openai-chat": ("u-1", "flex"),
    "openai-responses": ("u-1", "flex"),
    "anthropic": ("u-1", "default"),
    "bedrock-converse": (None, "flex"),
    "gemini": (None, "default"),
}


@pytest.mark.parametrize("source", list(BODIES))
def test_each_format_reads_its_spelling_into_the_canonical_fields(source: str) -> None:
    request = chatcodec.decode_request(source, BODIES[source])
    assert (request.user, request.service_tier) == READ[source]
    assert not (request.provider_options or {}).get(source, {}).keys() & {"user", "service_tier", "serviceTier"}


@pytest.mark.parametrize("source", list(BODIES))
def test_each_format_writes_its_own_spelling_back_exactly(source: str) -> None:
    losses: list[chatcodec.Loss] = []
    assert chatcodec.convert_request(BODIES[source], source=source, target=source, losses=losses) == BODIES[source]
    assert losses == []


def _request(**fields: Any) -> chatcodec.ChatRequest:
    # 64: Responses refuses a max_output_tokens below 16 (its sampling_range rule)
    return chatcodec.ChatRequest(model="m", max_tokens=64, messages=[chatcodec.UserMessage(content="hi")], **fields)


@pytest.mark.parametrize(
    ("target", "tier", "written"),
    [
        ("openai-chat", "priority", {"service_tier": "priority"}),
        ("openai-responses", "ultrafast", {"service_tier": "ultrafast"}),
        ("anthropic", "default", {"service_tier": "standard_only"}),
        ("anthropic", "auto", {"service_tier": "auto"}),
        ("bedrock-converse", "reserved", {"serviceTier": {"type": "reserved"}}),
        ("gemini", "default", {"serviceTier": "standard"}),
    ],
)
def test_a_tier_the_target_has_is_written_in_its_words(target: str, tier: str, written: dict[str, Any]) -> None:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request(target, _request(service_tier=tier), losses=losses)
    assert {key: body[key] for key in written} == written
    assert losses == []


@pytest.mark.parametrize(
    ("target", "tier"),
    [("anthropic", "flex"), ("openai-chat", "reserved"), ("bedrock-converse", "auto"), ("gemini", "scale")],
)
def test_a_tier_the_target_lacks_is_a_loss_and_not_sent(target: str, tier: str) -> None:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request(target, _request(service_tier=tier), on_loss="ignore", losses=losses)
    assert "service_tier" not in body
    assert "serviceTier" not in body
    assert [(loss.path, loss.what) for loss in losses] == [("$.service_tier", f"service tier {tier!r}")]


def test_ollama_has_neither_field_and_says_so() -> None:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request("ollama", _request(user="u", service_tier="flex"), on_loss="ignore", losses=losses)
    assert "user" not in body
    assert "service_tier" not in body
    assert sorted(loss.path for loss in losses) == ["$.service_tier", "$.user"]


@pytest.mark.parametrize("target", ["gemini", "bedrock-converse"])
def test_an_end_user_id_a_format_has_no_field_for_is_a_loss(target: str) -> None:
    losses: list[chatcodec.Loss] = []
    chatcodec.encode_request(target, _request(user="u-1"), on_loss="ignore", losses=losses)
    assert [(loss.path, loss.kind) for loss in losses] == [("$.user", "metadata")]


def test_the_openai_user_is_anthropics_metadata_user_id_and_back() -> None:
    openai = {"model": "m", "messages": [HI], "user": "u-7", "max_completion_tokens": 5}
    anthropic = chatcodec.convert_request(openai, source="openai-chat", target="anthropic")
    assert anthropic["metadata"] == {"user_id": "u-7"}
    back = chatcodec.convert_request(anthropic, source="anthropic", target="openai-chat")
    assert back["user"] == "u-7"


def test_an_unknown_tier_word_stays_in_its_own_format() -> None:
    """A tier the table does not know (a newer word) is kept in the bag: written back to
    its format as it came, reported elsewhere as that format's field."""
    body = {"model": "m", "messages": [HI], "service_tier": "turbo"}
    assert chatcodec.decode_request("openai-chat", body).service_tier is None
    assert chatcodec.convert_request(body, source="openai-chat", target="openai-chat") == body
    losses: list[chatcodec.Loss] = []
    converted = chatcodec.convert_request(body, source="openai-chat", target="gemini", on_loss="ignore", losses=losses)
    assert "serviceTier" not in converted
    assert [loss.what for loss in losses] == ["openai-chat data ['service_tier']"]


def test_a_canonical_metadata_user_id_reaches_anthropic_and_reads_back_as_user() -> None:
    """Anthropic's metadata takes only ``user_id``: a caller's ``metadata={"user_id": ...}``
    is sent there as it always was, and Anthropic's reader calls that id ``user``."""
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request("anthropic", _request(metadata={"user_id": "u-2"}), losses=losses)
    assert body["metadata"] == {"user_id": "u-2"}
    assert losses == []
    read = chatcodec.decode_request("anthropic", body)
    assert (read.user, read.metadata) == ("u-2", None)


def test_the_user_wins_over_a_different_metadata_user_id_and_says_so() -> None:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request(
        "anthropic", _request(user="u-1", metadata={"user_id": "u-2"}), on_loss="ignore", losses=losses
    )
    assert body["metadata"] == {"user_id": "u-1"}
    assert [loss.path for loss in losses] == ["$.metadata.user_id"]


def test_an_empty_metadata_beside_a_user_is_reported_by_anthropic() -> None:
    """Anthropic's metadata holds the user, so an empty one reads back as the user alone."""
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request("anthropic", _request(user="", metadata={}), on_loss="ignore", losses=losses)
    assert body["metadata"] == {"user_id": ""}
    assert [loss.what for loss in losses] == ["empty metadata"]
