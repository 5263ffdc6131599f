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
``wire``            ``wire_shape``, ``tagged``, ``union_discriminator``, ``union_tag``, ``constrained``: the
                    wire shapes (``TypedDict``), loading pydantic only when a validator is built;
                    ``stands_for``, ``sdk_kinds``, ``shape_fields``: the SDK kinds a shape
                    stands for (checked against ``known_fields.json``) and its fields
``errors``          JSON paths and the error for a canonical event a wire let through
``shape_validation`` ``validate_shape``: a wire shape's validator, built on first use and kept
``tool_names``      tool names each provider accepts: one hashed rewrite, per provider rule
``tool_id_mapping`` the reversible, collision-free tool-id rewrite, per provider rule
``closed_schema``   the pieces each reader's closed front schema is built from
                    (``closed_like``: a closed object from a wire shape's fields)
``schema_walk``     the walk every schema rewrite shares: subschema keywords, copy on
                    write, the depth guard, :class:`SchemaChange`
``schema_memory``   the rewrites a schema was seen to leave unchanged, remembered by JSON
                    text; ``remembered_tools``: a reader's tools answered from memory (both
                    bounded, with their owners in ``docs/performance.md``, "Memories")
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
``stream_capabilities`` a stream encoder behind what its format cannot carry (freeform calls
                    taken out; log probabilities and url citations reported)
``stream_reading``  what every stream decoder shares: ``read_event``, ``FeedByReading``,
                    batch reading with the builder's compaction
``depth_guard``     the guard around every stream decoder: an event nested too deep is a
                    ``StreamError`` naming it, and a stream that said nothing is refused
                    (import it from its module)

``Steps`` is a loss path as steps (``("messages", 2, "content", 0)``), rendered
``$.messages[2].content[0]`` only when a loss is recorded. A module here imports what it
needs from its sibling modules; a family or a provider folder takes the kit's names from
:mod:`chatcodec.codec_kit`, as a codec outside chatcodec does (this package has no surface of
its own, so the public kit's list is the one list).
"""
