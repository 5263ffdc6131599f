"""Gemini ``generateContent`` wire shapes, keys spelled camelCase as the REST API spells them.

Payloads are read after :func:`.spelling.camel_cased` has renamed snake_case keys, so
one spelling is checked here; error paths are spelled back as the payload spelled them.
These TypedDicts check what the decoders read, nothing more: every object allows extra
keys (kept in bags for the round trip). A Gemini part is not tagged by a ``type``: it is
one of ``text``, ``inlineData``, ``functionCall``... by which key it has, so one
:class:`Part` shape lists them all and the decoder dispatches on the key; a part with
none of the known keys (a kind added later) is kept whole as an opaque part.
"""

from __future__ import annotations

from typing import Annotated, Any, NotRequired

import pydantic_core
from pydantic import Field, TypeAdapter
from typing_extensions import TypedDict

from chatcodec._base import deferred_adapter
from chatcodec._narrow import as_dict
from chatcodec.errors import as_chatcodec_error
from chatcodec.providers.gemini.spelling import camel_cased, respelled_error
from chatcodec.providers.kit import wire_shape

Count = Annotated[int, Field(ge=0)]
"""A token count or an index: canonical models refuse negative ones, so the wire does too."""


@wire_shape
class Blob(TypedDict):
    """``inlineData``: base64 bytes and their MIME type."""

    mimeType: str
    data: str


@wire_shape
class FileData(TypedDict):
    """``fileData``: a URI (Files API, ``gs://``, ``https://``) and its MIME type."""

    fileUri: Annotated[str, Field(min_length=1)]  # a URL source names something (canonical rule, at the wire path)
    mimeType: NotRequired[str]


@wire_shape
class PartialArg(TypedDict):
    """Vertex streamed arguments: one JSON path and a piece of its value."""

    jsonPath: str
    willContinue: NotRequired[bool]


@wire_shape
class FunctionCall(TypedDict):
    """A call; ``args`` is an object. Vertex streams ``partialArgs`` with ``willContinue``
    and ends the call with an empty ``functionCall {}``."""

    name: NotRequired[
        Annotated[str, Field(min_length=1)]
    ]  # a call names its tool (the encoders' rule, at the wire path)
    args: NotRequired[dict[str, Any]]
    id: NotRequired[str]
    partialArgs: NotRequired[list[PartialArg]]
    willContinue: NotRequired[bool]


@wire_shape
class FunctionResponsePart(TypedDict):
    """Media inside a function response (Gemini 3 multimodal results)."""

    inlineData: NotRequired[Blob]
    fileData: NotRequired[FileData]


@wire_shape
class FunctionResponse(TypedDict):
    name: str
    response: NotRequired[dict[str, Any]]
    id: NotRequired[str]
    parts: NotRequired[list[FunctionResponsePart]]


@wire_shape
class Part(TypedDict):
    """One part: which data key it has says what it is."""

    text: NotRequired[str]
    thought: NotRequired[bool]
    thoughtSignature: NotRequired[str]
    inlineData: NotRequired[Blob]
    fileData: NotRequired[FileData]
    functionCall: NotRequired[FunctionCall]
    functionResponse: NotRequired[FunctionResponse]
    executableCode: NotRequired[dict[str, Any]]
    codeExecutionResult: NotRequired[dict[str, Any]]


@wire_shape
class Content(TypedDict):
    """One turn; ``role`` is ``user`` or ``model`` (left out in single-turn requests)."""

    role: NotRequired[str]
    parts: NotRequired[list[Part]]


@wire_shape
class FunctionDeclaration(TypedDict):
    name: Annotated[
        str, Field(min_length=1)
    ]  # a tool needs a name (canonical ToolDefinition's rule, checked here at the wire path)
    description: NotRequired[str]
    parameters: NotRequired[dict[str, Any]]
    parametersJsonSchema: NotRequired[dict[str, Any]]


@wire_shape
class Tool(TypedDict):
    """Function declarations, or a built-in tool (``googleSearch``, ``codeExecution``...)."""

    functionDeclarations: NotRequired[list[FunctionDeclaration]]


@wire_shape
class FunctionCallingConfig(TypedDict):
    mode: NotRequired[str]
    allowedFunctionNames: NotRequired[list[str]]


@wire_shape
class ToolConfig(TypedDict):
    functionCallingConfig: NotRequired[FunctionCallingConfig]


@wire_shape
class ThinkingConfig(TypedDict):
    thinkingBudget: NotRequired[int]
    thinkingLevel: NotRequired[str]
    includeThoughts: NotRequired[bool]


@wire_shape
class GenerationConfig(TypedDict):
    temperature: NotRequired[float]
    topP: NotRequired[float]
    topK: NotRequired[float]
    maxOutputTokens: NotRequired[int]
    stopSequences: NotRequired[list[str]]
    seed: NotRequired[int]
    presencePenalty: NotRequired[float]
    frequencyPenalty: NotRequired[float]
    responseMimeType: NotRequired[str]
    responseSchema: NotRequired[Any]
    responseJsonSchema: NotRequired[Any]
    thinkingConfig: NotRequired[ThinkingConfig]


@wire_shape
class Request(TypedDict):
    """The body of ``POST .../models/{model}:generateContent`` (the model is in the URL;
    an SDK dump may carry it as ``model``)."""

    contents: list[Content]
    model: NotRequired[str]
    systemInstruction: NotRequired[Content | str]
    tools: NotRequired[list[Tool]]
    toolConfig: NotRequired[ToolConfig]
    generationConfig: NotRequired[GenerationConfig]


@wire_shape
class ModalityCount(TypedDict):
    modality: NotRequired[str]
    tokenCount: NotRequired[Count]


@wire_shape
class UsageMetadata(TypedDict):
    """Token counts: ``promptTokenCount`` includes cached tokens; ``candidatesTokenCount``
    excludes thoughts and tool-use prompts, which are counted beside it."""

    promptTokenCount: NotRequired[Count]
    candidatesTokenCount: NotRequired[Count]
    cachedContentTokenCount: NotRequired[Count]
    thoughtsTokenCount: NotRequired[Count]
    toolUsePromptTokenCount: NotRequired[Count]
    totalTokenCount: NotRequired[Count]


@wire_shape
class Candidate(TypedDict):
    content: NotRequired[Content]
    finishReason: NotRequired[str]
    index: NotRequired[Count]


@wire_shape
class PromptFeedback(TypedDict):
    blockReason: NotRequired[str]


@wire_shape
class Response(TypedDict):
    """A ``GenerateContentResponse``: the body, or one chunk of a stream."""

    candidates: NotRequired[list[Candidate]]
    promptFeedback: NotRequired[PromptFeedback]
    usageMetadata: NotRequired[UsageMetadata]
    modelVersion: NotRequired[str]
    responseId: NotRequired[str]


@wire_shape
class ErrorObject(TypedDict):
    code: NotRequired[int]
    message: NotRequired[str]
    status: NotRequired[str]


@wire_shape
class ErrorBody(TypedDict):
    """``{"error": {"code": 404, "message": ..., "status": "NOT_FOUND"}}``."""

    error: ErrorObject


REQUEST_ADAPTER: TypeAdapter[Any] = TypeAdapter(Request)
"""Validates a request body."""

CONTENTS_ADAPTER: TypeAdapter[Any] = deferred_adapter(list[Content])
"""Validates a bare ``contents`` list (a stored conversation)."""

RESPONSE_ADAPTER: TypeAdapter[Any] = TypeAdapter(Response)
"""Validates a response body or a stream chunk."""

ERROR_ADAPTER: TypeAdapter[Any] = TypeAdapter(ErrorBody)
"""Validates an error body."""


def is_error_body(payload: object) -> bool:
    """Whether ``payload`` is an error body rather than a response."""
    fields = as_dict(payload)
    return fields is not None and "error" in fields and "candidates" not in fields


def validated(adapter: TypeAdapter[Any], payload: object, title: str) -> tuple[Any, list[list[str | int]]]:
    """``payload`` in camelCase, checked by ``adapter`` (error paths spelled as the payload
    spelled them), and the ``_snake`` marker: where it spelled keys in snake_case."""
    camel, renamed = camel_cased(payload)
    try:
        adapter.validate_python(camel)
    except pydantic_core.ValidationError as error:
        raise respelled_error(as_chatcodec_error(error, title, camel), renamed, title) from None
    return camel, [list(path) for path in renamed]
