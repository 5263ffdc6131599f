"""This provider's name, its kit, and the spelling markers it keeps in its bags.

A decoder keeps, on the closest canonical object, every wire field it did not map. Two
spellings carry no information but must come back exactly, so they are kept as markers
(keys starting with exactly one ``_``, which other providers never report as losses; a
wire key starting with ``_`` is kept escaped as ``__key``, see ``providers/kit.py``):

* ``_nulls``: fields that were ``null`` (``"stop_details": null``), sorted;
* ``_absent``: fields with a fixed default (``"type": "message"``) that were missing.

A field equal to its default is not kept at all, so a bag holds only real information.
Markers of single modules: ``_separate`` and ``_in_messages`` on messages (``messages.py``);
``_rejected_id`` on a ``tool_use`` or ``tool_result`` whose wire id Anthropic itself
rejects, so its rewrite on encode is reported (``parts.py``).
"""

from __future__ import annotations

from chatcodec.providers.kit import ProviderKit

PROVIDER = "anthropic"
"""Registry name, and the key of this codec's provider-metadata bags."""

KIT = ProviderKit(PROVIDER)
"""The shared bag operations, bound to this provider (:mod:`chatcodec.providers.kit`)."""
