"""This provider's name, its kit, its encoder options, and the spelling markers it keeps.

Markers are keys starting with exactly one ``_`` in a bag (``provider_metadata[PROVIDER]``),
never written to the wire. Classify each one here, as "Pure spelling" (every server that
takes one spelling takes the other with the same meaning: another provider drops it
without a report) or "Carry meaning" (declared in ``KIT``'s ``meaningful_markers`` with
its why: another provider reports it as a loss when it drops it);
``tests/providers/test_markers.py`` fails on a marker that is not classified.

Pure spelling: ``_nulls`` / ``_absent``, the kit's (a ``null`` field, a field left out).

Carry meaning: none.

Encoder options: ``model`` (the model a request without one names), and the target rules'
``api_version`` and ``skip_rules``.
"""

from __future__ import annotations

from chatcodec.codec_kit import MODEL_OPTION, RULE_OPTIONS, ProviderKit
from chatcodec.contract import OptionTable

PROVIDER = "template"
"""Registry name, and the key of this codec's ``provider_metadata`` / ``provider_options``
bags (the name the registry line gives the folder)."""

KIT = ProviderKit(PROVIDER)
"""The shared bag operations bound to this provider (:mod:`chatcodec._providers.kit`):
``attach`` a bag when decoding, ``claim`` it (other providers' reported) when encoding;
``api_error`` for the error an answer carries, its type read in this codec's own namespace
(its ``edge.py``'s error types), never in another codec's."""

OPTIONS = OptionTable.of(MODEL_OPTION, *RULE_OPTIONS, stored=(MODEL_OPTION,))
"""This encoder's options, each by its one name (``options=`` refuses any other); ``stored``:
those a stored request may also set in ``provider_options[PROVIDER]`` under that name. A
registered provider adds its ``TypedDict`` to :mod:`chatcodec.options` (a test holds the
two equal)."""
