"""``EncodeContext.extend`` names each shared field (not a walk over them, for speed): every
field of the shared context reaches a provider's context, whichever provider extends it."""

from __future__ import annotations

from types import MappingProxyType

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
