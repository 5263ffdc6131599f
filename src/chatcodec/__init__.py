"""chatcodec: one strict, typed message schema and lossless codecs for LLM wire formats.

Validate conversations at an API boundary with :func:`validate_messages`; move requests,
responses and streams between providers with :func:`convert_request`,
:func:`decode_stream` and friends. Every public name is listed in ``__all__``.

Public names load on first access (PEP 562): ``import chatcodec`` costs about as much
as ``import pydantic``, and a program pays only for the models and codecs it uses. The
module ``__getattr__`` that loads them is hidden from type checkers (``if not
TYPE_CHECKING:``): they see only the imports below, so a misspelt name is a type error.

The imports under ``TYPE_CHECKING`` are the one export list (each public name and the
module it comes from); ``__all__`` and the lazy table ``_EXPORTED_FROM`` are written from
them by ``tools/exports.py`` (``tests/test_public_api.py`` fails when they drift). What a
codec written outside chatcodec imports is :mod:`chatcodec.contract`.
"""

import importlib as _importlib
import typing as _typing

if _typing.TYPE_CHECKING:
    __version__: str
    """The installed distribution's version (``importlib.metadata``)."""
    from chatcodec._api import (
        accumulate_stream,
        convert_request,
        convert_response,
        decode_request,
        decode_response,
        decode_stream,
        encode_request,
        encode_response,
        encode_stream,
    )
    from chatcodec._boundary_messages import BoundaryMessages
    from chatcodec._codec_protocols import (
        Codec,
        StreamDecoder,
        StreamEncoder,
        SupportsMessageDecoding,
        SupportsStreamDecoder,
        SupportsStreamEncoder,
    )
    from chatcodec._content_rule import ContentRule
    from chatcodec._conversation import MISSING_RESULT_TEXT, Conversation
    from chatcodec._error_shapes import error_body, error_event, read_error
    from chatcodec._errors import (
        ChatcodecError,
        CodecNotAvailableError,
        OptionError,
        PayloadError,
        ProviderAPIError,
        ProviderLookupError,
        StreamError,
        ToolArgumentsError,
        UnknownProviderError,
        ValidationError,
    )
    from chatcodec._losses import Loss, LossError, LossKind, LossWarning, OnLoss
    from chatcodec._model.canonical_types import (
        ChatRequestData,
        ChatResponseData,
        ContentPartData,
        MessageData,
        StreamEventData,
    )
    from chatcodec._model.content import (
        AnyPart,
        AssistantContentPart,
        AudioPart,
        Base64Source,
        CacheControl,
        ContentPart,
        DocumentPart,
        FileSource,
        ImagePart,
        OpaquePart,
        RefusalPart,
        SystemContentPart,
        TextPart,
        TextSource,
        ThinkingPart,
        ToolResultContentPart,
        ToolResultPart,
        ToolUsePart,
        UrlCitation,
        UrlSource,
        UserContentPart,
        VideoPart,
    )
    from chatcodec._model.messages import (
        MESSAGE_ADAPTER,
        MESSAGES_ADAPTER,
        AnyMessage,
        AssistantMessage,
        Message,
        Messages,
        SystemMessage,
        TextMessage,
        ToolMessage,
        UserMessage,
    )
    from chatcodec._model.request import ChatRequest, ReasoningConfig, ReasoningEffort, ResponseFormat
    from chatcodec._model.response import ChatResponse, ResponseChoice
    from chatcodec._model.response_fields import FinishReason, TokenLogprob, TopLogprob, UnifiedFinishReason, Usage
    from chatcodec._model.stream_events import (
        STREAM_EVENT_ADAPTER,
        AnyStreamEvent,
        ChoiceMetadataEvent,
        ErrorEvent,
        FinishEvent,
        PartEvent,
        RefusalDeltaEvent,
        ResponseStartEvent,
        StreamEvent,
        TextDeltaEvent,
        TextEndEvent,
        TextStartEvent,
        ThinkingDeltaEvent,
        ThinkingEndEvent,
        ThinkingSignatureDeltaEvent,
        ThinkingStartEvent,
        ToolCallDeltaEvent,
        ToolCallEndEvent,
        ToolCallStartEvent,
        UsageEvent,
    )
    from chatcodec._model.tools import ToolChoice, ToolDefinition
    from chatcodec._registry import (
        PROVIDER_NAMES,
        available_formats,
        get_codec,
        register_codec,
        registered_providers,
        unregister_codec,
    )
    from chatcodec._rendering import render_conversation, render_message
    from chatcodec._row_dialects.sessions import session_subagents
    from chatcodec._schema import SCHEMA_KINDS, SCHEMA_VERSION, SchemaKind, json_schema
    from chatcodec._training.completion.parse import parse_completion
    from chatcodec._training.episode_records import RecordedEpisode, read_episodes
    from chatcodec._training.episodes import render_turns
    from chatcodec._training.errors import TemplateError
    from chatcodec._training.families import template_profile
    from chatcodec._training.message_spans import MessageTokens, message_token_spans
    from chatcodec._training.profile import TemplateProfile
    from chatcodec._training.records import read_records
    from chatcodec._training.render import Rendering, render
    from chatcodec._training.samples import trainer_samples
    from chatcodec._training.template_limits import TemplateLimits
    from chatcodec._training.trainer_rows import trainer_rows
    from chatcodec._training.turn_prompt import NextPrompt, next_prompt
    from chatcodec._training.turns import SampledTurn
    from chatcodec._validation import dump_messages, validate_message, validate_messages, validate_model
    from chatcodec._warm import warm_up
    from chatcodec.batch._converter import BatchConverter
    from chatcodec.batch._render_converter import RenderConverter
    from chatcodec.streams._accumulator import StreamAccumulator
    from chatcodec.streams._convert import StreamConverter, aconvert_stream, convert_stream
    from chatcodec.streams._framing import to_sse
    from chatcodec.streams._sse import SSEEvent, SSEParser, format_sse

__all__ = [
    "MESSAGES_ADAPTER",
    "MESSAGE_ADAPTER",
    "MISSING_RESULT_TEXT",
    "PROVIDER_NAMES",
    "SCHEMA_KINDS",
    "SCHEMA_VERSION",
    "STREAM_EVENT_ADAPTER",
    "AnyMessage",
    "AnyPart",
    "AnyStreamEvent",
    "AssistantContentPart",
    "AssistantMessage",
    "AudioPart",
    "Base64Source",
    "BatchConverter",
    "BoundaryMessages",
    "CacheControl",
    "ChatRequest",
    "ChatRequestData",
    "ChatResponse",
    "ChatResponseData",
    "ChatcodecError",
    "ChoiceMetadataEvent",
    "Codec",
    "CodecNotAvailableError",
    "ContentPart",
    "ContentPartData",
    "ContentRule",
    "Conversation",
    "DocumentPart",
    "ErrorEvent",
    "FileSource",
    "FinishEvent",
    "FinishReason",
    "ImagePart",
    "Loss",
    "LossError",
    "LossKind",
    "LossWarning",
    "Message",
    "MessageData",
    "MessageTokens",
    "Messages",
    "NextPrompt",
    "OnLoss",
    "OpaquePart",
    "OptionError",
    "PartEvent",
    "PayloadError",
    "ProviderAPIError",
    "ProviderLookupError",
    "ReasoningConfig",
    "ReasoningEffort",
    "RecordedEpisode",
    "RefusalDeltaEvent",
    "RefusalPart",
    "RenderConverter",
    "Rendering",
    "ResponseChoice",
    "ResponseFormat",
    "ResponseStartEvent",
    "SSEEvent",
    "SSEParser",
    "SampledTurn",
    "SchemaKind",
    "StreamAccumulator",
    "StreamConverter",
    "StreamDecoder",
    "StreamEncoder",
    "StreamError",
    "StreamEvent",
    "StreamEventData",
    "SupportsMessageDecoding",
    "SupportsStreamDecoder",
    "SupportsStreamEncoder",
    "SystemContentPart",
    "SystemMessage",
    "TemplateError",
    "TemplateLimits",
    "TemplateProfile",
    "TextDeltaEvent",
    "TextEndEvent",
    "TextMessage",
    "TextPart",
    "TextSource",
    "TextStartEvent",
    "ThinkingDeltaEvent",
    "ThinkingEndEvent",
    "ThinkingPart",
    "ThinkingSignatureDeltaEvent",
    "ThinkingStartEvent",
    "TokenLogprob",
    "ToolArgumentsError",
    "ToolCallDeltaEvent",
    "ToolCallEndEvent",
    "ToolCallStartEvent",
    "ToolChoice",
    "ToolDefinition",
    "ToolMessage",
    "ToolResultContentPart",
    "ToolResultPart",
    "ToolUsePart",
    "TopLogprob",
    "UnifiedFinishReason",
    "UnknownProviderError",
    "UrlCitation",
    "UrlSource",
    "Usage",
    "UsageEvent",
    "UserContentPart",
    "UserMessage",
    "ValidationError",
    "VideoPart",
    "accumulate_stream",
    "aconvert_stream",
    "available_formats",
    "convert_request",
    "convert_response",
    "convert_stream",
    "decode_request",
    "decode_response",
    "decode_stream",
    "dump_messages",
    "encode_request",
    "encode_response",
    "encode_stream",
    "error_body",
    "error_event",
    "format_sse",
    "get_codec",
    "json_schema",
    "message_token_spans",
    "next_prompt",
    "parse_completion",
    "read_episodes",
    "read_error",
    "read_records",
    "register_codec",
    "registered_providers",
    "render",
    "render_conversation",
    "render_message",
    "render_turns",
    "session_subagents",
    "template_profile",
    "to_sse",
    "trainer_rows",
    "trainer_samples",
    "unregister_codec",
    "validate_message",
    "validate_messages",
    "validate_model",
    "warm_up",
]

_EXPORTED_FROM: dict[str, str] = {
    name: module
    for module, names in (
        (
            "chatcodec._model.messages",
            "MESSAGES_ADAPTER MESSAGE_ADAPTER AnyMessage AssistantMessage Message Messages SystemMessage TextMessage "
            "ToolMessage UserMessage",
        ),
        ("chatcodec._conversation", "MISSING_RESULT_TEXT Conversation"),
        (
            "chatcodec._registry",
            "PROVIDER_NAMES available_formats get_codec register_codec registered_providers unregister_codec",
        ),
        ("chatcodec._schema", "SCHEMA_KINDS SCHEMA_VERSION SchemaKind json_schema"),
        (
            "chatcodec._model.stream_events",
            "STREAM_EVENT_ADAPTER AnyStreamEvent ChoiceMetadataEvent ErrorEvent FinishEvent PartEvent "
            "RefusalDeltaEvent ResponseStartEvent StreamEvent TextDeltaEvent TextEndEvent TextStartEvent "
            "ThinkingDeltaEvent ThinkingEndEvent ThinkingSignatureDeltaEvent ThinkingStartEvent ToolCallDeltaEvent "
            "ToolCallEndEvent ToolCallStartEvent UsageEvent",
        ),
        (
            "chatcodec._model.content",
            "AnyPart AssistantContentPart AudioPart Base64Source CacheControl ContentPart DocumentPart FileSource "
            "ImagePart OpaquePart RefusalPart SystemContentPart TextPart TextSource ThinkingPart "
            "ToolResultContentPart ToolResultPart ToolUsePart UrlCitation UrlSource UserContentPart VideoPart",
        ),
        ("chatcodec.batch._converter", "BatchConverter"),
        ("chatcodec._boundary_messages", "BoundaryMessages"),
        ("chatcodec._model.request", "ChatRequest ReasoningConfig ReasoningEffort ResponseFormat"),
        (
            "chatcodec._model.canonical_types",
            "ChatRequestData ChatResponseData ContentPartData MessageData StreamEventData",
        ),
        ("chatcodec._model.response", "ChatResponse ResponseChoice"),
        (
            "chatcodec._errors",
            "ChatcodecError CodecNotAvailableError OptionError PayloadError ProviderAPIError ProviderLookupError "
            "StreamError ToolArgumentsError UnknownProviderError ValidationError",
        ),
        (
            "chatcodec._codec_protocols",
            "Codec StreamDecoder StreamEncoder SupportsMessageDecoding SupportsStreamDecoder SupportsStreamEncoder",
        ),
        ("chatcodec._content_rule", "ContentRule"),
        ("chatcodec._model.response_fields", "FinishReason TokenLogprob TopLogprob UnifiedFinishReason Usage"),
        ("chatcodec._losses", "Loss LossError LossKind LossWarning OnLoss"),
        ("chatcodec._training.message_spans", "MessageTokens message_token_spans"),
        ("chatcodec._training.turn_prompt", "NextPrompt next_prompt"),
        ("chatcodec._training.episode_records", "RecordedEpisode read_episodes"),
        ("chatcodec.batch._render_converter", "RenderConverter"),
        ("chatcodec._training.render", "Rendering render"),
        ("chatcodec.streams._sse", "SSEEvent SSEParser format_sse"),
        ("chatcodec._training.turns", "SampledTurn"),
        ("chatcodec.streams._accumulator", "StreamAccumulator"),
        ("chatcodec.streams._convert", "StreamConverter aconvert_stream convert_stream"),
        ("chatcodec._training.errors", "TemplateError"),
        ("chatcodec._training.template_limits", "TemplateLimits"),
        ("chatcodec._training.profile", "TemplateProfile"),
        ("chatcodec._model.tools", "ToolChoice ToolDefinition"),
        (
            "chatcodec._api",
            "accumulate_stream convert_request convert_response decode_request decode_response decode_stream "
            "encode_request encode_response encode_stream",
        ),
        ("chatcodec._validation", "dump_messages validate_message validate_messages validate_model"),
        ("chatcodec._error_shapes", "error_body error_event read_error"),
        ("chatcodec._training.completion.parse", "parse_completion"),
        ("chatcodec._training.records", "read_records"),
        ("chatcodec._rendering", "render_conversation render_message"),
        ("chatcodec._training.episodes", "render_turns"),
        ("chatcodec._row_dialects.sessions", "session_subagents"),
        ("chatcodec._training.families", "template_profile"),
        ("chatcodec.streams._framing", "to_sse"),
        ("chatcodec._training.trainer_rows", "trainer_rows"),
        ("chatcodec._training.samples", "trainer_samples"),
        ("chatcodec._warm", "warm_up"),
    )
    for name in names.split()
}


if not _typing.TYPE_CHECKING:  # type checkers see the imports above, so a misspelt name is an error

    def __getattr__(name: str) -> _typing.Any:
        if name == "__version__":  # from the installed package's metadata, read on first use
            from importlib.metadata import PackageNotFoundError, version

            try:
                found = version("chatcodec")
            except PackageNotFoundError:  # a source tree on sys.path, not installed
                found = "0+unknown"
            globals()[name] = found
            return found
        module_name = _EXPORTED_FROM.get(name)
        if module_name is None:
            raise AttributeError(f"module 'chatcodec' has no attribute {name!r}")
        value = getattr(_importlib.import_module(module_name), name)
        globals()[name] = value  # later lookups skip this function
        return value


def __dir__() -> list[str]:
    return sorted({*(name for name in globals() if not name.startswith("_")), *__all__})
