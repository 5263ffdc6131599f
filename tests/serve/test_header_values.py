"""No 500 a caller can cause with a header: a value the gateway forwards upstream
(``anthropic-beta``, ``OpenAI-Organization``, ``OpenAI-Project``) holding a non-ASCII byte
cannot be written by the upstream client (httpx encodes header values as ASCII); it is a 400 in
the front's own error shape naming the header, never sent, never a 500 the SDKs retry twice.

The SDKs refuse to send such a value (their httpx encodes header values as ASCII), so the
request is sent by httpx with the value as bytes (what a raw socket or another client sends), and
the answer read by the SDK's own rule from status to exception."""

from __future__ import annotations

from typing import Any, cast

import anthropic
import httpx
import openai
import pytest

from serve.harness import FakeUpstream, proxy

pytestmark = pytest.mark.usefixtures("fresh_fake")

NON_ASCII = "caf\u00e9".encode()
"""A header value's bytes holding a non-ASCII character (UTF-8 ``é``)."""
HELLO: list[Any] = [{"role": "user", "content": "Hello"}]


def test_a_non_ascii_anthropic_beta_is_a_400_naming_the_header_read_by_the_anthropic_sdk(
    fake: FakeUpstream,
) -> None:
    with proxy("anthropic", "anthropic", fake.base) as origin:
        answer = httpx.post(
            f"{origin}/v1/messages",
            json={"model": "m", "max_tokens": 10, "messages": HELLO},
            headers=cast("dict[str, str]", {"x-api-key": "sk-caller", "anthropic-beta": NON_ASCII}),
        )
    error = _anthropic_error(answer)
    assert isinstance(error, anthropic.BadRequestError)
    assert error.body == {
        "type": "error",
        "error": {
            "type": "invalid_request_error",
            "message": "the anthropic-beta header holds a character an HTTP header sent upstream cannot carry"
            " (ASCII only)",
        },
    }
    assert fake.received == []  # never sent


@pytest.mark.parametrize("header", ["OpenAI-Organization", "OpenAI-Project"])
def test_a_non_ascii_openai_account_header_is_a_400_naming_it_read_by_the_openai_sdk(
    fake: FakeUpstream, header: str
) -> None:
    with proxy("openai-chat", "openai-chat", f"{fake.base}/v1") as origin:
        answer = httpx.post(
            f"{origin}/v1/chat/completions",
            json={"model": "m", "messages": HELLO},
            headers=cast("dict[str, str]", {"authorization": "Bearer sk-caller", header: NON_ASCII}),
        )
    error = _openai_error(answer)
    assert isinstance(error, openai.BadRequestError)
    assert f"the {header.lower()} header holds a character" in error.message
    assert fake.received == []


def _anthropic_error(answer: httpx.Response) -> anthropic.APIStatusError:
    """The error the Anthropic SDK makes of ``answer`` (its own status-to-exception rule)."""
    with anthropic.Anthropic(api_key="k") as claude:
        return claude._make_status_error_from_response(answer)  # pyright: ignore[reportPrivateUsage]


def _openai_error(answer: httpx.Response) -> openai.APIStatusError:
    """The error the OpenAI SDK makes of ``answer`` (its own status-to-exception rule)."""
    with openai.OpenAI(api_key="k") as client:
        return client._make_status_error_from_response(answer)  # pyright: ignore[reportPrivateUsage]


def test_a_non_ascii_header_on_token_counting_is_a_400_too(fake: FakeUpstream) -> None:
    with proxy("anthropic", "anthropic", fake.base) as origin:
        answer = httpx.post(
            f"{origin}/v1/messages/count_tokens",
            json={"model": "m", "messages": HELLO},
            headers=cast("dict[str, str]", {"x-api-key": "sk-caller", "anthropic-beta": NON_ASCII}),
        )
    assert answer.status_code == 400
    assert answer.json()["error"]["type"] == "invalid_request_error"
    assert "the anthropic-beta header" in answer.json()["error"]["message"]
    assert fake.received == []
