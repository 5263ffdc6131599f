"""The schema rewrites of ``_providers/families``, as pure functions: what each one does,
checked against the SDKs' own code for the same job (google-genai's ``Schema``, the
Anthropic SDK's ``transform_schema``, the openai SDK's strict-schema pass) and against
JSON Schema itself; idempotence and "a schema already in the subset is left alone" as
properties; hostile nesting refused with a path."""

from __future__ import annotations

import copy
from typing import Any

import anthropic
import jsonschema
import pytest
from google.genai import types as genai_types
from hypothesis import given, settings
from hypothesis import strategies as st
from openai.lib._pydantic import _ensure_strict_json_schema  # pyright: ignore[reportPrivateUsage]

import chatcodec
from chatcodec._providers.families.claude.schema_subset import to_anthropic_subset
from chatcodec._providers.families.google.openapi_schema import from_openapi
from chatcodec._providers.families.openai.strict_schema import nullable, to_openai_strict
from chatcodec._providers.families.schema_writing import looks_openapi
from chatcodec._providers.kit.schema_memory import cached_rewrite
from chatcodec._providers.kit.schema_walk import MAX_DEPTH

GEMINI_SCHEMA: dict[str, Any] = {
    "type": "OBJECT",
    "description": "Book a table.",
    "properties": {
        "city": {"type": "STRING", "nullable": True, "example": "Paris"},
        "size": {"type": "INTEGER", "format": "enum", "enum": ["2", "4"]},
        "when": {"type": "STRING", "format": "date-time"},
        "wishes": {"type": "ARRAY", "items": {"type": "STRING"}, "min_items": "1", "maxItems": "3"},
        "seat": {"type": "STRING", "format": "enum", "enum": ["window", "aisle"], "nullable": True},
    },
    "required": ["size"],
    "propertyOrdering": ["when", "size", "city", "wishes", "seat"],
}
"""A ``parameters`` schema as google-genai 3.4.0 writes one (upper-case types, ``nullable``,
``format: enum``, an int64 count as a string, a snake_case key of an SDK dump)."""


def test_a_gemini_schema_becomes_json_schema_with_its_meaning() -> None:
    genai_types.Schema.model_validate(GEMINI_SCHEMA)  # it is one of Google's
    converted, changes = from_openapi(GEMINI_SCHEMA, ("tools", 0, "parameters"))
    assert converted == {
        "type": "object",
        "description": "Book a table.",
        "properties": {
            "when": {"type": "string", "format": "date-time"},
            "size": {"type": "integer", "enum": [2, 4]},
            "city": {"type": ["string", "null"], "examples": ["Paris"]},
            "wishes": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3},
            "seat": {"type": ["string", "null"], "enum": ["window", "aisle", None]},
        },
        "required": ["size"],
    }
    assert list(converted["properties"]) == ["when", "size", "city", "wishes", "seat"]  # propertyOrdering's order
    jsonschema.Draft202012Validator.check_schema(converted)
    validator = jsonschema.Draft202012Validator(converted)
    assert validator.is_valid({"size": 2, "city": None, "seat": None})
    assert not validator.is_valid({"size": "2"})
    assert [(change.at, change.what) for change in changes] == [
        (("tools", 0, "parameters"), "Gemini schema spellings (upper-case types, nullable, snake_case keys)"),
        (("tools", 0, "parameters", "propertyOrdering"), "propertyOrdering dropped"),
    ]
    assert GEMINI_SCHEMA["type"] == "OBJECT"  # the caller's schema is not touched


def test_google_genai_reads_the_same_schema_back_from_the_json_schema() -> None:
    """google-genai's own conversion of the JSON Schema back to its ``Schema`` gives the
    types and nullability the Gemini schema had."""
    converted, _ = from_openapi(GEMINI_SCHEMA)
    converted["properties"]["city"] = {"type": ["string", "null"]}  # its JSONSchema type has no examples
    back = genai_types.Schema.from_json_schema(
        json_schema=genai_types.JSONSchema.model_validate(converted), api_option="GEMINI_API"
    )
    assert back.type == genai_types.Type.OBJECT
    assert back.properties is not None
    assert back.properties["city"].type == genai_types.Type.STRING
    assert back.properties["city"].nullable is True
    assert back.properties["wishes"].min_items == 1


def test_looks_openapi_tells_a_gemini_schema_by_its_root() -> None:
    assert looks_openapi(GEMINI_SCHEMA)
    assert looks_openapi({"type": "object", "properties": {"a": {"type": "string", "nullable": True}}})
    assert not looks_openapi({"type": "object", "properties": {"nullable": {"type": "string"}}})
    assert not looks_openapi({"type": ["string", "null"]})
    assert not looks_openapi(True)


ANTHROPIC_CASES: list[tuple[dict[str, Any], dict[str, Any], list[str]]] = [
    (
        {"type": "integer", "minimum": 1, "maximum": 10, "description": "A number"},
        {"type": "integer", "description": "A number\n\n{minimum: 1, maximum: 10}"},
        ["minimum", "maximum"],
    ),
    (
        {"oneOf": [{"type": "string", "maxLength": 5}, {"type": "null"}]},
        {"anyOf": [{"type": "string", "description": "{maxLength: 5}"}, {"type": "null"}]},
        ["oneOf", "anyOf.0.maxLength"],
    ),
    (
        {"type": "object", "properties": {"at": {"type": "string", "format": "date-time"}}},
        {
            "type": "object",
            "properties": {"at": {"type": "string", "format": "date-time"}},
            "additionalProperties": False,
        },
        ["additionalProperties"],
    ),
    (
        {"type": "string", "format": "binary", "pattern": "^a"},
        {"type": "string", "description": "{format: binary, pattern: ^a}"},
        ["format", "pattern"],
    ),
    (
        {"type": "array", "items": {"type": "string"}, "minItems": 2, "maxItems": 4},
        {"type": "array", "items": {"type": "string"}, "description": "{minItems: 2, maxItems: 4}"},
        ["minItems", "maxItems"],
    ),
    (
        {"type": "object", "additionalProperties": {"type": "string"}},
        {"type": "object", "additionalProperties": False},
        ["additionalProperties"],
    ),
    (
        {"$ref": "#/$defs/a", "description": "x", "$defs": {"a": {"type": "number", "exclusiveMinimum": 0}}},
        {"$ref": "#/$defs/a", "$defs": {"a": {"type": "number", "description": "{exclusiveMinimum: 0}"}}},
        ["description", "$defs.a.exclusiveMinimum"],
    ),
]


@pytest.mark.parametrize(("schema", "expected", "paths"), ANTHROPIC_CASES)
def test_the_anthropic_subset_moves_what_structured_outputs_refuse(
    schema: dict[str, Any], expected: dict[str, Any], paths: list[str]
) -> None:
    subset, changes = to_anthropic_subset(schema)
    assert subset == expected
    assert [".".join(str(step) for step in change.at) for change in changes] == paths


@pytest.mark.parametrize(("schema", "expected", "paths"), ANTHROPIC_CASES)
def test_the_anthropic_sdk_transform_leaves_the_subset_as_it_is(
    schema: dict[str, Any], expected: dict[str, Any], paths: list[str]
) -> None:
    """The SDK's ``transform_schema`` (what ``messages.parse`` sends) changes nothing
    more in what this rewrite writes, except what it always adds to an object (an empty
    ``properties``) or takes from a ``$ref``: the output is in the SDK's subset."""
    subset, _ = to_anthropic_subset(schema)
    again = anthropic.transform_schema(copy.deepcopy(subset))
    if subset.get("type") == "object":
        again.pop("properties") if "properties" not in subset else None
    assert again == subset if "$ref" not in subset else again["$defs"] == subset["$defs"]


OPENAI_OPTIONAL: dict[str, Any] = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "where"},
        "unit": {"type": "string", "enum": ["c", "f"]},
        "place": {"$ref": "#/$defs/place"},
        "tags": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]},
    },
    "required": ["city"],
    "$defs": {"place": {"type": "object", "properties": {"name": {"type": "string"}}}},
}


def test_openai_strict_makes_optional_properties_required_and_nullable() -> None:
    strict, changes = to_openai_strict(OPENAI_OPTIONAL, ("tools", 0, "parameters"))
    assert strict["required"] == ["city", "unit", "place", "tags"]
    assert strict["additionalProperties"] is False
    properties = strict["properties"]
    assert properties["city"] == {"type": "string", "description": "where"}  # it was required
    assert properties["unit"] == {"type": ["string", "null"], "enum": ["c", "f", None]}
    assert properties["place"] == {"anyOf": [{"$ref": "#/$defs/place"}, {"type": "null"}]}
    assert properties["tags"]["anyOf"][-1] == {"type": "null"}
    place = strict["$defs"]["place"]
    assert place == {**place, "required": ["name"], "additionalProperties": False}
    assert place["properties"]["name"] == {"type": ["string", "null"]}
    assert [change.at[-1] for change in changes] == [
        "additionalProperties",
        "unit",
        "place",
        "tags",
        "additionalProperties",
        "name",
    ]
    validator = jsonschema.Draft202012Validator(strict)
    assert validator.is_valid({"city": "x", "unit": None, "place": None, "tags": None})
    assert not validator.is_valid({"city": "x"})  # every key is required now


def test_openai_strict_output_is_what_the_openai_sdk_makes_strict() -> None:
    """The openai SDK's own strict pass (``to_strict_json_schema``'s walker) changes
    nothing more in a schema this rewrite wrote."""
    strict, _ = to_openai_strict(OPENAI_OPTIONAL)
    again = _ensure_strict_json_schema(copy.deepcopy(strict), path=(), root=copy.deepcopy(strict))
    assert again == strict


def test_nullable_leaves_a_schema_that_takes_null_alone() -> None:
    for schema in ({"type": ["string", "null"]}, {}, {"description": "any"}, {"anyOf": [{"type": "null"}]}, True):
        assert nullable(schema) is schema


@pytest.mark.parametrize("rewrite", [from_openapi, to_anthropic_subset, to_openai_strict])
def test_hostile_nesting_is_refused_with_a_path_not_a_recursion_error(rewrite: Any) -> None:
    deep: dict[str, Any] = {"type": "object"}
    node = deep
    for _ in range(5000):
        node["properties"] = {"a": {"type": "object"}}
        node = node["properties"]["a"]
    with pytest.raises(chatcodec.ValidationError) as raised:
        rewrite(deep, ("tools", 3, "parameters"))
    assert raised.value.paths[0].startswith("$.tools[3].parameters.properties.a.properties.a")
    assert "schema_too_deep" in str(raised.value)
    looped: dict[str, Any] = {"type": "object", "properties": {}}
    looped["properties"]["self"] = looped  # a cycle (not JSON, but a caller's dict can hold one)
    with pytest.raises(chatcodec.ValidationError):
        rewrite(looped)


def test_a_reference_cycle_is_not_followed() -> None:
    schema = {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}
    for rewrite in (from_openapi, to_anthropic_subset, to_openai_strict):
        assert rewrite(schema) == (schema, [])


def test_the_depth_limit_leaves_room_for_real_schemas() -> None:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(MAX_DEPTH // 2 - 1):
        node = {"type": "array", "items": node}
    assert to_anthropic_subset(node) == (node, [])


# --- properties --------------------------------------------------------------------------------

_KEYWORDS = st.sampled_from(
    ["minimum", "maxLength", "pattern", "format", "default", "nullable", "example", "title", "oneOf", "min_items"]
)
_TYPES = st.sampled_from(["object", "string", "integer", "number", "boolean", "array", "null", "OBJECT", "STRING"])
_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.sampled_from(["date-time", "enum", "x", "1"]))


def _schemas() -> st.SearchStrategy[dict[str, Any]]:
    """Schema-like objects: JSON Schema and Gemini keywords mixed, nested by the keywords
    the rewrites walk."""
    leaf = st.fixed_dictionaries(
        {"type": _TYPES}, optional={"description": st.text(max_size=3), "enum": st.lists(_SCALARS, max_size=2)}
    )

    def nested(children: st.SearchStrategy[dict[str, Any]]) -> st.SearchStrategy[dict[str, Any]]:
        names = st.sampled_from(["a", "b", "c"])
        return st.fixed_dictionaries(
            {"type": _TYPES},
            optional={
                "properties": st.dictionaries(names, children, max_size=3),
                "required": st.lists(names, max_size=2, unique=True),
                "items": children,
                "anyOf": st.lists(children, min_size=1, max_size=2),
                "additionalProperties": st.one_of(st.booleans(), children),
                "propertyOrdering": st.lists(names, max_size=3),
                "$defs": st.dictionaries(names, children, max_size=1),
            },
        ).flatmap(lambda node: st.dictionaries(_KEYWORDS, _SCALARS, max_size=2).map(lambda extra: {**extra, **node}))

    return st.recursive(leaf, nested, max_leaves=8)


_REWRITES = [from_openapi, to_anthropic_subset, to_openai_strict]


@settings(max_examples=150, deadline=None)
@given(_schemas(), st.sampled_from(_REWRITES))
def test_every_rewrite_is_idempotent_and_leaves_its_output_alone(schema: dict[str, Any], rewrite: Any) -> None:
    """A schema a rewrite wrote is in its subset: rewritten again, it is the same object
    and nothing is reported; the input is never changed in place."""
    before = copy.deepcopy(schema)
    once, _ = rewrite(schema)
    assert schema == before
    twice, changes = rewrite(once)
    assert twice is once
    assert changes == []


@settings(max_examples=150, deadline=None)
@given(_schemas())
def test_the_target_rewrites_compose_to_a_fixed_point(schema: dict[str, Any]) -> None:
    """What a writer sends (Gemini's spellings rewritten, then the target's subset) is left
    alone by both rewrites again, and reports a change only where one was made."""
    json_form, _ = from_openapi(schema)
    for rewrite in (to_anthropic_subset, to_openai_strict):
        sent, changes = rewrite(json_form)
        assert (sent is json_form) == (changes == [])
        assert from_openapi(sent) == (sent, [])
        assert rewrite(sent) == (sent, [])


def test_a_type_name_gemini_does_not_have_is_no_gemini_spelling() -> None:
    """``{"type": "A"}`` is no type either format knows: it passes as it is, with no report
    (only Gemini's type names are lower-cased)."""
    assert from_openapi({"type": "A"}) == ({"type": "A"}, [])
    request = chatcodec.ChatRequest.model_validate(
        {
            "model": "m",
            "messages": [{"role": "user", "content": "hi"}],
            "tools": [{"name": "f", "parameters": {"type": "A"}}],
        }
    )
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request("openai-chat", request, on_loss="ignore", losses=losses)
    assert losses == []
    assert body["tools"][0]["function"]["parameters"] == {"type": "A"}
    assert from_openapi({"type": "Object"})[0] == {"type": "object"}  # a Gemini name in another case still is


# --- the rewrites remembered by their text (kit/schema_memory.py) -----------------------


@settings(max_examples=150, deadline=None)
@given(_schemas(), st.sampled_from([to_anthropic_subset, to_openai_strict]))
def test_a_remembered_rewrite_answers_what_the_walk_answers(schema: dict[str, Any], rewrite: Any) -> None:
    """Asked twice, for the schema and for an equal copy at another path, the remembered
    rewrite gives the walk's output and changes (at the path asked), or the same object."""
    for at in (("tools", 0, "parameters"), ("tools", 7, "parameters")):
        for asked in (schema, copy.deepcopy(schema)):
            expected, changes = rewrite(asked, at)
            got, got_changes = cached_rewrite(rewrite, asked, at)
            assert got_changes == changes
            assert got == expected
            assert (got is asked) == (changes == [])


def test_a_schema_left_alone_is_not_walked_again_nor_a_changed_one_at_its_place() -> None:
    # a changed one is answered from memory too (its place part of the key: an agent's strict
    # tools, issue 107), a new object each time with the same changes
    walks: list[Any] = []

    def counted(schema: Any, at: Any = ()) -> Any:
        walks.append(schema)
        return to_anthropic_subset(schema, at)

    alone = {"type": "object", "properties": {"q": {"type": "string"}}, "additionalProperties": False}
    changed = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}, "additionalProperties": False}
    for _ in range(3):
        assert cached_rewrite(counted, copy.deepcopy(alone), ()) == (alone, [])
        assert cached_rewrite(counted, changed, ("x",))[1][0].at == ("x", "properties", "n", "minimum")
    assert walks.count(alone) == 1
    assert walks.count(changed) == 1


def test_a_value_json_spells_alike_is_walked_not_answered_from_memory() -> None:
    """A tuple, bytes or an integer key, which JSON spells as a list, a string, a string
    key: such a schema is walked (its text is another), whichever came first."""
    plain = {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "required": ["a"],
        "additionalProperties": False,
    }
    variants = [
        {**plain, "required": ("a",)},
        {**plain, "type": b"object"},
        {**plain, "properties": {1: {"type": "string"}}},
    ]
    for rewrite in (to_anthropic_subset, to_openai_strict):
        for first, then in ((plain, variants), *((variant, [plain]) for variant in variants)):
            walks: list[Any] = []

            def counted(schema: Any, at: Any = (), rewrite: Any = rewrite, walks: list[Any] = walks) -> Any:
                walks.append(schema)
                return rewrite(schema, at)

            for schema in (first, *then):
                assert cached_rewrite(counted, schema, ("at",)) == rewrite(schema, ("at",))
            assert len(walks) == 1 + len(then)


def test_a_value_nested_past_the_json_parsers_depth_is_answered_as_the_walk_answers() -> None:
    """A ``default`` nested deeper than a JSON parser reads (no rewrite walks into it) is
    neither refused nor answered wrongly: the memory's text holds it whole."""
    deep: Any = "x"
    for _ in range(230):  # deeper than pydantic-core parses (200)
        deep = [deep]
    schema = {"type": "object", "properties": {}, "additionalProperties": False, "default": deep}
    for rewrite in (to_anthropic_subset, to_openai_strict):
        for _ in range(2):
            assert cached_rewrite(rewrite, schema, ()) == rewrite(schema, ())


def test_a_schema_holding_itself_is_walked_and_refused() -> None:
    looped: dict[str, Any] = {"type": "object", "properties": {}}
    looped["properties"]["self"] = looped
    for _ in range(2):
        with pytest.raises(chatcodec.ValidationError):
            cached_rewrite(to_anthropic_subset, looped, ("tools", 0))


def test_the_schema_memory_is_bounded_by_the_text_it_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past its bytes of JSON text (not only past its count), the memory of unchanged schemas
    is forgotten whole: a few huge schemas cannot keep more text alive than the bound the
    docs state (``docs/performance.md``, "Memories")."""
    from marshal import dumps as to_text

    from chatcodec._providers.kit import schema_memory
    from chatcodec._text_memory import Held

    small = {"type": "object", "properties": {"q": {"type": "string"}}, "additionalProperties": False}
    other = {"type": "object", "properties": {"r": {"type": "string"}}, "additionalProperties": False}
    monkeypatch.setattr(schema_memory, "_UNCHANGED", {})
    monkeypatch.setattr(schema_memory, "_HELD", Held(len(to_text(small)) + len(to_text(other)) - 1))
    cached_rewrite(to_anthropic_subset, small, ())
    assert schema_memory._HELD.size == len(to_text(small))  # pyright: ignore[reportPrivateUsage]
    cached_rewrite(to_anthropic_subset, other, ())
    held = schema_memory._UNCHANGED  # pyright: ignore[reportPrivateUsage]
    assert [text for _, text in held] == [to_text(other)]
    assert schema_memory._HELD.size == len(to_text(other))  # pyright: ignore[reportPrivateUsage]
