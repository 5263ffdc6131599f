"""Builders of the closed wire schemas that front each provider's reader: schemas built
directly in pydantic-core, so one validation in Rust does what the wire validation and
the canonical validation do together on the shapes agent sessions are made of.

A provider's ``wire.py`` describes its wire once, as ``TypedDict`` shapes, each naming
the SDK kinds it stands for (:func:`~chatcodec._providers.kit.wire.stands_for`). The
closed schema of the *common* shapes is built from those shapes with :func:`closed_like`:
each closed object names its shape, takes only fields of it (or a field the shape leaves
to its extras, named as such) and holds them in the shape's order, so the closed and the
full validation give the same copy and no field list is written twice. They are closed
objects (extra keys forbidden, no ``null`` where a field may be left out) whose tagged
unions dispatch in Rust; every untyped value (a tool's JSON Schema) is checked to be a
JSON value, as the canonical ``JsonValue`` fields check it. A payload these schemas
refuse is not an error: the reader then validates it with the provider's full wire
shapes, which read the unusual shape or raise an error at its path.

Each validator is built on first use, in Rust from a hand-written core schema: no
pydantic model or ``TypeAdapter`` is generated, which keeps first use cheap.

The module is part of the codec kit as one namespace, ``chatcodec.codec_kit.closed_schema``
(its names are generic: ``text``, ``either``, a ``tagged`` other than the kit's): its
public names are a promise kept across releases, as the contract's own are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

from pydantic_core import PydanticSerializationError, SchemaValidator, to_json
from pydantic_core import core_schema as cs

from chatcodec._narrow import is_dict
from chatcodec._providers.kit.arguments import compact_json
from chatcodec._providers.kit.wire import shape_fields

JSON_VALUE = "closed-json-value"
"""The reference name of the recursive JSON value schema in every closed validator."""


def json_value(*, json_input: bool) -> cs.CoreSchema:
    """A JSON value (objects with string keys, arrays, strings, numbers, booleans, null),
    checked in Rust. A number past a double's range, ``NaN`` or an infinity is refused,
    from JSON text (as :func:`chatcodec._payloads.read_json_text` refuses it) and from Python values
    alike: no JSON can hold it, so it is never written (the reader's full validation then
    names its path, :func:`chatcodec._canonical_validation.validate_with`).

    The choices exclude one another, so their order changes only the cost: each choice
    tried before the one that accepts builds an error. A tool's JSON Schema, most of
    what this checks, is objects holding strings: from Python values, strings come
    first (a string is refused by an object schema more slowly than the reverse);
    from JSON text, objects do. ``null`` comes before the floats: a float schema given
    ``None`` from Python raises a ``TypeError`` inside (``PyFloat_AsDouble``) for every
    ``null``. A fixed error spares the union collecting them."""
    number = cs.float_schema(allow_inf_nan=False, strict=True)  # NaN and infinities are no JSON, from dicts too
    return _json_union(JSON_VALUE, [number], "not a JSON value", json_input=json_input)


def _json_union(ref: str, numbers: list[cs.CoreSchema], error: str, *, json_input: bool) -> cs.CoreSchema:
    """The recursive JSON value definition named ``ref``, its containers holding the same,
    with ``numbers`` beside the integers (none: a value without floats)."""
    reference = cs.definition_reference_schema(ref)
    string = cs.str_schema(strict=True)
    mapping = cs.dict_schema(cs.str_schema(strict=True), reference, strict=True)
    first = [mapping, string] if json_input else [string, mapping]
    return cs.union_schema(
        [
            *first,
            cs.list_schema(reference, strict=True),
            cs.bool_schema(strict=True),
            cs.int_schema(strict=True),
            cs.none_schema(),
            *numbers,
        ],
        mode="left_to_right",
        custom_error_type="closed_json",
        custom_error_message=error,
        ref=ref,
    )


def json_object() -> cs.CoreSchema:
    """A JSON object (``dict[str, JsonValue]``)."""
    return cs.dict_schema(cs.str_schema(strict=True), cs.definition_reference_schema(JSON_VALUE), strict=True)


def closed(
    required: Mapping[str, cs.CoreSchema], optional: Mapping[str, cs.CoreSchema] | None = None, *, extra: bool = False
) -> cs.CoreSchema:
    """An object with exactly these keys (the optional ones may be left out, never
    ``null``); with ``extra``, other keys too, each holding a JSON value."""
    fields = {key: cs.typed_dict_field(schema, required=True) for key, schema in required.items()}
    fields.update({key: cs.typed_dict_field(schema, required=False) for key, schema in (optional or {}).items()})
    if extra:
        extras = cs.definition_reference_schema(JSON_VALUE)
        return cs.typed_dict_schema(fields, extra_behavior="allow", extras_schema=extras, strict=True, config=FINITE)
    return cs.typed_dict_schema(fields, extra_behavior="forbid", strict=True, config=FINITE)


def closed_like(
    shape: type,
    required: Mapping[str, cs.CoreSchema],
    optional: Mapping[str, cs.CoreSchema] | None = None,
    *,
    extra: bool = False,
    beyond: Mapping[str, cs.CoreSchema] | None = None,
    every_field: bool = False,
) -> cs.CoreSchema:
    """:func:`closed`, for the common form of the wire shape ``shape`` (a ``TypedDict`` of
    the provider's ``wire.py``): ``required`` and ``optional`` must be fields of it, and
    are held in its order; ``beyond`` (optional too) are fields the shape leaves to its
    extras (a gateway's ``cache_control``, an SDK dump's ``null``s), held after them, as
    the full validation holds extras. Both forms then validate a body to the same copy,
    keys in the same order (a bag keeps that order, and the writer writes it back). With
    ``every_field``, each field of the shape must be typed: a reader may then take the
    shape's fields as the closed form's."""
    order = shape_fields(shape)
    unknown = (required.keys() | (optional or {}).keys()) - set(order)
    if unknown:
        raise TypeError(f"{shape.__name__} has no {sorted(unknown)}: type it there, or name it in beyond=")
    untyped = [key for key in order if key not in required and key not in (optional or {})]
    if every_field and untyped:
        raise TypeError(f"{shape.__name__}'s closed form leaves {untyped} untyped")
    outside = (beyond or {}).keys() & set(order)
    if outside:
        raise TypeError(f"{shape.__name__} types {sorted(outside)}: not beyond it")
    schema = cast("dict[str, Any]", closed(required, {**(optional or {}), **(beyond or {})}, extra=extra))
    fields: dict[str, Any] = schema["fields"]
    ordered = {key: fields[key] for key in order if key in fields}
    schema["fields"] = {**ordered, **{key: fields[key] for key in beyond or {}}}
    return cast("cs.CoreSchema", schema)


FINITE = cs.CoreConfig(strict=True, allow_inf_nan=False)
"""The config of every object schema: a typed dict validates its fields under its own
config, not the validator's, and a float under the default one takes ``NaN``."""


def literal(*values: str) -> cs.CoreSchema:
    """One of these strings."""
    return cs.literal_schema(list(values))


def text() -> cs.CoreSchema:
    """A string."""
    return cs.str_schema(strict=True)


def non_empty(*, long: bool = False) -> cs.CoreSchema:
    """A string of one character or more, for what canonical requires non-empty (tool
    names, URLs, media types). The length check also makes pydantic-core read the text
    as UTF-8, so one holding a lone surrogate is refused (``string_unicode``), as the
    full wire shapes' ``min_length`` fields refuse it: a plain :func:`text` accepts it.

    ``long``: a text that may be megabytes (an image's data URL). The same texts are refused
    without pydantic-core's length check, which reads every character: the text is asked
    whether it is ASCII (a flag Python keeps, whatever its length) and read as UTF-8 only
    when it is not."""
    if long:
        return cs.no_info_after_validator_function(_non_empty_text, cs.str_schema(strict=True))
    return cs.str_schema(strict=True, min_length=1)


def _non_empty_text(text: str) -> str:
    if accepted_long_text(text):
        return text
    raise ValueError("an empty text or a lone surrogate")


def accepted_long_text(text: str) -> bool:
    """Whether :func:`non_empty` with ``long`` takes the string ``text``: a character or more,
    no lone surrogate. The one home of that rule, for the schema's check and for a walk that
    proves the same values without validating them (a direct path's admission,
    :mod:`chatcodec._direct.openai_chat_source`)."""
    return text != "" and (text.isascii() or _utf8_encodable(text))


def _utf8_encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def number(*, json_input: bool) -> cs.CoreSchema:
    """A JSON number (an ``int`` or a finite ``float``, not a ``bool``)."""
    return either(cs.int_schema(strict=True), cs.float_schema(strict=True, allow_inf_nan=False))


def either(*choices: cs.CoreSchema) -> cs.CoreSchema:
    """The first of ``choices`` that accepts the value (a refusal is a fixed error: the
    union then keeps none of the choices' errors, which nothing reads)."""
    return cs.union_schema(
        list(choices), mode="left_to_right", custom_error_type="closed_either", custom_error_message="no choice"
    )


def tagged(choices: Mapping[str, cs.CoreSchema], key: str) -> cs.CoreSchema:
    """The choice named by ``key``, dispatched in Rust. The error is a fixed text: the
    default one quotes the tag's ``repr``, which for a value nested a thousand deep fails
    in Python (and is reported as an unraisable exception)."""
    return cs.tagged_union_schema(
        dict(choices), discriminator=key, custom_error_type="closed_tag", custom_error_message="not a common shape"
    )


def build(root: Callable[[bool], cs.CoreSchema], *, json_input: bool) -> SchemaValidator:
    """The validator for ``root(json_input)``, with the JSON value definition beside it."""
    schema = cs.definitions_schema(root(json_input), [json_value(json_input=json_input)])
    config = cs.CoreConfig(strict=True, allow_inf_nan=False, hide_input_in_errors=True)
    return SchemaValidator(schema, config=config)


class LazyValidator:
    """A validator for Python values and one for JSON text, each built on first use.

    JSON text is parsed and validated in one pass in Rust (:meth:`read_json`): the copy it
    gives is *taken*, so the reader's own :meth:`validate` of it (the first thing every
    reader does) returns it as it is rather than walking it again. The taken copy is known
    by identity, for the one read that follows: a plain attribute, not a ``threading.local``
    (whose missing attribute cost every dict's validation an error
    ``getattr`` raised and caught inside). Threads that read at once are still right: each
    read asks whether its own payload *is* the copy held, so a copy another thread replaced
    is only validated again."""

    __slots__ = ("_for_json", "_for_python", "_root", "_taken")

    def __init__(self, root: Callable[[bool], cs.CoreSchema]) -> None:
        self._root = root
        self._for_python: SchemaValidator | None = None
        self._for_json: SchemaValidator | None = None
        self._taken: dict[str, Any] | None = None

    def read_json(self, text: str | bytes | bytearray) -> dict[str, Any] | None:
        """The validated copy of JSON ``text``, taken for the next :meth:`validate` of it;
        ``None`` when it is not one of the common shapes (or not JSON that
        :func:`chatcodec._payloads.read_json_text` reads: a number past a double, ``NaN``, a lone
        surrogate, an integer past Python's digit limit are refused here too, and the
        caller's wire adapter says why)."""
        validated = self.validate(text)
        self._taken = validated
        return validated

    def holds(self, payload: object) -> bool:
        """Whether ``payload`` is the copy :meth:`read_json` took (validated already)."""
        return payload is not None and payload is self._taken

    def release(self) -> None:
        """Forget the taken copy (a read that failed before validating it)."""
        self._taken = None

    def python(self) -> SchemaValidator:
        if self._for_python is None:
            self._for_python = build(self._root, json_input=False)
        return self._for_python

    def json(self) -> SchemaValidator:
        if self._for_json is None:
            self._for_json = build(self._root, json_input=True)
        return self._for_json

    def validate(self, payload: object) -> dict[str, Any] | None:
        """The validated copy of ``payload`` (a dict, or JSON text or bytes), or ``None``
        when it is not one of the common shapes."""
        taken = self._taken
        if taken is not None and payload is taken:  # read_json's copy: validated already
            self._taken = None
            return taken
        try:
            if type(payload) is dict:
                validated: object = self.python().validate_python(payload)
            elif isinstance(payload, str | bytes | bytearray):
                validated = self.json().validate_json(payload)
            else:
                return None
        except (ValueError, RecursionError):  # pydantic_core.ValidationError is a ValueError
            return None
        return validated if is_dict(validated) and type(validated) is dict else None


WITHOUT_FLOATS = "closed-json-without-floats"
"""The reference name of a JSON value holding no float (the usual tool arguments), which a
side that reads one adds to its schema's definitions (:func:`json_without_floats`)."""


class WithFloats:
    """A validated JSON value holding a float: only ``json.dumps`` spells it as the general
    decoders do (``1e+16``, where pydantic-core writes ``1e16``), see :func:`json_text`."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value: object = value

    def __repr__(self) -> str:
        """The value's own: a validated copy reads as the wire shapes' copy of the same body
        (the fronts' tests compare the two by ``repr``; an object's address said nothing)."""
        return repr(self.value)


def json_without_floats(*, json_input: bool) -> cs.CoreSchema:
    """The definition of a JSON value holding no float (:data:`WITHOUT_FLOATS`), in
    :func:`json_value`'s order of choices."""
    return _json_union(WITHOUT_FLOATS, [], "not a JSON value without floats", json_input=json_input)


def json_value_to_write(*, whole: cs.CoreSchema | None = None) -> cs.CoreSchema:
    """A JSON value a side writes back as text (a tool call's arguments): as it is when it
    holds no float (settled in the Rust union, no Python call), a :class:`WithFloats` when
    it does. ``whole``: the value's outer shape (default: any JSON value; a JSON object as
    :func:`json_object` spells it for arguments that must be one)."""
    without: cs.CoreSchema = cs.definition_reference_schema(WITHOUT_FLOATS)
    anything: cs.CoreSchema = cs.definition_reference_schema(JSON_VALUE)
    if whole is not None:
        without = cs.dict_schema(cs.str_schema(strict=True), without, strict=True)
        anything = whole
    return either(without, cs.no_info_after_validator_function(WithFloats, anything))


def json_text(value: object, digits: int) -> str:
    """The compact JSON text of a value validated by :func:`json_value_to_write`, byte for
    byte what ``kit.compact_json`` writes. Without floats
    pydantic-core's writer gives the same bytes (every code point checked) several times
    faster; a lone surrogate (which it refuses), or a text long enough to hold an integer
    past ``sys.get_int_max_str_digits()`` (``digits``, which ``json.dumps`` refuses), goes
    to ``compact_json``."""
    if type(value) is WithFloats:
        return compact_json(value.value)
    try:
        written = to_json(value)
    except PydanticSerializationError:
        return compact_json(value)
    if digits and len(written) > digits:
        return compact_json(value)
    return written.decode()
