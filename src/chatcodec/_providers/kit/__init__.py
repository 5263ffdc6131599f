"""The mechanics every provider codec is written with, one module per concern; none names
a vendor or a model family (``tests/test_kit_names_no_vendor.py``: a vendor's facts shared
by two folders are in :mod:`chatcodec._providers.families`, what a folder must say is in
:mod:`chatcodec._providers.contract`).

``bags``            the rest of a wire object kept on the canonical one (``leftovers``,
                    ``split_fields``, ``restore_fields``, ``wire_fields``), its markers and
                    the escaping of wire keys that start with ``_``
``provider_kit``    :class:`ProviderKit` (each provider's ``markers.KIT``): the bag
                    operations bound to a provider, other providers' bags reported as
                    losses, and the table of markers that carry meaning
``null_fields``     which ``null`` fields are spelling and which are data
``field_sets``      a provider's published field set (its ``known_fields.json``), for strict reading
``arguments``       tool-argument JSON: ``compact_json``, ``arguments_object``
``tool_arguments``  tool arguments for the formats that take them as a JSON object
``cache``           the ``cache_control`` marker object
``media_types``     a base64 source's media type in the lower case an API's list takes
                    (import it from its module)
``wire``            ``wire_shape``, ``tagged``, ``discriminator``, ``tag``, ``constrained``: the
                    wire shapes (``TypedDict``), loading pydantic only when a validator is built;
                    ``stands_for``, ``sdk_kinds``, ``shape_fields``: the SDK kinds a shape
                    stands for (checked against ``known_fields.json``) and its fields
``errors``          JSON paths and the error for a canonical event a wire let through
``tool_names``      tool names each provider accepts: one hashed rewrite, per provider rule
``tool_id_mapping`` the reversible, collision-free tool-id rewrite, per provider rule
``closed_schema``   the pieces each reader's closed front schema is built from
                    (``closed_like``: a closed object from a wire shape's fields)
``schema_walk``     the walk every schema rewrite shares: subschema keywords, copy on
                    write, the depth guard, :class:`SchemaChange`
``reasoning``       the one table between a reasoning effort and a thinking budget
``service_tier``    the canonical service tier, read and written by each format's table
``servers``         a format's compatible servers: the table that chooses one by option or
                    base URL, the call that reports each change as a ``rule`` loss, refusals
                    and rules (import it from its module)
``invented``        the report of a value written for a required field the answer never had
                    (an ``id``, a creation time, a count of 0), one per field (import it
                    from its module)
``freeform_calls``  freeform (custom) calls in a response for a format without them;
``freeform_streams`` the same for a stream (an encoder over the format's)
``stream_reading``  what every stream decoder shares: ``read_event``, ``FeedByReading``,
                    batch reading with the builder's compaction
``depth_guard``     the guard around every stream decoder: an event nested too deep is a
                    ``StreamError`` naming it, and a stream that said nothing is refused
                    (import it from its module)

``Steps`` is a loss path as steps (``("messages", 2, "content", 0)``), rendered
``$.messages[2].content[0]`` only when a loss is recorded. The names below are the kit's
surface: a provider imports them from here (``from chatcodec._providers.kit import
leftovers``), whichever module holds them.
"""

from __future__ import annotations

import importlib as _importlib
import typing as _typing

if _typing.TYPE_CHECKING:
    from chatcodec._losses import Steps
    from chatcodec._providers.kit.arguments import arguments_object, compact_json
    from chatcodec._providers.kit.bags import (
        ABSENT,
        NULLS,
        absent_keys,
        bag_key,
        holds_a_container,
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
    from chatcodec._providers.kit.cache import (
        decode_cache_control,
        encode_cache_control,
    )
    from chatcodec._providers.kit.errors import canonical_refusal, path
    from chatcodec._providers.kit.provider_kit import TOOL_ORDER, ProviderKit, meaningful_markers
    from chatcodec._providers.kit.tool_names import tool_name, tool_name_map
    from chatcodec._providers.kit.wire import (
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
    "ABSENT": "chatcodec._providers.kit.bags",
    "NULLS": "chatcodec._providers.kit.bags",
    "ProviderKit": "chatcodec._providers.kit.provider_kit",
    "Steps": "chatcodec._losses",
    "TOOL_ORDER": "chatcodec._providers.kit.provider_kit",
    "absent_keys": "chatcodec._providers.kit.bags",
    "arguments_object": "chatcodec._providers.kit.arguments",
    "bag_key": "chatcodec._providers.kit.bags",
    "canonical_refusal": "chatcodec._providers.kit.errors",
    "compact_json": "chatcodec._providers.kit.arguments",
    "constrained": "chatcodec._providers.kit.wire",
    "decode_cache_control": "chatcodec._providers.kit.cache",
    "discriminator": "chatcodec._providers.kit.wire",
    "encode_cache_control": "chatcodec._providers.kit.cache",
    "holds_a_container": "chatcodec._providers.kit.bags",
    "is_marker": "chatcodec._providers.kit.bags",
    "keeps_a_container": "chatcodec._providers.kit.bags",
    "kept_object": "chatcodec._providers.kit.bags",
    "leftovers": "chatcodec._providers.kit.bags",
    "mark_absent": "chatcodec._providers.kit.bags",
    "meaningful_markers": "chatcodec._providers.kit.provider_kit",
    "path": "chatcodec._providers.kit.errors",
    "present": "chatcodec._providers.kit.bags",
    "restore_fields": "chatcodec._providers.kit.bags",
    "sdk_kinds": "chatcodec._providers.kit.wire",
    "shape_fields": "chatcodec._providers.kit.wire",
    "split_fields": "chatcodec._providers.kit.bags",
    "stands_for": "chatcodec._providers.kit.wire",
    "tag": "chatcodec._providers.kit.wire",
    "tagged": "chatcodec._providers.kit.wire",
    "tool_name": "chatcodec._providers.kit.tool_names",
    "tool_name_map": "chatcodec._providers.kit.tool_names",
    "unmapped": "chatcodec._providers.kit.bags",
    "wire_fields": "chatcodec._providers.kit.bags",
    "wire_key": "chatcodec._providers.kit.bags",
    "wire_shape": "chatcodec._providers.kit.wire",
}
"""Where each name of the kit lives: imported on first access (PEP 562), so a module that
needs one concern (a reader needs bags, arguments and tool names) does not load
the others. No kit module loads a canonical model at import time:
the models appear in annotations only."""


__all__ = [
    "ABSENT",
    "NULLS",
    "TOOL_ORDER",
    "ProviderKit",
    "Steps",
    "absent_keys",
    "arguments_object",
    "bag_key",
    "canonical_refusal",
    "compact_json",
    "constrained",
    "decode_cache_control",
    "discriminator",
    "encode_cache_control",
    "holds_a_container",
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
