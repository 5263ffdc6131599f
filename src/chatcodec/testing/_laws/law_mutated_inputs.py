"""Laws on mutated recordings: only chatcodec's own errors, and errors that say where.

* Decoding a mutated request, response or stream (``decode_request``, ``decode_response``,
  ``decode_stream``, ``accumulate_stream``, with the stream given as a list of dicts and as
  an iterator) either succeeds or raises a :class:`chatcodec.ChatcodecError`: never a
  ``KeyError``, ``TypeError``, ``RecursionError`` or an SDK-free pydantic error.
* A :class:`chatcodec.ValidationError` names only paths that exist in the input: every
  step of each error's location is in the payload, except the last step of a ``missing``
  error, which names the absent key of an object that is there. A
  :class:`chatcodec.StreamError` names an event that exists and a path inside it.

The number of examples comes from the Hypothesis profile.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import chatcodec
from chatcodec.codec_kit import is_dict, is_list
from chatcodec.testing._laws.entry import ProviderEntry
from chatcodec.testing._laws.mutations import mutated
from chatcodec.testing._laws.registry import law, raises
from chatcodec.testing._laws.suite import Suite

_STEP_MISSING = object()


def _child(node: object, step: int | str) -> object:
    if is_dict(node) and isinstance(step, str):
        return node.get(step, _STEP_MISSING)
    if is_list(node) and isinstance(step, int) and 0 <= step < len(node):
        return node[step]
    return _STEP_MISSING


def _location_exists(root: object, location: tuple[int | str, ...], missing: bool) -> bool:
    node = root
    for position, step in enumerate(location):
        child = _child(node, step)
        if child is _STEP_MISSING:
            return missing and position == len(location) - 1 and is_dict(node)
        node = child
    return True


def _known_bug(provider: ProviderEntry, detail: Any) -> bool:
    first = detail["loc"][0] if detail["loc"] else None
    own = provider.known_path_bugs
    return (detail["type"], first) in own or (detail["type"], None) in own


def _assert_paths_exist(error: chatcodec.ValidationError, payload: object, provider: ProviderEntry) -> None:
    for detail in error.errors(include_url=False):
        if _known_bug(provider, detail):
            continue
        location = detail["loc"]
        assert _location_exists(payload, location, detail["type"] == "missing"), (location, str(error))


def _assert_stream_error_points_into(error: chatcodec.StreamError, events: list[Any]) -> None:
    if error.event_index is not None:
        assert 0 <= error.event_index < len(events), str(error)
    assert error.path.startswith("$"), str(error)


def _decodes_or_says_where(decode: Callable[[], object], payload: object, provider: ProviderEntry) -> None:
    try:
        decode()
    except chatcodec.ValidationError as error:
        _assert_paths_exist(error, payload, provider)
    except chatcodec.ChatcodecError:
        pass  # chatcodec's own error: what it says is covered by the per-codec error tests


def _recordings(provider: ProviderEntry, kind: str) -> st.SearchStrategy[Any]:
    if kind == "stream":
        return st.sampled_from(provider.recorded["stream"]).map(provider.stream_events)
    return st.sampled_from(provider.recorded[kind]).map(lambda file: provider.load(kind, file))


def _recorded(kind: str, streaming: bool = False) -> Callable[[Suite], list[ProviderEntry]]:
    return lambda suite: [entry for entry in (suite.streaming if streaming else suite.entries) if entry.recorded[kind]]


@law(_recorded("request"))
@given(data=st.data())
def mutated_request_raises_only_chatcodec_errors_with_real_paths(provider: ProviderEntry, data: st.DataObject) -> None:
    payload = data.draw(_recordings(provider, "request").flatmap(mutated), "payload")
    _decodes_or_says_where(lambda: chatcodec.decode_request(provider.name, payload), payload, provider)


@law(_recorded("response"))
@given(data=st.data())
def mutated_response_raises_only_chatcodec_errors_with_real_paths(provider: ProviderEntry, data: st.DataObject) -> None:
    payload = data.draw(_recordings(provider, "response").flatmap(mutated), "payload")
    _decodes_or_says_where(lambda: chatcodec.decode_response(provider.name, payload), payload, provider)


def _stream_outcome(run: Callable[[], object], events: list[Any]) -> None:
    try:
        run()
    except chatcodec.StreamError as error:
        _assert_stream_error_points_into(error, events)
    except chatcodec.ChatcodecError:
        pass


@law(_recorded("stream", streaming=True))
@given(data=st.data())
def mutated_stream_raises_only_chatcodec_errors(provider: ProviderEntry, data: st.DataObject) -> None:
    drawn = data.draw(_recordings(provider, "stream").flatmap(mutated), "events")
    events: list[Any] = drawn if is_list(drawn) else [drawn]  # one odd value: a stream of that value
    name = provider.name
    _stream_outcome(lambda: list(chatcodec.decode_stream(name, events)), events)
    _stream_outcome(lambda: chatcodec.accumulate_stream(name, events), events)
    _stream_outcome(lambda: chatcodec.accumulate_stream(name, iter(events)), events)


def _nested(depth: int) -> object:
    value: object = "bottom"
    for _ in range(depth):
        value = {"deeper": value}
    return value


@law(_recorded("stream", streaming=True))
def a_value_nested_past_the_depth_limit_in_kept_stream_data_is_a_chatcodec_error(provider: ProviderEntry) -> None:
    """The wire keeps unknown values as they are; the canonical event refuses one nested past
    pydantic-core's depth limit. Decoding says so as a StreamError naming the event, never as a
    bare pydantic error from an event's constructor; accumulating (no events built) finds it
    when the response is validated, as chatcodec's ValidationError. Where a decoder keeps a
    wire value as it is differs by codec: its entry's hook says."""
    recording = provider.stream_events(provider.recorded["stream"][0])
    events, position = provider.deep_kept_value(recording, _nested(400))
    with raises(chatcodec.StreamError) as caught:
        list(chatcodec.decode_stream(provider.name, events))
    error = caught[0]
    assert isinstance(error, chatcodec.StreamError)
    assert error.event_index == position
    assert "recursion_depth_exceeded" in str(error)
    with raises(chatcodec.ValidationError, match="recursion_depth_exceeded"):
        chatcodec.accumulate_stream(provider.name, events)
