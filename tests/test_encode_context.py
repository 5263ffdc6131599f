"""``EncodeContext.extend`` names each shared field (not a walk over them, for speed): every
field of the shared context reaches a provider's context, whichever provider extends it."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import pytest

from chatcodec._losses import LossRecorder
from chatcodec._providers.anthropic.encode_context import AnthropicContext
from chatcodec._providers.contract.context import SHARED_FIELDS, EncodeContext, Reading
from chatcodec._providers.families.aws.context import BedrockContext
from chatcodec._providers.gemini.parts import GeminiContext


@pytest.mark.parametrize(
    ("kind", "own"), [(AnthropicContext, {}), (BedrockContext, {"body": None}), (GeminiContext, {})]
)
def test_every_shared_field_reaches_the_extended_context(kind: type[EncodeContext], own: dict[str, object]) -> None:
    holds: set[str] = {"document"}
    shared = EncodeContext(
        "x-provider",
        LossRecorder(),
        model="x-model",
        options=MappingProxyType({"x": 1}),
        rules=None,
        for_request=False,
        holds=holds,
        reading=Reading(),
    )
    extended = shared.extend(kind, **own)
    assert type(extended) is kind
    assert SHARED_FIELDS == ("provider", "losses", "model", "options", "rules", "for_request", "holds", "reading")
    for name in SHARED_FIELDS:
        assert getattr(extended, name) is getattr(shared, name), name


def test_a_shared_field_given_anew_wins() -> None:
    shared = EncodeContext("x-provider", LossRecorder(), model="x-model", for_request=True)
    extended = shared.extend(AnthropicContext, for_request=False)
    assert extended.for_request is False
    assert extended.model == "x-model"


def test_the_anthropic_writer_is_given_its_own_context_by_the_codec_and_still_takes_a_shared_one() -> None:
    """A request module naming its ``CONTEXT`` gets one made at once by the codec (no second
    context made by ``extend`` per request); given a plain shared context (an outside
    caller's) it extends it as before, and both write the same body."""
    from chatcodec._providers.anthropic import request as anthropic_request
    from chatcodec._registry import get_codec

    seen: list[type[EncodeContext]] = []
    write = anthropic_request.encode_request

    def spy(request: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
        seen.append(type(context))
        return write(request, context)

    canonical = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 64,
        "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
    }
    codec = get_codec("anthropic")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(anthropic_request, "encode_request", spy)
        by_codec = codec.write_request(dict(canonical), LossRecorder())
    assert seen == [AnthropicContext]
    by_hand = anthropic_request.encode_request(dict(canonical), EncodeContext("anthropic", LossRecorder()))
    assert (
        by_hand
        == by_codec
        == {
            "model": "claude-sonnet-4-5",
            "max_tokens": 64,
            "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}],
        }
    )
