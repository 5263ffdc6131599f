"""Turn pydantic's JSON Schema into one that validators of other languages take as it is.

pydantic writes OpenAPI's ``discriminator`` keyword next to each tagged ``oneOf``; ajv in
its default strict mode refuses the schema outright (``unknown keyword:
"discriminator"``), and without it the tags stay optional (they have defaults), so
``[{}]`` passed the schema while the models refuse it. Here:

- each tagged ``oneOf`` loses ``discriminator``; every branch *requires* its tag (a
  ``const``), and the ``oneOf`` goes second in an ``allOf`` whose first member picks the
  branch by its tag (``if``/``then``). A validator that stops at the first failure
  (ajv's default) so reports the one branch the tag names (one mistake, one error, where
  a plain ``oneOf`` gave one or more per branch: 26 to 42 for a mistake in a part), or
  one error for a missing or unknown tag; json-schema-to-typescript ignores ``if`` and
  types the ``oneOf`` as the union (``TextPart | ImagePart``). Python ``jsonschema``
  evaluates every keyword, so its ``best_match`` heuristic, which prefers the deepest
  error inside a ``oneOf``, may still point into another branch;
- a ``oneOf`` of a single branch (a position that takes one tagged type) becomes its
  ``$ref``;
- property titles go (``"title": "Content"``): json-schema-to-typescript names a type
  after every title it meets, which gave ``Content1`` ... ``Content13``; the titles of the
  definitions (``UserMessage``, ``ToolUsePart``) stay and name the generated types;
- an ``anyOf`` of a type and ``null`` (``str | None``, ``int | None``) becomes one
  schema with a list of types (``"type": ["string", "null"]``): the keywords of the
  type's branch apply to that type alone, so it accepts the same documents, and ajv
  reports a mistake in it once, not also as "must be null" and "must match a schema in
  anyOf". (A list of two types other than ``null`` is a warning in ajv's strict mode, so
  ``str | list[Part]`` stays an ``anyOf``);
- descriptions are written in Markdown, not reStructuredText (``code`` becomes `code`,
  :class:`~chatcodec.ToolUsePart` becomes `ToolUsePart`): the generated TypeScript
  types carry them as their doc comments.

What stays around a mistake in ajv's answer (with its default settings) is a trail
after it: one ``must match "then" schema`` line per tagged union the mistake sits in
(ajv's ``if`` reports its branch beside the error in it; its ``discriminator`` keyword,
which would not, needs an option the default settings lack) and, inside a ``content``
list, that it is not a string either. The first error is the mistake itself.
"""

from __future__ import annotations

import re
from typing import Any

from chatcodec._narrow import as_dict, as_list

_DEFINITION_PREFIX = "#/$defs/"


def portable_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` (as pydantic generates it) rewritten as described in the module docstring."""
    tags: dict[str, str] = {}
    rewritten = _rewrite(schema, tags)
    definitions = as_dict(rewritten.get("$defs")) or {}
    for name, tag in tags.items():
        definition = as_dict(definitions.get(name))
        if definition is not None:
            _require_tag(definition, tag)
    return rewritten


def _rewrite(node: dict[str, Any], tags: dict[str, str]) -> dict[str, Any]:
    """A copy of ``node`` with discriminators removed (their tags noted in ``tags``)."""
    result: dict[str, Any] = {}
    for key, value in node.items():
        if key == "discriminator":
            _note_tags(value, tags)
        elif key == "properties":
            result[key] = {name: _untitled(_rewrite_value(child, tags)) for name, child in value.items()}
        elif key == "description" and isinstance(value, str):
            result[key] = markdown(value)
        else:
            result[key] = _rewrite_value(value, tags)
    result = _types_merged(result)
    branches = as_list(result.get("oneOf"))
    discriminator = as_dict(node.get("discriminator"))
    if branches is None or discriminator is None:
        return result
    rest = {key: value for key, value in result.items() if key not in ("oneOf", "title")}
    if len(branches) == 1:
        return {**(as_dict(branches[0]) or {}), **rest}
    return {**rest, "type": "object", "allOf": [*_branches_by_tag(discriminator), {"oneOf": branches}]}


def _branches_by_tag(discriminator: dict[str, Any]) -> list[dict[str, Any]]:
    """Checks that validate an object against the branch its tag names, tag first.

    The first reports a missing or unknown tag; then one ``if``/``then`` per branch, of
    which only the named one applies. (The union's own ``"type": "object"`` reports a
    value that is not an object, and tells ajv's strict mode what these apply to.)
    """
    tag = str(discriminator["propertyName"])
    values_by_reference: dict[str, list[str]] = {}
    for value, reference in (as_dict(discriminator.get("mapping")) or {}).items():
        values_by_reference.setdefault(str(reference), []).append(value)
    every_value = [value for values in values_by_reference.values() for value in values]
    known_tag = {"required": [tag], "properties": {tag: {"enum": every_value}}}
    # Stated as ``if``/``else`` (the check, then the same check again to report it) because
    # type generators skip ``if``: a plain subschema would add ``{type: ...; [k: string]:
    # unknown} &`` to every generated union.
    checks: list[dict[str, Any]] = [{"if": known_tag, "else": known_tag}]
    for reference, values in values_by_reference.items():
        condition = {"const": values[0]} if len(values) == 1 else {"enum": values}
        checks.append({"if": {"properties": {tag: condition}}, "then": {"$ref": reference}})
    return checks


def _rewrite_value(value: object, tags: dict[str, str]) -> Any:
    mapping = as_dict(value)
    if mapping is not None:
        return _rewrite(mapping, tags)
    items = as_list(value)
    if items is not None:
        return [_rewrite_value(item, tags) for item in items]
    return value


def _untitled(property_schema: Any) -> Any:
    mapping = as_dict(property_schema)
    if mapping is None:
        return property_schema
    return {key: value for key, value in mapping.items() if key != "title"}


def _note_tags(discriminator: object, tags: dict[str, str]) -> None:
    """Remember which definitions carry which tag property, from an OpenAPI discriminator."""
    fields = as_dict(discriminator) or {}
    tag = fields.get("propertyName")
    references = as_dict(fields.get("mapping")) or {}
    if not isinstance(tag, str):
        return
    for reference in references.values():
        if isinstance(reference, str) and reference.startswith(_DEFINITION_PREFIX):
            tags[reference.removeprefix(_DEFINITION_PREFIX)] = tag


def _require_tag(definition: dict[str, Any], tag: str) -> None:
    """Make ``tag`` a required property of ``definition``, with no default."""
    properties = as_dict(definition.get("properties")) or {}
    tag_schema = as_dict(properties.get(tag))
    if tag_schema is not None:
        properties[tag] = {key: value for key, value in tag_schema.items() if key != "default"}
    required = [str(name) for name in as_list(definition.get("required")) or []]
    if tag not in required:
        definition["required"] = [tag, *required]


_TYPE_KEYWORDS: dict[str, frozenset[str]] = {
    "string": frozenset({"minLength", "maxLength", "pattern", "format"}),
    "array": frozenset({"items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains"}),
    "object": frozenset(
        {"properties", "required", "additionalProperties", "patternProperties", "minProperties", "maxProperties"}
    ),
    "integer": frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}),
    "number": frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}),
    "boolean": frozenset[str](),
    "null": frozenset[str](),
}


def _types_merged(node: dict[str, Any]) -> dict[str, Any]:
    """``node`` with an ``anyOf`` of branches told apart by JSON type alone merged into one
    schema (see the module docstring); any other ``anyOf`` unchanged."""
    branches = [as_dict(branch) for branch in as_list(node.get("anyOf")) or []]
    types: list[str] = []
    merged: dict[str, Any] = {}
    for branch in branches:
        kind = None if branch is None else branch.get("type")
        if branch is None or not isinstance(kind, str) or kind not in _TYPE_KEYWORDS or kind in types:
            return node
        if not set(branch) - {"type"} <= _TYPE_KEYWORDS[kind]:
            return node
        types.append(kind)
        merged.update({key: value for key, value in branch.items() if key != "type"})
    if len(types) != 2 or "null" not in types or any(key in node for key in merged):
        return node  # ajv's strict mode takes a list of types only as one type and null
    rest = {key: value for key, value in node.items() if key != "anyOf"}
    return {**rest, "type": types, **merged}


_SHORT_ROLE = re.compile(r":[a-z]+:`~(?:[\w.]*\.)?([^`.]+)`")
_ROLE = re.compile(r":[a-z]+:`([^`<]+?)(?: <[^>]*>)?`")
_LITERAL = re.compile(r"``([^`]+)``")


def markdown(text: str) -> str:
    """A docstring's reStructuredText inline markup as Markdown: ``` ``x`` ``` as `x`,
    ``:class:`~chatcodec.X``` (and ``:attr:``, ``:func:``, ...) as `X`."""
    return _LITERAL.sub(r"`\1`", _ROLE.sub(r"`\1`", _SHORT_ROLE.sub(r"`\1`", text)))
