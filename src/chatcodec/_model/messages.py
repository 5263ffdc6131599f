"""Messages, tagged by ``role``, and the validated ``Messages`` list.

Content is ``str | list[part]`` and keeps the form the caller used: a string stays a
string, so encoding back to the provider it came from reproduces it exactly. An
assistant message keeps its parts in the order the model produced them (thinking, text
and tool calls interleaved). Tool results live in :class:`ToolMessage`, one message per
group of results, never inside a user message.

Dumping a chat message (system, user, assistant, tool) with
``context={"content_form": "list"}`` emits the list form (what a provider needs when
caching, images or tool calls are involved: the OpenHands rule; an empty string is an
empty list); ``"string"`` emits a string wherever that is exact (a single uncached text
part); the default, ``"preserve"``, emits what was given. A :class:`TextMessage` is raw
completion text and always dumps as a string.
"""

from typing import TYPE_CHECKING, Annotated, Any, Literal, overload

from pydantic import (
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    TypeAdapter,
    field_serializer,
)
from typing_extensions import TypeVar

from chatcodec._model._base import KeyedModel, ProviderMetadata, TaggedOn, deferred_adapter, omitted_when_none
from chatcodec._model.content import (
    AnyPart,
    AssistantContentPart,
    CacheControl,
    SystemContentPart,
    TextPart,
    ThinkingPart,
    ToolResultContentPart,
    ToolResultPart,
    ToolUsePart,
    UserContentPart,
    content_text,
    render_content,
)
from chatcodec._narrow import as_list
from chatcodec._public_label import shown_as

_Default = TypeVar("_Default", default=None)
"""What ``message.get(key, default)`` answers when ``key`` is absent (``None`` when no default is
given, as ``dict.get``: so one overload a key serves both calls)."""

# Keys another message class has: ``get`` answers the default for them, so code reading a
# ``Message`` (the union) can ask ``message.get("tool_calls")`` of any message, and a key
# no message has (``"tool_call"``) is still a type error.
_ASSISTANT_KEYS = Literal["tool_calls", "reasoning_content", "thinking_blocks"]
_TOOL_KEYS = Literal["tool_call_id", "is_error"]
_NOT_ON_CHAT = Literal[_ASSISTANT_KEYS, _TOOL_KEYS]
_NOT_ON_ASSISTANT = _TOOL_KEYS
_NOT_ON_TOOL = _ASSISTANT_KEYS


class _MessageBase(KeyedModel):
    name: str | None = omitted_when_none()
    """Participant name (OpenAI ``name``), to tell apart speakers sharing a role."""
    cache_control: CacheControl | None = omitted_when_none()
    """Prompt-cache breakpoint at the end of this message, if any."""
    provider_metadata: ProviderMetadata | None = omitted_when_none()
    """Provider data with no canonical field, keyed by provider name."""

    @property
    def parts(self) -> list[AnyPart]:
        """The content as a list of parts, whichever form it was given in."""
        content: object = getattr(self, "content", "")
        if isinstance(content, str):
            return [TextPart(text=content)] if content else []
        listed = as_list(content)
        assert listed is not None
        return listed.copy()

    @property
    def text(self) -> str:
        """The message's text parts joined, without thinking or tool calls."""
        return content_text(self.parts)


class _ChatMessageBase(_MessageBase):
    @field_serializer("content", mode="wrap", check_fields=False)
    def _serialize_content(self, value: object, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> Any:
        return render_content(value, handler, info)


class SystemMessage(_ChatMessageBase):
    """Instructions for the model. ``role="developer"`` is OpenAI's newer spelling and is
    kept distinct so it survives a round trip; other providers treat both alike."""

    role: Literal["system", "developer"] = "system"
    """``system``, or ``developer`` where the caller used OpenAI's developer role."""
    content: str | list[SystemContentPart]
    """The instructions."""

    if TYPE_CHECKING:  # typed dict access; the base class implements it

        @overload
        def __getitem__(self, key: Literal["role"]) -> Literal["system", "developer"]: ...
        @overload
        def __getitem__(self, key: Literal["content"]) -> str | list[SystemContentPart]: ...
        @overload
        def __getitem__(self, key: Literal["name"]) -> str: ...
        @overload
        def __getitem__(self, key: Literal["cache_control"]) -> CacheControl: ...
        @overload
        def __getitem__(self, key: Literal["provider_metadata"]) -> ProviderMetadata: ...
        def __getitem__(self, key: str) -> Any: ...

        @overload
        def get(self, key: Literal["role"], default: _Default = ...) -> Literal["system", "developer"] | _Default: ...
        @overload
        def get(self, key: Literal["content"], default: _Default = ...) -> str | list[SystemContentPart] | _Default: ...
        @overload
        def get(self, key: Literal["name"], default: _Default = ...) -> str | _Default: ...
        @overload
        def get(self, key: Literal["cache_control"], default: _Default = ...) -> CacheControl | _Default: ...
        @overload
        def get(self, key: Literal["provider_metadata"], default: _Default = ...) -> ProviderMetadata | _Default: ...
        @overload
        def get(self, key: _NOT_ON_CHAT) -> None: ...
        @overload
        def get(self, key: _NOT_ON_CHAT, default: _Default) -> _Default: ...
        def get(self, key: str, default: Any = None) -> Any: ...


class UserMessage(_ChatMessageBase):
    """What the user (or the application on their behalf) says."""

    role: Literal["user"] = "user"
    """Tag of this message kind."""
    content: str | list[UserContentPart]
    """Text, or parts: text, images, audio, documents."""

    if TYPE_CHECKING:  # typed dict access; the base class implements it

        @overload
        def __getitem__(self, key: Literal["role"]) -> Literal["user"]: ...
        @overload
        def __getitem__(self, key: Literal["content"]) -> str | list[UserContentPart]: ...
        @overload
        def __getitem__(self, key: Literal["name"]) -> str: ...
        @overload
        def __getitem__(self, key: Literal["cache_control"]) -> CacheControl: ...
        @overload
        def __getitem__(self, key: Literal["provider_metadata"]) -> ProviderMetadata: ...
        def __getitem__(self, key: str) -> Any: ...

        @overload
        def get(self, key: Literal["role"], default: _Default = ...) -> Literal["user"] | _Default: ...
        @overload
        def get(self, key: Literal["content"], default: _Default = ...) -> str | list[UserContentPart] | _Default: ...
        @overload
        def get(self, key: Literal["name"], default: _Default = ...) -> str | _Default: ...
        @overload
        def get(self, key: Literal["cache_control"], default: _Default = ...) -> CacheControl | _Default: ...
        @overload
        def get(self, key: Literal["provider_metadata"], default: _Default = ...) -> ProviderMetadata | _Default: ...
        @overload
        def get(self, key: _NOT_ON_CHAT) -> None: ...
        @overload
        def get(self, key: _NOT_ON_CHAT, default: _Default) -> _Default: ...
        def get(self, key: str, default: Any = None) -> Any: ...


class AssistantMessage(_ChatMessageBase):
    """What the model said: text, reasoning and tool calls in the order produced."""

    role: Literal["assistant"] = "assistant"
    """Tag of this message kind."""
    content: str | list[AssistantContentPart] = ""
    """Text, or parts in the order the model produced them."""

    if TYPE_CHECKING:  # typed dict access; the base class implements it

        @overload
        def __getitem__(self, key: Literal["role"]) -> Literal["assistant"]: ...
        @overload
        def __getitem__(self, key: Literal["content"]) -> str | list[AssistantContentPart] | None: ...
        @overload
        def __getitem__(self, key: Literal["tool_calls"]) -> list[ToolUsePart]: ...
        @overload
        def __getitem__(self, key: Literal["reasoning_content"]) -> str: ...
        @overload
        def __getitem__(self, key: Literal["thinking_blocks"]) -> list[dict[str, Any]]: ...
        @overload
        def __getitem__(self, key: Literal["name"]) -> str: ...
        @overload
        def __getitem__(self, key: Literal["cache_control"]) -> CacheControl: ...
        @overload
        def __getitem__(self, key: Literal["provider_metadata"]) -> ProviderMetadata: ...
        def __getitem__(self, key: str) -> Any: ...

        @overload
        def get(self, key: Literal["role"], default: _Default = ...) -> Literal["assistant"] | _Default: ...
        @overload
        def get(
            self, key: Literal["content"], default: _Default = ...
        ) -> str | list[AssistantContentPart] | _Default | None: ...
        @overload
        def get(self, key: Literal["tool_calls"], default: _Default = ...) -> list[ToolUsePart] | _Default: ...
        @overload
        def get(self, key: Literal["reasoning_content"], default: _Default = ...) -> str | _Default: ...
        @overload
        def get(self, key: Literal["thinking_blocks"], default: _Default = ...) -> list[dict[str, Any]] | _Default: ...
        @overload
        def get(self, key: Literal["name"], default: _Default = ...) -> str | _Default: ...
        @overload
        def get(self, key: Literal["cache_control"], default: _Default = ...) -> CacheControl | _Default: ...
        @overload
        def get(self, key: Literal["provider_metadata"], default: _Default = ...) -> ProviderMetadata | _Default: ...
        @overload
        def get(self, key: _NOT_ON_ASSISTANT) -> None: ...
        @overload
        def get(self, key: _NOT_ON_ASSISTANT, default: _Default) -> _Default: ...
        def get(self, key: str, default: Any = None) -> Any: ...

    @property
    def tool_calls(self) -> list[ToolUsePart]:
        """The tool calls, in order."""
        return [part for part in self.parts if isinstance(part, ToolUsePart)]

    @property
    def thinking(self) -> list[ThinkingPart]:
        """The reasoning parts, in order."""
        return [part for part in self.parts if isinstance(part, ThinkingPart)]

    @property
    def reasoning_text(self) -> str:
        """All readable reasoning joined (what Verifiers calls ``reasoning_content``)."""
        return "".join(part.text for part in self.thinking)

    def dict_aliases(self) -> dict[str, Any]:
        """What Verifiers' ``AssistantMessage`` gives for the keys its rollout code reads.

        Verifiers (``verifiers/types.py``) keeps reasoning and tool calls beside the
        content: ``if message.get("tool_calls"):`` runs the tools, each call with ``id``,
        ``name`` and ``arguments``. So when the content holds thinking or tool calls,
        ``content`` reads as the rest (its text as one string, ``None`` when there is
        none), and ``tool_calls``, ``reasoning_content`` and (for Anthropic-signed
        thinking) ``thinking_blocks`` are keys, present when non-empty. The attributes
        (``message.content``) stay canonical, and so does ``model_dump()``. For a message
        read from Verifiers' shape, ``dict(message)`` validates back to the same message;
        what that shape cannot hold (text interleaved with tool calls, a reasoning field
        other than ``reasoning_content``) is only in the canonical forms.
        """
        if isinstance(self.content, str):
            return {}
        calls = self.tool_calls
        thinking = self.thinking
        if not calls and not thinking:
            return {}
        rest = [part for part in self.content if not isinstance(part, ThinkingPart | ToolUsePart)]
        aliases: dict[str, Any] = {"content": _verifiers_content(rest)}
        if calls:
            aliases["tool_calls"] = calls
        if self.reasoning_text:
            aliases["reasoning_content"] = self.reasoning_text
        blocks = [_anthropic_block(part) for part in thinking if part.provider == "anthropic"]
        if blocks:
            aliases["thinking_blocks"] = blocks
        return aliases


def _verifiers_content(parts: list[Any]) -> Any:
    """Content as Verifiers holds it beside its tool calls: plain text as one string
    (``None`` for none), anything richer as the parts."""
    if all(
        isinstance(part, TextPart) and part.cache_control is None and part.provider_metadata is None for part in parts
    ):
        return "".join(part.text for part in parts) or None
    return parts


def _anthropic_block(part: ThinkingPart) -> dict[str, Any]:
    """A thinking part in the Anthropic block shape LiteLLM and Verifiers call
    ``thinking_blocks``."""
    if part.redacted:
        return {"type": "redacted_thinking", "data": part.encrypted}
    block: dict[str, Any] = {"type": "thinking", "thinking": part.text}
    if part.signature is not None:
        block["signature"] = part.signature
    return block


class ToolMessage(_ChatMessageBase):
    """Results of tool calls, sent back to the model.

    One message may carry several results (Anthropic, Gemini and Bedrock send all
    results of a turn together); OpenAI-style input gives one result per message.
    """

    role: Literal["tool"] = "tool"
    """Tag of this message kind."""
    content: list[Annotated[ToolResultPart, TaggedOn("type")]] = Field(min_length=1)
    """The results, in the order given (each with its ``type`` tag, as everywhere else)."""

    if TYPE_CHECKING:  # typed dict access; the base class implements it

        @overload
        def __getitem__(self, key: Literal["role"]) -> Literal["tool"]: ...
        @overload
        def __getitem__(self, key: Literal["content"]) -> list[ToolResultPart] | str | list[ToolResultContentPart]: ...
        @overload
        def __getitem__(self, key: Literal["tool_call_id"]) -> str: ...
        @overload
        def __getitem__(self, key: Literal["is_error"]) -> bool: ...
        @overload
        def __getitem__(self, key: Literal["name"]) -> str: ...
        @overload
        def __getitem__(self, key: Literal["cache_control"]) -> CacheControl: ...
        @overload
        def __getitem__(self, key: Literal["provider_metadata"]) -> ProviderMetadata: ...
        def __getitem__(self, key: str) -> Any: ...

        @overload
        def get(self, key: Literal["role"], default: _Default = ...) -> Literal["tool"] | _Default: ...
        @overload
        def get(
            self, key: Literal["content"], default: _Default = ...
        ) -> list[ToolResultPart] | str | list[ToolResultContentPart] | _Default: ...
        @overload
        def get(self, key: Literal["tool_call_id"], default: _Default = ...) -> str | _Default: ...
        @overload
        def get(self, key: Literal["is_error"], default: _Default = ...) -> bool | _Default: ...
        @overload
        def get(self, key: Literal["name"], default: _Default = ...) -> str | _Default: ...
        @overload
        def get(self, key: Literal["cache_control"], default: _Default = ...) -> CacheControl | _Default: ...
        @overload
        def get(self, key: Literal["provider_metadata"], default: _Default = ...) -> ProviderMetadata | _Default: ...
        @overload
        def get(self, key: _NOT_ON_TOOL) -> None: ...
        @overload
        def get(self, key: _NOT_ON_TOOL, default: _Default) -> _Default: ...
        def get(self, key: str, default: Any = None) -> Any: ...

    @property
    def text(self) -> str:
        """The results' text joined."""
        return "".join(result.text for result in self.content)

    @property
    def tool_use_ids(self) -> list[str]:
        """Ids of the calls these results answer."""
        return [result.tool_use_id for result in self.content]

    @property
    def tool_call_id(self) -> str:
        """The id of the call answered (Verifiers' and OpenAI's ``tool_call_id``): the
        first result's, as OpenAI-style messages carry one result each."""
        return self.content[0].tool_use_id

    def dict_aliases(self) -> dict[str, Any]:
        """What Verifiers' ``ToolMessage`` gives, for a message holding one result:
        ``tool_call_id``, the result's ``content``, and its ``is_error`` and ``name``
        when set (the dialect reads exactly these back, see :mod:`chatcodec._dialects.reader`).
        A message with several results (Anthropic's grouped shape) reads canonically."""
        if len(self.content) != 1:
            return {}
        result = self.content[0]
        aliases: dict[str, Any] = {"tool_call_id": result.tool_use_id, "content": result.content}
        if result.is_error:
            aliases["is_error"] = True
        if result.name is not None and self.name is None:
            aliases["name"] = result.name
        return aliases


class TextMessage(_MessageBase):
    """Completion-style raw text (a prompt or completion with no chat structure)."""

    role: Literal["text"] = "text"
    """Tag of this message kind."""
    content: str
    """The raw text."""

    if TYPE_CHECKING:  # typed dict access; the base class implements it

        @overload
        def __getitem__(self, key: Literal["role"]) -> Literal["text"]: ...
        @overload
        def __getitem__(self, key: Literal["content"]) -> str: ...
        @overload
        def __getitem__(self, key: Literal["name"]) -> str: ...
        @overload
        def __getitem__(self, key: Literal["cache_control"]) -> CacheControl: ...
        @overload
        def __getitem__(self, key: Literal["provider_metadata"]) -> ProviderMetadata: ...
        def __getitem__(self, key: str) -> Any: ...

        @overload
        def get(self, key: Literal["role"], default: _Default = ...) -> Literal["text"] | _Default: ...
        @overload
        def get(self, key: Literal["content"], default: _Default = ...) -> str | _Default: ...
        @overload
        def get(self, key: Literal["name"], default: _Default = ...) -> str | _Default: ...
        @overload
        def get(self, key: Literal["cache_control"], default: _Default = ...) -> CacheControl | _Default: ...
        @overload
        def get(self, key: Literal["provider_metadata"], default: _Default = ...) -> ProviderMetadata | _Default: ...
        @overload
        def get(self, key: _NOT_ON_CHAT) -> None: ...
        @overload
        def get(self, key: _NOT_ON_CHAT, default: _Default) -> _Default: ...
        def get(self, key: str, default: Any = None) -> Any: ...


Message = Annotated[
    SystemMessage | UserMessage | AssistantMessage | ToolMessage | TextMessage,
    TaggedOn("role"),
]
"""Any message, told apart by ``role``."""

AnyMessage = SystemMessage | UserMessage | AssistantMessage | ToolMessage | TextMessage
"""Plain union of every message class, for ``match`` statements and annotations."""

Messages = list[Message]
"""A conversation: messages in order, canonical only (Anthropic-style user turns holding
tool results are split by :func:`~chatcodec.validate_messages`, see :mod:`chatcodec._dialects.reader`)."""

MESSAGES_ADAPTER: TypeAdapter[list[AnyMessage]] = deferred_adapter(Messages)
"""Validates and dumps whole conversations in one pass through pydantic-core."""

MESSAGE_ADAPTER: TypeAdapter[AnyMessage] = deferred_adapter(Message)
"""Validates a single message of any role."""

shown_as("chatcodec", AssistantMessage, SystemMessage, TextMessage, ToolMessage, UserMessage)
