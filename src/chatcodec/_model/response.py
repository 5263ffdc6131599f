"""The canonical chat response: the model's turn, why it ended, and what it cost."""

from __future__ import annotations

from typing import Annotated, Any, Self

from pydantic import Field, model_validator

from chatcodec._model._base import (
    CanonicalModel,
    JsonInt,
    NonNegativeInt,
    ProviderMetadata,
    TaggedOn,
    omitted_when_none,
)
from chatcodec._model.choice_shorthand import with_single_message_shorthand
from chatcodec._model.messages import AssistantMessage
from chatcodec._model.response_fields import FinishReason, TokenLogprob, Usage
from chatcodec._public_label import shown_as


class ResponseChoice(CanonicalModel):
    """One generated answer; requests for several (OpenAI ``n``) give several."""

    index: NonNegativeInt = 0
    """Position of this answer among the choices."""
    message: Annotated[AssistantMessage, TaggedOn("role")]
    """What the model said (with its ``role`` tag, as every message carries one)."""
    finish_reason: FinishReason | None = omitted_when_none()
    """Why this answer ended; ``None`` when unknown (an interrupted stream)."""
    logprobs: list[TokenLogprob] | None = omitted_when_none()
    """The answer's text tokens with their log probabilities, in order, when the request
    asked for them (``logprobs``); a format with no place for them reports them."""
    provider_metadata: ProviderMetadata | None = omitted_when_none()
    """Per-choice provider data (OpenRouter's ``native_finish_reason`` ...)."""


class ChatResponse(CanonicalModel):
    """A model's response to a :class:`~chatcodec.ChatRequest`.

    Most responses have one choice; :attr:`message` and :attr:`finish_reason` read it.
    Passing ``message=`` (and ``finish_reason=``) builds that single choice.
    """

    id: str | None = omitted_when_none()
    """The provider's response id."""
    model: str | None = omitted_when_none()
    """The model that answered, as the provider named it."""
    created: JsonInt | None = omitted_when_none()
    """Unix time of creation, when the provider says."""
    choices: list[ResponseChoice] = Field(min_length=1)
    """The answers; one unless several were requested (each ``index`` used once)."""
    usage: Usage | None = omitted_when_none()
    """Token counts, when reported."""
    provider_metadata: ProviderMetadata | None = omitted_when_none()
    """Provider data with no canonical field (system fingerprint, service tier ...)."""

    def __init__(self, /, **data: Any) -> None:
        """Build a response from its fields; ``message=`` (and ``finish_reason=``) build its
        single choice. The shorthand is the constructor's: ``model_validate`` takes canonical data."""
        super().__init__(**with_single_message_shorthand(data))

    @model_validator(mode="after")
    def _choice_indexes_are_unique(self) -> Self:
        indexes = [choice.index for choice in self.choices]
        if len(set(indexes)) != len(indexes):
            raise ValueError("choice indexes must be unique")
        return self

    @property
    def message(self) -> AssistantMessage:
        """The first choice's message."""
        return self.choices[0].message

    @property
    def finish_reason(self) -> FinishReason | None:
        """The first choice's finish reason."""
        return self.choices[0].finish_reason


def validate_response(data: dict[str, Any]) -> ChatResponse:
    """``ChatResponse.model_validate(data)`` for canonical ``data``, validated once.

    ``model_validate`` of a model with its own ``__init__`` calls that ``__init__``, which
    validates again inside (the after-validator runs twice); this validates into a new
    instance as ``BaseModel.__init__`` does, without the ``message=`` shorthand: for data
    with ``choices``, as a stream builder's always has, the shorthand changes nothing.
    Raises pydantic's ``ValidationError`` as ``model_validate`` does."""
    response = ChatResponse.__new__(ChatResponse)
    ChatResponse.__pydantic_validator__.validate_python(data, self_instance=response)
    return response


shown_as("chatcodec", ChatResponse, ResponseChoice)
