"""A conversation as a Pydantic field: the type a FastAPI body or any model declares to take
messages in every shape :func:`~chatcodec.validate_messages` reads.

``list[chatcodec.Message]`` is canonical only: an OpenAI-shaped message (``tool_calls``, content
parts of ``image_url``...), an Anthropic turn of ``tool_result`` blocks or a framework's stored
history is refused there, though :func:`~chatcodec.validate_messages` reads them all. This type
reads the field's value as that function does (the dialects, the framework histories, SDK
objects), then holds canonical messages, so the model that declares it is the boundary. Its
JSON Schema says both sides: what it takes (validation mode, the schema of a request body on an
OpenAPI page: canonical messages, or a list of messages in the other shapes, described rather
than spelt out, since each is the reader's to check) and what it holds (serialization mode: the
canonical conversation), so an OpenAI- or Anthropic-shaped body a client sends passes the schema
the service publishes. A value none of the readers take is refused at the field with
chatcodec's message, which names the JSON path inside the value and the rule it broke.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import BeforeValidator, Field
from pydantic_core import PydanticCustomError

from chatcodec._model.messages import Messages

if TYPE_CHECKING:
    from chatcodec._model.messages import AnyMessage


def read_messages(value: object) -> list[AnyMessage] | object:
    """``value`` read as :func:`~chatcodec.validate_messages` reads a conversation; a value it
    refuses is refused in pydantic's terms (``chatcodec_messages``, chatcodec's message)."""
    from chatcodec._errors import ChatcodecError
    from chatcodec._narrow import as_list
    from chatcodec._validation import validate_messages

    listed = as_list(value)
    if listed is not None and all(_canonical_model(item) for item in listed):
        return listed  # already messages (a model built in code): validated as they are
    try:
        return validate_messages(value)
    except ChatcodecError as error:
        raise PydanticCustomError("chatcodec_messages", "{detail}", {"detail": str(error)}) from None


def _canonical_model(item: Any) -> bool:
    from chatcodec._model.messages import AssistantMessage, SystemMessage, TextMessage, ToolMessage, UserMessage

    return isinstance(item, SystemMessage | UserMessage | AssistantMessage | ToolMessage | TextMessage)


ShapedMessages = list[
    Annotated[
        dict[str, Any],
        Field(
            description="A message in a shape chatcodec.validate_messages reads: OpenAI Chat's (role, content, "
            "tool_calls, tool_call_id), Anthropic's (role, content blocks: text, image, tool_use, tool_result, "
            "thinking), a Gemini Content (role, parts), a framework's stored message (LangChain, pydantic-ai, "
            "the Vercel AI SDK, Google ADK, the OpenAI Agents SDK's items)."
        ),
    ]
]
"""What the field takes besides canonical messages, as its JSON Schema shows it."""

BoundaryMessages = Annotated[Messages, BeforeValidator(read_messages, json_schema_input_type=Messages | ShapedMessages)]
"""A conversation taken at an API boundary: declare a field with it (``messages:
chatcodec.BoundaryMessages``) and the model reads OpenAI-, Anthropic- and Gemini-shaped messages,
the framework histories and SDK objects, as :func:`~chatcodec.validate_messages` does, into
canonical messages."""
