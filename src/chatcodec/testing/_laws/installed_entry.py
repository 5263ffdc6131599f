"""The law facts an installed codec's distribution states: its ``chatcodec.laws`` entry point.

A codec installed from its own distribution (``chatcodec.codecs``) is checked by name alone
(``chatcodec check-codec NAME``), in a process that never imported the distribution's
tests. So the distribution states the facts only its documentation gives (its recordings,
SDK oracles, finish words, documented rewrites) where the laws can find them, the same way
it states its codec::

    [project.entry-points."chatcodec.laws"]
    my-codec = "my_codec.laws:ENTRY"

naming a :class:`~chatcodec.testing.ProviderEntry` (or a function of no arguments giving
one, for an entry built on first use). The entry points are read only when the laws run
over a codec without an entry given, never by a conversion.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from chatcodec._errors import CodecNotAvailableError
from chatcodec._installed_codecs import distribution
from chatcodec.testing._laws.entry import ProviderEntry

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

GROUP = "chatcodec.laws"
"""The entry-point group a distribution states its codecs' law facts in."""


def stated_entry(name: str) -> ProviderEntry | None:
    """The entry an installed distribution states for the codec ``name`` (None when none does).

    Raises :class:`~chatcodec.CodecNotAvailableError` naming the distribution when the entry
    point cannot be loaded, is no entry, or is another codec's."""
    from importlib.metadata import entry_points

    points = [point for point in entry_points(group=GROUP) if point.name == name]
    if not points:
        return None
    if len({point.value for point in points}) > 1:
        raise CodecNotAvailableError(
            f"two distributions state the law facts of {name!r} ({GROUP!r} entry points): "
            f"{distribution(points[0])} and {distribution(points[1])}; uninstall one"
        )
    return _load(points[0])


def _load(point: EntryPoint) -> ProviderEntry:
    where = f"{distribution(point)} ({GROUP!r} entry point {point.name} = {point.value})"
    try:
        stated: object = point.load()
        entry = stated if isinstance(stated, ProviderEntry) or not callable(stated) else stated()
    except Exception as error:
        raise CodecNotAvailableError(
            f"the law facts of {point.name!r} stated by {where} could not be loaded: {type(error).__name__}: {error}"
        ) from error
    if not isinstance(entry, ProviderEntry):
        raise CodecNotAvailableError(
            f"the law facts of {point.name!r} stated by {where} are a {type(entry).__name__}, "
            "not a chatcodec.testing.ProviderEntry"
        )
    if entry.name != point.name:
        raise CodecNotAvailableError(
            f"the law facts stated by {where} are {entry.name!r}'s: name the entry point as the codec"
        )
    return entry
