"""Fields a server documents beyond the official SDK types: one :class:`Extension` a row.

A record of its own, beside :mod:`.edge` whose ``extensions`` hold them, because the
server tables of a provider folder (``openai_chat/servers``) write their rows at import,
on every conversion's path, where the edge's other records (routes, upstream, error
shapes, detection) are read by ``chatcodec serve``, framing and detection only: a
conversion that names its formats imports no ``edge.py`` (first use).
"""

from __future__ import annotations

from dataclasses import dataclass

from chatcodec._public_label import shown_as

__all__ = ["Extension"]


@dataclass(frozen=True, slots=True)
class Extension:
    """Fields a server documents beyond the official SDK types, which strict reading
    accepts (:mod:`chatcodec._strict.extensions`)."""

    provider: str
    """The provider whose kind it is (the edge's own name)."""
    kind: str
    """A kind name of the provider's ``known_fields.json``, or an ``fnmatch`` pattern
    (``*`` for every kind, ``Response*DeltaEvent``)."""
    fields: tuple[str, ...]
    source: str
    """Where the addition is documented (``recorded, ...`` for one seen in a fixture only)."""
    api_version: str = ""
    """The API version whose fields these are, when the generated table's SDK targets a
    later one that removed them (``""``: an addition, not a version difference)."""
    arm_of: str = ""
    """For a part the SDK's union has no arm for (a server's ``video_url``): the union it
    joins; ``kind`` then names the new arm, ``fields`` are its fields (free-form inside)."""
    tag: str = ""
    """With :attr:`arm_of`: the ``type`` that tells the new arm apart."""


shown_as("chatcodec.contract", Extension)
