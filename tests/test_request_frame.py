"""The frame of one request conversion (``convert_request`` -> the codec's ``read_request`` and
``write_request``): the codec holds its request role and target rules once loaded, the options
and the loss policy are checked only where there is something to check (issue 81). Each test
here is a case that frame must still get right."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import chatcodec
from chatcodec import ChatcodecError
from chatcodec.contract import ProviderCodec

COPY = "anthropic-frame-copy"
BODY: dict[str, Any] = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 256,
    "temperature": 0.5,
    "top_p": 0.9,
    "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "Hello"}],
}


@pytest.fixture
def _copy() -> Iterator[None]:
    chatcodec.register_codec(COPY, lambda: ProviderCodec.from_package("chatcodec._providers.anthropic", name=COPY))
    yield
    chatcodec.unregister_codec(COPY)


def _converted(target: str, **arguments: Any) -> tuple[dict[str, Any], list[str]]:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        dict(BODY), source="openai-chat", target=target, on_loss="ignore", losses=losses, **arguments
    )
    return body, [f"{loss.kind} {loss.path} {loss.what}" for loss in losses]


@pytest.mark.usefixtures("_copy")
def test_a_fresh_codec_writes_with_its_own_rules_from_the_first_request_on() -> None:
    """A codec built from a folder loads its request role and rules on first use: its first
    and second requests apply the Anthropic rules (temperature and top_p together: one is not
    sent, a rule loss) as the built-in codec does."""
    expected, expected_losses = _converted("anthropic")
    assert any(line.startswith("rule ") for line in expected_losses)
    for _ in range(2):
        body, losses = _converted(COPY)
        assert body == expected
        assert losses == expected_losses


def test_the_api_version_option_is_read_by_the_rules() -> None:
    old, _ = _converted("anthropic", options={"api_version": "2023-06-01"})
    new, _ = _converted("anthropic")
    assert old != new  # the older rules send both sampling values
    with pytest.raises(ChatcodecError, match="no API version '1999-01-01'"):
        _converted("anthropic", options={"api_version": "1999-01-01"})


def test_a_misspelt_option_is_refused_before_the_body_is_read() -> None:
    with pytest.raises(chatcodec.OptionError, match="max_tokenz"):
        chatcodec.convert_request(
            {"not": "a body"}, source="openai-chat", target="anthropic", options={"max_tokenz": 1}
        )


def test_a_policy_by_kind_naming_no_kind_is_refused_even_when_nothing_is_lost() -> None:
    with pytest.raises(ValueError, match="contnet"):
        chatcodec.convert_request(
            {"model": "claude-sonnet-4-5", "max_tokens": 8, "messages": [{"role": "user", "content": "Hi"}]},
            source="openai-chat",
            target="anthropic",
            on_loss={"contnet": "error"},
        )


@pytest.mark.parametrize("lost", [False, True])
def test_a_misspelt_policy_name_is_refused_whether_or_not_anything_is_lost(lost: bool) -> None:
    """A name that is none of the actions once warned of nothing, lost or not."""
    body: dict[str, Any] = {"model": "claude-sonnet-4-5", "messages": [{"role": "user", "content": "Hi"}]}
    if not lost:
        body["max_tokens"] = 8  # Anthropic's required field given: nothing to report
    with pytest.raises(ValueError, match="wanr"):
        chatcodec.convert_request(body, source="openai-chat", target="anthropic", on_loss="wanr")  # type: ignore[arg-type]


def test_an_unknown_target_is_refused_before_the_body_is_read() -> None:
    with pytest.raises(chatcodec.UnknownProviderError, match="no-such-format"):
        chatcodec.convert_request("{not json", source="openai-chat", target="no-such-format")
