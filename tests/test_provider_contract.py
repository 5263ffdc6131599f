"""The provider contract: one context object per encode and decode,
options read from it by public name, and the stream encoder as a push object."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from chatcodec._losses import LossRecorder
from chatcodec._model.response_fields import FinishReason
from chatcodec._model.stream_events import (
    AnyStreamEvent,
    FinishEvent,
    ResponseStartEvent,
    TextDeltaEvent,
    TextStartEvent,
)
from chatcodec._option_table import OptionTable
from chatcodec._providers.anthropic import finish_reason as anthropic_finish
from chatcodec._providers.anthropic import request as anthropic_request
from chatcodec._providers.anthropic.encode_context import AnthropicContext
from chatcodec._providers.contract.context import DecodeContext, EncodeContext, read_options
from chatcodec._providers.contract.provider_codec import ProviderCodec
from chatcodec._providers.families.aws import finish_reason as bedrock_finish
from chatcodec._providers.gemini import finish_reason as gemini_finish
from chatcodec._providers.gemini import rules as gemini_rules
from chatcodec._providers.openai_chat import request as openai_chat_request
from chatcodec._providers.openai_responses import request as openai_responses_request
from chatcodec._registry import PROVIDER_NAMES, get_codec


def _codec(name: str) -> ProviderCodec:
    codec = get_codec(name)
    assert isinstance(codec, ProviderCodec)
    return codec


_THINKING = OptionTable.of("unsigned_thinking", stored=("unsigned_thinking",))


def test_an_old_bag_spelling_is_read_by_public_name_with_a_deprecation_warning() -> None:
    codec = _codec("openai-chat")
    with pytest.warns(DeprecationWarning, match="_reasoning_field"):
        context = codec.encode_context(LossRecorder(), bag={"_reasoning_field": "reasoning_content", "seed_like": 1})
    assert dict(context.options) == {"reasoning_field": "reasoning_content"}
    assert context.option("max_tokens_key") is None


def test_options_are_read_only() -> None:
    options = read_options("anthropic", {"unsigned_thinking": "text"}, _THINKING)
    writable: Any = options
    with pytest.raises(TypeError):
        writable["unsigned_thinking"] = "drop"


def test_a_request_without_options_gets_the_shared_empty_options() -> None:
    assert read_options("anthropic", None, _THINKING) == {}
    assert read_options("anthropic", {"other": 1}, _THINKING) == {}


def test_the_codec_puts_the_request_model_and_the_rules_on_the_context() -> None:
    """The rules slot holds the target's table (its ``rules.py``, the codec's ``rules``
    role) since the target-rules work filled it."""
    codec = _codec("gemini")
    context = codec.encode_context(LossRecorder(), model="gemini-3-pro")
    assert (context.provider, context.model, context.for_request, context.rules) == (
        "gemini",
        "gemini-3-pro",
        True,
        gemini_rules.RULES,
    )


def test_rule_options_spelled_the_old_way_in_a_bag_are_read_by_public_name_with_a_warning() -> None:
    """``skip_rules`` is an option like the others; its old ``_skip_rules`` bag spelling is
    still read (warned). Anthropic's ``_api_version`` is its reader's marker, which the
    request writer reads back (``tests/test_options.py``), not an option spelling."""
    bag = {"_api_version": "2023-06-01", "_skip_rules": ["sampling_removed"]}
    with pytest.warns(DeprecationWarning, match="_skip_rules"):
        context = _codec("anthropic").encode_context(LossRecorder(), bag=bag)
    assert context.option("api_version") is None
    assert context.option("skip_rules") == ["sampling_removed"]


def test_a_provider_context_keeps_the_shared_fields() -> None:
    losses = LossRecorder()
    shared = EncodeContext(
        "anthropic",
        losses,
        model="claude",
        options=read_options("anthropic", {"x": 1}, OptionTable.of("x", stored=("x",))),
    )
    extended = shared.extend(AnthropicContext, for_request=False, unsigned_thinking="text")
    assert extended.losses is losses
    assert (extended.model, dict(extended.options), extended.for_request) == ("claude", {"x": 1}, False)
    assert extended.unsigned_thinking == "text"


def test_a_decode_context_is_lenient_by_default() -> None:
    context = DecodeContext("anthropic")
    assert context.strict is False
    assert context.losses.losses == []


def test_an_option_set_through_the_api_the_old_way_reaches_the_encoder_with_a_warning() -> None:
    thinking = {"type": "thinking", "text": "step", "provider": "gemini"}
    request = {
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [thinking, {"type": "text", "text": "ok"}]},
        ]
    }
    dropped = chatcodec.encode_request("openai-chat", request, on_loss="ignore")
    legacy: Any = {"_reasoning_field": "reasoning_content"}
    with pytest.warns(DeprecationWarning, match="_reasoning_field"):
        sent = chatcodec.encode_request("openai-chat", request, on_loss="ignore", options=legacy)
    assert "reasoning_content" not in dropped["messages"][1]
    assert sent["messages"][1]["reasoning_content"] == "step"


@pytest.mark.parametrize(
    ("provider", "options"),
    [("openai-chat", {"reasoning_field": "reasoning_content"}), ("gemini", {"tools_layout": [[1, True]]})],
)
def test_a_public_option_name_through_the_api_is_an_option_not_a_field(provider: str, options: dict[str, Any]) -> None:
    """A public name whose bag key differs (``reasoning_field`` rides as
    ``_reasoning_field``) reaches the encoder as the option; before, ``with_options``
    wrote it into the request body as a field."""
    request = {"messages": [{"role": "user", "content": "hi"}]}
    body = chatcodec.encode_request(provider, request, on_loss="ignore", options=options)
    assert not body.keys() & options.keys()


def test_reasoning_field_by_public_name_places_foreign_reasoning() -> None:
    thinking = {"type": "thinking", "text": "step", "provider": "gemini"}
    request = {
        "messages": [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [thinking, {"type": "text", "text": "ok"}]},
        ]
    }
    options = {"reasoning_field": "reasoning_content"}
    body = chatcodec.encode_request("openai-chat", request, on_loss="ignore", options=options)
    assert body["messages"][1]["reasoning_content"] == "step"


_REQUEST_ENCODERS = {
    "anthropic": anthropic_request.encode_request,
    "openai-chat": openai_chat_request.encode_request,
    "openai-responses": openai_responses_request.encode_request,
}


@pytest.mark.parametrize("provider", sorted(_REQUEST_ENCODERS))
def test_the_model_option_is_read_from_the_context(provider: str) -> None:
    """``model`` is an option like the others: the encoder sends
    the context's, not a ``model`` key it finds in the bag."""
    assert "model" in _codec(provider).options.stored
    request = chatcodec.ChatRequest(messages=[chatcodec.UserMessage(content="hi")], max_tokens=5)
    context = EncodeContext(provider, LossRecorder(), options={"model": "from-options"})
    assert _REQUEST_ENCODERS[provider](request.model_dump(), context)["model"] == "from-options"
    with_model = request.model_copy(update={"model": "from-request"})
    assert _REQUEST_ENCODERS[provider](with_model.model_dump(), context)["model"] == "from-request"


def test_anthropic_max_tokens_option_is_read_from_the_context() -> None:
    request = chatcodec.ChatRequest(messages=[chatcodec.UserMessage(content="hi")])
    context = EncodeContext("anthropic", LossRecorder(), options={"max_tokens": 7})
    assert anthropic_request.encode_request(request.model_dump(), context)["max_tokens"] == 7
    assert context.losses.losses == []


def _events() -> list[AnyStreamEvent]:
    return [
        ResponseStartEvent(id="r1", model="m"),
        TextStartEvent(index=0),
        TextDeltaEvent(index=0, delta="Hel"),
        TextDeltaEvent(index=0, delta="lo"),
        FinishEvent(finish_reason=FinishReason(unified="stop")),
    ]


@pytest.mark.parametrize("name", PROVIDER_NAMES)
def test_the_stream_encoder_is_fed_and_closed_like_encode_stream(name: str) -> None:
    codec = _codec(name)
    pushed_losses, whole_losses = LossRecorder(), LossRecorder()
    encoder = codec.stream_encoder(pushed_losses)
    pushed: list[dict[str, Any]] = []
    for event in _events():
        pushed.extend(encoder.feed(event))
    pushed.extend(encoder.close())
    assert pushed == list(codec.encode_stream(_events(), whole_losses))
    assert pushed, "a stream with text writes wire events"
    assert pushed_losses.losses == whole_losses.losses


def test_gemini_reads_stop_with_calls_as_tool_calls_by_a_named_keyword() -> None:
    assert gemini_finish.decode_finish_reason("STOP", {}) == {"unified": "stop", "raw": "STOP"}
    assert gemini_finish.decode_finish_reason("STOP", {}, has_tool_calls=True) == {
        "unified": "tool_calls",
        "raw": "STOP",
    }


@pytest.mark.parametrize(
    ("module", "provider"), [(anthropic_finish, "anthropic"), (bedrock_finish, "bedrock-converse")]
)
def test_claude_stop_reasons_map_a_known_word_read_as_other_from_the_unified_value(module: Any, provider: str) -> None:
    """One rule for both formats: a word is written back as it is
    only when it agrees with the unified value, or when the response's own bag records
    it as an unknown word this codec read; else the word for ``other``, reported."""
    losses = LossRecorder()
    context = EncodeContext(provider, losses)
    word = module.encode_finish_reason(
        FinishReason(unified="other", raw="max_tokens").model_dump(), {}, context, ("finish_reason",)
    )
    assert word == "end_turn"
    assert len(losses.losses) == 1


def test_claude_stop_reasons_report_a_changed_meaning() -> None:
    losses = LossRecorder()
    context = EncodeContext("anthropic", losses)
    reason = FinishReason(unified="content_filter").model_dump()
    assert anthropic_finish.encode_finish_reason(reason, {}, context, ("finish_reason",)) == "refusal"
    assert len(losses.losses) == 1
