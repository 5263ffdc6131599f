"""Which ``null`` fields are spelling and which are data, for text blocks.

The kit's ``split_fields`` records every ``null`` field as a spelling marker (``_nulls``),
which a same-provider round trip writes back and another provider drops without a word.
That is right for a field the provider documents (Anthropic ``citations: null``,
Responses ``logprobs: null``: null means "none", in every format): a field of the SDK's
kind, as the generated ``known_fields.json`` lists it (``documented`` names the kinds,
read on the first ``null``). A key no one documents is data the caller sent (``{"type": "text", "text": "hi",
"foo": null}`` vanished converting to any other format): it is kept as a wire field with
its ``null`` value, so its own provider writes it back and another one reports it.
"""

from __future__ import annotations

from typing import Any

from chatcodec._narrow import as_list
from chatcodec._providers.kit.bags import NULLS_MARKER, bag_key
from chatcodec._providers.kit.field_sets import sdk_fields


def with_unknown_nulls(bag: dict[str, Any], package: str | None, kinds: tuple[str, ...]) -> dict[str, Any]:
    """``bag`` with each ``null`` field that no SDK kind of ``kinds`` has (``package``'s
    ``known_fields.json``; the caller's ``__package__``) moved from the ``_nulls`` marker to
    a field holding ``None``."""
    nulls = as_list(bag.get(NULLS_MARKER))
    if nulls is None:
        return bag
    if package is None:
        raise LookupError("with_unknown_nulls is called from a provider's package")
    documented = sdk_fields(package, kinds)
    names: list[str] = [name for name in nulls if isinstance(name, str)]
    unknown = [name for name in names if name not in documented]
    if not unknown:
        return bag
    kept = [name for name in names if name in documented]
    if kept:
        bag[NULLS_MARKER] = kept
    else:
        del bag[NULLS_MARKER]
    for name in unknown:
        bag[bag_key(name)] = None
    return bag
