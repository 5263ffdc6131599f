"""Tool definitions and tool choice."""

from typing import Any, ClassVar, Literal, Self

from pydantic import ConfigDict, Field, JsonValue, model_validator

from chatcodec._model._base import CanonicalModel, ProviderMetadata, omitted_when_none
from chatcodec._model._field_docs import describe_fields
from chatcodec._model.content import CacheControl
from chatcodec._public_label import shown_as


def _empty_object_schema() -> dict[str, JsonValue]:
    return {"type": "object", "properties": {}}


class ToolDefinition(CanonicalModel):
    """A function the model may call, described by a JSON Schema for its arguments."""

    type: Literal["function"] = "function"
    """Tag of this tool kind; provider-hosted tools go in ``ChatRequest.provider_tools``."""
    name: str = Field(min_length=1)
    """The name the model calls the tool by."""
    description: str | None = omitted_when_none()
    """What the tool does, for the model."""
    parameters: dict[str, JsonValue] = Field(default_factory=_empty_object_schema)
    """JSON Schema of the arguments object."""
    strict: bool | None = omitted_when_none()
    """Ask the provider to enforce the schema exactly (OpenAI ``strict``)."""
    cache_control: CacheControl | None = omitted_when_none()
    """Prompt-cache breakpoint after this tool definition."""
    provider_metadata: ProviderMetadata | None = omitted_when_none()
    """Provider data with no canonical field, keyed by provider name."""


def _name_goes_with_tool_schema(schema: dict[str, Any], model: type[Any]) -> None:
    """State :class:`ToolChoice`'s cross-field rule in its JSON Schema too, so the schema
    accepts exactly what validation accepts."""
    describe_fields(schema, model)
    schema["if"] = {"properties": {"type": {"const": "tool"}}, "required": ["type"]}
    schema["then"] = {"properties": {"name": {"type": "string"}}, "required": ["name"]}
    schema["else"] = {"properties": {"name": {"type": "null"}}}


class ToolChoice(CanonicalModel):
    """Whether and which tool the model must call."""

    model_config: ClassVar[ConfigDict] = ConfigDict(json_schema_extra=_name_goes_with_tool_schema)

    type: Literal["auto", "none", "required", "tool"] = "auto"
    """``auto``: model decides; ``none``: no tool; ``required``: some tool (Anthropic
    ``any``); ``tool``: the tool named in ``name``."""
    name: str | None = omitted_when_none()
    """The tool to call when ``type`` is ``tool``."""

    @model_validator(mode="after")
    def _name_goes_with_tool(self) -> Self:
        if (self.type == "tool") != (self.name is not None):
            raise ValueError("name is required when type is 'tool', and only then")
        return self


shown_as("chatcodec", ToolChoice, ToolDefinition)
