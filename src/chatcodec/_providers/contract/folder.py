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
protocol names are checked here, at run time, and a missing one is refused by name.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from importlib import import_module
from types import MappingProxyType
from typing import Any

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
it is given as; each imported when the codec is built."""

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


def roles_of(package: str) -> dict[str, Any]:
    """The :class:`~chatcodec.contract.ProviderCodec` arguments for the folder ``package``,
    with its ``markers`` module under ``"markers"`` (None without one).

    Raises :class:`TypeError` for a folder without a required role, or a role module
    without a function its protocol names."""
    markers = _module(f"{package}.markers")
    borrowed: Mapping[str, str] = getattr(markers, "ROLES", {})
    found: dict[str, Any] = {"markers": markers}
    for file, argument in ROLE_FILES.items():
        spec = borrowed.get(file) or f"{package}.{file}"
        role = _object(spec)
        if role is None:
            if file in REQUIRED:
                raise TypeError(f"the provider folder {package} has no {file}.py: every codec has one")
            continue
        missing = [name for name in PROTOCOL_NAMES[file] if not hasattr(role, name)]
        if missing:
            raise TypeError(f"{spec} plays the {file} role without {', '.join(missing)} (chatcodec.contract's roles)")
        found[argument] = role
    for file, argument in LAZY_FILES.items():
        spec = borrowed.get(file) or f"{package}.{file}"
        if _exists(spec):
            found[argument] = spec
    for file, (argument, attribute) in STREAM_FILES.items():
        spec = borrowed.get(file) or f"{package}.{file}"
        if _exists(spec):
            found[argument] = LazyClass(spec, attribute)
    return found


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


def _exists(name: str) -> bool:
    return importlib.util.find_spec(name) is not None
