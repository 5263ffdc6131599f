"""Detection laws, over every recorded body and every registered format.

Each format's marks are read from its own wire description (``Edge.detection``: its
top-level keys from the SDK kinds, wire shapes and documented extensions, its roles),
so a mark no longer says "only this format lists it, so no other format holds it". Two
laws follow and are checked here:

- every recording is a body of its own format: ``convert --from <its format>`` never
  refuses it, and where its marks fit several formats its own is among them;
- registering a codec changes no detection verdict on another provider's recordings
  (a trial seventh provider whose hand-listed marks excluded every other format broke 57
  tests; one described by its wire changes nothing).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

import chatcodec
from chatcodec import _detect as detect
from chatcodec._codec_protocols import Codec
from chatcodec._providers.contract.detection import Detection, _module_shapes
from chatcodec._providers.contract.edge import Edge, ErrorShape, StreamFraming, read_nested_error
from chatcodec._registry import registered_providers

FIXTURES = Path(__file__).parent / "fixtures"


def _recordings() -> Iterator[tuple[str, Path]]:
    for name in registered_providers():
        for path in sorted((FIXTURES / name).rglob("*.json")):
            yield name, path


RECORDINGS = list(_recordings())


def _verdicts() -> dict[Path, tuple[str | None, str | None]]:
    bodies = {path: json.loads(path.read_text(encoding="utf-8")) for _, path in RECORDINGS}
    return {path: (detect.detect(bodies[path]), detect.mismatch(name, bodies[path])) for name, path in RECORDINGS}


_TRIAL = "trial-chat"
"""A fictitious format described only by its wire's top-level keys and roles: Cohere's v2
chat's (https://docs.cohere.com/reference/chat, the trial seventh provider) and one key
of its own, :data:`_OWN_KEY`, so a body holding it is this format's even when a real
codec of the same wire is registered (a trial Cohere codec broke the test that named
Cohere's ``safety_mode`` as this format's alone)."""

_OWN_KEY = "trial_mode"
"""The one top-level key no registered format describes."""

_COHERE_KEYS = (
    *("model", "messages", "tools", "documents", "citation_options", "response_format", "safety_mode"),
    *("max_tokens", "stop_sequences", "temperature", "seed", "frequency_penalty", "presence_penalty"),
    *("k", "p", "logprobs", "tool_choice", "thinking", "strict_tools", "stream", "priority"),
    *("id", "finish_reason", "message", "usage"),
    _OWN_KEY,
)


def _write_error(message: str, status: int, kind: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": kind}}


class _TrialCodec:
    """A codec holding only its name and edge: detection reads nothing else of it."""

    name = _TRIAL
    edge = Edge(
        _TRIAL,
        response_name="a trial response",
        framing=StreamFraming(),
        errors=ErrorShape({400: "invalid_request_error"}, "server_error", _write_error, read_nested_error),
        detection=Detection(keys=_COHERE_KEYS, roles=("system", "user", "assistant", "tool")),
    )


@pytest.fixture
def trial_codec() -> Iterator[str]:
    chatcodec.register_codec(_TRIAL, lambda: cast("Codec", _TrialCodec()))
    try:
        yield _TRIAL
    finally:
        chatcodec.unregister_codec(_TRIAL)


@pytest.mark.parametrize(("name", "path"), RECORDINGS, ids=lambda value: getattr(value, "name", value))
def test_every_recording_fits_its_own_format(name: str, path: Path) -> None:
    body = json.loads(path.read_text(encoding="utf-8"))
    assert detect.mismatch(name, body) is None
    found = detect.markers(body)
    assert not found or name in detect.fitting(found)


def test_a_recording_detected_as_another_format_is_one_its_marks_cannot_tell_apart() -> None:
    """Where ``detect`` names another format, the recording fits both (an Ollama request
    made of OpenAI Chat's fields, an error body every JSON API writes alike)."""
    for name, path in RECORDINGS:
        body = json.loads(path.read_text(encoding="utf-8"))
        verdict = detect.detect(body)
        if verdict not in (None, name):
            fits = detect.fitting(detect.markers(body))
            assert fits.index(verdict) < fits.index(name), path


def test_registering_a_codec_changes_no_detection_verdict_on_another_providers_recordings(trial_codec: str) -> None:
    chatcodec.unregister_codec(trial_codec)
    before = _verdicts()
    chatcodec.register_codec(trial_codec, lambda: cast("Codec", _TrialCodec()))
    assert trial_codec in detect.known_formats()
    assert _verdicts() == before


def test_a_registered_format_is_detected_by_its_own_keys(trial_codec: str) -> None:
    body = {"model": "command-a", "messages": [{"role": "user", "content": "hi"}], _OWN_KEY: "OFF", "k": 5}
    assert detect.detect(body) == trial_codec
    assert detect.mismatch(trial_codec, body) is None
    assert detect.mismatch("openai-chat", body) is not None


def test_a_mark_every_format_holds_is_no_marker() -> None:
    """A user turn and a model name tell no format apart: such a body has no markers
    only when every format holds them (then it is read as given)."""
    assert detect.markers([{"role": "user", "content": "hi"}]) == []
    assert all("'user' role" not in marker.found for marker in detect.markers({"messages": [{"role": "user"}]}))


@pytest.mark.parametrize("package", ["bedrock_converse", "bedrock_nova"])
def test_a_wire_shape_taken_from_the_family_is_read_from_the_family(package: str) -> None:
    """The AWS folders' ``ErrorBody`` is ``families/aws/blocks.py``'s, imported by their
    ``wire.py``: its ``message`` is one of their keys without a hand-written ``keys=``."""
    detection = Detection(package=f"chatcodec._providers.{package}")
    keys = detection.held().keys
    assert "message" in keys
    assert "messages" in keys  # the folder's own Request shape still counts
    own_classes, imported = _module_shapes(f"chatcodec._providers.{package}.wire")
    assert "ErrorBody" not in own_classes  # so "message" came from the family's shape
    assert imported["ErrorBody"] == ("chatcodec._providers.families.aws.blocks", "ErrorBody")


def test_each_mark_in_a_message_is_said_in_words_naming_its_message() -> None:
    """The marks found in messages are put in words only when asked (a row of ``chatcodec
    convert`` is checked by its marks alone, and is nearly always its format): the words
    name what was found and the message holding it, the first mark against the format
    named in its refusal, whether it sits at the top level or in a message."""
    body: dict[str, Any] = {
        "model": "m",
        "messages": [
            {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}]},
            {
                "role": "user",
                "content": [{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"}}],
            },
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "t", "signature": "s"},
                    {"type": "tool_use", "id": "t1", "name": "f", "input": {}},
                ],
            },
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}, {"text": "untyped"}],
            },
            {"role": "model", "parts": [{"text": "x"}]},
            {"role": "tool", "content": [{"type": "text", "text": "r"}]},
            {"role": "assistant", "content": None, "tool_calls": []},
        ],
    }
    assert [marker.found for marker in detect.markers(body)] == [
        "a top-level 'messages'",
        "a top-level 'model'",
        "a 'image_url' part (message 0)",
        "an 'image' block with a 'source' (message 1)",
        "a 'thinking' block (message 2)",
        "a 'tool_use' block (message 2)",
        "a 'tool_result' block (message 3)",
        "a content block with no 'type' (message 3)",
        "a 'model' role or 'parts' (message 4)",
        "a 'tool' role (message 5)",
        "tool results as parts (message 5)",
        "'tool_calls' (message 6)",
    ]
    against_chat = detect.mismatch("openai-chat", body)
    assert against_chat is not None
    assert against_chat.startswith(
        "this is not openai-chat input: it has an 'image' block with a 'source' (message 1),"
    )
    against_gemini = detect.mismatch("gemini", body)
    assert against_gemini is not None
    assert against_gemini.startswith("this is not gemini input: it has a top-level 'messages',")
    plain = {
        "model": "m",
        "messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "u"}}]}],
    }
    assert detect.mismatch("openai-chat", plain) is None


def test_a_formats_wire_modules_are_each_parsed_once_while_its_keys_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading a format's top-level keys parses each module its shapes come from once (a
    ``wire.py`` names several shapes and bases: parsing it again for each was most of what
    ``chatcodec convert`` paid before its first row); the verdicts are the laws above."""
    from chatcodec._providers.contract import detection
    from chatcodec._registry import get_edge

    parsed: list[str] = []

    def counted(module: str) -> tuple[dict[str, Any], dict[str, tuple[str, str]]]:
        parsed.append(module)
        return _module_shapes(module)

    monkeypatch.setattr(detection, "_module_shapes", counted)
    read = 0
    for name in registered_providers():
        described = get_edge(name).detection
        if described is None or described.package is None:
            continue
        parsed.clear()
        assert described.held().keys, name
        assert f"chatcodec._providers.{described.package.rsplit('.', 1)[-1]}.wire" in parsed, name
        assert len(parsed) == len(set(parsed)), (name, parsed)
        read += 1
    assert read >= 5
