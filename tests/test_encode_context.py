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


_BODIES = {  # a call, its result and the option each writer reads into its own context
    "gemini": (
        "chatcodec._providers.gemini.request",
        "gemini-2.5-flash",
        {},
    ),
    "bedrock-converse": (
        "chatcodec._providers.bedrock_converse.request",
        "anthropic.claude-sonnet-4-5",
        {"tool_result_status": "always"},
    ),
}


@pytest.mark.parametrize("target", list(_BODIES))
def test_the_gemini_and_bedrock_writers_are_given_their_own_context_and_still_take_a_shared_one(target: str) -> None:
    """As Anthropic's: the codec makes the request module's ``CONTEXT`` at once (Gemini's
    :class:`GeminiContext`, Converse's ``ConverseContext``, a :class:`BedrockContext` of its
    body); a plain shared context (an outside caller's) is extended as before; both write the
    same body, with the tool names, made-up ids and options each writer puts on its context."""
    import importlib

    from chatcodec._registry import get_codec

    module_name, model, options = _BODIES[target]
    module = importlib.import_module(module_name)
    seen: list[type[EncodeContext]] = []
    write = module.encode_request

    def spy(request: Mapping[str, Any], context: EncodeContext) -> dict[str, Any]:
        seen.append(type(context))
        return write(request, context)

    canonical = {
        "model": model,
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "list the files"}]},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "call_1", "name": "bash", "arguments": "{}"}]},
            {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "call_1", "content": "a.txt"}]},
        ],
    }
    codec = get_codec(target)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(module, "encode_request", spy)
        by_codec = codec.write_request(dict(canonical), LossRecorder(), options=options)
    assert seen == [module.CONTEXT]
    assert issubclass(module.CONTEXT, GeminiContext if target == "gemini" else BedrockContext)
    shared = EncodeContext(target, LossRecorder(), model=model, options=MappingProxyType(options))
    by_hand = module.encode_request(dict(canonical), shared)
    assert by_hand == by_codec
    if target == "gemini":  # the result names its call's tool, from the context's names
        assert by_codec["contents"][2]["parts"][0]["functionResponse"]["name"] == "bash"
    else:  # the option read into the context
        assert by_codec["messages"][2]["content"][0]["toolResult"]["status"] == "success"
