"""Laws on mutated recordings: only chatcodec's own errors, and errors that say where.

* Decoding a mutated request, response or stream (``decode_request``,
  ``decode_response``, ``decode_stream``, ``accumulate_stream``, with the stream given as
  a list of dicts and as an iterator) either succeeds or raises a
  :class:`chatcodec.ChatcodecError`: never a ``KeyError``, ``TypeError``,
  ``RecursionError`` or an SDK-free pydantic error.
* A :class:`chatcodec.ValidationError` names only paths that exist in the input: every
  step of each error's location is in the payload, except the last step of a
  ``missing`` error, which names the absent key of an object that is there.
  A :class:`chatcodec.StreamError` names an event that exists and a path inside it.

The number of examples comes from the Hypothesis profile (short by default; see
``docs/contributing.md``, "Development", for the long run).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import chatcodec
from conformance.mutations import mutated
from conformance.providers import PROVIDER, PROVIDER_NAMES, STREAMING_NAMES

_STEP_MISSING = object()


def _child(node: object, step: int | str) -> object:
    if isinstance(node, dict) and isinstance(step, str):
        return node.get(step, _STEP_MISSING)
    if isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
        return node[step]
    return _STEP_MISSING


def _location_exists(root: object, location: tuple[int | str, ...], missing: bool) -> bool:
    node = root
    for position, step in enumerate(location):
        child = _child(node, step)
        if child is _STEP_MISSING:
            return missing and position == len(location) - 1 and isinstance(node, dict)
        node = child
    return True


KNOWN_PATH_BUGS: dict[str, str] = {}
"""Error types whose paths the law does not check yet for any provider, each with its bug
(fix it, then delete the entry); a provider's own are its entry's ``known_path_bugs``."""


def _known_bug(provider: str, detail: Any) -> bool:
    first = detail["loc"][0] if detail["loc"] else None
    own = PROVIDER[provider].known_path_bugs
    return detail["type"] in KNOWN_PATH_BUGS or (detail["type"], first) in own or (detail["type"], None) in own


def _assert_paths_exist(error: chatcodec.ValidationError, payload: object, provider: str) -> None:
    for detail in error.errors(include_url=False):
        if _known_bug(provider, detail):
            continue
        location = detail["loc"]
        assert _location_exists(payload, location, detail["type"] == "missing"), (location, str(error))


def _assert_stream_error_points_into(error: chatcodec.StreamError, events: list[Any]) -> None:
    if error.event_index is not None:
        assert 0 <= error.event_index < len(events), str(error)
    assert error.path.startswith("$"), str(error)


def _decodes_or_says_where(decode: Callable[[], object], payload: object, provider: str) -> None:
    try:
        decode()
    except chatcodec.ValidationError as error:
        _assert_paths_exist(error, payload, provider)
    except chatcodec.ChatcodecError:
        pass  # chatcodec's own error: what it says is covered by the per-provider error tests


def _recordings(name: str, kind: str) -> st.SearchStrategy[object]:
    provider = PROVIDER[name]
    if kind == "stream":
        return st.sampled_from(provider.recorded["stream"]).map(provider.stream_events)
    return st.sampled_from(provider.recorded[kind]).map(lambda file: provider.load(kind, file))


@given(data=st.data())
@pytest.mark.parametrize("name", PROVIDER_NAMES)
def test_mutated_request_raises_only_chatcodec_errors_with_real_paths(name: str, data: st.DataObject) -> None:
    payload = data.draw(_recordings(name, "request").flatmap(mutated), "payload")
    _decodes_or_says_where(lambda: chatcodec.decode_request(name, payload), payload, name)


@given(data=st.data())
@pytest.mark.parametrize("name", PROVIDER_NAMES)
def test_mutated_response_raises_only_chatcodec_errors_with_real_paths(name: str, data: st.DataObject) -> None:
    payload = data.draw(_recordings(name, "response").flatmap(mutated), "payload")
    _decodes_or_says_where(lambda: chatcodec.decode_response(name, payload), payload, name)


def _stream_outcome(run: Callable[[], object], events: list[Any]) -> None:
    try:
        run()
    except chatcodec.StreamError as error:
        _assert_stream_error_points_into(error, events)
    except chatcodec.ChatcodecError:
        pass


@given(data=st.data())
@pytest.mark.parametrize("name", STREAMING_NAMES)
def test_mutated_stream_raises_only_chatcodec_errors(name: str, data: st.DataObject) -> None:
    events = data.draw(_recordings(name, "stream").flatmap(mutated), "events")
    if not isinstance(events, list):
        events = [events]  # the whole stream replaced by one odd value: a stream of that value
    _stream_outcome(lambda: list(chatcodec.decode_stream(name, events)), events)
    _stream_outcome(lambda: chatcodec.accumulate_stream(name, events), events)
    _stream_outcome(lambda: chatcodec.accumulate_stream(name, iter(events)), events)


def _nested(depth: int) -> object:
    value: object = "bottom"
    for _ in range(depth):
        value = {"deeper": value}
    return value


@pytest.mark.parametrize("name", STREAMING_NAMES)
def test_a_value_nested_past_the_depth_limit_in_kept_stream_data_is_a_chatcodec_error(name: str) -> None:
    # The wire keeps unknown values as they are; the canonical event refuses one nested
    # past pydantic-core's depth limit. Decoding says so as a StreamError naming the event,
    # never as a bare pydantic error from an event's constructor; accumulating (no events
    # built) finds it when the response is validated, as chatcodec's ValidationError.
    # Where a decoder keeps a wire value as it is differs by provider: its entry's hook says.
    recording = PROVIDER[name].stream_events(PROVIDER[name].recorded["stream"][0])
    events, position = PROVIDER[name].deep_kept_value(recording, _nested(400))
    with pytest.raises(chatcodec.StreamError) as caught:
        list(chatcodec.decode_stream(name, events))
    assert caught.value.event_index == position
    assert "recursion_depth_exceeded" in str(caught.value)
    with pytest.raises(chatcodec.ValidationError, match="recursion_depth_exceeded"):
        chatcodec.accumulate_stream(name, events)
