"""Codecs and stream converters pickle, so an engine can ship them to its workers."""

from __future__ import annotations

import pickle

import pytest

import chatcodec
from chatcodec._registry import available_formats, get_codec

_OPENAI_STREAM = (
    b'data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,'
    b'"delta":{"role":"assistant","content":"hi"},"finish_reason":null}]}\n\n'
    b'data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,'
    b'"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
)


@pytest.mark.parametrize("name", available_formats())
def test_a_codec_pickles_as_its_name_and_unpickles_as_the_same_codec(name: str) -> None:
    codec = get_codec(name)
    pickled = pickle.dumps(codec)
    assert len(pickled) < 200  # the name, not the role modules it holds
    assert pickle.loads(pickled) is codec


def test_a_fresh_stream_converter_pickles_and_the_copy_converts_as_the_original() -> None:
    original = chatcodec.StreamConverter("openai-chat", "anthropic", on_loss="ignore")
    copy = pickle.loads(pickle.dumps(original))
    assert isinstance(copy, chatcodec.StreamConverter)
    assert copy.feed(_OPENAI_STREAM) + copy.close() == original.feed(_OPENAI_STREAM) + original.close()
    assert copy.media_type == original.media_type


def test_a_stream_converter_mid_stream_refuses_to_pickle() -> None:
    converter = chatcodec.StreamConverter("openai-chat", "anthropic", on_loss="ignore")
    converter.feed(_OPENAI_STREAM)
    with pytest.raises(pickle.PicklingError, match="before the stream starts"):
        pickle.dumps(converter)
