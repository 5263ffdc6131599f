"""Codecs other distributions install: found by entry point, so installing is registering.

A distribution declares its codec in its ``pyproject.toml``::

    [project.entry-points."chatcodec.codecs"]
    cohere = "chatcodec_cohere.codec:CODEC"

(or names the provider folder's package, ``cohere = "chatcodec_cohere"``, whose codec is then
built from the modules it has by :meth:`~chatcodec.contract.ProviderCodec.from_package`),
and ``chatcodec.get_codec("cohere")``, ``available_formats()``, the CLI's ``--from``/``--to``/
``--api``/``--upstream`` and ``chatcodec serve`` settings find it in any process, with no
``register_codec`` call (pytest's ``pytest11`` and Sphinx's extensions are found the same way).

Nothing here runs for built-in work. The entry points are read once per process, and only
when a name is asked for that no built-in format has (nor a :func:`~chatcodec.register_codec`
call), or when the formats are listed (``available_formats()``, ``registered_providers()``,
``chatcodec formats``): ``import chatcodec``, ``chatcodec --version``, building the CLI's
parser, a conversion between built-in formats, ``ServeConfig`` and what iterates over every
codec in use (detection, strict reading's field tables, error statuses) never read them. A
codec's module is imported only when its name is asked for (``chatcodec formats`` asks for
each), so a distribution that is slow to import slows only the commands that name it.

A distribution that gets its installation wrong never stops built-in work:

- an entry point named like a built-in format (``openai-chat``, ``canonical``, ``langchain``,
  ``ai-sdk-ui``...) or declared by two distributions is left out, with one
  :class:`InstalledCodecWarning` naming the distribution(s) when the entry points are read
  (a name means one codec: the built-in keeps its name; two installed ones keep neither);
- a codec whose import raises anything (``SystemExit`` and ``KeyboardInterrupt`` too), whose
  ``name``, ``edge`` or methods raise when read (a module ``__getattr__`` that raises), that is
  no codec, or that is named otherwise is a :class:`~chatcodec.CodecNotAvailableError` naming
  the distribution when its name is asked for, remembered so it is imported once; listing
  reports it as one warning.
"""

from __future__ import annotations

import warnings
from types import ModuleType
from typing import TYPE_CHECKING, Any

from chatcodec._errors import CodecNotAvailableError, ProviderLookupError

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

GROUP = "chatcodec.codecs"
"""The entry-point group a distribution declares its codecs in."""


class InstalledCodecWarning(UserWarning):
    """An installed distribution's codec is left out: named like a built-in, declared twice,
    or broken. Emitted once per codec and process; the message names the distribution."""


_read: list[dict[str, EntryPoint]] = []
"""The usable entry points by name, once read (empty until then)."""
_refused: dict[str, str] = {}
"""Why a name two distributions declare is left out, by name."""
_failed: dict[str, str] = {}
"""Why an installed codec could not be loaded, by name: asked for again, it is not imported again."""
_warned: set[str] = set()
"""The messages already warned, so each is warned once a process."""

_PROBED = ("name", "decode_request", "write_request", "edge")
"""What the registry reads of a codec: read once at loading, inside the guard."""


def installed(built_in: frozenset[str]) -> dict[str, EntryPoint]:
    """Every usable codec installed under :data:`GROUP`, by name (read once per process);
    one named like a format in ``built_in`` or declared by two distributions is left out
    with a warning."""
    if _read:
        return _read[0]
    from importlib.metadata import entry_points

    found: dict[str, EntryPoint] = {}
    for point in entry_points(group=GROUP):
        if point.name in built_in:
            _warn(
                f"{distribution(point)} declares a {GROUP!r} entry point named {point.name!r}, the name of a "
                "built-in format: a name means one codec, so it is left out (rename the entry point)"
            )
            continue
        earlier = found.get(point.name)
        if earlier is not None and earlier.value != point.value:
            _refused[point.name] = (
                f"two distributions declare the codec {point.name!r} ({GROUP!r} entry points): "
                f"{distribution(earlier)} and {distribution(point)}; neither is used: uninstall one"
            )
            _warn(_refused[point.name])
        found[point.name] = point
    _read[:] = [{name: point for name, point in found.items() if name not in _refused}]
    return _read[0]


def codec_named(name: str, built_in: frozenset[str]) -> Any:
    """The installed codec ``name`` (``None`` when no distribution declares it), loaded once.

    Raises :class:`~chatcodec.ProviderLookupError` for a name two distributions declare and
    :class:`~chatcodec.CodecNotAvailableError` for a codec that cannot be loaded."""
    point = installed(built_in).get(name)
    if point is None:
        if name in _refused:
            raise ProviderLookupError(_refused[name])
        return None
    if name in _failed:
        raise CodecNotAvailableError(_failed[name])
    try:
        return load(point)
    except CodecNotAvailableError as error:
        _failed[name] = str(error)
        raise


def checked(built_in: frozenset[str]) -> dict[str, EntryPoint]:
    """The installed codecs that load, by name: each imported, each that cannot be reported
    once as a warning naming its distribution (what listing on request does)."""
    working: dict[str, EntryPoint] = {}
    for name, point in installed(built_in).items():
        try:
            codec_named(name, built_in)
        except ProviderLookupError as error:
            _warn(str(error))
        else:
            working[name] = point
    return working


def load(point: EntryPoint) -> Any:
    """The codec ``point`` names, imported now, checked to be one and to carry its name.

    Raises :class:`~chatcodec.CodecNotAvailableError` naming the distribution when it cannot
    be imported (whatever its import raises, ``SystemExit`` and ``KeyboardInterrupt`` too:
    a distribution's import must not end the process), raises when read, is not a codec,
    or is named otherwise."""
    where = f"{distribution(point)} ({GROUP!r} entry point {point.name} = {point.value})"
    try:
        codec: Any = point.load()
        if isinstance(codec, ModuleType):  # a provider folder's package: its codec is built from its modules
            from chatcodec._providers.contract.provider_codec import ProviderCodec

            codec = ProviderCodec.from_package(codec.__name__)
        read = {attribute: getattr(codec, attribute, None) for attribute in _PROBED}
    except (Exception, SystemExit, KeyboardInterrupt) as error:
        raise CodecNotAvailableError(
            f"the codec {point.name!r} installed by {where} could not be loaded: {type(error).__name__}: {error}"
        ) from error
    if read["decode_request"] is None:
        raise CodecNotAvailableError(
            f"the codec {point.name!r} installed by {where} is a {type(codec).__name__}, not a codec "
            "(a ProviderCodec, or an object with the chatcodec.Codec methods)"
        )
    named = point.name if read["name"] is None else read["name"]
    if named != point.name:
        raise CodecNotAvailableError(
            f"the codec {point.name!r} installed by {where} is named {named!r}: name the entry point as the codec"
        )
    _guarded(codec, point, where)
    return codec


def _guarded(codec: object, point: EntryPoint, where: str) -> None:
    """A ``ProviderCodec``'s role functions checked from now on, each error they cause naming
    the distribution and its entry point (:mod:`chatcodec._providers.contract.outside_roles`;
    a six-method codec is checked by the registry's ``ModelCodec``)."""
    from chatcodec._providers.contract.outside_roles import guard_roles
    from chatcodec._providers.contract.provider_codec import ProviderCodec

    if not isinstance(codec, ProviderCodec):
        return
    try:
        guard_roles(codec, f"installed by {distribution(point)}, entry point {point.name} = {point.value}")
    except (Exception, SystemExit, KeyboardInterrupt) as error:  # a role module only named fails to import
        raise CodecNotAvailableError(
            f"the codec {point.name!r} installed by {where} could not be loaded: {type(error).__name__}: {error}"
        ) from error


def origin(name: str) -> str:
    """Where the installed codec ``name`` came from, for an error its code causes:
    ``"installed by the distribution NAME VERSION"``."""
    point = _read[0].get(name) if _read else None
    return "installed by an unknown distribution" if point is None else f"installed by {distribution(point)}"


def distribution(point: EntryPoint) -> str:
    """``"the distribution NAME VERSION"``, as far as the entry point knows it."""
    dist = point.dist
    if dist is None:
        return f"a distribution (module {point.module})"
    return f"the distribution {dist.name} {dist.version}"


def _warn(message: str) -> None:
    if message not in _warned:
        _warned.add(message)
        warnings.warn(message, InstalledCodecWarning, stacklevel=4)
