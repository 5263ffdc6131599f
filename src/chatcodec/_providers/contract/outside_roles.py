"""An installed codec's role functions, held to the contract: what they raise or give back
is theirs, named with the distribution that installed them, never chatcodec's own error.

A :class:`~chatcodec.contract.ProviderCodec` an entry point names (a provider folder's
package, or a codec built from one) runs another project's functions inside chatcodec's
paths: a ``KeyError`` from its ``decode_request``, or a list where a dict is due, would
surface as a foreign exception deep in a writer, or as "internal error, please report it"
on the command line. :func:`guard_roles` wraps each role the codec has (the function roles
of :mod:`chatcodec._providers.contract.roles`, and its stream decoder and encoder) so that a
function raising anything but a chatcodec error, or returning what its protocol does not
give, is a :class:`~chatcodec.CodecNotAvailableError` naming the codec, where it came from,
the role's file and the function. A chatcodec error it raises on purpose (a payload it
refuses, from the kit's ``validate_shape``) and ``RecursionError`` (a value too deep, named
at its place by the codec) pass as they are. Built-in codecs are never wrapped: the laws
check them, and their conversions pay nothing.

A function of ``tools.py`` or ``settings.py`` writes into the dicts it is given and
returns nothing, so only what it raises is checked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, cast

from chatcodec._errors import ChatcodecError, CodecNotAvailableError
from chatcodec._providers.contract.folder import ROLE_FILES
from chatcodec._providers.contract.outside_values import not_json_data

if TYPE_CHECKING:
    from chatcodec._providers.contract.provider_codec import ProviderCodec

_NONE = type(None)

RETURNS: dict[str, dict[str, tuple[type, ...] | None]] = {
    "request": {"decode_request": (dict,), "encode_request": (dict,), "decode_message_list": (list,)},
    "response": {"decode_response": (dict,), "encode_response": (dict,)},
    "finish_reason": {"decode_finish_reason": (dict, _NONE), "encode_finish_reason": (str, _NONE)},
    "usage": {"decode_usage": (dict,), "encode_usage": (dict,)},
    "messages": {"decode_messages": (list,), "encode_messages": (list,)},
    "parts": {"encode_part": (dict, _NONE)},
    "tools": {"decode_tools": None, "encode_tools": None},
    "settings": {"decode_settings": None, "encode_settings": None},
    "dialect": {"decode_part": (dict,), "decode_assistant": (dict,), "decode_tools": (list,)},
}
"""What each function of a function role gives back, by the role's file (the functions are
the protocol's, :data:`~chatcodec._providers.contract.folder.PROTOCOL_NAMES`, a test holds
the two equal); None: it writes into its arguments and gives back nothing."""

_FILE_OF = {argument: file for file, argument in ROLE_FILES.items()}
"""A role's file by its ``ProviderCodec`` argument."""

_LISTS_OF_DICTS = frozenset({"decode_message_list", "decode_messages", "encode_messages"})
"""The functions whose list holds canonical or wire messages, each a dict."""


class _Checked:
    """What one installed codec's function says, checked; how it is named in an error."""

    __slots__ = ("codec", "origin")

    def __init__(self, codec: str, origin: str) -> None:
        self.codec, self.origin = codec, origin

    def call(
        self,
        where: str,
        function: Callable[..., Any],
        arguments: tuple[Any, ...],
        keywords: dict[str, Any] | None = None,
    ) -> Any:
        try:
            return function(*arguments, **(keywords or {}))
        except (ChatcodecError, RecursionError):
            raise
        except Exception as error:
            raise CodecNotAvailableError(
                f"the codec {self.codec!r} ({self.origin}) failed in {where}: {type(error).__name__}: {error}"
            ) from error

    def returned(self, where: str, result: object, kinds: tuple[type, ...], items: type | None = None) -> None:
        if not isinstance(result, kinds):
            raise self._garbage(where, type(result).__name__, " or ".join(_named(kind) for kind in kinds))
        if items is not None:
            stray = next((item for item in _items(result) if not isinstance(item, items)), _ALL_FINE)
            if stray is not _ALL_FINE:
                raise self._garbage(where, f"list holding a {type(stray).__name__}", f"list of {items.__name__}s")

    def json_data(self, where: str, result: object) -> None:
        """``result``, a body, an event or canonical data, checked to be JSON data all through."""
        error = not_json_data(self.codec, self.origin, where, result)
        if error is not None:
            raise error

    def _garbage(self, where: str, given: str, due: str) -> CodecNotAvailableError:
        return CodecNotAvailableError(
            f"the codec {self.codec!r} ({self.origin}) returned a {given} from {where}, not a {due}"
        )


_ALL_FINE = object()


def _items(result: object) -> Iterable[object]:
    return cast("list[object] | tuple[object, ...]", result) if isinstance(result, list | tuple) else ()


def _events(result: object) -> bool:
    """Whether ``result`` is an iterable an encoder may give its events in (not a text or a dict)."""
    return isinstance(result, Iterable) and not isinstance(result, str | bytes | Mapping)


def _named(kind: type) -> str:
    return "None" if kind is _NONE else kind.__name__


class _GuardedRole:
    """A role module whose contract functions are checked; anything else it holds (a
    request module's ``JSON_FRONT`` or ``CONTEXT``, its ``__package__``) is read through."""

    def __init__(self, role: object, file: str, functions: dict[str, tuple[type, ...] | None], checked: _Checked):
        self._role = role
        for name, kinds in functions.items():
            function = getattr(role, name, None)
            if callable(function):
                setattr(
                    self,
                    name,
                    _guarded(function, f"{file} {name}", kinds, checked, dict if name in _LISTS_OF_DICTS else None),
                )

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self._role, attribute)


def _guarded(
    function: Callable[..., Any], where: str, kinds: tuple[type, ...] | None, checked: _Checked, items: type | None
) -> Callable[..., Any]:
    def call(*arguments: Any, **keywords: Any) -> Any:
        result = checked.call(where, function, arguments, keywords)
        if kinds is not None:
            checked.returned(where, result, kinds, items)
            checked.json_data(where, result)
        return result

    return call


class _GuardedStream:
    """A stream decoder or encoder of an installed codec: ``feed`` and ``close`` checked (a
    sequence back from each: of records for a decoder, of wire event dicts for an encoder)."""

    def __init__(self, piece: Any, file: str, checked: _Checked, items: type | None) -> None:
        self._piece, self._file, self._checked, self._items = piece, file, checked, items

    def feed(self, event: Any) -> Any:
        return self._step("feed", (event,))

    def close(self) -> Any:
        return self._step("close", ())

    def read(self, events: Iterable[dict[str, Any]]) -> None:
        """A decoder's whole stream into its builder at once (what it raises checked)."""
        self._checked.call(f"{self._file} read", self._piece.read, (events,))

    def _step(self, method: str, arguments: tuple[Any, ...]) -> Any:
        where = f"{self._file} {method}"
        result: Any = self._checked.call(where, getattr(self._piece, method), arguments)
        if self._items is dict and _events(result):
            result = self._checked.call(where, list, (result,))  # an encoder may give any iterable of events
        self._checked.returned(where, result, (list, tuple), self._items)
        if self._items is dict:  # an encoder's wire events (a decoder's records are its own objects)
            self._checked.json_data(where, result)
        return result

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self._piece, attribute)


def guard_roles(codec: ProviderCodec, origin: str) -> None:
    """Wrap the role functions and stream pieces of ``codec`` (an installed one, ``origin``
    saying where it came from: the distribution and its entry point), in place, once."""
    checked = _Checked(codec.name, origin)

    def role(argument: str, module: object) -> object:
        file = _FILE_OF[argument]
        if file not in RETURNS or isinstance(module, _GuardedRole):
            return module  # a table (``rules.py``), or checked already
        return _GuardedRole(module, f"{file}.py", RETURNS[file], checked)

    def stream(file: str, make: Callable[..., Any]) -> Callable[..., Any]:
        if isinstance(make, _StreamFactory):
            return make
        return _StreamFactory(make, file, checked, dict if file == "stream_encode.py" else None)

    codec.guard(role, stream)


class _StreamFactory:
    """What makes an installed codec's stream decoder or encoder, each made one checked."""

    def __init__(self, make: Callable[..., Any], file: str, checked: _Checked, items: type | None) -> None:
        self._make, self._file, self._checked, self._items = make, file, checked, items

    def __call__(self, *arguments: Any) -> _GuardedStream:
        piece = self._checked.call(f"{self._file} (making its stream piece)", self._make, arguments)
        return _GuardedStream(piece, self._file, self._checked, self._items)
