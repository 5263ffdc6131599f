"""Law: ``convert_request`` refuses what ``decode_request`` refuses (and ``convert_response``
what ``decode_response`` refuses).

The conversion reads a body with the source's reader and builds no canonical model; the
decode builds one. Whatever the model refuses (a kept value nested past pydantic-core's
depth limit, at any place; a mutated field of any kind) the reader must refuse too, or a
gateway converting requests forwards what it would refuse to decode. Mutated recordings
of every codec, and a value nested around the depth limit at every object of a
recording (the free-form values included: tool schemas, arguments, options).
"""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import chatcodec
from chatcodec.codec_kit import is_dict
from chatcodec.testing._laws.entry import ProviderEntry
from chatcodec.testing._laws.mutations import mutated, places
from chatcodec.testing._laws.registry import law

_DEPTHS = range(249, 258)
"""Every depth around pydantic-core's depth limit (about 255 levels), where the two paths could
part: a value 253 deep in a setting kept in a bag and 254 deep in a tool definition were
refused by decode and converted, between the old steps of 3."""


def _refuses(call: Any, *args: Any, **kwargs: Any) -> bool:
    try:
        call(*args, **kwargs)
    except chatcodec.ChatcodecError:
        return True
    return False


def _target(provider: str) -> str:
    return next(name for name in chatcodec.registered_providers() if name != provider)


def _agree(provider: str, body: object, kind: str = "request") -> None:
    decode, convert = (
        (chatcodec.decode_request, chatcodec.convert_request)
        if kind == "request"
        else (chatcodec.decode_response, chatcodec.convert_response)
    )
    if _refuses(decode, provider, body):
        target = _target(provider)
        converted = _refuses(convert, body, source=provider, target=target, on_loss="ignore")
        assert converted, f"decode_{kind} refuses it, convert_{kind} to {target} takes it"


@law(lambda suite: [entry for entry in suite.entries if entry.recorded["request"]])
@given(data=st.data())
def convert_request_refuses_a_mutated_request_decode_request_refuses(
    provider: ProviderEntry, data: st.DataObject
) -> None:
    name = data.draw(st.sampled_from(provider.names("request")))
    _agree(provider.name, data.draw(mutated(provider.load("request", name))))


def _nested(depth: int) -> object:
    value: object = 1
    for _ in range(depth):
        value = {"a": value}
    return value


@law(lambda suite: [(entry, kind) for kind in ("request", "response") for entry in suite.entries])
def convert_refuses_a_value_nested_too_deeply_wherever_decode_does(provider: ProviderEntry, kind: str) -> None:
    for name in provider.names(kind)[:3]:
        body = provider.load(kind, name)
        for place in [path for path, node in places(body) if is_dict(node)]:
            for depth in _DEPTHS:
                deep = copy.deepcopy(body)
                node: Any = deep
                for step in place:
                    node = node[step]
                node["deep"] = _nested(depth)
                _agree(provider.name, deep, kind)
