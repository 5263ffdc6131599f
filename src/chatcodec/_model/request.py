"""The canonical chat request: everything a caller asks of a model, provider-free."""

from typing import Annotated, Any, Literal

from pydantic import (
    Field,
    JsonValue,
    PlainSerializer,
    ValidatorFunctionWrapHandler,
    WithJsonSchema,
    WrapValidator,
)

from chatcodec._model._base import (
    CanonicalModel,
    JsonInt,
    NonNegativeInt,
    PositiveInt,
    ProviderMetadata,
    TaggedOn,
    omitted_when_empty,
    omitted_when_none,
)
from chatcodec._model.content import CacheControl, OpaquePart, TextPart
from chatcodec._model.messages import AnyMessage, Messages, SystemMessage
from chatcodec._model.tools import ToolChoice, ToolDefinition
from chatcodec._narrow import as_list, fits_a_double
from chatcodec._public_label import shown_as


def _integer_as_given(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    """A JSON integer a double cannot hold (past 2**53) stays an exact ``int``; any other
    number is a float as usual (``1`` reads as ``1.0``, the same JSON number)."""
    if type(value) is int and not fits_a_double(value):
        return value
    return handler(value)


def _number_as_held(value: float) -> Any:
    return value


SamplingNumber = Annotated[
    float,
    WrapValidator(_integer_as_given),
    PlainSerializer(_number_as_held, return_type=Any, when_used="json"),
    WithJsonSchema({"type": "number"}),
]
"""A sampling parameter: any JSON number, as a float, except an integer a double cannot
hold, kept exact (one above 2**53 came back as a different float). The
type checker sees ``float``, which an ``int`` is; validation and errors are a float's."""

ReasoningEffort = Literal["none", "minimal", "low", "medium", "high", "xhigh", "max"]
"""Effort levels across providers: OpenAI's ``none``..``xhigh`` and Anthropic's ``max``."""

Verbosity = Literal["low", "medium", "high"]
"""How long and detailed an answer should be: OpenAI's words (openai 3.54
``CompletionCreateParams.verbosity``, ``ResponseTextConfigParam.verbosity``)."""


def _no_messages() -> list[AnyMessage]:
    return []


class ReasoningConfig(CanonicalModel):
    """How much the model should think before answering."""

    enabled: bool | None = omitted_when_none()
    """Turn reasoning on or off where the provider has a switch; ``None``: default."""
    effort: ReasoningEffort | None = omitted_when_none()
    """Qualitative effort (OpenAI ``reasoning_effort``, Anthropic ``effort``)."""
    budget_tokens: NonNegativeInt | None = omitted_when_none()
    """Token budget for thinking (Anthropic ``budget_tokens``, Gemini ``thinkingBudget``)."""
    adaptive: bool | None = omitted_when_none()
    """Let the model decide how much to think (Anthropic ``adaptive`` thinking)."""
    summary: str | None = omitted_when_none()
    """Reasoning summary detail to return (OpenAI Responses ``summary``)."""
    include_thoughts: bool | None = omitted_when_none()
    """Return readable thoughts (Gemini ``includeThoughts``)."""


class ResponseFormat(CanonicalModel):
    """The shape the answer must take."""

    type: Literal["text", "json_object", "json_schema"] = "text"
    """Free text, any JSON object, or JSON matching ``json_schema``."""
    name: str | None = omitted_when_none()
    """Name of the schema (OpenAI requires one)."""
    description: str | None = omitted_when_none()
    """What the schema describes."""
    json_schema: dict[str, JsonValue] | None = omitted_when_none()
    """The JSON Schema, when ``type`` is ``json_schema``."""
    strict: bool | None = omitted_when_none()
    """Enforce the schema exactly."""


class ChatRequest(CanonicalModel):
    """A request for the model's next turn.

    System instructions are :class:`SystemMessage` entries in ``messages``, where they
    stand (OpenAI allows them mid-conversation); passing ``system=`` prepends one, and
    :attr:`system` reads the leading ones back.
    """

    model: str | None = omitted_when_none()
    """Model name, as the target provider spells it."""
    messages: Messages = Field(default_factory=_no_messages)
    """The conversation so far, system messages included."""
    tools: list[ToolDefinition] = omitted_when_empty()
    """Functions the model may call."""
    provider_tools: list[Annotated[OpaquePart, TaggedOn("type")]] = omitted_when_empty()
    """Provider-hosted tools (web search, code execution), kept as the provider spells them.
    Each needs its ``type`` tag, as every tagged object does (and as the schema says)."""
    tool_choice: ToolChoice | None = omitted_when_none()
    """Whether and which tool must be called; ``None``: provider default."""
    parallel_tool_calls: bool | None = omitted_when_none()
    """Allow several tool calls in one turn; ``None``: provider default."""
    max_tokens: PositiveInt | None = omitted_when_none()
    """Upper bound on generated tokens (reasoning included where the provider counts it)."""
    stop: list[str] = omitted_when_empty()
    """Sequences that end generation."""
    temperature: SamplingNumber | None = omitted_when_none()
    """Sampling randomness; higher is more random."""
    top_p: SamplingNumber | None = omitted_when_none()
    """Nucleus sampling mass."""
    top_k: JsonInt | None = omitted_when_none()
    """Sample from the k likeliest tokens (Anthropic, Gemini)."""
    frequency_penalty: SamplingNumber | None = omitted_when_none()
    """Penalty on tokens by how often they appeared."""
    presence_penalty: SamplingNumber | None = omitted_when_none()
    """Penalty on tokens that appeared at all."""
    seed: JsonInt | None = omitted_when_none()
    """Seed for best-effort determinism."""
    logprobs: bool | None = omitted_when_none()
    """Return the log probability of each generated token (OpenAI Chat and Ollama
    ``logprobs``, Gemini ``responseLogprobs``, the Responses ``include`` entry
    ``message.output_text.logprobs``); a format with none reports ``True``."""
    top_logprobs: NonNegativeInt | None = omitted_when_none()
    """How many of the likeliest tokens to return beside each generated one (OpenAI and
    Ollama ``top_logprobs``, Gemini ``logprobs``)."""
    reasoning: ReasoningConfig | None = omitted_when_none()
    """Reasoning settings; ``None``: provider default."""
    response_format: ResponseFormat | None = omitted_when_none()
    """Required shape of the answer; ``None``: free text."""
    verbosity: Verbosity | None = omitted_when_none()
    """How long and detailed the answer should be (OpenAI Chat ``verbosity``, Responses
    ``text.verbosity``; ``None``: the model's default, ``medium`` at OpenAI). It tunes the
    answer's length, not the thinking (Anthropic's ``effort`` and Gemini's thinking level are
    reasoning settings), so a format with no such setting reports it."""
    stream: bool | None = omitted_when_none()
    """Whether the response is streamed."""
    cache_control: CacheControl | None = omitted_when_none()
    """Request-wide automatic prompt caching (Anthropic top-level ``cache_control``)."""
    prompt_cache_key: str | None = omitted_when_none()
    """A key requests sharing a long prefix send alike, so they reach the same prompt cache
    (OpenAI Chat and Responses ``prompt_cache_key``); a format with no such field reports it."""
    metadata: dict[str, JsonValue] | None = omitted_when_none()
    """Caller metadata sent along (tags); the end user's id is :attr:`user`."""
    user: str | None = omitted_when_none()
    """The end user the request is made for: an id the provider uses to tell abuse by one
    user from the rest (OpenAI ``user``, Anthropic ``metadata.user_id``); a format with
    no such field reports it."""
    safety_identifier: str | None = omitted_when_none()
    """A stable id of the end user (a hash of their name or email) the provider uses to tell
    abuse by one user from the rest, OpenAI's successor of :attr:`user` (OpenAI Chat and
    Responses ``safety_identifier``); a format with no such field reports it."""
    service_tier: str | None = omitted_when_none()
    """The processing tier asked for, in OpenAI's words: ``auto``, ``default``, ``flex``,
    ``priority``, ``scale``, ``fast``, ``ultrafast``, or Bedrock's ``reserved``. Each
    format maps the tiers it has (Anthropic ``standard_only`` is ``default``, Gemini
    ``standard`` is ``default``) and reports the others."""
    provider_options: ProviderMetadata | None = omitted_when_none()
    """Knobs with no canonical field, keyed by provider name; sent only to that provider."""

    def __init__(self, /, **data: Any) -> None:
        """Build a request from its fields; ``system=`` (a string or parts) prepends a system
        message. The shorthand is the constructor's: ``model_validate`` takes canonical data."""
        super().__init__(**with_system_shorthand(data))

    @property
    def system(self) -> list[SystemMessage]:
        """The system messages before the first non-system message."""
        leading: list[SystemMessage] = []
        for message in self.messages:
            if not isinstance(message, SystemMessage):
                break
            leading.append(message)
        return leading

    @property
    def system_text(self) -> str:
        """The leading system messages' text, joined by blank lines."""
        return "\n\n".join(message.text for message in self.system)

    @property
    def conversation(self) -> list[AnyMessage]:
        """The messages after the leading system messages."""
        return self.messages[len(self.system) :]


def with_system_shorthand(fields: dict[str, Any]) -> dict[str, Any]:
    """``fields`` with a ``system`` key turned into a leading system message (``None``: none).

    A messages value that is not a list is left for the schema to report, and only that.
    """
    if "system" not in fields:
        return fields
    rest = {key: value for key, value in fields.items() if key != "system"}
    system: object = fields["system"]
    messages = as_list(fields.get("messages") or [])
    if system is not None and messages is not None:
        rest["messages"] = [{"role": "system", "content": system}, *messages]
    return rest


def system_parts(messages: list[SystemMessage]) -> list[TextPart | OpaquePart]:
    """All parts of ``messages`` in order (for providers with one system field)."""
    return [part for message in messages for part in message.parts if isinstance(part, TextPart | OpaquePart)]


shown_as("chatcodec", ChatRequest, ReasoningConfig, ResponseFormat)
