"""JSON Schema export, so other languages can validate chatcodec's canonical JSON.

One document per top-level type, written to ``schemas/`` and committed; a test
regenerates them and fails on drift. Descriptions come from the models' docstrings.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import TypeAdapter

from chatcodec._model.messages import MESSAGES_ADAPTER
from chatcodec._model.request import ChatRequest
from chatcodec._model.response import ChatResponse
from chatcodec._model.stream_events import STREAM_EVENT_ADAPTER
from chatcodec._narrow import as_dict, as_list
from chatcodec._portable_schema import portable_schema
from chatcodec._public_label import shown_as
from chatcodec.datasets._layout import COLUMNAR_KINDS, ColumnarKind, layout_document

SchemaKind = Literal["messages", "request", "response", "stream-event"]
"""The top-level types with a schema document."""

SCHEMA_KINDS: tuple[SchemaKind, ...] = ("messages", "request", "response", "stream-event")

SCHEMA_VERSION = "0.2"
"""Version of the canonical JSON, stamped in every schema's ``$id``.

It is the package's ``major.minor`` (a test holds them together): the canonical JSON
changes incompatibly only in a minor release before 1.0 and a major one after.
"""

_DIALECT = "https://json-schema.org/draft/2020-12/schema"
_ID_BASE = f"https://chatcodec.dev/schemas/{SCHEMA_VERSION}/"
_ADAPTERS: dict[SchemaKind, TypeAdapter[Any]] = {
    "messages": MESSAGES_ADAPTER,
    "request": TypeAdapter(ChatRequest),
    "response": TypeAdapter(ChatResponse),
    "stream-event": STREAM_EVENT_ADAPTER,
}
_TITLES: dict[SchemaKind, str] = {
    "messages": "Messages",
    "request": "ChatRequest",
    "response": "ChatResponse",
    "stream-event": "StreamEvent",
}


def json_schema(kind: SchemaKind = "messages", *, ref_template: str | None = None) -> dict[str, Any]:
    """The JSON Schema (Draft 2020-12) of one top-level canonical type.

    It describes exactly what the models validate: canonical JSON as chatcodec dumps it
    (``model_dump()`` of any canonical object validates as it is). The alternate input
    shapes the API boundary reads first (:mod:`chatcodec._dialects.reader`) are not part of it.

    The document is self-contained (its definitions under ``$defs``) and uses no vendor
    keywords, so ajv's default strict mode and Python ``jsonschema`` take it as it is.

    To embed it in an OpenAPI 3.1 document, pass ``ref_template`` (as pydantic spells it,
    ``"#/components/schemas/{model}"``): references then point there, ``$id`` and
    ``$schema`` (which would move the base of those references) are left out, and the
    caller moves ``$defs`` into ``components/schemas``::

        schema = chatcodec.json_schema("request", ref_template="#/components/schemas/{model}")
        openapi["components"]["schemas"].update(schema.pop("$defs"))
        openapi["components"]["schemas"]["ChatRequest"] = schema
    """
    if kind not in _ADAPTERS:
        known = ", ".join(SCHEMA_KINDS)
        raise ValueError(f"unknown schema kind {kind!r}; known kinds: {known}")
    body = portable_schema(_ADAPTERS[kind].json_schema(mode="validation"))
    if ref_template is not None:
        return {"title": _TITLES[kind], **_with_references(body, ref_template)}
    return {"$schema": _DIALECT, "$id": f"{_ID_BASE}{kind}.schema.json", "title": _TITLES[kind], **body}


def _with_references(node: Any, ref_template: str) -> Any:
    """``node`` with every ``#/$defs/Name`` reference spelled by ``ref_template``."""
    mapping = as_dict(node)
    if mapping is not None:
        return {
            key: _reference(value, ref_template) if key == "$ref" else _with_references(value, ref_template)
            for key, value in mapping.items()
        }
    items = as_list(node)
    if items is not None:
        return [_with_references(item, ref_template) for item in items]
    return node


def _reference(value: object, ref_template: str) -> object:
    prefix = "#/$defs/"
    if isinstance(value, str) and value.startswith(prefix):
        return ref_template.format(model=value.removeprefix(prefix))
    return value


def schema_file_name(kind: SchemaKind) -> str:
    """File name of the schema document for ``kind``."""
    return f"{kind}.schema.json"


def render_schema(kind: SchemaKind) -> str:
    """The schema document as committed: sorted keys, two-space indent, final newline."""
    return json.dumps(json_schema(kind), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def arrow_file_name(kind: ColumnarKind) -> str:
    """File name of the Arrow schema of the columnar form of ``kind``."""
    return f"{kind}.arrow.json"


def render_arrow_schema(kind: ColumnarKind) -> str:
    """The Arrow schema of the columnar form (:func:`chatcodec.datasets.layout_document`),
    as committed beside the JSON Schemas."""
    return json.dumps(layout_document(kind), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _documents() -> list[tuple[str, str]]:
    """Every committed document: (file name, text)."""
    schemas = [(schema_file_name(kind), render_schema(kind)) for kind in SCHEMA_KINDS]
    return schemas + [(arrow_file_name(kind), render_arrow_schema(kind)) for kind in COLUMNAR_KINDS]


def write_schemas(directory: Path) -> list[Path]:
    """Write every schema document (the JSON Schemas, and the columnar form's Arrow
    schemas) into ``directory``; return the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for name, text in _documents():
        path = directory / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def stale_schemas(directory: Path) -> list[Path]:
    """Schema files in ``directory`` that are missing or differ from the code."""
    stale: list[Path] = []
    for name, text in _documents():
        path = directory / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(path)
    return stale


shown_as("chatcodec", json_schema)
