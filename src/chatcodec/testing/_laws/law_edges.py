"""The edge laws: what a codec's edge says holds together.

A codec with an edge (routes, upstream URL and headers, stream framing, error shapes):

- the edge is the codec's and named after it;
- every error type it writes or reads stands for its HTTP status in the codec's own
  vocabulary (error types are namespaced per codec: another codec may give a type it
  shares another status), so a type translated through the status comes back to itself;
- the error body it writes is one the codec's response decoder raises with the message
  and status, and one ``read_error`` reads back; the error event it writes in a stream is
  one the codec's stream decoder reads as an error with the message and status;
- for a codec with streams (they are optional), wire events framed its way read back the
  same, whatever the chunking, and its text form (``to_sse``) decodes as the codec's stream;
- a front's routes are absolute paths and read a plain body's model and stream flag; an
  upstream URL starts with the base it is given (both optional: a codec without them
  converts bodies and is neither served nor called by ``chatcodec serve``);
- a front that lists models writes a JSON object for any names; a front that counts tokens
  is an API whose upstream side counts too, and reads its own count back; an upstream's
  count URL starts with its base.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import chatcodec
from chatcodec.testing._laws.edges import edge_of, status_of, the_edge
from chatcodec.testing._laws.registry import law, raises
from chatcodec.testing._laws.suite import Suite
from chatcodec.testing._replay import events_from_response


def _edged(suite: Suite) -> list[str]:
    return [name for name in suite.names if edge_of(name) is not None]


def _edged_streaming(suite: Suite) -> list[str]:
    return [entry.name for entry in suite.streaming if edge_of(entry.name) is not None]


def _chunks(data: bytes, size: int) -> Iterator[bytes]:
    for start in range(0, len(data), size):
        yield data[start : start + size]


@law(_edged)
def the_edge_is_the_codecs_and_named_after_it(name: str) -> None:
    edge = the_edge(name)
    assert edge.provider == name
    assert edge.response_name.startswith(("a ", "an "))


@law(_edged)
def every_error_type_the_edge_writes_reads_back_to_its_status(name: str) -> None:
    errors = the_edge(name).errors
    for status, kind in errors.types.items():
        assert status_of(kind, name) == status, (status, kind)
        assert errors.type_for(status) == kind
    assert status_of(errors.server_error, name) >= 500


@law(_edged)
def every_error_type_the_edge_reads_stands_for_its_status(name: str) -> None:
    for kind, status in the_edge(name).errors.reads.items():
        assert status_of(kind, name) == status, (kind, status)


@law(_edged)
def an_error_body_the_edge_writes_is_read_back_by_the_codec_and_read_error(name: str) -> None:
    errors = the_edge(name).errors
    for status, kind in errors.types.items():
        body = chatcodec.error_body(name, "Slow down", status)
        with raises(chatcodec.ProviderAPIError) as raised:
            chatcodec.decode_response(name, body)
        error = raised[0]
        assert isinstance(error, chatcodec.ProviderAPIError)
        assert error.message == "Slow down"
        assert error.status_code in (status, None)  # None: the type travels in a header
        header_type = kind if errors.type_header else None
        read = chatcodec.read_error(name, json.loads(json.dumps(body)), None, header_type)
        assert (read.message, read.error_type, read.status_code) == ("Slow down", kind, status)


@law(_edged_streaming)
def an_error_event_the_edge_writes_is_an_error_of_the_codecs_stream(name: str) -> None:
    for status in the_edge(name).errors.types:
        event = chatcodec.error_event(name, "boom", status)
        decoded = list(chatcodec.decode_stream(name, [event]))
        errors = [found for found in decoded if isinstance(found, chatcodec.ErrorEvent)]
        assert [error.message for error in errors] == ["boom"]
        assert status_of(errors[0].error_type, name) == status


@law(_edged)
def a_status_the_edge_does_not_list_gets_its_server_or_request_error(name: str) -> None:
    errors = the_edge(name).errors
    for status in (418, 599, 200):
        if status not in errors.types:
            assert errors.type_for(status) == (errors.server_error if status != 418 else errors.types.get(400, "error"))


def _wire(name: str) -> list[dict[str, object]]:
    response = chatcodec.ChatResponse.model_validate(
        {
            "id": "r1",
            "model": "m",
            "choices": [
                {"message": {"role": "assistant", "content": "hé ✓ [DONE]"}, "finish_reason": {"unified": "stop"}}
            ],
        }
    )
    return list(chatcodec.encode_stream(name, events_from_response(response), on_loss="ignore"))


@law(lambda suite: [(name, size) for name in _edged_streaming(suite) for size in (1, 5, 4096)])
def a_stream_framed_the_edges_way_reads_back_whatever_the_chunking(name: str, size: int) -> None:
    framed = chatcodec.StreamConverter(name, name, on_loss="ignore")
    data = framed.feed_events(_wire(name)) + framed.close()
    again = b"".join(chatcodec.convert_stream(_chunks(data, size), source=name, target=name, on_loss="ignore"))
    assert again == data
    assert framed.media_type


@law(_edged_streaming)
def the_text_form_of_a_stream_decodes_as_the_codecs_stream(name: str) -> None:
    wire = _wire(name)
    text = "".join(chatcodec.to_sse(name, wire))
    assert list(chatcodec.decode_stream(name, text)) == list(chatcodec.decode_stream(name, wire))


@law(_edged)
def a_front_reads_a_plain_body_and_an_upstream_url_starts_at_its_base(name: str) -> None:
    edge = the_edge(name)
    if edge.front is not None:
        assert edge.front.routes
        assert all(route.startswith("/") for route in edge.front.routes)
        assert edge.front.caller_key({"authorization": "Bearer k1"}, {}) == "k1"
    if edge.upstream is not None:
        for stream in (False, True):
            assert edge.upstream.url("https://example.test/base", "m-1", stream).startswith(
                "https://example.test/base/"
            )
        assert edge.upstream.key_env


def _listing(suite: Suite) -> list[str]:
    return [name for name in _edged(suite) if (front := the_edge(name).front) is not None and front.models is not None]


def _counting(suite: Suite) -> list[str]:
    fronts = [(name, the_edge(name).front) for name in _edged(suite)]
    return [name for name, front in fronts if front is not None and front.count_tokens is not None]


def _counted(suite: Suite) -> list[str]:
    upstreams = [(name, the_edge(name).upstream) for name in _edged(suite)]
    return [name for name, upstream in upstreams if upstream is not None and upstream.count_tokens is not None]


@law(_listing)
def a_model_list_is_json_for_any_names(name: str) -> None:
    front = the_edge(name).front
    assert front is not None
    assert front.models is not None
    assert all(route.startswith("/") for route in front.models.routes)
    for names in ([], ["a-model"], ["one", "two/with-slash"]):
        body = front.models.write(names)
        assert json.loads(json.dumps(body)) == body
        assert str(names[-1] if names else "") in json.dumps(body)


@law(_counting)
def a_front_that_counts_tokens_reads_its_own_count_back(name: str) -> None:
    edge = the_edge(name)
    assert edge.front is not None
    assert edge.front.count_tokens is not None
    assert all(route.startswith("/") for route in edge.front.count_tokens.routes)
    assert edge.upstream is not None
    assert edge.upstream.count_tokens is not None, "a count offered is a count called"
    assert edge.upstream.count_tokens.read(edge.front.count_tokens.write(1234)) == 1234


@law(_counted)
def an_upstream_count_url_starts_with_its_base(name: str) -> None:
    upstream = the_edge(name).upstream
    assert upstream is not None
    assert upstream.count_tokens is not None
    assert upstream.count_tokens.url("https://example.test/base", "a-model").startswith("https://example.test/base/")
    body = upstream.count_tokens.body({"model": "a-model", "messages": [], "stream": True}, "a-model")
    assert "stream" not in json.dumps(body)
