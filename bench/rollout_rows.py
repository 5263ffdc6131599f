"""The rollout command against a transformers loop: instructions and CPU time per row, memory by rows (issue 99).

The job: a JSONL file of agent conversations (:func:`rows`, seeded, every row distinct: a
system prompt, a task, then 0 to 13 calling turns with reasoning, one or two parallel calls and
their results, a last answer; 3 to 38 messages, 14 on average, in OpenAI Chat's shapes) to token ids and
the mask of every answer, through TRL's Qwen3 training template and Qwen3's ``tokenizer.json``
(made as :mod:`bench.render_instructions` makes it). The subjects, each one process reading
the file and writing a JSON line per row:

* ``chatcodec convert FILE --from openai-chat --to rollout --template qwen3-training
  --tokenizer P --train-on all_assistant_messages --workers 1`` (the command line);
* a transformers loop: read the line, ``apply_chat_template(messages, tools=...,
  tokenize=True, return_dict=True, return_assistant_tokens_mask=True)`` with the same template
  and tokenizer, write the ids and the mask;
* ``chatcodec.RenderConverter`` in process over the same lines (batches of 100, as
  ``datasets.map(batched=True)`` passes them), writing the ids and the mask.

Before counting, the command's ids are checked equal to the loop's, and its mask equal but for
the newline after each ``<|im_end|>`` (the template's tags hold it; the model does not sample it).

* *Instructions per row*: each subject under ``valgrind --tool=callgrind`` on the first ``n``
  and the first ``2n`` rows (``--counted``), counted from just before its work starts (the
  command's ``main``, with the tokenizer file read; the loop's first line) to its end: the
  difference over ``n`` is the cost of a row, start-up cancelled.
* *CPU per row*: each subject on ``n`` and ``m`` rows (``--timed``), its user and system time from
  ``wait4`` (the best of ``--repeat`` runs), the difference over ``m - n``.
* *Peak memory*: each subject's ``ru_maxrss`` at 1,000, 5,000 and 20,000 rows (``--memory``).

``python bench/rollout_rows.py [--counted 100] [--timed 500 1500] [--memory 1000 5000 20000]
[--subjects ...] [--skip-instructions] [--skip-cpu] [--skip-memory]`` (in the bench's venv, with
transformers; ``PYTHONPATH=src`` to count a checkout's tree).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TEMPLATE = "qwen3-training"
SEED = 99
SUBJECTS = ("chatcodec convert", "transformers loop", "RenderConverter")
BATCH = 100
"""Rows a RenderConverter call takes (``datasets.map``'s batch is 1,000; Ray Data's is smaller)."""
ONE_THREAD = {"TOKENIZERS_PARALLELISM": "false", "RAYON_NUM_THREADS": "1"}
"""Callgrind runs threads one at a time anyway, and a count is steadier without Rayon's pool."""

_VOCABULARY = (
    "the test parser case input output value list empty error fails passes file module function line "
    "returns raises expected found fix check run again now first then because assert branch index"
)
_WORDS = tuple(_VOCABULARY.split())
_TOOLS = (
    ("bash", "Run a shell command in the repository.", {"cmd": {"type": "string"}}),
    ("read_file", "Read a file of the repository.", {"path": {"type": "string"}, "limit": {"type": "integer"}}),
    ("edit_file", "Replace text in a file.", {"path": {"type": "string"}, "old": {"type": "string"}}),
)


def _text(rng: random.Random, low: int, high: int) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(rng.randint(low, high))).capitalize() + "."


def _call(rng: random.Random, step: int, index: int) -> dict[str, Any]:
    name = rng.choice(_TOOLS)[0]
    if name == "bash":
        arguments: dict[str, Any] = {"cmd": f"pytest tests/test_{rng.choice(_WORDS)}.py -k case_{step} -x"}
    elif name == "read_file":
        arguments = {"path": f"src/{rng.choice(_WORDS)}.py", "limit": rng.randint(20, 400)}
    else:
        arguments = {"path": f"src/{rng.choice(_WORDS)}.py", "old": _text(rng, 2, 8)}
    function = {"name": name, "arguments": json.dumps(arguments)}
    return {"id": f"call_{step}_{index}_{rng.randrange(10**6)}", "type": "function", "function": function}


def row(rng: random.Random) -> dict[str, Any]:
    """One agent conversation: OpenAI Chat's ``messages`` and ``tools``, every answer with reasoning."""
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You are a coding agent. " + _text(rng, 5, 25)},
        {"role": "user", "content": _text(rng, 6, 40)},
    ]
    for step in range(rng.choice((0, 1, 2, 3, 4, 6, 9, 13))):
        calls = [_call(rng, step, index) for index in range(rng.choice((1, 1, 1, 2)))]
        messages.append(
            {
                "role": "assistant",
                "content": _text(rng, 3, 15) if rng.random() < 0.6 else "",
                "reasoning_content": _text(rng, 8, 60),
                "tool_calls": calls,
            }
        )
        for call in calls:
            output = "\n".join(_text(rng, 4, 14) for _ in range(rng.randint(1, 12)))
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": output})
    answer = {"role": "assistant", "content": _text(rng, 10, 60), "reasoning_content": _text(rng, 5, 30)}
    tools = [
        {
            "type": "function",
            "function": {
                "name": name,
                "description": description,
                "parameters": {"type": "object", "properties": properties, "required": list(properties)[:1]},
            },
        }
        for name, description, properties in _TOOLS
    ]
    return {"messages": [*messages, answer], "tools": tools}


def rows(count: int, seed: int = SEED) -> Iterator[dict[str, Any]]:
    """The first ``count`` rows (every row its own seed: distinct, the same at any count)."""
    for index in range(count):
        yield row(random.Random(seed * 1_000_003 + index))


def write_rows(path: Path, count: int) -> Path:
    with path.open("w", encoding="utf-8") as file:
        for body in rows(count):
            file.write(json.dumps(body) + "\n")
    return path


# --- the subjects, each run as ``python bench/rollout_rows.py --run SUBJECT FILE OUT TOKENIZER``


def _cli_arguments(source: Path, out: Path, tokenizer: Path) -> list[str]:
    return [
        *("convert", str(source), "--from", "openai-chat", "--to", "rollout", "--template", TEMPLATE),
        *("--tokenizer", str(tokenizer), "--train-on", "all_assistant_messages", "--out", str(out)),
        *("--workers", "1", "--quiet", "--progress", "none"),
    ]


def run_subject(subject: str, source: Path, out: Path, tokenizer: Path, library: str | None) -> int:
    """One subject's whole job; under callgrind (``library``), counted from its work's start to its end."""
    requests = None
    if library:
        from bench import callgrind

        requests = callgrind.Requests(Path(library))
    if subject != "transformers loop":  # start-up, not counted: the tokenizer file read, the template compiled
        from chatcodec._training import families, jinja, tokens

        tokens.loaded(str(tokenizer))
        jinja.compiled(families.template_text(TEMPLATE))  # under callgrind, past a run's 10 s limit
    if subject == "chatcodec convert":
        from chatcodec.cli import main

        def work() -> int:
            return main(_cli_arguments(source, out, tokenizer))

    elif subject == "transformers loop":
        work = _transformers_loop(source, out, tokenizer)
    else:
        work = _render_converter(source, out, tokenizer)
    if requests is not None:
        requests.start()
        requests.zero()
    status = work()
    if requests is not None:
        requests.dump(f"{subject}|{source.name}")
        requests.stop()
    return status


def _transformers_loop(source: Path, out: Path, tokenizer: Path) -> Any:
    import tokenizers
    from transformers import PreTrainedTokenizerFast

    from chatcodec._training import families

    loaded = tokenizers.Tokenizer.from_file(str(tokenizer))
    hugging_face = PreTrainedTokenizerFast(tokenizer_object=loaded, eos_token="<|im_end|>", pad_token="<|endoftext|>")
    hugging_face.chat_template = families.template_text(TEMPLATE)

    def work() -> int:
        with source.open("rb") as lines, out.open("w", encoding="utf-8") as written:
            for line in lines:
                body = json.loads(line)
                made: Any = hugging_face.apply_chat_template(
                    body["messages"],
                    tools=body.get("tools"),
                    tokenize=True,
                    return_dict=True,
                    return_assistant_tokens_mask=True,
                )
                ids, mask = list(made["input_ids"]), [bool(flag) for flag in made["assistant_masks"]]
                written.write(json.dumps({"token_ids": ids, "sampled_mask": mask}) + "\n")
        return 0

    return work


def _render_converter(source: Path, out: Path, tokenizer: Path) -> Any:
    from chatcodec import RenderConverter

    converter = RenderConverter(
        template=TEMPLATE,
        tokenizer=str(tokenizer),
        column="conversation",
        source="openai-chat",
        train_on="all_assistant_messages",
        losses_column=None,
    )

    def work() -> int:
        with source.open("rb") as lines, out.open("w", encoding="utf-8") as written:
            batch: list[bytes] = []
            for line in [*lines, None]:
                if line is not None:
                    batch.append(line)
                if batch and (line is None or len(batch) == BATCH):
                    made = converter({"conversation": batch})
                    for ids, mask, error in zip(
                        made["token_ids"], made["sampled_mask"], made["chatcodec_error"], strict=True
                    ):
                        if error is not None:
                            raise SystemExit(f"RenderConverter refused a row: {error}")
                        written.write(json.dumps({"token_ids": ids, "sampled_mask": mask}) + "\n")
                    batch = []
        return 0

    return work


# --- the parent -------------------------------------------------------------------------------


def _command(subject: str, source: Path, out: Path, tokenizer: Path, library: Path | None = None) -> list[str]:
    command = [str(Path(__file__).resolve()), "--run", subject, str(source), str(out), str(tokenizer)]
    return [*command, *(["--library", str(library)] if library else [])]


def check(folder: Path, tokenizer: Path, count: int) -> None:
    """The command's ids are the loop's, its mask theirs but for the newline after each turn's end;
    RenderConverter's ids and mask are the command's."""
    source = write_rows(folder / "check.jsonl", count)
    outputs = {}
    for subject in SUBJECTS:
        outputs[subject] = folder / f"check-{subject.split()[0]}.jsonl"
        subprocess.run([sys.executable, *_command(subject, source, outputs[subject], tokenizer)], check=True)
    read = {subject: [json.loads(line) for line in path.open()] for subject, path in outputs.items()}
    newline = 198
    for index, (ours, theirs, converted) in enumerate(zip(*read.values(), strict=True)):
        assert ours["token_ids"] == theirs["token_ids"], f"row {index}: the ids differ"
        for position, (trained, masked) in enumerate(zip(ours["sampled_mask"], theirs["sampled_mask"], strict=True)):
            assert trained == masked or (masked and ours["token_ids"][position] == newline), (index, position)
        assert (converted["token_ids"], converted["sampled_mask"]) == (ours["token_ids"], ours["sampled_mask"])


def instructions(folder: Path, tokenizer: Path, counted: int, subjects: Sequence[str]) -> dict[str, float]:
    """Instructions per row of each subject: its count on ``2 * counted`` rows less on ``counted``."""
    from bench import callgrind

    library = callgrind.build(folder)
    per_row: dict[str, float] = {}
    for subject in subjects:
        totals = []
        for size in (counted, 2 * counted):
            source = write_rows(folder / f"rows-{size}.jsonl", size)
            dumps = folder / f"dumps-{subject.split()[0]}-{size}"
            dumps.mkdir()
            callgrind.run(_command(subject, source, folder / "out.jsonl", tokenizer, library), dumps, ONE_THREAD)
            totals.append(sum(dump.instructions for dump in callgrind.read_dumps(dumps)))
        per_row[subject] = (totals[1] - totals[0]) / counted
    return per_row


def _usage(subject: str, source: Path, out: Path, tokenizer: Path) -> tuple[float, int]:
    """CPU seconds (user and system) and ``ru_maxrss`` (KiB) of one run of ``subject``."""
    environment = {**os.environ, "PYTHONHASHSEED": "0"}
    process = subprocess.Popen([sys.executable, *_command(subject, source, out, tokenizer)], env=environment)
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        raise SystemExit(f"{subject} failed on {source}")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def cpu(folder: Path, tokenizer: Path, timed: Sequence[int], repeat: int, subjects: Sequence[str]) -> dict[str, float]:
    """CPU milliseconds per row of each subject: the best of ``repeat`` runs at each size, differenced."""
    low, high = timed
    sources = {size: write_rows(folder / f"timed-{size}.jsonl", size) for size in (low, high)}
    per_row: dict[str, float] = {}
    for subject in subjects:
        best = {
            size: min(_usage(subject, sources[size], folder / "out.jsonl", tokenizer)[0] for _ in range(repeat))
            for size in (low, high)
        }
        per_row[subject] = (best[high] - best[low]) / (high - low) * 1e3
    return per_row


def memory(folder: Path, tokenizer: Path, sizes: Sequence[int], subjects: Sequence[str]) -> dict[str, list[int]]:
    """Each subject's ``ru_maxrss`` (KiB) at each size."""
    peaks: dict[str, list[int]] = {subject: [] for subject in subjects}
    for size in sizes:
        source = write_rows(folder / f"memory-{size}.jsonl", size)
        for subject in subjects:
            peaks[subject].append(_usage(subject, source, folder / "out.jsonl", tokenizer)[1])
        source.unlink()
    return peaks


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0] if __doc__ else None)
    parser.add_argument("--counted", type=int, default=100, help="rows n: callgrind counts n and 2n rows")
    parser.add_argument("--timed", type=int, nargs=2, default=[500, 1500], help="rows of the two CPU-time runs")
    parser.add_argument("--repeat", type=int, default=3, help="CPU-time runs at each size (the best is taken)")
    parser.add_argument("--memory", type=int, nargs="*", default=[1000, 5000, 20000], help="rows of the memory runs")
    parser.add_argument("--subjects", nargs="*", default=list(SUBJECTS), choices=SUBJECTS)
    parser.add_argument("--check-rows", type=int, default=50)
    parser.add_argument("--skip-instructions", action="store_true")
    parser.add_argument("--skip-cpu", action="store_true")
    parser.add_argument("--skip-memory", action="store_true")
    parser.add_argument("--cache", default=str(ROOT / "build" / "bench"), help="where the tokenizer.json is made once")
    parser.add_argument("--run", nargs=4, metavar=("SUBJECT", "FILE", "OUT", "TOKENIZER"), help=argparse.SUPPRESS)
    parser.add_argument("--library", help=argparse.SUPPRESS)
    arguments = parser.parse_args(argv)
    if arguments.run:
        subject, source, out, tokenizer = arguments.run
        return run_subject(subject, Path(source), Path(out), Path(tokenizer), arguments.library)
    from bench.render_instructions import tokenizer_json

    started = time.monotonic()
    cache = Path(arguments.cache)
    cache.mkdir(parents=True, exist_ok=True)
    tokenizer = tokenizer_json(cache)
    subjects: list[str] = arguments.subjects
    with tempfile.TemporaryDirectory(prefix="chatcodec-rollout-") as temporary:
        folder = Path(temporary)
        check(folder, tokenizer, arguments.check_rows)
        counts = {} if arguments.skip_instructions else instructions(folder, tokenizer, arguments.counted, subjects)
        times = {} if arguments.skip_cpu else cpu(folder, tokenizer, arguments.timed, arguments.repeat, subjects)
        peaks = {} if arguments.skip_memory else memory(folder, tokenizer, arguments.memory, subjects)
    sizes = " | ".join(f"peak memory, {size:,} rows" for size in arguments.memory)
    print(f"| subject | instructions per row | CPU ms per row | {sizes} |")
    print("|---|---|---|" + "---|" * len(arguments.memory))
    for subject in subjects:
        count = f"{counts[subject] / 1e6:.2f} M" if subject in counts else "-"
        spent = f"{times[subject]:.2f}" if subject in times else "-"
        held = " | ".join(f"{peak / 1024:.0f} MiB" for peak in peaks.get(subject, [])) or "-"
        print(f"| {subject} | {count} | {spent} | {held} |")
    print(f"\nThe run took {time.monotonic() - started:.0f} s of wall clock.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
