"""Codecs other distributions install: found by entry point, so installing is registering.

A distribution declares its codec in its ``pyproject.toml``::

    [project.entry-points."chatcodec.codecs"]
    cohere = "chatcodec_cohere.codec:CODEC"

(or names the provider folder's package, ``cohere = "chatcodec_cohere"``, whose codec is then
built from the modules it has by :meth:`~chatcodec.contract.ProviderCodec.from_package`),
and ``chatcodec.get_codec("cohere")``, ``available_formats()``, every command of the CLI and
``chatcodec serve`` find it in any process, with no ``register_codec`` call (pytest's
``pytest11`` and Sphinx's extensions are found the same way). The entry points are read
once per process, and only when a name is neither built in nor registered at run time, or
when the formats are listed: ``import chatcodec`` and a conversion between built-in formats
never read them. The codec's module is imported when the codec is first used.

What an installation gets wrong is a :class:`~chatcodec.ProviderLookupError` naming the
distribution, never a traceback from inside it: an entry point named like a built-in
format (refused, so a name always means one codec), two distributions declaring one name,
an entry point whose module fails to import, or an object that is not a codec.
"""

from __future__ import annotations

from types import ModuleType
from typing import TYPE_CHECKING, Any

from chatcodec._errors import CodecNotAvailableError, ProviderLookupError

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

GROUP = "chatcodec.codecs"
"""The entry-point group a distribution declares its codecs in."""

_read: list[dict[str, EntryPoint]] = []
"""The entry points by name, once read (empty until then)."""


def installed(built_in: frozenset[str]) -> dict[str, EntryPoint]:
    """Every codec installed under :data:`GROUP`, by name (read once per process).

    Raises :class:`~chatcodec.ProviderLookupError` for a name in ``built_in`` or declared by
    two distributions."""
    if _read:
        return _read[0]
    from importlib.metadata import entry_points

    found: dict[str, EntryPoint] = {}
    for point in entry_points(group=GROUP):
        if point.name in built_in:
            raise ProviderLookupError(
                f"{distribution(point)} declares a {GROUP!r} entry point named {point.name!r}, the name of a "
                "built-in format: a name means one codec, so it is refused (rename the entry point)"
            )
        earlier = found.get(point.name)
        if earlier is not None and earlier.value != point.value:
            raise ProviderLookupError(
                f"two distributions declare the codec {point.name!r} ({GROUP!r} entry points): "
                f"{distribution(earlier)} and {distribution(point)}; uninstall one"
            )
        found[point.name] = point
    _read[:] = [found]
    return found


def load(point: EntryPoint) -> Any:
    """The codec ``point`` names, imported now, checked to be one and to carry its name.

    Raises :class:`~chatcodec.CodecNotAvailableError` naming the distribution when it cannot
    be imported, is not a codec, or is named otherwise."""
    where = f"{distribution(point)} ({GROUP!r} entry point {point.name} = {point.value})"
    try:
        codec: Any = point.load()
        if isinstance(codec, ModuleType):  # a provider folder's package: its codec is built from its modules
            from chatcodec._providers.contract.provider_codec import ProviderCodec

            codec = ProviderCodec.from_package(codec.__name__)
    except Exception as error:
        raise CodecNotAvailableError(
            f"the codec {point.name!r} installed by {where} could not be loaded: {type(error).__name__}: {error}"
        ) from error
    if not hasattr(codec, "decode_request"):
        raise CodecNotAvailableError(
            f"the codec {point.name!r} installed by {where} is a {type(codec).__name__}, not a codec "
            "(a ProviderCodec, or an object with the chatcodec.Codec methods)"
        )
    named = getattr(codec, "name", point.name)
    if named != point.name:
        raise CodecNotAvailableError(
            f"the codec {point.name!r} installed by {where} is named {named!r}: name the entry point as the codec"
        )
    return codec


def distribution(point: EntryPoint) -> str:
    """``"the distribution NAME VERSION"``, as far as the entry point knows it."""
    dist = point.dist
    if dist is None:
        return f"a distribution (module {point.module})"
    return f"the distribution {dist.name} {dist.version}"
