"""A process's first ``render`` (issue 107, "first use"): a list of messages is read without the
wire readers and validated once; the canonical path stays the oracle (same request, same ids,
same losses)."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec import ChatRequest, validate_messages
from chatcodec._losses import LossRecorder
from chatcodec._training import reading
from training.qwen3_tokenizer import qwen3_encoding, qwen_ranks_with_llama_markers

SOURCE = Path(chatcodec.__file__).parent.parent
"""The tree under test (the worktree's ``src`` when it comes first on the path)."""

TOOLS = [{"type": "function", "function": {"name": "bash", "parameters": {"type": "object"}}}]

AGENT_LOOP: list[dict[str, Any]] = [
    {"role": "system", "content": "You are a coding agent."},
    {"role": "user", "content": "Fix the failing test."},
    {
        "role": "assistant",
        "content": "",
        "reasoning_content": "Run the tests first.",
        "tool_calls": [
            {"id": "call_0", "type": "function", "function": {"name": "bash", "arguments": '{"cmd": "pytest -x"}'}}
        ],
    },
    {"role": "tool", "tool_call_id": "call_0", "content": "1 failed"},
    {"role": "assistant", "content": "Found it: an off-by-one.", "reasoning_content": "The loop ends early."},
]
"""OpenAI-shaped messages with reasoning, a call and its result, as agents keep them."""

LOSSY: list[dict[str, Any]] = [
    {
        "role": "user",
        "content": [{"type": "text", "text": "hi"}, {"type": "image_url", "image_url": {"url": "https://x/y.png"}}],
    },
    {"role": "assistant", "content": "hello", "refusal": None},
]
"""Messages with a part a text template cannot show (a loss both paths must name alike)."""


@pytest.mark.parametrize("messages", [AGENT_LOOP, LOSSY], ids=["agent-loop", "lossy"])
def test_a_list_of_messages_is_read_as_the_canonical_request_of_its_messages(messages: list[dict[str, Any]]) -> None:
    read = reading.read_input(messages, None, LossRecorder())
    oracle = ChatRequest(messages=validate_messages(messages))
    assert read.request == oracle
    assert read.request.model_dump(mode="json") == oracle.model_dump(mode="json")
    assert read.request.model_fields_set == oracle.model_fields_set


@pytest.mark.parametrize("family", ["qwen3-training", "qwen3", "llama3.1"])
@pytest.mark.parametrize("messages", [AGENT_LOOP, LOSSY], ids=["agent-loop", "lossy"])
def test_a_list_renders_as_its_validated_canonical_request_renders(family: str, messages: list[dict[str, Any]]) -> None:
    """The canonical path as the oracle: same text, ids, mask, owners and losses."""
    options: dict[str, Any] = {
        "template": family,
        "tools": TOOLS,
        "tokenizer": qwen_ranks_with_llama_markers() if family == "llama3.1" else qwen3_encoding(),
        "train_on": "all_assistant_messages",
        "on_loss": "ignore",
    }
    given = chatcodec.render(messages, **options)
    canonical = chatcodec.render(ChatRequest(messages=validate_messages(messages)), **options)
    assert given.text == canonical.text
    assert given.token_ids == canonical.token_ids
    assert given.trainable == canonical.trainable
    assert given.message_indices == canonical.message_indices
    assert given.losses == canonical.losses


_PROBE = textwrap.dedent(
    """
    import json, sys
    import chatcodec

    messages, tools = json.loads(sys.argv[1]), json.loads(sys.argv[2])
    rendering = chatcodec.render(messages, tools=tools, template="qwen3-training", train_on="all_assistant_messages")
    loaded = sorted(name for name in sys.modules if name.startswith("chatcodec"))
    print(json.dumps({"text": rendering.text, "loaded": loaded}))
    """
)

_NOT_FOR_A_LIST = (
    "chatcodec._api",
    "chatcodec._conversion",
    "chatcodec._detect",
    "chatcodec._harness_roles",
    "chatcodec._model.response",
    "chatcodec._model.response_fields",
    "chatcodec._row_dialects.dialects",
    "chatcodec._row_dialects.sessions",
    "chatcodec._schema",
    "chatcodec._training.origins",
)
"""What a render of a list of messages does not use: the wire readers, the conversion path they
decode with, the row dialects, the schema export, the response models."""


def test_a_first_render_of_a_list_loads_no_wire_reader_and_renders_as_this_process_does() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys; sys.path.insert(0, {str(SOURCE)!r})\n{_PROBE}",
            json.dumps(AGENT_LOOP),
            json.dumps(TOOLS),
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    found = json.loads(done.stdout)
    assert [name for name in _NOT_FOR_A_LIST if name in found["loaded"]] == []
    here = chatcodec.render(AGENT_LOOP, tools=TOOLS, template="qwen3-training", train_on="all_assistant_messages")
    assert found["text"] == here.text


def test_a_named_source_still_reads_its_wire() -> None:
    body = {"model": "m", "messages": AGENT_LOOP[1:], "tools": TOOLS}
    from_wire = chatcodec.render(body, source="openai-chat", template="qwen3-training", on_loss="ignore")
    from_list = chatcodec.render(AGENT_LOOP[1:], tools=TOOLS, template="qwen3-training", on_loss="ignore")
    assert from_wire.text == from_list.text


def test_every_canonical_default_factory_is_a_python_function() -> None:
    """pydantic asks a default factory's signature when it builds a validator, and a built-in's
    (``list``) is parsed from its text by ``tokenize``, whose pattern a process compiles the first
    time it is asked: a first render paid it at its first validator. A Python function's
    signature is read from its code."""
    from pydantic import BaseModel

    from chatcodec._model import content, messages, request, response, response_fields, stream_events, tools

    factories = [
        (model.__name__, name, field.default_factory)
        for module in (content, messages, request, response, response_fields, stream_events, tools)
        for model in vars(module).values()
        if isinstance(model, type) and issubclass(model, BaseModel)
        for name, field in model.model_fields.items()
        if field.default_factory is not None
    ]
    assert len(factories) >= 5
    assert [found for found in factories if not inspect.isfunction(found[2])] == []
