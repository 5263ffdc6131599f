"""Wire shapes of the OpenAI Responses API, keys spelled exactly as the API spells them.

They validate what comes *in*, once: strict types, unknown keys allowed and kept (the
decoder stores them in bags), and item or part kinds this codec does not map (built-in
tool calls, kinds added after this was written) routed to a catch-all shape that keeps
them whole. A message item may leave out ``"type": "message"`` (the SDK's
``EasyInputMessageParam``), so items are told apart by ``type`` and, without one, by
``role``. Shapes follow ``openai.types.responses`` (``ResponseInputItemParam``,
``ResponseOutputItem``, ``Response``).

One description, compiled twice (:class:`Shape`). The ``TypedDict`` s below are read by
:func:`front_schema` into a pydantic-core schema, the *front* of every reader: one pass
in Rust, every value not typed here checked to be a JSON value canonical can hold, and
no pydantic import (first use). Only when the front refuses a payload is pydantic's
adapter of the same ``TypedDict`` s built, so a refusal names its path and rule as
pydantic words it; a payload the adapter takes after the front refused it holds a value
canonical cannot (nested past pydantic-core's depth limit, or not JSON from a Python
caller), which the reader then reports (``request.py``). A union of shapes is
``Annotated[A | B, OneOf(tags, tag)]``: both compilers dispatch with the same ``tag``
function, so both route a value to the same shape.
"""

from __future__ import annotations

import re
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    Literal,
    NotRequired,
    TypeVar,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from pydantic_core import SchemaValidator
from pydantic_core import core_schema as cs
from typing_extensions import TypedDict, is_typeddict

from chatcodec.codec_kit import as_dict, closed_schema, is_dict, stands_for

if TYPE_CHECKING:
    from pydantic import GetCoreSchemaHandler, TypeAdapter

ShapeT = TypeVar("ShapeT", bound=type)

Number = int | float
"""JSON numbers: ``int`` first so ``1`` stays ``1``."""


@dataclass(frozen=True, slots=True)
class OneOf:
    """The metadata of a union of wire shapes told apart by ``tag`` (a function of the raw
    value giving one of ``tags``, one per member in order): pydantic reads it as
    ``Discriminator(tag)`` with a ``Tag`` per member.

    :func:`front_schema` routes by ``routes`` instead, in Rust (no call back into Python
    per item or part): for each key in order, the values it holds and the member tag each
    goes to; the first key present decides. A value that no route takes goes to the last
    member (the catch-all shape keeping an unknown kind whole), whose ``type`` must then be
    none of the first key's values: a known kind the tagged shape refused stays refused,
    as ``tag`` routes it. Both say the same (a test draws values for both)."""

    tags: tuple[str, ...]
    tag: Callable[[Any], str]
    routes: tuple[tuple[str, dict[str, str]], ...]
    untyped: str | None = None
    """The tag of the member taking a value none of the routes' keys holds (a value given
    without ``type`` or ``role``), tried before the catch-all; ``None``: no such member."""

    def __get_pydantic_core_schema__(self, source: Any, handler: GetCoreSchemaHandler) -> cs.CoreSchema:
        members = get_args(source)
        choices = {tag: handler.generate_schema(member) for tag, member in zip(self.tags, members, strict=True)}
        return cs.tagged_union_schema(choices, self.tag)


def _shape(shape: ShapeT) -> ShapeT:
    """Every wire ``TypedDict``'s pydantic config (what ``kit.wire_shape`` gives, set
    without importing pydantic): strict types, unknown keys allowed and kept."""
    type.__setattr__(shape, "__pydantic_config__", {"extra": "allow", "strict": True})
    return shape


def _tag_by(key: str, known: tuple[str, ...], fallback: str = "unknown") -> Callable[[Any], str]:
    """A ``tag`` routing a wire object by ``key``; a value not in ``known`` (a kind added
    later, or not an object at all) goes to the ``fallback`` shape, which keeps it whole."""
    known_tags = frozenset(known)

    def tag(value: Any) -> str:  # called for every part: kept to the bone
        found: object = value.get(key) if is_dict(value) else None
        return found if isinstance(found, str) and found in known_tags else fallback

    return tag


# --- content parts -------------------------------------------------------------------


@stands_for("ResponseInputText", "ResponseInputTextParam", "ResponseInputTextContent", "ResponseInputTextContentParam")
@_shape
class InputText(TypedDict):
    type: Literal["input_text"]
    text: str


@stands_for(
    "ResponseInputImage", "ResponseInputImageParam", "ResponseInputImageContent", "ResponseInputImageContentParam"
)
@_shape
class InputImage(TypedDict):
    type: Literal["input_image"]
    image_url: NotRequired[str | None]
    file_id: NotRequired[str | None]
    detail: NotRequired[str | None]


@stands_for("ResponseInputFile", "ResponseInputFileParam", "ResponseInputFileContent", "ResponseInputFileContentParam")
@_shape
class InputFile(TypedDict):
    type: Literal["input_file"]
    file_id: NotRequired[str | None]
    file_url: NotRequired[str | None]
    file_data: NotRequired[str | None]
    filename: NotRequired[str | None]


@stands_for()
@_shape
class AudioData(TypedDict):
    data: str
    format: str


@stands_for()
@_shape
class InputAudio(TypedDict):
    type: Literal["input_audio"]
    input_audio: AudioData


@stands_for("ResponseOutputText", "ResponseOutputTextParam")
@_shape
class OutputText(TypedDict):
    type: Literal["output_text"]
    text: str
    annotations: NotRequired[list[Any]]


@stands_for("ResponseOutputRefusal", "ResponseOutputRefusalParam")
@_shape
class Refusal(TypedDict):
    type: Literal["refusal"]
    refusal: str


@stands_for()
@_shape
class UnknownPart(TypedDict):
    """A content kind this codec does not map; kept whole as an opaque part."""

    type: str


PART_KINDS = ("input_text", "input_image", "input_file", "input_audio", "output_text", "refusal")

Part = Annotated[
    InputText | InputImage | InputFile | InputAudio | OutputText | Refusal | UnknownPart,
    OneOf((*PART_KINDS, "unknown"), _tag_by("type", PART_KINDS), (("type", {kind: kind for kind in PART_KINDS}),)),
]

# --- items ---------------------------------------------------------------------------


@stands_for(
    "EasyInputMessageParam", "EasyInputMessage", "Message", "ResponseOutputMessage", "ResponseOutputMessageParam"
)
@_shape
class Message(TypedDict):
    """A message item; ``type`` may be left out (``EasyInputMessageParam``)."""

    role: Literal["user", "assistant", "system", "developer"]
    content: str | list[Part]
    type: NotRequired[Literal["message"]]


@stands_for("Summary", "response_reasoning_item.Summary")
@_shape
class Summary(TypedDict):
    type: str
    text: str


@stands_for("ResponseReasoningItem", "ResponseReasoningItemParam")
@_shape
class Reasoning(TypedDict):
    type: Literal["reasoning"]
    summary: list[Summary]
    content: NotRequired[list[Summary] | None]
    encrypted_content: NotRequired[str | None]
    id: NotRequired[str]


@stands_for("ResponseFunctionToolCall", "ResponseFunctionToolCallParam")
@_shape
class FunctionCall(TypedDict):
    type: Literal["function_call"]
    call_id: str
    name: str
    arguments: str


@stands_for("ResponseCustomToolCall")
@_shape
class CustomToolCall(TypedDict):
    type: Literal["custom_tool_call"]
    call_id: str
    name: str
    input: str


@stands_for(
    "FunctionCallOutput",
    "response_input_item.FunctionCallOutput",
    "ResponseCustomToolCallOutputParam",
    "ResponseCustomToolCallOutput",
    "ResponseFunctionToolCallOutputItem",
    "ResponseCustomToolCallOutputItem",
)
@_shape
class CallOutput(TypedDict):
    """``function_call_output`` and ``custom_tool_call_output``."""

    type: Literal["function_call_output", "custom_tool_call_output"]
    call_id: str
    output: str | list[Part]
    name: NotRequired[str | None]


@stands_for("ItemReference", "response_input_item.ItemReference")
@_shape
class ItemReference(TypedDict):
    """An ``item_reference`` given without its ``type`` (the SDK's ``ItemReference``:
    ``id`` required, ``type`` optional): read only when the item has neither ``type`` nor
    ``role``, and kept whole as :class:`UnknownItem` is (an opaque part, written back as
    it came). One with ``"type": "item_reference"`` is an :class:`UnknownItem`."""

    id: str
    type: NotRequired[Literal["item_reference"] | None]


@stands_for()
@_shape
class UnknownItem(TypedDict):
    """An item this codec keeps whole (built-in tool calls and their outputs, MCP items,
    ``item_reference``, kinds added later)."""

    type: str


ITEM_KINDS = ("message", "reasoning", "function_call", "custom_tool_call", "function_call_output")


def _item_tag(value: Any) -> str:
    fields = as_dict(value)
    if fields is None:
        return "unknown"
    kind = fields.get("type")
    if kind is None and "role" in fields:
        return "message"
    if kind is None and "id" in fields:
        return "item_reference"
    if kind == "custom_tool_call_output":
        return "function_call_output"
    return kind if isinstance(kind, str) and kind in ITEM_KINDS else "unknown"


_ITEM_ROUTES = (
    ("type", {**{kind: kind for kind in ITEM_KINDS}, "custom_tool_call_output": "function_call_output"}),
    ("role", dict.fromkeys(get_args(get_type_hints(Message)["role"]), "message")),
)
"""``_item_tag`` as routes: by ``type``, and a message without one by its ``role``."""

Item = Annotated[
    Message | Reasoning | FunctionCall | CustomToolCall | CallOutput | ItemReference | UnknownItem,
    OneOf((*ITEM_KINDS, "item_reference", "unknown"), _item_tag, _ITEM_ROUTES, untyped="item_reference"),
]

# --- request -------------------------------------------------------------------------


@stands_for("ResponseCreateParamsNonStreaming", "ResponseCreateParamsStreaming")
@_shape
class Request(TypedDict):
    model: NotRequired[str | None]
    input: NotRequired[str | list[Item] | None]
    instructions: NotRequired[str | None]
    tools: NotRequired[list[dict[str, Any]] | None]
    tool_choice: NotRequired[str | dict[str, Any] | None]
    parallel_tool_calls: NotRequired[bool | None]
    max_output_tokens: NotRequired[int | None]
    temperature: NotRequired[Number | None]
    top_p: NotRequired[Number | None]
    metadata: NotRequired[dict[str, Any] | None]
    stream: NotRequired[bool | None]
    reasoning: NotRequired[dict[str, Any] | None]
    text: NotRequired[dict[str, Any] | None]
    include: NotRequired[list[str] | None]


# --- response ------------------------------------------------------------------------


@stands_for("IncompleteDetails")
@_shape
class IncompleteDetails(TypedDict):
    reason: NotRequired[str | None]


@stands_for("Response")
@_shape
class Response(TypedDict):
    id: NotRequired[str]
    created_at: NotRequired[Number]
    model: NotRequired[str]
    output: list[Item]
    status: NotRequired[str | None]
    incomplete_details: NotRequired[IncompleteDetails | None]
    usage: NotRequired[dict[str, Any] | None]


@stands_for()
@_shape
class StreamEvent(TypedDict):
    """One stream event; the decoder reads its fields by ``type``."""

    type: str


# --- the two compilations ------------------------------------------------------------

_SCALARS: dict[object, Callable[[], cs.CoreSchema]] = {
    str: lambda: cs.str_schema(strict=True),
    int: lambda: cs.int_schema(strict=True),
    float: lambda: cs.float_schema(strict=True, allow_inf_nan=False),  # no JSON holds NaN or infinity
    bool: lambda: cs.bool_schema(strict=True),
    Any: lambda: cs.definition_reference_schema(closed_schema.JSON_VALUE),
}


def front_schema(annotation: Any) -> cs.CoreSchema:
    """The pydantic-core schema of a wire annotation, as pydantic compiles it for the
    wire's strict shapes, except that every untyped value (``Any``, an unknown key) must
    be a JSON value: what the front accepts, pydantic's adapter accepts the same way."""
    origin = get_origin(annotation)
    if origin is Annotated:
        union, *metadata = get_args(annotation)
        one_of = next(item for item in metadata if isinstance(item, OneOf))
        return _front_one_of(one_of, get_args(union))
    if origin is Union or origin is types.UnionType:
        given = [member for member in get_args(annotation) if member is not type(None)]
        schema = front_schema(given[0]) if len(given) == 1 else closed_schema.either(*map(front_schema, given))
        return cs.nullable_schema(schema) if len(given) < len(get_args(annotation)) else schema
    if origin is list:
        return cs.list_schema(front_schema(get_args(annotation)[0]), strict=True)
    if origin is dict:
        return closed_schema.json_object()
    if origin is Literal:
        return cs.literal_schema(list(get_args(annotation)))
    if is_typeddict(annotation):
        return _front_typed_dict(annotation)
    return _SCALARS[annotation]()


def _front_one_of(one_of: OneOf, members: tuple[Any, ...]) -> cs.CoreSchema:
    """A tagged union on ``one_of.routes`` (the keys' paths, evaluated in Rust), then the
    catch-all last member for a ``type`` no route of the first key names."""
    shapes = {tag: front_schema(member) for tag, member in zip(one_of.tags, members[:-1], strict=False)}
    choices: dict[Any, cs.CoreSchema] = {}
    for _, values in one_of.routes:
        choices.update((value, shapes[tag]) for value, tag in values.items() if value not in choices)
    paths: list[list[str | int]] = [[key] for key, _ in one_of.routes]
    # A fixed error, as kit.closed_schema.tagged's: the default quotes the tag's repr, which
    # for a role nested a thousand deep fails in Python (reported as an unraisable exception).
    tagged = cs.tagged_union_schema(
        choices, paths, custom_error_type="closed_tag", custom_error_message="not a known item"
    )
    known = "|".join(map(re.escape, one_of.routes[0][1]))
    other_kind = cs.str_schema(pattern=f"^(?!(?:{known})\\Z)", regex_engine="python-re", strict=True)
    catch_all = _front_typed_dict(members[-1], {"type": other_kind})
    if one_of.untyped is None:
        return cs.union_schema([tagged, catch_all], mode="left_to_right")
    # A value holding a route's key was routed by it (or refused there): the untyped member
    # takes only a value holding none of them (its ``type``, when given, ``None``).
    never = cs.str_schema(pattern="(?!)", regex_engine="python-re", strict=True)
    absent: dict[str, cs.CoreSchema] = {key: never for key, _ in one_of.routes[1:]}
    untyped = members[one_of.tags.index(one_of.untyped)]
    shapes_untyped = _front_typed_dict(untyped, absent, optional=absent)
    return cs.union_schema([tagged, shapes_untyped, catch_all], mode="left_to_right")


def _front_typed_dict(
    shape: type, given: dict[str, cs.CoreSchema] | None = None, *, optional: dict[str, cs.CoreSchema] | None = None
) -> cs.CoreSchema:
    """``shape``'s front (``given``: the schemas of some of its fields; ``optional``: more
    fields, not required, the shape does not type)."""
    fields: dict[str, cs.TypedDictField] = {}
    for key, hint in get_type_hints(shape, include_extras=True).items():
        required = get_origin(hint) is not NotRequired
        schema = given[key] if given and key in given else front_schema(hint if required else get_args(hint)[0])
        fields[key] = cs.typed_dict_field(schema, required=required)
    for key, schema in (optional or {}).items():
        fields.setdefault(key, cs.typed_dict_field(schema, required=False))
    extras = cs.definition_reference_schema(closed_schema.JSON_VALUE)
    return cs.typed_dict_schema(
        fields, extra_behavior="allow", extras_schema=extras, strict=True, config=closed_schema.FINITE
    )


class Shape:
    """One wire shape and its two validators, each built on first use: the front
    (:func:`front_schema`) and, for a payload the front refuses, pydantic's adapter."""

    def __init__(self, annotation: Any) -> None:
        self._annotation = annotation
        self._front: SchemaValidator | None = None
        self._adapter: TypeAdapter[Any] | None = None

    def front(self, payload: object) -> Any | None:
        """``payload`` validated by the front (pydantic-core only), or None when it refuses."""
        if self._front is None:
            self._front = closed_schema.build(lambda json_input: front_schema(self._annotation), json_input=False)
        try:
            return self._front.validate_python(payload)
        except (ValueError, RecursionError):  # pydantic_core.ValidationError is a ValueError
            return None

    def adapter(self, payload: object, title: str) -> Any:
        """``payload`` validated by pydantic's adapter of the same shape (loads pydantic):
        a refusal is its error, with its path and rule."""
        if self._adapter is None:
            from pydantic import TypeAdapter

            self._adapter = TypeAdapter(self._annotation)
        from chatcodec.codec_kit import validate_with

        return validate_with(self._adapter, payload, title)

    def check(self, payload: object, title: str) -> Any:
        """``payload`` validated: by the front, else by the adapter."""
        checked = self.front(payload)
        return self.adapter(payload, title) if checked is None else checked


REQUEST = Shape(Request)
REQUEST_FRONT = closed_schema.LazyValidator(lambda json_input: front_schema(Request))
"""The request's front (:data:`REQUEST`'s schema) for a dict and for JSON text: text is
parsed and validated in one pass in Rust, and the copy taken for the read that follows
(:class:`~chatcodec._providers.kit.closed_schema.LazyValidator`)."""
ITEMS = Shape(list[Item])
ITEM = Shape(Item)
RESPONSE = Shape(Response)
EVENT = Shape(StreamEvent)


def validated(shape: Shape, payload: object, title: str) -> dict[str, Any]:
    """``payload`` checked as ``shape`` (errors carry wire paths), as a plain dict."""
    checked = as_dict(shape.check(payload, title))
    assert checked is not None  # every shape used with this is a TypedDict
    return checked


def adapted(shape: Shape, payload: object, title: str) -> dict[str, Any]:
    """``payload`` checked by ``shape``'s adapter alone (the front refused it), as a plain dict."""
    checked = as_dict(shape.adapter(payload, title))
    assert checked is not None  # every shape used with this is a TypedDict
    return checked
