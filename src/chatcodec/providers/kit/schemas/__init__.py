"""Tool and output schemas as each target takes them, one rewrite per module.

``walk``              the walk every rewrite shares: subschema keywords, copy on write,
                      the depth guard, :class:`SchemaChange`
``openapi``           Gemini's OpenAPI subset -> JSON Schema (every target but Gemini)
``anthropic_subset``  JSON Schema -> Anthropic's structured-outputs subset (strict tools,
                      ``output_config.format``; Claude on Bedrock)
``openai_strict``     JSON Schema -> OpenAI's strict mode (closed objects, every property required)
``writing``           what the writers call: the rewrites a target needs, reported as
                      losses of kind ``schema``

Each rewrite is a pure function over a schema returning the new schema (the same object
when nothing changed) and its changes, each with its JSON path in the request.
"""

from __future__ import annotations

from chatcodec.providers.kit.schemas.anthropic_subset import STRING_FORMATS, to_anthropic_subset
from chatcodec.providers.kit.schemas.openai_strict import nullable, to_openai_strict
from chatcodec.providers.kit.schemas.openapi import from_openapi
from chatcodec.providers.kit.schemas.walk import MAX_DEPTH, SchemaChange, rewrite_schema
from chatcodec.providers.kit.schemas.writing import (
    AS_SENT,
    FORMAT_AS_SENT,
    STRICT_SCHEMA_OPTION,
    anthropic_schema,
    json_schema,
    looks_openapi,
    openai_format_as_sent,
    openai_strict_schema,
    read_as_sent,
    report,
    strict_schema_option,
)

__all__ = [
    "AS_SENT",
    "FORMAT_AS_SENT",
    "MAX_DEPTH",
    "STRICT_SCHEMA_OPTION",
    "STRING_FORMATS",
    "SchemaChange",
    "anthropic_schema",
    "from_openapi",
    "json_schema",
    "looks_openapi",
    "nullable",
    "openai_format_as_sent",
    "openai_strict_schema",
    "read_as_sent",
    "report",
    "rewrite_schema",
    "strict_schema_option",
    "to_anthropic_subset",
    "to_openai_strict",
]
