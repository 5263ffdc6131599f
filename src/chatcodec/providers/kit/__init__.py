"""The one toolkit every provider codec is written with, one module per concern.

``bags``            the rest of a wire object kept on the canonical one (``leftovers``,
                    ``split_fields``, ``restore_fields``, ``wire_fields``), its markers and
                    the escaping of wire keys that start with ``_``
``provider_kit``    :class:`ProviderKit` (each provider's ``markers.KIT``): the bag
                    operations bound to a provider, other providers' bags reported as
                    losses, and the table of markers that carry meaning
``arguments``       tool-argument JSON: ``compact_json``, ``arguments_object``
``cache``           cache markers: ``cache_control`` and OpenAI's ``prompt_cache_breakpoint``
``wire``            ``wire_shape``, ``tagged``, ``discriminator``, ``tag``, ``constrained``: the
                    wire shapes (``TypedDict``), loading pydantic only when a validator is built;
                    ``stands_for``, ``sdk_kinds``, ``shape_fields``: the SDK kinds a shape
                    stands for (checked against ``known_fields.json``) and its fields
``claude``          rules shared by the wires that serve Claude (Anthropic, Bedrock Converse):
                    signatures, usage, thinking config, stop reasons, unsigned thinking
``context``         :class:`EncodeContext` and :class:`DecodeContext`, what every role
                    function of a provider takes
``edge``            :class:`Edge`, what a provider says on HTTP (each folder's ``edge.py``):
                    routes, upstream URL and headers, stream framing, error shapes,
                    detection marks, strict extension rows (import it from its module)
``errors``          JSON paths and the error for a canonical event a wire let through
``tool_names``      tool names each provider accepts: one hashed rewrite, per provider rule
``tool_id_mapping`` the reversible, collision-free tool-id rewrite, per provider rule
``closed_schema``   the pieces each reader's closed front schema is built from
                    (``closed_like``: a closed object from a wire shape's fields)
``service_tier``    the canonical service tier, read and written by each format's table
``schemas``         tool and output schemas as each target takes them (Gemini's OpenAPI
                    subset as JSON Schema, Claude's structured-outputs subset, OpenAI's
                    strict mode), each change a ``schema`` loss (import it from its package)
``servers``         a format's compatible servers (OpenAI Chat's, Anthropic's): the table
                    that chooses one by option or base URL, the call that reports each
                    change as a ``rule`` loss, refusals and rules (import it from its module)
``stream_reading``  what every stream decoder shares: ``read_event``, ``FeedByReading``,
                    batch reading with the builder's compaction

``Steps`` is a loss path as steps (``("messages", 2, "content", 0)``), rendered
``$.messages[2].content[0]`` only when a loss is recorded. The names below are the kit's
surface: a provider imports them from here (``from chatcodec.providers.kit import
leftovers``), whichever module holds them.
"""

from __future__ import annotations

import importlib as _importlib
import typing as _typing

if _typing.TYPE_CHECKING:
    from chatcodec.losses import Steps
    from chatcodec.providers.kit.arguments import arguments_object, compact_json
    from chatcodec.providers.kit.bags import (
        ABSENT,
        NULLS,
        absent_keys,
        bag_key,
        is_marker,
        keeps_a_container,
        kept_object,
        leftovers,
        mark_absent,
        present,
        restore_fields,
        split_fields,
        unmapped,
        wire_fields,
        wire_key,
    )
    from chatcodec.providers.kit.cache import (
        OPENAI_CACHE_TTLS,
        decode_cache_control,
        decode_prompt_cache_breakpoint,
        encode_cache_control,
        encode_prompt_cache_breakpoint,
    )
    from chatcodec.providers.kit.claude import claude_signed, is_claude_model, uncached_input_tokens
    from chatcodec.providers.kit.context import DecodeContext, EncodeContext
    from chatcodec.providers.kit.errors import canonical_refusal, path
    from chatcodec.providers.kit.provider_kit import TOOL_ORDER, ProviderKit, meaningful_markers
    from chatcodec.providers.kit.tool_names import tool_name, tool_name_map
    from chatcodec.providers.kit.wire import (
        constrained,
        discriminator,
        sdk_kinds,
        shape_fields,
        stands_for,
        tag,
        tagged,
        wire_shape,
    )

_LAZY: dict[str, str] = {
    "ABSENT": "chatcodec.providers.kit.bags",
    "DecodeContext": "chatcodec.providers.kit.context",
    "EncodeContext": "chatcodec.providers.kit.context",
    "NULLS": "chatcodec.providers.kit.bags",
    "OPENAI_CACHE_TTLS": "chatcodec.providers.kit.cache",
    "ProviderKit": "chatcodec.providers.kit.provider_kit",
    "Steps": "chatcodec.losses",
    "TOOL_ORDER": "chatcodec.providers.kit.provider_kit",
    "absent_keys": "chatcodec.providers.kit.bags",
    "arguments_object": "chatcodec.providers.kit.arguments",
    "bag_key": "chatcodec.providers.kit.bags",
    "canonical_refusal": "chatcodec.providers.kit.errors",
    "claude_signed": "chatcodec.providers.kit.claude",
    "compact_json": "chatcodec.providers.kit.arguments",
    "constrained": "chatcodec.providers.kit.wire",
    "decode_cache_control": "chatcodec.providers.kit.cache",
    "discriminator": "chatcodec.providers.kit.wire",
    "decode_prompt_cache_breakpoint": "chatcodec.providers.kit.cache",
    "encode_cache_control": "chatcodec.providers.kit.cache",
    "encode_prompt_cache_breakpoint": "chatcodec.providers.kit.cache",
    "is_claude_model": "chatcodec.providers.kit.claude",
    "is_marker": "chatcodec.providers.kit.bags",
    "keeps_a_container": "chatcodec.providers.kit.bags",
    "kept_object": "chatcodec.providers.kit.bags",
    "leftovers": "chatcodec.providers.kit.bags",
    "mark_absent": "chatcodec.providers.kit.bags",
    "meaningful_markers": "chatcodec.providers.kit.provider_kit",
    "path": "chatcodec.providers.kit.errors",
    "present": "chatcodec.providers.kit.bags",
    "restore_fields": "chatcodec.providers.kit.bags",
    "sdk_kinds": "chatcodec.providers.kit.wire",
    "shape_fields": "chatcodec.providers.kit.wire",
    "split_fields": "chatcodec.providers.kit.bags",
    "stands_for": "chatcodec.providers.kit.wire",
    "tag": "chatcodec.providers.kit.wire",
    "tagged": "chatcodec.providers.kit.wire",
    "tool_name": "chatcodec.providers.kit.tool_names",
    "tool_name_map": "chatcodec.providers.kit.tool_names",
    "uncached_input_tokens": "chatcodec.providers.kit.claude",
    "unmapped": "chatcodec.providers.kit.bags",
    "wire_fields": "chatcodec.providers.kit.bags",
    "wire_key": "chatcodec.providers.kit.bags",
    "wire_shape": "chatcodec.providers.kit.wire",
}
"""Where each name of the kit lives: imported on first access (PEP 562), so a module that
needs one concern (a reader needs bags, arguments and tool names) does not load
the others. No kit module loads a canonical model at import time:
the models appear in annotations only."""


__all__ = [
    "ABSENT",
    "NULLS",
    "OPENAI_CACHE_TTLS",
    "TOOL_ORDER",
    "DecodeContext",
    "EncodeContext",
    "ProviderKit",
    "Steps",
    "absent_keys",
    "arguments_object",
    "bag_key",
    "canonical_refusal",
    "claude_signed",
    "compact_json",
    "constrained",
    "decode_cache_control",
    "decode_prompt_cache_breakpoint",
    "discriminator",
    "encode_cache_control",
    "encode_prompt_cache_breakpoint",
    "is_claude_model",
    "is_marker",
    "keeps_a_container",
    "kept_object",
    "leftovers",
    "mark_absent",
    "meaningful_markers",
    "path",
    "present",
    "restore_fields",
    "sdk_kinds",
    "shape_fields",
    "split_fields",
    "stands_for",
    "tag",
    "tagged",
    "tool_name",
    "tool_name_map",
    "uncached_input_tokens",
    "unmapped",
    "wire_fields",
    "wire_key",
    "wire_shape",
]


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(_importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
