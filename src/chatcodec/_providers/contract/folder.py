"""A provider folder's roles, found by their file names: what
:meth:`~chatcodec.contract.ProviderCodec.from_package` builds a codec from.

A folder is the modules it has. Each role is the module of its file name (the folder
contract's names, :data:`ROLE_FILES`); a role a wire does not have is left out and gets the
codec's default (no tools, no settings, no usage, no stream). A folder's ``markers.py`` may
name, in ``ROLES``, a module elsewhere that plays one of its roles (``"parts":
"chatcodec._providers.families.aws.parts"``, or ``"module:attribute"`` for an object), so a
folder has no module that only forwards a family's. The edge, structure and stream modules
are named, not imported: the codec imports them on first use (a conversion reads none).

With no ``codec.py`` handing them over, nothing type-checks the role modules against their protocols
(:mod:`chatcodec._providers.contract.roles`) when the codec is built, so the functions each
protocol names are checked here, at run time, and a missing one is refused by name: when the
codec is built (:meth:`~chatcodec.contract.ProviderCodec.from_package`), or, for the registry's
built-in folders (``roles_of(..., lazy=True)``), when the role is first read. A stream reads
none of the request and response roles, whose modules were a third of a fresh process's first
stream (issue 60).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from importlib import import_module
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

from chatcodec._errors import CodecNotAvailableError
from chatcodec._option_table import NO_OPTIONS

if TYPE_CHECKING:
    from collections.abc import Callable

    from chatcodec._option_table import OptionTable

CodecT = TypeVar("CodecT")
"""The codec class built (:class:`~chatcodec.contract.ProviderCodec` or a subclass), not named
here: the codec's module imports this one."""

ROLE_FILES: Mapping[str, str] = MappingProxyType(
    {
        "request": "requests",
        "response": "responses",
        "capabilities": "capabilities",
        "finish_reason": "finish_reasons",
        "usage": "usage",
        "messages": "messages",
        "parts": "parts",
        "tools": "tools",
        "settings": "settings",
        "rules": "rules",
        "dialect": "dialect",
    }
)
"""A role's file name in a folder -> the :class:`~chatcodec.contract.ProviderCodec` argument
it is given as; each imported when the codec is built (a built-in's, when first read)."""

REQUIRED = frozenset({"request", "response", "capabilities"})
"""The roles every folder has: a codec reads and writes requests and responses, and says
what its wire carries."""

PROTOCOL_NAMES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "request": ("decode_request", "encode_request", "decode_message_list"),
        "response": ("decode_response", "encode_response"),
        "capabilities": ("CAPABILITIES",),
        "finish_reason": ("decode_finish_reason", "encode_finish_reason"),
        "usage": ("decode_usage", "encode_usage"),
        "messages": ("decode_messages", "encode_messages"),
        "parts": ("encode_part",),
        "tools": ("decode_tools", "encode_tools"),
        "settings": ("decode_settings", "encode_settings"),
        "rules": ("RULES",),
        "dialect": ("decode_part", "decode_assistant", "decode_tools"),
    }
)
"""The names each role's protocol (:mod:`~chatcodec._providers.contract.roles`) asks of its
module."""

LAZY_FILES: Mapping[str, str] = MappingProxyType({"edge": "edge", "structure": "structure"})
"""The roles given by their module's dotted name, imported when first read."""

STREAM_FILES: Mapping[str, tuple[str, str]] = MappingProxyType(
    {"stream_decode": ("stream_decoder", "StreamDecoder"), "stream_encode": ("stream_encoder", "StreamEncoder")}
)
"""A stream module's file name -> the codec argument and the class it gives, imported on the
first stream."""


class LazyClass:
    """``module.attribute(*arguments)``, the module imported on the first call: a folder's
    stream class, which builds canonical events (importing it with the codec would load the
    canonical models on every conversion)."""

    __slots__ = ("attribute", "module")

    def __init__(self, module: str, attribute: str) -> None:
        self.module, self.attribute = module, attribute

    def __call__(self, *arguments: Any) -> Any:
        return getattr(import_module(self.module), self.attribute)(*arguments)

    def __repr__(self) -> str:
        return f"LazyClass({self.module}:{self.attribute})"


class LazyRole:
    """A role's module (or ``"module:attribute"``) named, not imported: what a built-in
    folder's codec holds for a role until it is first read (:meth:`load`), so a stream,
    which reads no request or response role, imports none of their modules."""

    __slots__ = ("file", "spec")

    def __init__(self, spec: str, file: str) -> None:
        self.spec, self.file = spec, file

    def load(self) -> object:
        """The role, imported now and checked against its protocol (a :class:`TypeError`
        names a function it lacks, as :func:`roles_of` does when it imports it at once)."""
        role = _object(self.spec)
        if role is None:  # found when the codec was built: gone since
            raise TypeError(f"{self.spec} plays the {self.file} role and cannot be imported")
        return _checked(role, self.file, self.spec)

    def package(self) -> str | None:
        """The package of the role's module, without importing it (None for an attribute
        of a module, whose package is the object's own)."""
        return None if ":" in self.spec else self.spec.rpartition(".")[0]

    def __repr__(self) -> str:
        return f"LazyRole({self.spec})"


EAGER_ROLES = frozenset({"capabilities"})
"""The roles imported when the codec is built even with ``lazy=True``: what every use of the
codec reads (its :attr:`~chatcodec.contract.ProviderCodec.capabilities`)."""


def roles_of(package: str, *, lazy: bool = False) -> dict[str, Any]:
    """The :class:`~chatcodec.contract.ProviderCodec` arguments for the folder ``package``,
    with its ``markers`` module under ``"markers"`` (None without one). With ``lazy``, a
    role but the capabilities is a :class:`LazyRole` (found now, imported when first read).

    Raises :class:`TypeError` for a folder without a required role, or a role module
    without a function its protocol names (with ``lazy``, when the role is first read)."""
    markers = _module(f"{package}.markers")
    borrowed: Mapping[str, str] = getattr(markers, "ROLES", {})
    found: dict[str, Any] = {"markers": markers}
    for file, argument in ROLE_FILES.items():
        spec = borrowed.get(file) or f"{package}.{file}"
        role = LazyRole(spec, file) if lazy and file not in EAGER_ROLES and _exists(spec) else _object(spec)
        if role is None:
            if file in REQUIRED:
                raise TypeError(f"the provider folder {package} has no {file}.py: every codec has one")
            continue
        found[argument] = role if isinstance(role, LazyRole) else _checked(role, file, spec)
    for file, argument in LAZY_FILES.items():
        spec = borrowed.get(file) or f"{package}.{file}"
        if _exists(spec):
            found[argument] = spec
    for file, (argument, attribute) in STREAM_FILES.items():
        spec = borrowed.get(file) or f"{package}.{file}"
        if _exists(spec):
            found[argument] = LazyClass(spec, attribute)
    return found


def _checked(role: object, file: str, spec: str) -> object:
    missing = [name for name in PROTOCOL_NAMES[file] if not hasattr(role, name)]
    if missing:
        raise TypeError(f"{spec} plays the {file} role without {', '.join(missing)} (chatcodec.contract's roles)")
    return role


def _object(spec: str) -> object | None:
    """The module ``spec`` names, or its attribute for ``"module:attribute"``; None when
    there is no such module."""
    module_name, _, attribute = spec.partition(":")
    module = _module(module_name)
    return getattr(module, attribute) if module is not None and attribute else module


def _module(name: str) -> object | None:
    try:
        return import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:  # a module the role imports is missing: not the folder's choice
            raise
        return None


def _exists(spec: str) -> bool:
    """Whether the module ``spec`` names (``"module"`` or ``"module:attribute"``) is there,
    without importing it (its parent packages are)."""
    return importlib.util.find_spec(spec.partition(":")[0]) is not None


def codec_of(
    cls: Callable[..., CodecT], package: str, *, name: str | None = None, options: OptionTable | None = None, lazy: bool
) -> CodecT:
    """``cls`` built from the folder ``package``'s roles (:func:`roles_of`), named by its
    ``markers.py`` unless ``name`` is given, with its options unless ``options`` is."""
    found = roles_of(package, lazy=lazy)
    markers = found.pop("markers")
    name = getattr(markers, "PROVIDER", None) if name is None else name
    if not isinstance(name, str):
        raise TypeError(f"the provider folder {package} names no codec: give name=, or PROVIDER in its markers.py")
    return cls(name, options=getattr(markers, "OPTIONS", NO_OPTIONS) if options is None else options, **found)


def without_streams(name: str, piece: str, verb: str) -> CodecNotAvailableError:
    """The error of a codec ``name`` asked for a stream ``piece`` (``decoder``, ``encoder``)
    its folder has no module for (``stream_{verb}.py``)."""
    return CodecNotAvailableError(
        f"the {name} codec has no stream {piece}: it reads and writes whole requests and "
        f"responses only (its ProviderCodec was given no stream_{piece}=, as a folder without "
        f"stream_{verb}.py); ask it for a whole response instead of a stream"
    )
