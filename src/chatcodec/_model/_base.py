"""The one base model every canonical type derives from.

Strictness (``extra="forbid"``) lives here so a typo in a field name is an error
everywhere, and dict-like access lives here so code written against plain message
dicts (Verifiers, OpenHands, hand-rolled agents) keeps working on validated models.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, ClassVar

import pydantic_core
from pydantic import BaseModel, ConfigDict, Field, GetCoreSchemaHandler, GetJsonSchemaHandler, JsonValue, TypeAdapter
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import CoreSchema, core_schema
from typing_extensions import TypeAliasType

from chatcodec._errors import TAG_RULE, as_chatcodec_error
from chatcodec._model._field_docs import describe_fields
from chatcodec._model.deep_dump import json_data, json_text, too_deep_to_dump
from chatcodec._public_label import shown_as

ProviderMetadata = TypeAliasType("ProviderMetadata", dict[str, dict[str, JsonValue]])
"""Provider data with no canonical field, keyed by provider name (``"anthropic"``, ...).

Codecs put ids, signatures, citations and unknown fields here when decoding and read
them back when encoding to the same provider, so a same-provider round trip is exact.
"""


@dataclass(frozen=True)
class _WholeNumber:
    """Core schema of an integer field: an ``int``, or a float with no fraction (``3.0``, made
    an ``int``), never a string or bool; at least ``minimum`` and at most ``maximum`` when set.

    JSON has one number type, and JSON Schema (hence ajv and ``jsonschema``) counts ``3.0``
    as an integer; strict pydantic would refuse it, so the schema and the models would
    disagree. Ints take the strict path in pydantic-core; only floats reach Python.
    """

    minimum: int | None = None
    maximum: int | None = None

    def __get_pydantic_core_schema__(self, source: object, handler: GetCoreSchemaHandler) -> CoreSchema:
        whole = core_schema.union_schema(
            [
                core_schema.int_schema(strict=True),
                core_schema.chain_schema(
                    [core_schema.float_schema(strict=True), core_schema.no_info_plain_validator_function(_float_as_int)]
                ),
            ],
            mode="left_to_right",
            custom_error_type="int_type",
        )
        if self.minimum is None and self.maximum is None:
            return whole
        return core_schema.chain_schema([whole, core_schema.int_schema(ge=self.minimum, le=self.maximum)])

    def __get_pydantic_json_schema__(self, schema: CoreSchema, handler: GetJsonSchemaHandler) -> JsonSchemaValue:
        bounds = {"minimum": self.minimum, "maximum": self.maximum}
        return {"type": "integer", **{key: value for key, value in bounds.items() if value is not None}}


def _float_as_int(value: float) -> int:
    if not value.is_integer():
        raise ValueError("not a whole number")
    return int(value)


@dataclass(frozen=True)
class TaggedOn:
    """A union told apart by its ``tag`` field (as ``Discriminator(tag)``, the same JSON
    Schema), whose error when no branch fits is :data:`errors.TAG_RULE`.

    pydantic-core writes the tag it found into its ``union_tag_invalid`` message with
    ``str(tag)`` whenever a tag fits no branch: a list nested 1,000 deep there overflowed
    the stack (a ``RecursionError`` sent to ``sys.unraisablehook``, and the message said
    ``'<unprintable list object>'``). A custom error is built without the tag; chatcodec's
    errors (:func:`errors.as_chatcodec_error`) give pydantic's rule and message again,
    the tag shown safely. Costs nothing on valid input (a Python check per item made
    message validation 1.7x slower).
    """

    tag: str

    def __get_pydantic_core_schema__(self, source: object, handler: GetCoreSchemaHandler) -> CoreSchema:
        schema = handler(Annotated[source, Field(discriminator=self.tag)])
        if schema["type"] != "tagged-union":
            raise TypeError(f"TaggedOn({self.tag!r}) needs a union of models, not {schema['type']}")
        choices = schema["choices"]
        return core_schema.tagged_union_schema(
            choices,
            schema["discriminator"],
            custom_error_type=TAG_RULE,
            custom_error_message="Input should be an object whose {discriminator} is one of {expected_tags}",
            custom_error_context={
                "discriminator": repr(self.tag),
                "field": self.tag,
                "expected_tags": ", ".join(repr(tag) for tag in choices),
            },
            strict=schema.get("strict"),
            from_attributes=schema.get("from_attributes"),
            ref=schema.get("ref"),
            metadata=schema.get("metadata"),
            serialization=schema.get("serialization"),
        )


JsonInt = Annotated[int, _WholeNumber()]
"""An integer field that reads ``3.0`` as ``3``, as JSON Schema does (see :class:`_WholeNumber`)."""

NonNegativeInt = Annotated[int, _WholeNumber(minimum=0)]
"""A :data:`JsonInt` that is at least 0 (counts, positions)."""

PositiveInt = Annotated[int, _WholeNumber(minimum=1)]
"""A :data:`JsonInt` that is at least 1."""

Byte = Annotated[int, _WholeNumber(minimum=0, maximum=255)]
"""A :data:`JsonInt` from 0 to 255 (a token's UTF-8 bytes)."""


def deferred_adapter(annotation: Any) -> TypeAdapter[Any]:
    """A ``TypeAdapter`` whose validator is built on first use rather than at import.

    Module-level adapters otherwise compile every canonical schema when ``chatcodec`` is
    imported, which made the import cost several hundred milliseconds.
    """
    return TypeAdapter(annotation, config=ConfigDict(defer_build=True, allow_inf_nan=False))  # as CanonicalModel


def _is_none(value: object) -> bool:
    return value is None


def _is_false(value: object) -> bool:
    return value is False


def omitted_when_none(**constraints: Any) -> Any:
    """Field default for optional fields: ``None``, and left out of dumps when ``None``.

    Canonical JSON stays small and readable (``{"type": "text", "text": "hi"}`` rather
    than a page of nulls), and validating a dump gives back the same model.
    """
    return Field(default=None, exclude_if=_is_none, **constraints)


def _is_empty(value: object) -> bool:
    return isinstance(value, list | dict) and not value


def _no_items() -> list[Any]:
    """A new empty list, from a function rather than ``list`` itself: pydantic asks a default
    factory's signature, and a built-in's is parsed from its text with ``tokenize``, whose
    pattern a process compiles the first time it is asked (at its first validator build)."""
    return []


def omitted_when_empty() -> Any:
    """Field default for lists: empty, and left out of dumps when empty."""
    return Field(default_factory=_no_items, exclude_if=_is_empty)


def false_by_default() -> Any:
    """Field default for flags: ``False``, and left out of dumps when ``False``."""
    return Field(default=False, exclude_if=_is_false)


class KeyedModel(BaseModel):
    """Strict pydantic model that also reads like the dict it dumps to.

    ``model["role"]``, ``model.get("content")``, ``"role" in model`` and ``keys()``
    agree with each other: the keys are the fields a ``model_dump()`` would emit, plus
    the aliases a class answers for code written against plain message dicts
    (:meth:`dict_aliases`: Verifiers' ``tool_calls``, ``reasoning_content`` ...).

    The type checkers see no ``model[key]`` here: a class deriving from this one directly
    declares each of its keys with its type (the messages: ``message.get("tool_calls")``
    is ``list[ToolUsePart] | None``, an unknown key a type error), and
    :class:`CanonicalModel` gives every other class the untyped ``Any`` access.
    """

    model_config: ClassVar[ConfigDict] = ConfigDict(
        extra="forbid",
        # No coercion: ``"yes"`` is not ``True`` and ``"0.5"`` is not ``0.5``. The exported
        # JSON Schema refuses those inputs, so the models must too; an int is
        # still a valid float, as it is in JSON Schema.
        strict=True,
        # NaN and infinities are no JSON (RFC 8259 section 6): a model holding one could
        # never be written, so it is refused where it is given, JSON values included.
        allow_inf_nan=False,
        # Field docstrings become JSON Schema descriptions when a schema is generated,
        # not at class creation (see ``_field_docs``).
        json_schema_extra=describe_fields,
        # Schemas are built on first use, not at import: ``import chatcodec`` stays cheap
        # and a program pays only for the models it touches.
        defer_build=True,
        # ``message.content = ...`` and ``message["content"] = ...`` are checked like
        # construction: an agent editing a history in place gets the
        # error where it made it, not a 400 later. Construction does not pay for it.
        validate_assignment=True,
    )

    _KEY_HINTS: ClassVar[dict[str, str]] = {}
    """Why a key that is not here was looked for, and what to use instead."""

    if not TYPE_CHECKING:  # the checkers keep pydantic's signatures, keyword names and all

        def model_dump(self, **options: Any) -> dict[str, Any]:
            """pydantic's dump; in JSON mode a value nested just under the validator's depth
            limit is written too (:mod:`chatcodec._model.deep_dump`), not refused."""
            try:
                return super().model_dump(**options)
            except ValueError as error:
                if options.get("mode") != "json" or not too_deep_to_dump(error):
                    raise
                given = {key: value for key, value in options.items() if key != "mode"}
                return json_data(self, given)

        def model_dump_json(self, **options: Any) -> str:
            """pydantic's JSON text; a value nested just under the validator's depth limit is
            written too (:mod:`chatcodec._model.deep_dump`), not refused."""
            try:
                return super().model_dump_json(**options)
            except ValueError as error:
                if not too_deep_to_dump(error):
                    raise
                return json_text(self, dict(options))

    def dict_aliases(self) -> dict[str, Any]:
        """Keys dict-like access answers beyond (or instead of) the canonical fields.

        None here; message classes answer the keys Verifiers-style code reads (see
        :class:`~chatcodec.AssistantMessage`). ``model_dump()`` never emits them.
        """
        return {}

    if not TYPE_CHECKING:  # typed by each subclass (see the class docstring)

        def __getitem__(self, key: str) -> Any:
            return self._item(key)

        def get(self, key: str, default: Any = None) -> Any:
            """The value ``model[key]`` gives when ``key in model``, else ``default``."""
            try:
                return self._item(key)
            except KeyError:
                return default

    def _item(self, key: str) -> Any:
        aliases = self.dict_aliases()
        if key in aliases:
            return aliases[key]
        if not self._emits(key):
            hint = self._KEY_HINTS.get(key)
            raise KeyError(key if hint is None else f"{key!r}: {hint}")
        return getattr(self, key)

    def __setitem__(self, key: str, value: Any) -> None:
        """``model[key] = value`` for a field ``key``, validated as the field is."""
        fields = type(self).model_fields
        if key not in fields:
            named = ", ".join(fields)
            raise KeyError(f"{key!r} is not a field of {type(self).__name__} (its fields: {named})")
        try:
            setattr(self, key, value)
        except pydantic_core.ValidationError as error:
            raise as_chatcodec_error(error, type(self).__name__) from None

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str):
            return False
        return self._emits(key) or key in self.dict_aliases()

    def _emits(self, key: str) -> bool:
        """Whether a dump would emit the field ``key``."""
        field = type(self).model_fields.get(key)
        if field is None:
            return False
        return field.exclude_if is None or not field.exclude_if(getattr(self, key))

    def __eq__(self, other: object) -> bool:
        """A model equals another model as pydantic compares them, and a dict it reads
        back as: its dump (``model_dump()``), its dict view (``dict(model)``, with the
        Verifiers aliases :meth:`dict_aliases` gives) or a dict that validates to an equal
        model (a default left out, a flat Verifiers tool call without its ``type``).
        Verifiers' rollout code compares messages with dicts (``message == {"role": ...}``),
        and a dict compared with a model asks the model (Python's reflected ``==``)."""
        if isinstance(other, BaseModel) or not isinstance(other, Mapping):
            return super().__eq__(other)
        if self.model_dump() == other or dict(self.items()) == other:
            return True
        try:
            read = type(self).model_validate(other)
        except ValueError:  # pydantic's ValidationError and chatcodec's errors
            return False
        return super().__eq__(read)

    __hash__ = BaseModel.__hash__  # None: unhashable, as pydantic's unfrozen models are

    def keys(self) -> list[str]:
        """The field names a ``model_dump()`` would emit, in declaration order, then the
        alias keys (:meth:`dict_aliases`)."""
        emitted = [name for name in type(self).model_fields if self._emits(name)]
        return emitted + [name for name in self.dict_aliases() if name not in emitted]

    def values(self) -> list[Any]:
        """The values behind ``keys()``, as ``model[key]`` gives them (not dumped)."""
        return [self._item(name) for name in self.keys()]

    def items(self) -> list[tuple[str, Any]]:
        """``(key, value)`` pairs behind ``keys()``."""
        return [(name, self._item(name)) for name in self.keys()]


class CanonicalModel(KeyedModel):
    """A :class:`KeyedModel` whose dict access is typed ``Any`` (every canonical class but
    the messages, whose keys are typed one by one)."""

    if TYPE_CHECKING:

        def __getitem__(self, key: str) -> Any: ...

        def get(self, key: str, default: Any = None) -> Any: ...


shown_as("chatcodec.codec_kit", deferred_adapter)  # a wire adapter of canonical shapes, configured as they are
