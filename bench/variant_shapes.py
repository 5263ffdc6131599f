"""One field or spelling more on a generated agent session, for each direct pair (issue 107: speed
is judged on shapes no bench holds; one ordinary field must not send a request to a slow path).

:mod:`bench.feature_shapes` turns whole features of a coding agent's wire on and off; the variants
here change one thing an ordinary client sends beside them: a request field (a cache key, a safety
identifier, a tier, litellm's ``thinking``, vLLM's ``top_k``), a spelling (calls with the index a
stream accumulator keeps, a reasoning text alone, the SDK's ``citations: null``), or a field a
provider added in 2026 (Claude's ``caller`` on every call, the ``phase`` Codex models ask back on
an easy input message). Each variant is a change of the pair's plain 10-step session
(``feature_shapes.body`` with no feature).

``python bench/variant_shapes.py [--steps 10] [--only anthropic->openai-chat]`` counts each variant's
steady conversion (three warm-ups, then one counted after a collection whose survivors are frozen, as
``bench/instructions.py`` counts, in one process under callgrind) and prints it
beside the plain session's, with the route it took (``direct`` or the canonical path), a mark on
any over 1.15x. The differential's corpus (``tools/differential.py``) holds every variant at 3 and
12 steps, direct against canonical.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import feature_shapes  # noqa: E402 - after the path is set

Variant = Callable[[dict[str, Any]], None]
"""A change made in place on a pair's source body."""
PLAIN = "plain"


def _top(**fields: Any) -> Variant:
    def change(body: dict[str, Any]) -> None:
        body.update(fields)

    return change


def _assistants(body: dict[str, Any], key: str = "messages") -> list[dict[str, Any]]:
    return [message for message in body[key] if message.get("role") == "assistant"]


def _openai_calls(body: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for message in _assistants(body):
        yield from message.get("tool_calls") or ()


def _indexed(body: dict[str, Any]) -> None:
    for message in _assistants(body):
        for index, call in enumerate(message.get("tool_calls") or ()):
            call["index"] = index


def _helpers_dump(*, streamed: bool) -> Variant:
    """Each assistant turn as the OpenAI SDK's ``parse`` helper (or, ``streamed``, its ``stream``
    helper's accumulation) builds it and ``model_dump()`` writes it: the SDK's nulls, ``"parsed":
    null``, each call's function with ``"parsed_arguments": null`` (and its ``index``)."""

    def change(body: dict[str, Any]) -> None:
        for message in _assistants(body):
            message.update(refusal=None, annotations=None, audio=None, function_call=None, parsed=None)
            for index, call in enumerate(message.get("tool_calls") or ()):
                call["function"]["parsed_arguments"] = None
                if streamed:
                    call["index"] = index

    return change


def _gemini_signed(body: dict[str, Any]) -> None:
    """Gemini's OpenAI compatibility signs the first call of each turn (``extra_content``), which
    an agent on it sends back."""
    for message in _assistants(body):
        calls = message.get("tool_calls") or ()
        if calls:
            calls[0]["extra_content"] = {"google": {"thought_signature": "Q2lRQlZ0cHA="}}


def _untyped_calls(body: dict[str, Any]) -> None:
    """Calls without ``"type": "function"`` (the only kind; clients built on the Chat API's early
    examples and some framework histories leave it out)."""
    for call in _openai_calls(body):
        del call["type"]


def _unsigned_blocks(body: dict[str, Any]) -> None:
    """litellm's ``thinking_blocks`` with no signature (what it builds from a reasoning text of a
    provider that signs none, DeepSeek's through its Anthropic route), beside its
    ``reasoning_content``, on every assistant turn."""
    for message in _assistants(body):
        message["reasoning_content"] = "I look at it."
        message["thinking_blocks"] = [{"type": "thinking", "thinking": "I look at it."}]


def _tool_texts_as_parts(body: dict[str, Any]) -> None:
    for message in body["messages"]:
        if message["role"] == "tool" and isinstance(message["content"], str):
            message["content"] = [{"type": "text", "text": message["content"]}]


_OPENAI_CHAT: dict[str, Variant] = {
    PLAIN: lambda body: None,
    "prompt_cache_key": _top(prompt_cache_key="session-7"),
    "safety_identifier": _top(safety_identifier="user-hash"),
    "service_tier": _top(service_tier="auto"),
    "parallel_tool_calls false": _top(parallel_tool_calls=False),
    "penalties": _top(presence_penalty=0, frequency_penalty=0),
    "reasoning_effort": _top(reasoning_effort="low"),
    "response_format json_object": _top(response_format={"type": "json_object"}),
    "litellm's thinking": _top(thinking={"type": "enabled", "budget_tokens": 2048}),
    "vLLM's top_k": _top(top_k=40),
    "a developer prompt": lambda body: body["messages"][0].update(role="developer"),
    "two system messages first (LangChain)": lambda body: body["messages"].insert(
        1, {"role": "system", "content": "Answer in the user's language."}
    ),
    "a system message mid-session": lambda body: body["messages"].insert(
        4, {"role": "system", "content": "Remember to run the tests."}
    ),
    "a marker on a tool": lambda body: body["tools"][-1].update(cache_control={"type": "ephemeral"}),
    "tool results as text parts": _tool_texts_as_parts,
    "calls with their index": _indexed,
    "a reasoning text on every turn": lambda body: [
        message.update(reasoning="I look at it.") for message in _assistants(body)
    ],
    "a reasoning_content text on every turn (vLLM, DeepSeek)": lambda body: [
        message.update(reasoning_content="I look at it.") for message in _assistants(body)
    ],
    "an assistant's name": lambda body: [message.update(name="coder") for message in _assistants(body)],
    "the SDK's assistant nulls": lambda body: [
        message.update(refusal=None, audio=None, function_call=None, annotations=[]) for message in _assistants(body)
    ],
    "vLLM's answers as the SDK dumps them": lambda body: [
        message.update(
            refusal=None,
            annotations=None,
            audio=None,
            function_call=None,
            reasoning_content=None,
            tool_calls=message.get("tool_calls") or [],
        )
        for message in _assistants(body)
    ],
    "OpenRouter's answers as the SDK dumps them": lambda body: [
        message.update(refusal=None, reasoning=None) for message in _assistants(body)
    ],
    "Gemini's thought signature on a turn's first call": _gemini_signed,
    "the SDK's parse helper's dump": _helpers_dump(streamed=False),
    "the SDK's stream helper's dump": _helpers_dump(streamed=True),
    "calls without their type": _untyped_calls,
    "a developer message mid-session": lambda body: body["messages"].insert(
        4, {"role": "developer", "content": "Remember to run the tests."}
    ),
    "litellm's thinking blocks unsigned": _unsigned_blocks,
    "a prefilled answer": lambda body: body["messages"].append({"role": "assistant", "content": "Done:"}),
}


def _claude_blocks(body: dict[str, Any], kind: str) -> Iterator[dict[str, Any]]:
    for message in _assistants(body):
        if isinstance(message["content"], list):
            yield from (block for block in message["content"] if block["type"] == kind)


_ANTHROPIC: dict[str, Variant] = {
    PLAIN: lambda body: None,
    "metadata user_id": _top(metadata={"user_id": "user_abc_account_1_session_2"}),
    "stream": _top(stream=True),
    "output_config effort": _top(output_config={"effort": "high"}),
    "top-level cache_control": _top(cache_control={"type": "ephemeral"}),
    "no parallel calls": _top(tool_choice={"type": "auto", "disable_parallel_tool_use": True}),
    "a marker on a tool": lambda body: body["tools"][-1].update(cache_control={"type": "ephemeral"}),
    "the caller on every call (2026)": lambda body: [
        block.update(caller={"type": "direct"}) for block in _claude_blocks(body, "tool_use")
    ],
    "texts as the SDK dumps them": lambda body: [
        block.update(citations=None) for block in _claude_blocks(body, "text")
    ],
}


def _responses_items(body: dict[str, Any], kind: str) -> list[dict[str, Any]]:
    return [item for item in body["input"] if item.get("type") == kind]


_RESPONSES: dict[str, Variant] = {
    PLAIN: lambda body: None,
    "the phase on every text (2026)": lambda body: [
        message.update(phase="commentary") for message in _assistants(body, "input")
    ],
    "calls with their id and status": lambda body: [
        call.update(id=f"fc_{number}", status="completed")
        for number, call in enumerate(_responses_items(body, "function_call"))
    ],
    "outputs as text parts": lambda body: [
        output.update(output=[{"type": "input_text", "text": output["output"]}])
        for output in _responses_items(body, "function_call_output")
    ],
    "prompt_cache_key": _top(prompt_cache_key="session-7"),
    "strict tools": lambda body: [tool.update(strict=True) for tool in body["tools"]],
}

VARIANTS: dict[tuple[str, str], dict[str, Variant]] = {
    ("openai-chat", "anthropic"): _OPENAI_CHAT,
    ("openai-chat", "openai-responses"): _OPENAI_CHAT,
    ("anthropic", "openai-chat"): _ANTHROPIC,
    ("openai-responses", "openai-chat"): _RESPONSES,
}
"""Each direct pair's variants of its plain session, by name (the plain session first)."""


def sessions(steps: int, only: str = "") -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    """Each pair's (source, target, variant name, source body) at ``steps`` steps; ``only``: one pair
    (``source->target``)."""
    for (source, target), variants in VARIANTS.items():
        if only and only != f"{source}->{target}":
            continue
        for name, change in variants.items():
            body = json.loads(json.dumps(feature_shapes.body(source, target, steps, ())))
            change(body)
            yield source, target, name, body


def child(library: Path, steps: int, only: str) -> None:
    """Under callgrind: each variant converted three times, then counted once (a dump each), its
    route on standard error (``route|label|direct`` or ``canonical``)."""
    import chatcodec
    from bench import callgrind
    from chatcodec._direct import table

    requests = callgrind.Requests(library)
    for source, target, name, body in sessions(steps, only):
        path = table.direct_path(source, target)
        route = "direct" if path is not None and path(json.loads(json.dumps(body)), _recorder(), _codec(target)) else ""
        text = json.dumps(body)
        for _ in range(3):
            chatcodec.convert_request(json.loads(text), source=source, target=target, on_loss="ignore")
        given = json.loads(text)
        label = f"{source}->{target}|{name}"
        gc.collect()  # what the process holds so far is not walked again by a collection in the count
        gc.freeze()
        requests.start()
        requests.zero()
        chatcodec.convert_request(given, source=source, target=target, on_loss="ignore")
        requests.dump(label)
        requests.stop()
        print(f"route|{label}|{route or 'canonical'}", file=sys.stderr, flush=True)


def _recorder() -> Any:
    from chatcodec._losses import LossRecorder

    return LossRecorder()


def _codec(name: str) -> Any:
    import chatcodec

    return chatcodec.get_codec(name)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--only", default="", help="one pair, as source->target")
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.child is not None:
        child(arguments.child, arguments.steps, arguments.only)
        return 0
    from bench import callgrind

    with tempfile.TemporaryDirectory() as folder:
        directory = Path(folder)
        library = callgrind.build(directory)
        command = [__file__, "--child", str(library), "--steps", str(arguments.steps), "--only", arguments.only]
        routes_text = callgrind.run(command, directory)
        routes = dict(
            line.split("|", 1)[1].rsplit("|", 1) for line in routes_text.splitlines() if line.startswith("route|")
        )
        dumps = callgrind.read_dumps(directory, in_order=True)
    plain: dict[str, int] = {}
    print(f"| pair ({arguments.steps} steps) | variant | route | k instructions | / plain |")
    print("| --- | --- | --- | --- | --- |")
    for dump in dumps:
        pair, _, name = dump.label.partition("|")
        if name == PLAIN:
            plain[pair] = dump.instructions
        ratio = dump.instructions / plain[pair]
        mark = " **over**" if ratio > 1.15 or routes.get(dump.label) != "direct" else ""
        print(f"| {pair} | {name} | {routes.get(dump.label)} | {dump.instructions / 1e3:,.0f} | {ratio:.2f}x{mark} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
