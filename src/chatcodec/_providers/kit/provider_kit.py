"""Markers and the provider kit: the bag operations bound to one provider's name, and what
another provider's bag means to an encoder that is not its own.

An encoder for another provider does not read a bag: it reports it as a loss
(:meth:`ProviderKit.claim`). Keys starting with exactly one ``_`` in a bag are *markers*
(:mod:`.bags`): how a value was spelled (a ``null``, a missing default, one string
instead of a list), or an option for that provider's encoder. Each provider documents its
own markers in its ``markers.py``, and classifies each one there. Most are *pure
spelling*: the two spellings mean the same to every server that takes either, so another
provider drops them without a report. A few *carry meaning*: a server may accept one
spelling and refuse or misread the other (a gateway that reads OpenAI Chat's cache
breakpoint only as ``cache_control``), or the model would see something else. A provider declares
those in its kit (``ProviderKit(name, meaningful_markers={marker: why})``), and another
provider's encoder reports one it drops as a loss (:meth:`ProviderKit.report_foreign`).

The declarations form a table keyed by provider name, which each provider's
``markers.py`` fills by making its kit (``KIT = ProviderKit(...)`` registers itself).
:func:`meaningful_markers` reads it without depending on import order: a provider whose
``markers.py`` was not imported yet is found by the folder naming rule every provider
follows (``openai-chat`` -> ``chatcodec._providers.openai_chat.markers``) and that small
module is imported (with its folder's ``__init__``), not the provider's codec and not the
registry, which sits above the kit. A name no such module answers, or
one whose kit declares nothing, has no meaningful markers. A codec registered from
outside chatcodec and written with this kit fills its entry when its kit is made, which
its decoder's import does.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, cast

from chatcodec._errors import ProviderAPIError
from chatcodec._losses import LossKind, LossRecorder, Steps
from chatcodec._providers.kit.arguments import compact_json
from chatcodec._providers.kit.bags import is_marker, wire_key

_NO_MEANINGFUL: Mapping[str, str] = {}
OUTSIDE_RANGE = "_outside_range"
"""Marker, in the request bag of the format read: the sampling settings whose value that
format's own range does not take, sent as they came (``contract/target_rules.py``)."""
READ_BY_EVERY_WRITER: Mapping[str, str] = {
    OUTSIDE_RANGE: "a sampling value the request's own format does not take is sent as it came, not clamped"
}
"""Markers that carry meaning and that every writer reads, whichever provider's bag holds
them (the contract's): no provider declares them (:func:`meaningful_markers`), as no
writer drops them, yet they are no pure spelling (the laws' normal forms keep them)."""
_SHARED: dict[tuple[str, str], frozenset[str]] = {}
"""Markers of one provider's bags that another's writer reads as its own (sibling wires)."""


def share_markers(owner: str, reader: str, keys: frozenset[str]) -> None:
    """Record that ``reader``'s writer reads ``keys`` from ``owner``'s bags (the AWS block
    bodies' :attr:`~chatcodec._providers.families.aws.body.Body.sibling`)."""
    _SHARED[owner, reader] = keys


def shared_markers(owner: str, reader: str) -> frozenset[str]:
    """The markers of ``owner``'s bags that ``reader``'s writer reads (:func:`share_markers`)."""
    return _SHARED.get((owner, reader), frozenset())


_KITS: dict[str, ProviderKit] = {}
"""The marker table: every kit made so far, by provider name (each provider's ``markers.KIT``)."""
_PROVIDERS_PACKAGE = "chatcodec._providers"
"""Where every provider folder is (``<folder>/markers.py`` holds its kit)."""
_NOT_PROVIDERS: set[str] = set()
"""Names whose ``markers`` module does not exist, so a bag under such a name (written by
hand, or by a provider outside this package) costs one failed import, not one per bag."""


class ProviderKit:
    """The bag operations bound to one provider's name (each provider's ``markers.KIT``)."""

    __slots__ = ("_no_field", "meaningful_markers", "name", "source_keys")

    def __init__(
        self,
        name: str,
        meaningful_markers: Mapping[str, str] = _NO_MEANINGFUL,
        source_keys: frozenset[str] = frozenset(),
    ) -> None:
        self.name: str = name
        """Registry name of the provider, and the key of its ``provider_metadata`` bags."""
        self.meaningful_markers: Mapping[str, str] = dict(meaningful_markers)
        """This provider's markers that carry meaning, each with why: another provider
        that drops one reports it as lost (see the module docstring)."""
        self.source_keys: frozenset[str] = source_keys
        """Bag keys without the marker's ``_`` that say which of this provider's wire fields a
        value was read from (OpenAI Chat's ``field`` on a reasoning part: ``reasoning`` or
        ``reasoning_content``), kept in canonical data written before markers took the
        ``_``: another provider has no such field to lose, so they are never reported."""
        self._no_field = f"{name} has no field for it"
        """Why another provider's data is lost here: made once, not for every bag reported."""
        _KITS[name] = self
        for memory in _KEPT_PER_KITS:
            memory.clear()

    def api_error(
        self, message: str, error_type: str | None = None, body: object = None, *, status_code: int | None = None
    ) -> ProviderAPIError:
        """The error this provider answered with, its type in this provider's own namespace:
        its HTTP status is read from this codec's edge first (``Edge.errors``), so a type an
        outside codec names (``bad_request``) means what its edge says, whatever another
        codec's same word means (:func:`chatcodec._error_statuses.error_status`). A reader
        raises it for an error body, as each built-in folder does with its name."""
        return ProviderAPIError(message, error_type, body, status_code=status_code, provider=self.name)

    def own(self, metadata: Mapping[str, Any] | None) -> dict[str, Any]:
        """A copy of what this provider kept on an object when it decoded it, or ``{}``."""
        if not metadata:
            return {}
        return dict(metadata.get(self.name) or {})

    def claim(self, losses: LossRecorder, metadata: Mapping[str, Any] | None, at: Steps) -> dict[str, Any]:
        """This provider's bag on an object being encoded; other providers' bags are
        reported as lost at ``at``."""
        if not metadata:
            return {}
        self.report_foreign(losses, metadata, at)
        own = metadata.get(self.name)
        return dict(own) if own else {}

    def report_foreign(self, losses: LossRecorder, metadata: Mapping[str, Any] | None, at: Steps) -> None:
        """Record a loss for every other provider's data on an object this one encodes:
        its wire fields, and its markers that carry meaning (pure spellings are dropped
        without a report)."""
        if not metadata:
            return
        for name, bag in metadata.items():
            if name == self.name:
                continue
            plan = _PLANS.get((name, *bag))
            if plan is None:
                plan = _plan(name, bag)
            what, meaningful = plan
            if what is not None:  # the kind inline (:func:`_bag_kind`): a call per bag reported
                losses.add(at, what, self._no_field, "setting" if at == _OPTIONS else "metadata")
            if meaningful:
                self._report_meaningful(losses, name, bag, meaningful, at)

    def _report_meaningful(
        self, losses: LossRecorder, name: str, bag: Mapping[str, Any], keys: tuple[str, ...], at: Steps
    ) -> None:
        """Report the markers ``keys`` of ``name``'s bag, which ``name`` declared
        meaningful, with the value they held. One set to ``null`` records that there was
        nothing to spell (a marker naming the key a value came under, for an object
        without that value), so it is not reported."""
        declared = meaningful_markers(name)
        for key in keys:
            value = bag[key]
            if value is None:
                continue
            spelled = f"={compact_json(value)}" if isinstance(value, _SPELLED) else ""
            why = f"{self.name} has no field for it: {declared[key]}"
            losses.add(at, f"{name} spelling {key}{spelled}", why, "spelling")

    def spelling_only(self, metadata: Mapping[str, Any] | None) -> bool:
        """Whether ``metadata`` holds only other providers' pure spelling markers (an OpenAI
        SDK dump's ``_nulls``): nothing this encoder writes or reports, so the object takes
        the branch of one without a bag."""
        if not metadata or self.name in metadata:
            return False
        return pure_spelling(metadata)

    def bare(self, canonical: Mapping[str, Any], size: int) -> bool:
        """Whether ``canonical`` (a message or part) holds ``size`` keys, or those and a
        ``provider_metadata`` of other providers' pure spelling alone (:meth:`spelling_only`):
        the plain shape an encoder writes without looking further."""
        held = len(canonical)
        return held == size or (held == size + 1 and self.spelling_only(canonical.get("provider_metadata")))

    def report_unplaced(self, losses: LossRecorder, metadata: Mapping[str, Any] | None, at: Steps, why: str) -> None:
        """Record a loss for every bag on an object this provider has no place for on the
        wire at hand, its own included (``why`` says so); markers are never reported."""
        if not metadata:  # the usual case: every assistant turn a Responses encoder writes
            return
        self.report_foreign(losses, metadata, at)
        keys = sorted(wire_key(key) for key in self.own(metadata) if not is_marker(key))
        if keys:
            losses.add(at, f"{self.name} data {keys}", why, _bag_kind(at))

    def attach(self, canonical: dict[str, Any], bag: Mapping[str, Any]) -> dict[str, Any]:
        """``canonical`` with ``provider_metadata = {name: bag}`` when ``bag`` is not empty."""
        if bag:
            canonical["provider_metadata"] = {self.name: dict(bag)}
        return canonical

    def marker(self, metadata: Mapping[str, Any] | None, key: str) -> object:
        """The value of marker ``key`` in this provider's bag, or ``None``."""
        if not metadata:
            return None
        bag = metadata.get(self.name)
        return None if bag is None else bag.get(key)


TOOL_ORDER: Mapping[str, str] = {
    "_tool_order": "the tools come back function tools first, and the model reads them in order"
}
"""The ``_tool_order`` marker of the wires that list server and client tools in one list
(Anthropic, Bedrock Converse, Responses): meaningful, declared the same way by each."""


_PLANS: dict[tuple[str, ...], tuple[str | None, tuple[str, ...]]] = {}
"""What another provider's bag of given keys reports, by its provider and keys in order:
the loss for its wire fields (``None`` when it has none) and its meaningful markers.
Worked out once per shape (an agent session repeats a few, on every call and result);
cleared when a kit is made, whose declarations may change the answer."""
_MAX_PLANS = 4096
"""Bags whose keys vary without end (unknown fields of every kind) do not grow it past this."""
_KEPT_PER_KITS: list[dict[Any, Any]] = [_PLANS]
"""The memories of verdicts a kit's declarations decide (:func:`forgotten_with_kits`), cleared
whenever a kit is made (a test's, or an outside codec's taking a name)."""


def forgotten_with_kits(memory: dict[Any, Any]) -> dict[Any, Any]:
    """``memory``, a process's verdicts that depend on what the kits declare (a direct path's
    proofs of a turn's shape), cleared with :data:`_PLANS` whenever a kit is made: one
    mechanism for every such memory, so none keeps a verdict a new kit would change."""
    _KEPT_PER_KITS.append(memory)
    return memory


def pure_spelling(metadata: Mapping[str, Any]) -> bool:
    """Whether every bag of ``metadata`` holds only its provider's pure spelling: markers that
    mean nothing (Responses' ``_item``, an SDK dump's ``_nulls``) and the keys saying which
    wire field a value came from; a writer that drops them loses nothing."""
    for name, value in metadata.items():
        if not isinstance(value, Mapping):
            return False
        bag = cast("Mapping[str, Any]", value)
        plan = _PLANS.get((name, *bag))
        if plan is None:
            plan = _plan(name, bag)
        if plan[0] is not None or plan[1]:
            return False
    return True


def _plan(name: str, bag: Mapping[str, Any]) -> tuple[str | None, tuple[str, ...]]:
    sources = source_keys(name)
    keys = sorted(wire_key(key) for key in bag if not is_marker(key) and key not in sources)
    what = f"{name} data {keys}" if keys else None
    meaningful: tuple[str, ...] = ()
    if any(is_marker(key) for key in bag):
        meaningful = tuple(sorted(meaningful_markers(name).keys() & bag.keys()))
    if len(_PLANS) >= _MAX_PLANS:
        _PLANS.clear()
    plan = _PLANS[(name, *bag)] = (what, meaningful)
    return plan


_OPTIONS: Steps = ("provider_options",)
_SPELLED = (str, int, bool)
"""A marker's value a spelling loss quotes (a tuple: ``str | int | bool`` is a union made at each use)."""


def _bag_kind(at: Steps) -> LossKind:
    """A request's own bag holds settings (``n``, ``logprobs``); any other object's holds
    data kept for round trips (ids, a block's extra fields)."""
    return "setting" if at == _OPTIONS else "metadata"


def source_keys(provider: str) -> frozenset[str]:
    """The bag keys of ``provider`` that only say which of its wire fields a value came from
    (:attr:`ProviderKit.source_keys`; none for a name no kit declared)."""
    kit = _KITS.get(provider)
    if kit is None and provider not in _NOT_PROVIDERS:
        _import_markers(provider)
        kit = _KITS.get(provider)
    return frozenset() if kit is None else kit.source_keys


def meaningful_markers(provider: str) -> Mapping[str, str]:
    """The markers of ``provider`` that carry meaning, each with why (``{}`` for a name
    no kit declared). A provider whose kit was not made yet has its ``markers.py``
    imported first (see the module docstring): a bag can reach another provider's encoder
    without its own codec ever running (a caller wrote ``provider_options["openai-chat"]``
    by hand)."""
    kit = _KITS.get(provider)
    if kit is None and provider not in _NOT_PROVIDERS:
        _import_markers(provider)
        kit = _KITS.get(provider)
    return _NO_MEANINGFUL if kit is None else kit.meaningful_markers


def _import_markers(provider: str) -> None:
    """Import ``chatcodec._providers.<folder>.markers`` for ``provider`` (its name with
    ``-`` as ``_``), remembering a name that has no such module; a module that exists but
    fails on its own imports raises as usual."""
    folder = provider.replace("-", "_")
    if not folder.isidentifier() or folder != folder.lower():
        _NOT_PROVIDERS.add(provider)
        return
    module = f"{_PROVIDERS_PACKAGE}.{folder}.markers"
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name is None or not (module == error.name or module.startswith(f"{error.name}.")):
            raise
        _NOT_PROVIDERS.add(provider)
