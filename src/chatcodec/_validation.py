"""Validating data at an API boundary, with chatcodec's errors.

Each function takes Python data, JSON text or bytes, reads the accepted dialects into
canonical data (:mod:`chatcodec._dialects.reader`), validates in one pass through pydantic-core,
and raises :class:`~chatcodec.ValidationError` whose paths point into the caller's input.
Data that is canonical by construction (codec output) is validated by
:mod:`chatcodec._canonical_validation`, which reads no dialect and loads no reader.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any, TypeVar

import pydantic_core
from pydantic import BaseModel

from chatcodec._canonical_validation import validate_canonical
from chatcodec._dialects.base import OPENAI_RESPONSES, DialectError
from chatcodec._dialects.reader import read_message, read_messages, read_request, read_response
from chatcodec._errors import PayloadError, ValidationError, as_chatcodec_error, rule_error
from chatcodec._model.messages import MESSAGE_ADAPTER, MESSAGES_ADAPTER, AnyMessage
from chatcodec._model.request import ChatRequest
from chatcodec._narrow import as_dict, as_list
from chatcodec._payloads import parse_json, too_deep
from chatcodec._public_label import shown_as
from chatcodec._sdk_objects import sdk_json_items

if TYPE_CHECKING:
    from chatcodec._model.canonical_types import MessageData

ModelT = TypeVar("ModelT", bound=BaseModel)
ValueT = TypeVar("ValueT")

Reader = Callable[[object], Any]


def _read_then_validate(validate: Callable[[object], ValueT], reader: Reader, data: object, title: str) -> ValueT:
    """Read the dialects of ``data`` (parsed first when it is JSON), then validate."""
    return _validated(validate, reader, _parsed(data), title)


def _validated(validate: Callable[[object], ValueT], reader: Reader, root: object, title: str) -> ValueT:
    """Read the dialects of parsed ``root``, then validate."""
    try:
        canonical = reader(root)
    except DialectError as error:
        raise rule_error(title, error.location, error.rule, error.message, error.value) from None
    except RecursionError:  # a reader spelling a value too deep for it (a call's input as text)
        raise too_deep(root) from None
    try:
        return validate(canonical)
    except pydantic_core.ValidationError as error:
        raise as_chatcodec_error(error, title, root) from None


def _parsed(data: object) -> object:
    """``data`` parsed when it is JSON; bytes must be UTF-8, as pydantic-core reads them;
    SDK objects (the data itself, a list's items, a mapping's lists' items) become the
    JSON their server sent (:mod:`chatcodec._sdk_objects`)."""
    data = sdk_json_items(data)
    if isinstance(data, bytes | bytearray):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as error:
            raise PayloadError(f"not UTF-8 text: {error.reason} at byte {error.start}") from None
    return parse_json(data) if isinstance(data, str) else data


@cache
def _reader_for(model: type[BaseModel]) -> Reader | None:
    if issubclass(model, ChatRequest):
        return read_request
    if _RESPONSE_MODELS in sys.modules:  # a class derives from ChatResponse only once it is loaded
        from chatcodec._model.response import ChatResponse

        if issubclass(model, ChatResponse):
            return read_response
    return None


_RESPONSE_MODELS = "chatcodec._model.response"
"""Not imported to ask of another model (a render validates tools and messages, no response)."""


def validate_model(model: type[ModelT], data: object) -> ModelT:
    """Validate ``data`` as ``model`` (any canonical class), with chatcodec's errors.

    A ``ChatRequest`` or ``ChatResponse`` given as a mapping may use the accepted input
    shapes (:mod:`chatcodec._dialects.reader`); other models take canonical data only.
    """
    reader = _reader_for(model)
    if reader is None:
        return validate_canonical(model, sdk_json_items(data))
    return _read_then_validate(model.model_validate, reader, data, model.__name__)


def validate_messages(data: object) -> list[AnyMessage]:
    """Validate a conversation: a list of messages in any accepted shape, or a history an agent
    framework stored (:func:`_framework_of`): LangChain's ``messages_to_dict`` or ``dumpd``
    list, pydantic-ai's ``ModelMessagesTypeAdapter`` list, the Vercel AI SDK's ``UIMessage[]``
    or ``ModelMessage[]``, each read by its format as a whole list (an assistant ``UIMessage``
    or a ``ModelResponse`` is several canonical messages); AG-UI messages
    (:func:`_ag_ui_messages`); or OpenAI Responses input items (:func:`_responses_items`: the
    OpenAI Agents SDK's ``to_input_list()``)."""
    root = _parsed(data)
    try:
        return _validated(MESSAGES_ADAPTER.validate_python, _read_conversation, root, "Messages")
    except ValidationError:
        if _responses_items(root):
            read = _read_responses_items
        elif _ag_ui_messages(root):
            read = _read_ag_ui_messages
        elif _model_messages(root):
            read = _read_model_messages
        else:
            raise
    return _validated(MESSAGES_ADAPTER.validate_python, read, root, "Messages")


_LANGCHAIN, _PYDANTIC_AI, _UI_FORMAT, _MODEL_FORMAT = "langchain", "pydantic-ai", "ai-sdk-ui", "ai-sdk-model"
_GOOGLE_ADK = "google-adk"
_OTEL_GENAI = "otel-genai"
_A2A, _A2A_ROLES = "a2a", ("ROLE_USER", "ROLE_AGENT")
_AG_UI = "ag-ui"
"""The framework formats whose message lists :func:`validate_messages` also reads."""


def _framework_of(first: dict[str, Any]) -> str | None:
    """The framework format a list's first message is in, by a shape no chat message has; None
    for a chat message (the dialects' reading). Two dict lookups for an OpenAI-shaped message.

    - a ``UIMessage``: ``id`` and ``parts``, no ``content``;
    - LangChain: no ``role``, ``type`` and ``data`` (``messages_to_dict``) or ``lc`` (``dumpd``);
    - pydantic-ai: no ``role``, ``kind`` and ``parts`` (``ModelRequest``, ``ModelResponse``);
    - Google ADK: no ``role``, an ``author`` and the ``content`` or ``actions`` of a session ``Event``;
    - the OpenTelemetry GenAI conventions' message: ``role`` and typed ``parts``, no ``id`` or ``content``;
    - an A2A message: ``parts`` and a ``role`` of the protocol's enum (``ROLE_USER``, ``ROLE_AGENT``).

    An AI SDK ``ModelMessage`` has a ``role`` and a ``content`` as a chat message has: it is
    read only when the dialects refuse the list and it holds the AI SDK's marks
    (:func:`_model_messages`), so an OpenAI-shaped list reads as it always did."""
    if "role" in first:
        if "parts" not in first or "content" in first:
            return None
        if first["role"] in _A2A_ROLES:
            return _A2A
        return _UI_FORMAT if "id" in first else _OTEL_GENAI if _typed_parts(first["parts"]) else None
    if "lc" in first or ("type" in first and "data" in first):
        return _LANGCHAIN
    if "kind" in first and "parts" in first:
        return _PYDANTIC_AI
    if "author" in first and ("content" in first or "actions" in first):
        return _GOOGLE_ADK
    return None


def framework_of(first: dict[str, Any]) -> str | None:
    """The framework format whose stored message ``first`` is (:func:`_framework_of`), for the
    command line's guess of a file's format; None for a chat message."""
    return _framework_of(first)


def opens_stored_list(first: dict[str, Any]) -> bool:
    """Whether ``first``, a list's first item with no ``role``, is the first of a stored
    conversation :func:`validate_messages` reads: a framework's message (a pydantic-ai
    ``ModelRequest``, a Google ADK ``Event``...) or an OpenAI Responses input item (what the
    OpenAI Agents SDK stores, which may open with a ``reasoning`` or ``function_call`` item)."""
    kind = first.get("type")
    responses_item = isinstance(kind, str) and (kind in _RESPONSES_ITEM_TYPES or kind.endswith("_call"))
    return responses_item or _framework_of(first) is not None


def _typed_parts(parts: object) -> bool:
    """Whether a message's ``parts`` start with a typed part, as the GenAI conventions' parts
    are (a Gemini ``Content``'s parts have no ``type``: left to the dialects, as before)."""
    listed = as_list(parts)
    first = as_dict(listed[0]) if listed else None
    return first is not None and "type" in first


def _read_conversation(data: object) -> Any:
    """``data`` read as the dialects are, or by the framework format its first message is in."""
    listed = as_list(data)
    first = as_dict(listed[0]) if listed else None
    if first is not None and ("role" not in first or "parts" in first):  # a chat message has a role, no parts
        name = _framework_of(first)
        if name is not None:
            return _read_as(name, listed)
    return read_messages(data)


def _read_as(name: str, listed: Any) -> list[AnyMessage]:
    """``listed`` read by the framework format ``name`` (each message checked by its validator)."""
    from chatcodec._codec_protocols import SupportsMessageDecoding
    from chatcodec._registry import get_codec

    codec = get_codec(name)
    assert isinstance(codec, SupportsMessageDecoding)
    messages: list[dict[str, Any]] = listed
    return codec.decode_messages(messages)


def _read_ag_ui_messages(data: object) -> Any:
    return _read_as(_AG_UI, data)


def _read_model_messages(data: object) -> Any:
    return _read_as(_MODEL_FORMAT, data)


def _read_responses_items(data: object) -> Any:
    return _read_as(OPENAI_RESPONSES, data)


_RESPONSES_ITEM_TYPES = frozenset(
    {"message", "reasoning", "function_call_output", "custom_tool_call_output", "item_reference"}
)
"""Top-level ``type`` values of OpenAI Responses input items (``ResponseInputItemParam`` in the
openai SDK) besides the ``..._call`` items; no chat message, canonical message or AI SDK
``ModelMessage`` has a top-level ``type`` (a LangChain message's is its own, read first)."""


def _responses_items(root: object) -> bool:
    """Whether a list the dialects refused holds an OpenAI Responses input item (an item
    typed ``message``, ``reasoning``, ``function_call``, ``..._call_output``...): what the
    OpenAI Agents SDK's ``RunResult.to_input_list()`` returns (a ``reasoning`` item with the
    SDK's ``__fake_id__`` from a Chat Completions model among them), so it is read as those
    items, not taken for an AI SDK list whose parts share the word ``reasoning``."""
    listed = as_list(root)
    first = as_dict(listed[0]) if listed else None
    if first is None or _framework_of(first) is not None:  # refused by its own format
        return False
    for item in listed or ():
        kind = (as_dict(item) or {}).get("type")
        if isinstance(kind, str) and (kind in _RESPONSES_ITEM_TYPES or kind.endswith("_call")):
            return True
    return False


_MODEL_PART_TYPES = frozenset(
    {"tool-call", "tool-result", "reasoning", "tool-approval-request", "tool-approval-response"}
)
"""The ``ModelMessage`` part types no chat dialect has."""

_MODEL_KEYS = ("providerOptions", "mediaType", "toolCallId")
"""Keys of a ``ModelMessage`` or its parts that no chat dialect has."""


def _model_messages(root: object) -> bool:
    """Whether a list the dialects refused holds the AI SDK ``ModelMessage``'s marks: a
    ``providerOptions``, ``mediaType`` or ``toolCallId`` key, or a part of a type only it has
    (looked for only after a refusal, so a refused chat list is not read as one by chance)."""
    listed = as_list(root)
    first = as_dict(listed[0]) if listed else None
    if first is None or _framework_of(first) is not None:  # refused by its own format
        return False
    for message in listed or ():
        fields = as_dict(message)
        if fields is None:
            continue
        content = as_list(fields.get("content")) or ()
        for item in (fields, *content):
            part = as_dict(item)
            if part is None:
                continue
            kind = part.get("type")
            if (isinstance(kind, str) and kind in _MODEL_PART_TYPES) or any(key in part for key in _MODEL_KEYS):
                return True
    return False


_AG_UI_ROLES = frozenset({"developer", "system", "user", "assistant", "tool", "activity", "reasoning"})
_AG_UI_MARKS = ("toolCalls", "toolCallId", "activityType", "encryptedValue", "subagentRunId")
"""Keys of an AG-UI message that no chat dialect has (a ``ModelMessage``'s ``toolCallId`` is
on its parts, never on the message)."""


def _ag_ui_messages(root: object) -> bool:
    """Whether a list the dialects refused is AG-UI's: every message an object with a string
    ``id`` and one of AG-UI's roles, and one of them with a key or role only AG-UI has (its
    camelCase ``toolCalls``, ``toolCallId``..., a ``reasoning`` or ``activity`` role)."""
    listed = as_list(root)
    if not listed:
        return False
    marked = False
    for item in listed:
        message = as_dict(item)
        role = None if message is None else message.get("role")
        if message is None or not isinstance(message.get("id"), str) or not isinstance(role, str):
            return False
        if role not in _AG_UI_ROLES:
            return False
        marked = marked or message["role"] in ("reasoning", "activity") or any(key in message for key in _AG_UI_MARKS)
    return marked


def validate_message(data: object) -> AnyMessage:
    """Validate one message of any role, in any accepted shape."""
    return _read_then_validate(MESSAGE_ADAPTER.validate_python, read_message, data, "Message")


def dump_messages(messages: list[AnyMessage], **options: Any) -> list[MessageData]:
    """Canonical JSON-ready dicts for ``messages``, typed as :data:`~chatcodec.MessageData`
    (``message["role"] == "tool"`` narrows to a tool message's keys). ``model_dump`` options
    pass through (``context={"content_form": "list"}``); one that leaves keys out
    (``exclude=...``) gives dicts the type no longer describes."""
    dumped: list[MessageData] = MESSAGES_ADAPTER.dump_python(messages, mode="json", **options)
    return dumped


shown_as("chatcodec", dump_messages, validate_message, validate_messages, validate_model)
