"""Law: a payload built in Python that holds itself is a chatcodec error naming the place.

JSON cannot nest a value in itself, but a dict built in Python can (``items.append(items)``).
Every container of a recorded request and response, in turn, is made to hold itself; each
entry point that reads it (``decode_*``, ``convert_*``, strict or not) raises a
:class:`chatcodec.ChatcodecError` naming the path where the value appears again: never an
endless loop, a ``RecursionError`` or a foreign error. A ``SIGALRM`` turns a loop into a
failure instead of a stuck run (where the platform has one).
"""

from __future__ import annotations

import copy
import signal
from collections.abc import Callable
from types import FrameType
from typing import Any

import chatcodec
from chatcodec.codec_kit import is_dict
from chatcodec.testing._laws.entry import ProviderEntry
from chatcodec.testing._laws.mutations import Path, containers
from chatcodec.testing._laws.registry import law
from chatcodec.testing._laws.suite import Suite

_SECONDS = 10


def _holding_itself(body: dict[str, Any], place: Path) -> tuple[dict[str, Any], Path]:
    """``body`` with the container at ``place`` holding itself, and where it appears again."""
    copied = copy.deepcopy(body)
    node: Any = copied
    for step in place:
        node = node[step]
    if is_dict(node):
        node["again"] = node
        return copied, (*place, "again")
    node.append(node)
    return copied, (*place, len(node) - 1)


class _StuckError(Exception):
    pass


def _stop(signum: int, frame: FrameType | None) -> None:
    del signum, frame
    raise _StuckError


def _refused(call: Callable[..., object], *args: Any, **kwargs: Any) -> chatcodec.ChatcodecError | None:
    """The chatcodec error ``call(*args, **kwargs)`` raises (None when it reads the value without one)."""
    previous = signal.signal(signal.SIGALRM, _stop)
    signal.alarm(_SECONDS)
    try:
        call(*args, **kwargs)
    except chatcodec.ChatcodecError as error:
        return error
    except _StuckError:
        raise AssertionError("never ends") from None
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    return None


def _other(provider: ProviderEntry) -> str:
    """Another installed codec to convert to (one of the suite, else any)."""
    return next(name for name in chatcodec.registered_providers() if name != provider.name)


def _last_step(location: Path) -> str:
    step = location[-1]
    return f"[{step}]" if isinstance(step, int) else f".{step}"


def _with(kind: str) -> Callable[[Suite], list[ProviderEntry]]:
    return lambda suite: [entry for entry in suite.entries if entry.recorded[kind]]


@law(_with("request"))
def a_request_holding_itself_is_a_chatcodec_error_at_every_place(provider: ProviderEntry) -> None:
    name = provider.names("request")[0]
    body = provider.load("request", name)
    target = _other(provider)
    for place, _ in containers(body):
        payload, again = _holding_itself(body, place)
        for strict in (False, True):
            for error in (
                _refused(chatcodec.decode_request, provider.name, payload, strict=strict),
                _refused(chatcodec.convert_request, payload, source=provider.name, target=target, strict=strict),
            ):
                assert error is not None, (name, place, strict)
                if isinstance(error, chatcodec.PayloadError) and "cyclic_value" in str(error):
                    assert error.path.endswith(_last_step(again)), (name, place, strict, str(error))


@law(_with("response"))
def a_response_holding_itself_is_a_chatcodec_error_at_every_place(provider: ProviderEntry) -> None:
    name = provider.names("response")[0]
    body = provider.load("response", name)
    target = _other(provider)
    for place, _ in containers(body):
        payload, _ = _holding_itself(body, place)
        assert _refused(chatcodec.decode_response, provider.name, payload) is not None, (name, place)
        refused = _refused(chatcodec.convert_response, payload, source=provider.name, target=target)
        assert refused is not None, (name, place)
