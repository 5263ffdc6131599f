"""Gemini ``generateContent`` wire shapes, keys spelled camelCase as the REST API spells them.

One description of the wire, in two forms:

* the ``TypedDict`` shapes (:class:`Request`, :class:`Response`...): every field the
  decoders read, each object open to extra keys (kept in bags for the round trip). They
  check a payload the fast check refused, so its errors name the payload's paths and
  rules; pydantic builds their validators on first use (:func:`validated`);
* :data:`REQUEST`, the closed pydantic-core schema of the request shapes agent sessions are
  made of (:func:`checked_request` tries it first): one validation in Rust, no pydantic.

Each closed object is built from the shape it narrows
(:func:`~chatcodec._providers.kit.sc.closed_like`: that shape's fields only, in
its order), adding which keys are common and which values are JSON; the closed schema is
narrower: every payload it accepts the shapes accept, and the reader reads either alike
(``tests/providers/gemini/test_reader.py``). Each shape names the SDK kinds it stands for
(``stands_for``), checked against the generated ``known_fields.json``
(``tests/providers/test_wire_description.py``).

Payloads are read after :func:`.spelling.camel_cased` has renamed snake_case keys, so
one spelling is checked here; error paths are spelled back as the payload spelled them.
A Gemini part is not tagged by a ``type``: it is one of ``text``, ``inlineData``,
``functionCall``... by which key it has, so one :class:`Part` shape lists them all and
the decoder dispatches on the key; a part with none of the known keys (a kind added
later) is kept whole as an opaque part.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Annotated, Any, Literal, NotRequired

import pydantic_core
from pydantic_core import core_schema as cs
from typing_extensions import TypedDict

from chatcodec._providers.gemini.spelling import as_marker, camel_cased, has_snake_key, respelled_error
from chatcodec.codec_kit import (
    as_chatcodec_error,
    as_dict,
    constrained,
    refuse_unwritable_numbers,
    shape_fields,
    stands_for,
    wire_shape,
)
from chatcodec.codec_kit import closed_schema as sc

if TYPE_CHECKING:
    from pydantic import TypeAdapter

Count = Annotated[int, constrained(ge=0)]
"""A token count or an index: canonical models refuse negative ones, so the wire does too."""


@stands_for("Blob", "FunctionResponseBlob")
@wire_shape
class Blob(TypedDict):
    """``inlineData``: base64 bytes and their MIME type."""

    mimeType: str
    data: str


@stands_for("FileData", "FunctionResponseFileData")
@wire_shape
class FileData(TypedDict):
    """``fileData``: a URI (Files API, ``gs://``, ``https://``) and its MIME type."""

    fileUri: Annotated[
        str, constrained(min_length=1)
    ]  # a URL source names something (canonical rule, at the wire path)
    mimeType: NotRequired[str]


@stands_for("PartialArg")
@wire_shape
class PartialArg(TypedDict):
    """Vertex streamed arguments: one JSON path and a piece of its value."""

    jsonPath: str
    willContinue: NotRequired[bool]


@stands_for("FunctionCall")
@wire_shape
class FunctionCall(TypedDict):
    """A call; ``args`` is an object. Vertex streams ``partialArgs`` with ``willContinue``
    and ends the call with an empty ``functionCall {}``."""

    name: NotRequired[
        Annotated[str, constrained(min_length=1)]
    ]  # a call names its tool (the encoders' rule, at the wire path)
    args: NotRequired[dict[str, Any]]
    id: NotRequired[str]
    partialArgs: NotRequired[list[PartialArg]]
    willContinue: NotRequired[bool]


@stands_for("FunctionResponsePart")
@wire_shape
class FunctionResponsePart(TypedDict):
    """Media inside a function response (Gemini 3 multimodal results)."""

    inlineData: NotRequired[Blob]
    fileData: NotRequired[FileData]


@stands_for("FunctionResponse")
@wire_shape
class FunctionResponse(TypedDict):
    name: str
    response: NotRequired[dict[str, Any]]
    id: NotRequired[str]
    parts: NotRequired[list[FunctionResponsePart]]


@stands_for("Part")
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


@stands_for("Content")
@wire_shape
class Content(TypedDict):
    """One turn; ``role`` is ``user`` or ``model`` (left out in single-turn requests)."""

    role: NotRequired[str]
    parts: NotRequired[list[Part]]


@stands_for("FunctionDeclaration")
@wire_shape
class FunctionDeclaration(TypedDict):
    name: Annotated[
        str, constrained(min_length=1)
    ]  # a tool needs a name (canonical ToolDefinition's rule, checked here at the wire path)
    description: NotRequired[str]
    parameters: NotRequired[dict[str, Any]]
    parametersJsonSchema: NotRequired[dict[str, Any]]


@stands_for("Tool")
@wire_shape
class Tool(TypedDict):
    """Function declarations, or a built-in tool (``googleSearch``, ``codeExecution``...)."""

    functionDeclarations: NotRequired[list[FunctionDeclaration]]


@stands_for("FunctionCallingConfig")
@wire_shape
class FunctionCallingConfig(TypedDict):
    mode: NotRequired[str]
    allowedFunctionNames: NotRequired[list[str]]


@stands_for("ToolConfig")
@wire_shape
class ToolConfig(TypedDict):
    functionCallingConfig: NotRequired[FunctionCallingConfig]


@stands_for("ThinkingConfig")
@wire_shape
class ThinkingConfig(TypedDict):
    thinkingBudget: NotRequired[int]
    thinkingLevel: NotRequired[str]
    includeThoughts: NotRequired[bool]


@stands_for("GenerationConfig")
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


@stands_for("GenerateContentRequest")
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


@stands_for("ModalityTokenCount")
@wire_shape
class ModalityCount(TypedDict):
    modality: NotRequired[str]
    tokenCount: NotRequired[Count]


@stands_for("GenerateContentResponseUsageMetadata")
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


@stands_for("Candidate")
@wire_shape
class Candidate(TypedDict):
    content: NotRequired[Content]
    finishReason: NotRequired[str]
    index: NotRequired[Count]


@stands_for("GenerateContentResponsePromptFeedback")
@wire_shape
class PromptFeedback(TypedDict):
    blockReason: NotRequired[str]


@stands_for("GenerateContentResponse")
@wire_shape
class Response(TypedDict):
    """A ``GenerateContentResponse``: the body, or one chunk of a stream."""

    candidates: NotRequired[list[Candidate]]
    promptFeedback: NotRequired[PromptFeedback]
    usageMetadata: NotRequired[UsageMetadata]
    modelVersion: NotRequired[str]
    responseId: NotRequired[str]


@stands_for()
@wire_shape
class ErrorObject(TypedDict):
    code: NotRequired[int]
    message: NotRequired[str]
    status: NotRequired[str]


@stands_for()
@wire_shape
class ErrorBody(TypedDict):
    """``{"error": {"code": 404, "message": ..., "status": "NOT_FOUND"}}``."""

    error: ErrorObject


def is_error_body(payload: object) -> bool:
    """Whether ``payload`` is an error body rather than a response."""
    fields = as_dict(payload)
    return fields is not None and "error" in fields and "candidates" not in fields


_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}
"""The shapes' validators, each built on first use (the first payload the closed schema
refuses, or the first response): a conversion of common shapes loads no pydantic."""


def _check(shape: Any, camel: object, renamed: list[tuple[str | int, ...]], title: str) -> None:
    adapter = _ADAPTERS.get(shape)
    if adapter is None:
        from pydantic import TypeAdapter

        adapter = _ADAPTERS[shape] = TypeAdapter(shape)
    try:
        adapter.validate_python(camel)
    except pydantic_core.ValidationError as error:
        raise respelled_error(as_chatcodec_error(error, title, camel), renamed, title) from None


def validated(shape: Any, payload: object, title: str) -> tuple[Any, list[list[str | int]]]:
    """``payload`` in camelCase, checked as ``shape`` (:class:`Request`, :class:`Response`,
    ``list[Content]``, :class:`ErrorBody`; error paths spelled as the payload spelled
    them), and the ``_snake`` marker: where it spelled keys in snake_case."""
    camel, renamed = camel_cased(payload)
    _check(shape, camel, renamed, title)
    refuse_unwritable_numbers(payload)  # NaN and infinities: no JSON holds them (the path as spelled)
    return camel, as_marker(renamed)


# --- the closed schema of the common request shapes ---------------------------------------

_SIGNATURE = "thoughtSignature"
_LEVELS = ("MINIMAL", "LOW", "MEDIUM", "HIGH", "XHIGH")


def _listed(item: cs.CoreSchema, *, at_least: int = 0) -> cs.CoreSchema:
    return cs.list_schema(item, strict=True, min_length=at_least)


def _part() -> cs.CoreSchema:
    """Every key a common part may have; which combinations mean what is the reader's
    business (one schema, no union to try in turn)."""
    arguments = sc.json_value_to_write(whole=sc.json_object())
    function_call = sc.closed_like(FunctionCall, {"name": sc.non_empty()}, {"args": arguments, "id": sc.text()})
    function_response = sc.closed_like(
        FunctionResponse,
        {"name": sc.text()},
        {"response": sc.json_object(), "id": sc.text()},
    )
    return sc.closed_like(
        Part,
        {},
        {
            "text": sc.text(),
            "thought": cs.bool_schema(strict=True),
            _SIGNATURE: sc.text(),
            "inlineData": sc.closed_like(Blob, {"mimeType": sc.text(), "data": sc.text()}),
            "fileData": sc.closed_like(FileData, {"fileUri": sc.non_empty()}, {"mimeType": sc.text()}),
            "functionCall": function_call,
            "functionResponse": function_response,
        },
    )


def _tools() -> cs.CoreSchema:
    declaration = sc.closed_like(
        FunctionDeclaration,
        {"name": sc.non_empty()},
        {
            "description": sc.text(),
            "parameters": sc.json_object(),
            "parametersJsonSchema": sc.json_object(),
        },
    )
    tool = sc.closed_like(Tool, {"functionDeclarations": _listed(declaration, at_least=1)})
    return cs.list_schema(tool, strict=True, min_length=1, max_length=1)


def _config_fields(json_input: bool) -> dict[str, cs.CoreSchema]:
    """The ``generationConfig`` keys the closed schema types; any other is an extra JSON value."""
    thinking = sc.closed_like(
        ThinkingConfig,
        {},
        {
            "thinkingBudget": cs.int_schema(strict=True, ge=-1),
            "thinkingLevel": sc.literal(*_LEVELS),
            "includeThoughts": cs.bool_schema(strict=True),
        },
    )
    sampling = sc.number(json_input=json_input)
    return {
        "temperature": sampling,
        "topP": sampling,
        "topK": cs.int_schema(strict=True),
        "maxOutputTokens": cs.int_schema(strict=True, ge=1),
        "stopSequences": _listed(sc.text(), at_least=1),
        "seed": cs.int_schema(strict=True),
        "presencePenalty": sampling,
        "frequencyPenalty": sampling,
        "thinkingConfig": thinking,
    }


@cache
def _typed_config_fields() -> frozenset[str]:
    """The ``generationConfig`` keys the closed schema types, read from it on first need
    (an extra one is checked again: :func:`_extras_to_check_again`)."""
    return frozenset(_config_fields(json_input=False))


def _request_fields(json_input: bool) -> tuple[dict[str, cs.CoreSchema], dict[str, cs.CoreSchema]]:
    """The request keys the closed schema types, required and optional; any other
    (``safetySettings``, ``cachedContent``, ``labels``...) is an extra JSON value, kept in
    the request's bag."""
    content = sc.closed_like(Content, {"role": sc.literal("user", "model"), "parts": _listed(_part(), at_least=1)})
    system_parts = _listed(sc.closed_like(Part, {"text": sc.text()}))
    system = sc.either(
        sc.text(),
        sc.closed_like(Content, {"parts": system_parts}, {"role": sc.text()}),
    )
    calling = sc.closed_like(FunctionCallingConfig, {"mode": sc.text()}, {"allowedFunctionNames": _listed(sc.text())})
    generation = sc.closed_like(GenerationConfig, {}, _config_fields(json_input), extra=True)
    optional = {
        "model": sc.text(),
        "systemInstruction": system,
        "tools": _tools(),
        "toolConfig": sc.closed_like(ToolConfig, {"functionCallingConfig": calling}),
        "generationConfig": generation,  # responseMimeType, mediaResolution...: JSON values
    }
    return {"contents": _listed(content)}, optional


def _request(json_input: bool) -> cs.CoreSchema:
    root = sc.closed_like(Request, *_request_fields(json_input), extra=True, every_field=True)
    return cs.definitions_schema(root, [sc.json_without_floats(json_input=json_input)])


_REQUEST_FIELDS = frozenset(shape_fields(Request))
"""The request keys the closed schema types: every field of :class:`Request`
(``every_field``); an extra one is checked again (:func:`_extras_to_check_again`)."""


REQUEST = sc.LazyValidator(_request)
"""The common request shapes, closed (camelCase keys, no null where a key may be left out,
JSON values where the wire holds the caller's data): user and model turns of text (a
thought in a model turn), ``inlineData``, ``fileData``, ``functionCall`` and
``functionResponse`` parts, each with an optional ``thoughtSignature``; a
``systemInstruction`` of text parts (or a bare string); one Tool object of
``functionDeclarations``; a ``toolConfig``; the ``generationConfig`` keys with a canonical
home, and any other as a JSON value. A call's ``args`` holding a float come back wrapped
(:class:`~chatcodec._providers.kit.sc.WithFloats`), so the reader knows which it may
write with pydantic-core (``sc.json_text``)."""


def checked_request(payload: dict[str, Any]) -> tuple[dict[str, Any], list[list[str | int]], bool]:
    """The request body, checked, in camelCase; the ``_snake`` marker; and whether the
    closed schema took it (then the body is its validated copy, its calls' ``args``
    marked). The closed schema is tried first, as the payload is (a REST body pays no walk
    for spellings) and, when the payload spells keys in snake_case (an SDK dump), as
    renamed; anything else is checked against :class:`Request`, whose errors name the
    payload's paths."""
    common = REQUEST.validate(payload)
    if common is not None and not _extras_to_check_again(common):
        return common, [], True
    camel, renamed = camel_cased(payload)
    if renamed:
        common = REQUEST.validate(camel)
        if common is not None and not _extras_to_check_again(common):
            return common, as_marker(renamed), True
    _check(Request, camel, renamed, "Gemini request")
    refuse_unwritable_numbers(payload)  # NaN and infinities: no JSON holds them (the path as spelled)
    return camel, as_marker(renamed), False


def _extras_to_check_again(request: dict[str, Any]) -> bool:
    """Whether a key the closed schema let through as a JSON value (a top-level or
    ``generationConfig`` extra, kept in a bag) is spelled in snake_case, or holds a value
    a canonical bag cannot (a bag's value reaches pydantic-core's depth limit one level
    before the closed schema's JSON value does): the request is then read as the full
    shapes check it."""
    for key, value in request.items():
        if key not in _REQUEST_FIELDS and (has_snake_key({key: value}) or not holds_json(value)):
            return True
    config: dict[str, Any] | None = request.get("generationConfig")
    if config:
        for key, value in config.items():
            if key not in _typed_config_fields() and (has_snake_key({key: value}) or not holds_json({"": value})):
                return True
    return False


JSON_VALUES = sc.LazyValidator(lambda json_input: cs.definition_reference_schema(sc.JSON_VALUE))
"""Any JSON value, checked in Rust (pydantic-core's depth limit included)."""


def holds_json(value: object) -> bool:
    """Whether ``value`` is a JSON value nested less deeply than pydantic-core reads as a
    canonical bag's value (as deep, for a whole body: the check is then conservative).
    A payload that is not is rare (a Python object in a dict, a value some 250 levels
    deep); the reader then asks the canonical models (``request.refuse_unheld``)."""
    return JSON_VALUES.validate({"": value}) is not None


def refuse_unheld(kind: Literal["request", "response", "messages"], canonical: object) -> None:
    """Raise what the canonical models raise for ``canonical`` (read from a payload
    :func:`holds_json` refused), as the decoders did when they built the models: a value
    nested past pydantic-core's depth limit (which ``ProviderCodec.read_request`` turns into
    a :class:`~chatcodec.PayloadError` at the payload's deepest route) or a Python object
    that is not JSON. The models are imported on this rare path only."""
    from chatcodec.codec_kit import validate_canonical, validate_with

    if kind == "request":
        from chatcodec import ChatRequest

        validate_canonical(ChatRequest, canonical)
    elif kind == "response":
        from chatcodec import ChatResponse

        validate_canonical(ChatResponse, canonical)
    else:
        from chatcodec import MESSAGES_ADAPTER

        validate_with(MESSAGES_ADAPTER, canonical, "Messages")
