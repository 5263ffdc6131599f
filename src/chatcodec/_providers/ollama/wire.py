"""Ollama ``/api/chat`` wire shapes, keys spelled exactly as the server spells them
(``api/types.go``: ``ChatRequest``, ``Message``, ``ToolCall``, ``ChatResponse``, ``Metrics``).

These TypedDicts check what the decoders read, nothing more: every object allows extra
keys (kept in bags for the round trip), and optional fields accept ``null`` (Ollama's own
streaming example sends ``"images": null``), kept as the kit's ``_nulls`` marker. A
message's ``content`` is always text: Ollama has no content parts, a message's images
are a list of base64 strings beside it, and a tool call's ``function.arguments`` is a
JSON object, not text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, NotRequired

from typing_extensions import TypedDict

from chatcodec.codec_kit import as_dict, constrained, is_dict, union_discriminator, union_tag, wire_shape

if TYPE_CHECKING:
    from pydantic import TypeAdapter

Number = int | float
"""JSON numbers: ``int`` first so ``1`` stays ``1`` and is not rewritten as ``1.0``."""

Count = Annotated[int, constrained(ge=0)]
"""A token count: canonical usage refuses negative ones, so the wire does too."""

NonEmpty = Annotated[str, constrained(min_length=1)]
"""Text the canonical model requires to be non-empty (a tool's name)."""

ROLES = ("system", "user", "assistant", "tool")
"""The roles ``/api/chat`` documents for a message."""

THINK_LEVELS = ("low", "medium", "high", "max")
"""The string values of ``think`` (``api.ThinkValue``: any other string is refused)."""


@wire_shape
class CallFunction(TypedDict):
    """A tool call's ``function``: ``arguments`` is an object (``ToolCallFunctionArguments``,
    an ordered map); ``index`` is the call's position, which the server writes."""

    name: str
    arguments: NotRequired[dict[str, Any] | None]
    index: NotRequired[int | None]


@wire_shape
class ToolCall(TypedDict):
    """One call the model made; servers since 2025 give it an ``id`` (``call_`` and 8 characters)."""

    function: CallFunction
    id: NotRequired[str | None]
    type: NotRequired[str | None]


@wire_shape
class Message(TypedDict):
    """A chat message (request history, or the answer in a response)."""

    role: Literal["system", "user", "assistant", "tool"]
    content: NotRequired[str | None]
    thinking: NotRequired[str | None]
    images: NotRequired[list[str] | None]
    tool_calls: NotRequired[list[ToolCall] | None]
    tool_name: NotRequired[str | None]
    tool_call_id: NotRequired[str | None]


@wire_shape
class FunctionDefinition(TypedDict):
    """A function tool's ``function``: ``parameters`` is a JSON Schema object."""

    name: NonEmpty
    description: NotRequired[str | None]
    parameters: NotRequired[dict[str, Any] | None]


@wire_shape
class FunctionTool(TypedDict):
    type: Literal["function"]
    function: FunctionDefinition


def _tool_tag(value: Any) -> str:
    return "function" if is_dict(value) and value.get("type") == "function" else "other"


Tool = Annotated[
    Annotated[FunctionTool, union_tag("function")] | Annotated[dict[str, Any], union_tag("other")],
    union_discriminator(_tool_tag),
]
"""A function tool, or any other object (kept whole: ``Tool.Type`` is free text in the Go types)."""


@wire_shape
class Options(TypedDict):
    """The ``options`` a chat request's sampling rides in (``api.Options``: ``num_predict``
    is the token limit); the rest (``num_ctx``, ``min_p``, ``repeat_penalty``...) is kept."""

    temperature: NotRequired[Number | None]
    top_p: NotRequired[Number | None]
    top_k: NotRequired[Number | None]
    seed: NotRequired[Number | None]
    num_predict: NotRequired[Number | None]
    stop: NotRequired[str | list[str] | None]
    frequency_penalty: NotRequired[Number | None]
    presence_penalty: NotRequired[Number | None]


@wire_shape
class Request(TypedDict):
    """A ``POST /api/chat`` body. ``stream`` is true when left out (the server streams by
    default); ``keep_alive`` is a duration string (``"5m"``) or seconds."""

    model: NotRequired[str]
    messages: NotRequired[list[Message] | None]
    tools: NotRequired[list[Tool] | None]
    format: NotRequired[str | dict[str, Any] | None]
    options: NotRequired[Options | None]
    stream: NotRequired[bool | None]
    think: NotRequired[bool | Literal["low", "medium", "high", "max"] | None]
    keep_alive: NotRequired[str | Number | None]


@wire_shape
class Response(TypedDict):
    """A chat response, and each line of a stream (``api.ChatResponse``): the counts and
    durations (nanoseconds) of ``api.Metrics`` come with the last one, ``done: true``."""

    model: NotRequired[str]
    created_at: NotRequired[str]
    message: NotRequired[Message | None]
    done: NotRequired[bool]
    done_reason: NotRequired[str | None]
    prompt_eval_count: NotRequired[Count | None]
    eval_count: NotRequired[Count | None]
    total_duration: NotRequired[int | None]
    load_duration: NotRequired[int | None]
    prompt_eval_duration: NotRequired[int | None]
    eval_duration: NotRequired[int | None]


@wire_shape
class ErrorBody(TypedDict):
    """An error: the whole body of a failed request, or one line of a stream."""

    error: str


_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}
"""Each shape's validator, built on first use (pydantic is imported then): importing the
codec, and so every conversion that never reads an Ollama body, loads no pydantic."""


def _adapter(shape: Any) -> TypeAdapter[Any]:
    adapter = _ADAPTERS.get(shape)
    if adapter is None:
        from pydantic import ConfigDict, TypeAdapter

        config = ConfigDict(allow_inf_nan=False) if shape == list[Message] else None  # as canonical messages
        adapter = _ADAPTERS[shape] = TypeAdapter(shape, config=config)
    return adapter


def is_error_body(payload: object) -> bool:
    """Whether ``payload`` is an error (``{"error": ...}``) rather than a response."""
    body = as_dict(payload)
    return body is not None and "error" in body and "message" not in body


def validated(shape: Any, payload: object, title: str) -> dict[str, Any]:
    """``payload`` checked as ``shape`` (:class:`Request`, :class:`Response`,
    :class:`ErrorBody`; errors carry wire paths), as a plain dict."""
    from chatcodec.codec_kit import validate_with

    checked = as_dict(validate_with(_adapter(shape), payload, title))
    assert checked is not None  # every shape here is a TypedDict
    return checked


def validated_messages(messages: object, title: str) -> list[dict[str, Any]]:
    """A stored list of messages checked as :class:`Message` shapes."""
    from chatcodec.codec_kit import validate_with

    checked: list[dict[str, Any]] = validate_with(_adapter(list[Message]), messages, title)
    return checked
