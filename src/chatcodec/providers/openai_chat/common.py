"""Names and small helpers shared by the openai-chat modules.

Spelling markers (keys starting with ``_`` in this codec's ``provider_metadata`` bag)
record how the wire wrote something that has no canonical difference, so the encoder can
write it the same way again. They are only added when the encoder's default would differ:

``_absent``            keys the encoder writes by default but the payload left out
``_content``           assistant ``content``: ``"absent"``, or ``"list"`` for a list of parts
``_field``             on a refusal part: it came from the ``refusal`` field, not a content part
``_format``            input-audio ``format`` spelled differently from its MIME type's name
``_stop``              ``"string"`` when ``stop`` was one string, not a list
``_max_tokens_key``    ``"max_tokens"`` when the request used the older key
``_also``              on a reasoning part: other reasoning fields that repeated its text
``_position``          on a custom tool: its index in the wire ``tools`` list
``_in``                on an opaque part: ``"tool_calls"`` for a custom-tool call
``_finish_reason``     a compatible server's own finish reason, so it is written back
``_chunk``             on a stream's finish or usage event: chunk fields that changed late

Options for this encoder also start with ``_`` so other encoders never report them as
lost: ``_reasoning_field`` (where another provider's reasoning goes, see ``reasoning.py``)
and ``_max_tokens_key`` (``"max_tokens"`` for servers without ``max_completion_tokens``),
in ``provider_options["openai-chat"]`` of a request (``_reasoning_field`` also in a
response's or a stream start event's ``provider_metadata["openai-chat"]``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from chatcodec._base import ProviderMetadata
from chatcodec._narrow import as_list
from chatcodec.losses import LossRecorder
from chatcodec.providers import _support

PROVIDER = "openai-chat"
"""Registry name of this wire format and key of its ``provider_metadata`` bags."""

ABSENT = "_absent"


def own(provider_metadata: ProviderMetadata | None) -> dict[str, Any]:
    """A copy of what this codec kept on an object when it decoded it."""
    return _support.own_bag(PROVIDER, provider_metadata)


def attach(target: dict[str, Any], bag: Mapping[str, Any]) -> dict[str, Any]:
    """Put ``bag`` (when not empty) into ``target`` as this codec's provider metadata."""
    if bag:
        target["provider_metadata"] = {PROVIDER: dict(bag)}
    return target


def rest(wire: Mapping[str, Any], mapped: Collection[str]) -> dict[str, Any]:
    """The keys of ``wire`` not mapped to canonical fields (``null`` values are never mapped).

    ``_support.leftovers`` without its set: mapped keys are a handful, and this runs for
    every message and part, so a tuple lookup is the cheaper one.
    """
    return {key: value for key, value in wire.items() if key not in mapped}


def present(wire: Mapping[str, Any], *keys: str) -> list[str]:
    """The ``keys`` whose value in ``wire`` is not ``null``: the ones a decoder maps."""
    return [key for key in keys if wire.get(key) is not None]


def mark_absent(bag: dict[str, Any], wire: Mapping[str, Any], *keys: str) -> None:
    """Record which default-written ``keys`` the payload left out."""
    missing = [key for key in keys if key not in wire]
    if missing:
        bag[ABSENT] = missing


def absent(bag: Mapping[str, Any]) -> frozenset[str]:
    """Keys the payload left out, from :func:`mark_absent` (popped from the bag by callers)."""
    return frozenset(key for key in as_list(bag.get(ABSENT)) or () if isinstance(key, str))


def wire_bag(bag: dict[str, Any]) -> dict[str, Any]:
    """The bag without spelling markers: what is written to the wire as it is."""
    return {key: value for key, value in bag.items() if not key.startswith("_")}


def report_foreign(losses: LossRecorder, provider_metadata: ProviderMetadata | None, at: Sequence[int | str]) -> None:
    """Record other providers' metadata on an object this codec encodes (``at``: path steps,
    rendered only when there is something to report, as this runs for every object)."""
    if provider_metadata and any(name != PROVIDER for name in provider_metadata):
        _support.report_foreign_metadata(losses, PROVIDER, provider_metadata, path(*at))


def path(*steps: int | str) -> str:
    """JSON path into the canonical input, for loss reports."""
    return _support.path(*steps)
