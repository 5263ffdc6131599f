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

from collections.abc import Mapping

from chatcodec.providers.contract.context import MODEL_OPTION, RULE_OPTIONS
from chatcodec.providers.kit import ProviderKit

PROVIDER = "template"
"""Registry name, and the key of this codec's ``provider_metadata`` / ``provider_options``
bags (the name the registry line gives the folder)."""

KIT = ProviderKit(PROVIDER)
"""The shared bag operations bound to this provider (:mod:`chatcodec.providers.kit`):
``attach`` a bag when decoding, ``claim`` it (other providers' reported) when encoding."""

OPTIONS: Mapping[str, str] = {**MODEL_OPTION, **RULE_OPTIONS}
"""This encoder's options by public name, and the key a stored request may still spell
each with in ``provider_options[PROVIDER]``."""
