"""The edge laws: what every provider's edge says holds together.

Every registered provider has an edge (its folder's ``edge.py``: routes, upstream URL and
headers, stream framing, error shapes), the registry hands out the codec's own, and its
facts agree with each other and with the codec:

- the edge is the codec's, named after it, and ``get_edge`` finds it without the codec;
- every error type it writes or reads stands for its HTTP status (the status table is
  read from the edges, and no two edges give one type two statuses), so a type
  translated through the status comes back to itself;
- the error body it writes is one the codec's response decoder raises with the message
  and status, and one ``read_error`` reads back; the error event it writes in a stream is
  one the codec's stream decoder reads as an error with the message and status;
- for a codec with streams (they are optional), wire events framed its way read back the
  same, whatever the chunking, and its text form (``to_sse``) decodes as the codec's stream;
- a front's routes are absolute paths and read a plain body's model and stream flag; an
  upstream URL starts with the base it is given (both optional: a codec without them
  converts bodies and is neither served nor called by ``chatcodec serve``, as the
  template's edge).
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

import chatcodec
from chatcodec._error_statuses import error_status
from chatcodec._registry import get_edge
from chatcodec.streams._replay import events_from_response
from conformance.providers import PROVIDER_NAMES, STREAMING_NAMES


def _chunks(data: bytes, size: int) -> Iterator[bytes]:
    for start in range(0, len(data), size):
        yield data[start : start + size]


@pytest.mark.parametrize("name", PROVIDER_NAMES)
def test_the_edge_is_the_codecs_and_named_after_it(name: str) -> None:
    codec = chatcodec.get_codec(name)
    edge = get_edge(name)
    assert getattr(codec, "edge", None) is edge
    assert edge.provider == name
    assert edge.response_name.startswith(("a ", "an "))


@pytest.mark.parametrize("name", PROVIDER_NAMES)
def test_every_error_type_the_edge_writes_reads_back_to_its_status(name: str) -> None:
    errors = get_edge(name).errors
    for status, kind in errors.types.items():
        assert error_status(kind, provider=name) == status, (status, kind)
        assert errors.type_for(status) == kind
    assert error_status(errors.server_error, provider=name) >= 500


def test_no_two_edges_give_one_error_type_two_statuses() -> None:
    """The shared status table is read from every edge (``error_statuses``), for a type
    read without its codec, so a type two of these providers share must mean one status in
    both (a codec's own types are read in its namespace first: ``test_error_types.py``)."""
    seen: dict[str, tuple[str, int]] = {}
    for name in PROVIDER_NAMES:
        for kind, status in get_edge(name).errors.statuses().items():
            first = seen.setdefault(kind, (name, status))
            assert first[1] == status, (kind, first, (name, status))


@pytest.mark.parametrize("name", PROVIDER_NAMES)
def test_every_error_type_the_edge_reads_stands_for_its_status(name: str) -> None:
    for kind, status in get_edge(name).errors.reads.items():
        assert error_status(kind, provider=name) == status, (kind, status)


@pytest.mark.parametrize("name", PROVIDER_NAMES)
def test_an_error_body_the_edge_writes_is_read_back_by_the_codec_and_read_error(name: str) -> None:
    errors = get_edge(name).errors
    for status, kind in errors.types.items():
        body = chatcodec.error_body(name, "Slow down", status)
        with pytest.raises(chatcodec.ProviderAPIError) as raised:
            chatcodec.decode_response(name, body)
        assert raised.value.message == "Slow down"
        assert raised.value.status_code in (status, None)  # None: the type travels in a header
        header_type = kind if errors.type_header else None
        read = chatcodec.read_error(name, json.loads(json.dumps(body)), None, header_type)
        assert (read.message, read.error_type, read.status_code) == ("Slow down", kind, status)


@pytest.mark.parametrize("name", STREAMING_NAMES)
def test_an_error_event_the_edge_writes_is_an_error_of_the_codecs_stream(name: str) -> None:
    for status in get_edge(name).errors.types:
        event = chatcodec.error_event(name, "boom", status)
        decoded = list(chatcodec.decode_stream(name, [event]))
        errors = [found for found in decoded if isinstance(found, chatcodec.ErrorEvent)]
        assert [error.message for error in errors] == ["boom"]
        assert error_status(errors[0].error_type) == status


@pytest.mark.parametrize("name", PROVIDER_NAMES)
def test_a_status_the_edge_does_not_list_gets_its_server_or_request_error(name: str) -> None:
    errors = get_edge(name).errors
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


@pytest.mark.parametrize("name", STREAMING_NAMES)
@pytest.mark.parametrize("size", [1, 5, 4096])
def test_a_stream_framed_the_edges_way_reads_back_whatever_the_chunking(name: str, size: int) -> None:
    framed = chatcodec.StreamConverter(name, name, on_loss="ignore")
    data = framed.feed_events(_wire(name)) + framed.close()
    again = b"".join(chatcodec.convert_stream(_chunks(data, size), source=name, target=name, on_loss="ignore"))
    assert again == data
    assert framed.media_type


@pytest.mark.parametrize("name", STREAMING_NAMES)
def test_the_text_form_of_a_stream_decodes_as_the_codecs_stream(name: str) -> None:
    wire = _wire(name)
    text = "".join(chatcodec.to_sse(name, wire))
    assert list(chatcodec.decode_stream(name, text)) == list(chatcodec.decode_stream(name, wire))


@pytest.mark.parametrize("name", PROVIDER_NAMES)
def test_a_front_reads_a_plain_body_and_an_upstream_url_starts_at_its_base(name: str) -> None:
    edge = get_edge(name)
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
