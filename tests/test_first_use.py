"""First use: a fresh process's ``import chatcodec`` and one request
conversion load no canonical model.

A conversion builds no model, so loading the models (``chatcodec._model.messages`` and the
modules it pulls in, about 100 ms) or pydantic (about 70 ms) for it is pure start-up
cost: the API imports its model, stream and strict helpers where they are used, and the
OpenAI Chat field decoders live in ``request_fields.py``, which imports no model.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import get_args

import pytest

import chatcodec
from chatcodec._model.request import ReasoningEffort
from chatcodec._providers.openai_chat import settings

SOURCE = Path(chatcodec.__file__).parent.parent
"""The tree under test (the worktree's ``src`` when it comes first on the path)."""

_BODY = {
    "model": "gpt-4o",
    "messages": [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": "weather in Paris?"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "weather", "arguments": '{"city":"Paris"}'}}
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "sunny"},
    ],
    "tools": [{"type": "function", "function": {"name": "weather", "parameters": {"type": "object"}}}],
    "tool_choice": "auto",
    "max_completion_tokens": 100,
    "stop": "END",
}

_PROBE = textwrap.dedent(
    """
    import json, sys
    import chatcodec

    body = json.loads(sys.argv[1])
    converted = chatcodec.convert_request(body, source="openai-chat", target="anthropic", on_loss="ignore")
    loaded = sorted(name for name in sys.modules if name == "pydantic" or name.startswith("chatcodec"))
    print(json.dumps({"converted": converted, "loaded": loaded}))
    """
)

_MODELS = (
    "chatcodec._model.messages",
    "chatcodec._model.content",
    "chatcodec._model.request",
    "chatcodec._model.response",
    "pydantic",
)


def _probe() -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(SOURCE)!r})\n{_PROBE}", json.dumps(_BODY)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    found: dict[str, object] = json.loads(result.stdout)
    return found


def test_a_conversion_in_a_fresh_process_loads_no_canonical_model() -> None:
    found = _probe()
    loaded = found["loaded"]
    assert isinstance(loaded, list)
    assert [name for name in _MODELS if name in loaded] == []
    assert not any(name.startswith(("chatcodec._strict.fields", "chatcodec.stream")) for name in loaded)


def test_the_fresh_process_converts_as_the_general_path_does() -> None:
    """The light start changes nothing: the output is what a process that has loaded the
    models and strict mode gives."""
    expected = chatcodec.convert_request(_BODY, source="openai-chat", target="anthropic", on_loss="ignore", strict=True)
    assert _probe()["converted"] == expected


def test_the_effort_values_spelled_out_are_the_canonical_type() -> None:
    """``settings.EFFORTS`` spells out :data:`~chatcodec._model.request.ReasoningEffort` so the
    decoder loads no model; a value added to the type must be added there too."""
    assert get_args(ReasoningEffort) == settings.EFFORTS


_CLI_PROBE = textwrap.dedent(
    """
    import json, sys
    from chatcodec.cli import main

    code = main(sys.argv[1:])
    sys.stdout.flush()
    loaded = sorted(name for name in sys.modules if name.startswith(("chatcodec", "pydantic", "multiprocessing")))
    sys.stderr.write(json.dumps({"code": code, "loaded": loaded}))
    """
)


def test_chatcodec_convert_of_request_lines_loads_no_model_and_no_process_pool(tmp_path: Path) -> None:
    """``chatcodec convert --workers 1`` of JSON lines of requests starts
    without the models (only ``validate`` and ``schema`` need them) and without
    multiprocessing (only ``--workers`` above 1 needs it)."""
    source, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    source.write_text(json.dumps(_BODY) + "\n" + json.dumps(_BODY) + "\n")
    command = [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(SOURCE)!r})\n{_CLI_PROBE}"]
    command += ["convert", str(source), "--from", "openai-chat", "--to", "anthropic", "--quiet", "--out", str(out)]
    result = subprocess.run(command, capture_output=True, text=True, check=True, timeout=60)
    found = json.loads(result.stderr[result.stderr.index('{"code"') :])
    assert found["code"] == 0
    assert len(out.read_text().splitlines()) == 2
    loaded = found["loaded"]
    assert [name for name in (*_MODELS, "chatcodec.batch._parallel", "multiprocessing") if name in loaded] == []


# --- what a fresh process's first conversion imports, per pair ---------------------------------

_PAIRS = (
    ("openai-chat", "anthropic"),
    ("anthropic", "openai-chat"),
    ("openai-chat", "openai-responses"),
    ("openai-responses", "openai-chat"),
    ("openai-chat", "gemini"),
    ("gemini", "openai-chat"),
    ("openai-chat", "bedrock-converse"),
    ("bedrock-converse", "openai-chat"),
)

_PAIR_PROBE = textwrap.dedent(
    """
    import json, sys
    import chatcodec

    source, target, body = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    chatcodec.convert_request(body, source=source, target=target, on_loss="ignore")
    mimetypes = sys.modules.get("mimetypes")
    print(json.dumps({"loaded": sorted(sys.modules), "mime_table_read": bool(mimetypes and mimetypes.inited)}))
    """
)

_NOT_FOR_A_CONVERSION = (
    "chatcodec._providers.contract.edge",
    "chatcodec._providers.contract.detection",
    "chatcodec._providers.contract.structure",
    "hashlib",
    "pickle",
    "annotated_types",
    *_MODELS,
)
"""What a conversion does not need and a fresh process's first one must not import (each
costs that conversion millions of instructions, `bench/first_use.py`): the HTTP facts of
the edges and the conversation shapes strict mode reads (the codec imports its ``edge.py``
and ``structure.py`` when they are first read), OpenSSL (only an id or name too long, or a
sealed reasoning item, is hashed), pickle (only a refusal to pickle names it), pydantic's
``annotated_types`` (a wire constraint is built with the adapter that needs it), and the
canonical models."""


@pytest.mark.parametrize(("source", "target"), _PAIRS)
def test_a_first_conversion_imports_no_edge_no_structure_and_nothing_it_does_not_use(source: str, target: str) -> None:
    body = (
        _BODY
        if source == "openai-chat"
        else chatcodec.convert_request(_BODY, source="openai-chat", target=source, on_loss="ignore")
    )
    command = [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(SOURCE)!r})\n{_PAIR_PROBE}"]
    result = subprocess.run([*command, source, target, json.dumps(body)], capture_output=True, text=True, check=True)
    found = json.loads(result.stdout)
    loaded = set(found["loaded"])
    unwanted = set(_NOT_FOR_A_CONVERSION)
    assert sorted(loaded & unwanted) == []
    assert not [
        name for name in loaded if name.startswith("chatcodec._providers.") and name.endswith((".edge", ".structure"))
    ]
    assert not found["mime_table_read"], "the system's mime.types was read for a body that names no file"
    if source == "openai-chat":  # the source's reader, and a target other than OpenAI Chat, ask no server:
        # the option names their records set live apart (server_options.py); 52-77 M of a first conversion
        servers = {f"chatcodec._providers.{folder}.servers" for folder in ("openai_chat", "anthropic")}
        assert sorted(loaded & servers) == []


_STREAM_PROBE = textwrap.dedent(
    """
    import json, sys
    import chatcodec

    with open(sys.argv[1], "rb") as file:
        body = file.read()
    b"".join(chatcodec.convert_stream(body, source="anthropic", target="openai-chat", on_loss="ignore"))
    from chatcodec._providers.anthropic import stream_decode, wire

    built = [kind for kind, adapter in stream_decode._EVENT_ADAPTERS.items() if adapter.pydantic_complete]
    made = wire.adapter.cache_info().currsize - len(stream_decode._EVENT_ADAPTERS)  # the union's, for an error
    print(json.dumps({"loaded": sorted(sys.modules), "built": built, "made": made}))
    """
)


@pytest.mark.parametrize(
    "recorded", ["text_basic.sse", "thinking_signature_delta.sse", "tool_use_input_json_delta.sse"]
)
def test_a_first_stream_builds_no_wire_adapter_and_imports_no_pickle_and_no_edge(recorded: str) -> None:
    """A recorded Anthropic stream of the common events is checked by the closed schema of
    ``stream_shapes.py`` alone (a ``TypeAdapter`` of the wire's block union was most of a
    first stream's conversion), a converter that is never pickled loads no pickle, and the
    framing is read from the folders' ``stream_framing.py`` without their edges (whose
    frozen dataclasses cost a first stream about 57 M instructions), and neither codec's
    request roles, nor the servers OpenAI Chat's rules check a body's ranges against, nor the
    response and message models (an event's finish reason and usage are in ``response_fields``)."""
    path = Path(__file__).parent / "fixtures" / "anthropic" / "stream" / recorded
    command = [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(SOURCE)!r})\n{_STREAM_PROBE}"]
    found = json.loads(subprocess.run([*command, str(path)], capture_output=True, text=True, check=True).stdout)
    assert found["built"] == []
    assert found["made"] == 0
    assert "pickle" not in found["loaded"]
    loaded = set(found["loaded"])
    assert "chatcodec._providers.contract.edge" not in loaded
    assert {
        "chatcodec._providers.anthropic.stream_framing",
        "chatcodec._providers.openai_chat.stream_framing",
    } <= loaded
    assert not [name for name in loaded if name.startswith("chatcodec._providers.") and name.endswith(".edge")]
    request_roles = [name for name in loaded if name.endswith((".request", ".dialect")) and "._providers." in name]
    assert request_roles == []  # a stream reads no request role of either codec
    assert "chatcodec._providers.openai_chat.servers" not in loaded  # the rules' range check imports it (47 M)
    assert {"chatcodec._model.messages", "chatcodec._model.response"}.isdisjoint(loaded)  # the events hold neither
    # the events travel as records (issue 60, lever 5): no pydantic, no event model, no plugin scan
    assert {"pydantic", "chatcodec._model.stream_events", "importlib.metadata"}.isdisjoint(loaded)


def _chunk(choice: dict[str, object], usage: dict[str, int] | None = None) -> bytes:
    """One ``chat.completion.chunk`` in the common shape (the OpenAI API reference's chunk
    object: envelope, one choice, ``usage`` null but on the last chunk)."""
    chunk = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "created": 1754688908, "model": "gpt-4o"}
    chunk |= {"system_fingerprint": "fp_1", "choices": [choice] if choice else [], "usage": usage}
    return b"data: " + json.dumps(chunk).encode() + b"\n\n"


_CALL = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "weather", "arguments": ""}}
_OPENAI_STREAM = b"".join(
    (
        _chunk({"index": 0, "delta": {"role": "assistant", "content": ""}, "logprobs": None, "finish_reason": None}),
        *(_chunk({"index": 0, "delta": {"content": word}, "finish_reason": None}) for word in ("It ", "is ", "sunny")),
        _chunk({"index": 0, "delta": {"tool_calls": [_CALL]}, "finish_reason": None}),
        _chunk({"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": '{"city":1}'}}]}}),
        _chunk({"index": 0, "delta": {}, "finish_reason": "tool_calls"}),
        _chunk({}, {"prompt_tokens": 14, "completion_tokens": 8, "total_tokens": 22}),
        b"data: [DONE]\n\n",
    )
)


def test_a_first_stream_from_openai_chat_imports_no_pydantic(tmp_path: Path) -> None:
    """The other way, OpenAI Chat to Anthropic, the same for chunks of the common shapes (the
    closed chunk schema's: text, a tool call, the finish, plain counts): a stream's events
    are records from the decoder to the encoder, the public models built only at the
    public API. (A chunk the closed schema leaves, as most recorded ones do with their
    ``obfuscation`` or usage details, is checked by the wire adapter, which imports pydantic.)"""
    path = tmp_path / "stream.sse"
    path.write_bytes(_OPENAI_STREAM)
    probe = textwrap.dedent(
        """
        import json, sys
        import chatcodec

        with open(sys.argv[1], "rb") as file:
            body = file.read()
        written = b"".join(chatcodec.convert_stream(body, source="openai-chat", target="anthropic", on_loss="ignore"))
        print(json.dumps({"loaded": sorted(sys.modules), "written": written.decode()}))
        """
    )
    command = [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(SOURCE)!r})\n{probe}"]
    found = json.loads(subprocess.run([*command, str(path)], capture_output=True, text=True, check=True).stdout)
    assert "input_json_delta" in found["written"]  # the stream was converted, its call too
    assert {"pydantic", "chatcodec._model.stream_events", "importlib.metadata"}.isdisjoint(found["loaded"])
    # each chunk's "usage": null is a field the SDK types: the compatible servers' rows (the edge
    # imports every server, 153 M of a first stream's 606 M) are asked only for a key the SDK
    # lacks, and the SDK's field file is read by the package's loader (importlib.resources: 28 modules)
    loaded = set(found["loaded"])
    assert not [name for name in loaded if name.startswith("chatcodec._providers.") and name.endswith(".edge")]
    assert {"chatcodec._providers.openai_chat.servers", "importlib.resources"}.isdisjoint(loaded)
