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

* *Instructions per row*: one process under ``valgrind --tool=callgrind`` sets each subject up
  (imports, the tokenizer file read, the template compiled) and runs it once on 5 rows, then
  runs it whole (the command's ``main`` from its arguments to its last line written) on the
  first ``n`` and on the first ``2n`` rows (``--counted``), each run a region: the difference
  over ``n`` is the cost of a row, start-up cancelled.
* *CPU per row*: each subject on ``n`` and ``m`` rows (``--timed``), its user and system time from
  ``wait4`` (the best of ``--repeat`` runs), the difference over ``m - n``.
* *Peak memory*: each subject's ``ru_maxrss`` at 1,000, 5,000 and 20,000 rows (``--memory``).

``python bench/rollout_rows.py [--counted 20] [--timed 1000 5000] [--memory 1000 5000 20000]
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
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

TEMPLATE_VARIABLE = "CHATCODEC_BENCH_TEMPLATE"
"""Where ``--template`` is passed to the subjects' processes (each reads it when it starts)."""
TEMPLATE = os.environ.get(TEMPLATE_VARIABLE, "qwen3-training")
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


# --- the subjects: ``python bench/rollout_rows.py --run SUBJECT FILE OUT TOKENIZER`` runs one whole


Work = Callable[[Path, Path], int]
"""A subject's job on one file of rows, its lines written to the other; its set-up done."""


def _cli_arguments(source: Path, out: Path, tokenizer: Path) -> list[str]:
    return [
        *("convert", str(source), "--from", "openai-chat", "--to", "rollout", "--template", TEMPLATE),
        *("--tokenizer", str(tokenizer), "--train-on", "all_assistant_messages", "--out", str(out)),
        *("--workers", "1", "--quiet", "--progress", "none"),
    ]


def subject_work(subject: str, tokenizer: Path) -> Work:
    """``subject``'s job, set up: imports, the tokenizer read (the command's by its path, which it
    reads once a process), the template compiled."""
    if subject == "transformers loop":
        return _transformers_loop(tokenizer)
    from chatcodec._training import families, jinja, tokens

    tokens.loaded(str(tokenizer))
    jinja.compiled(families.template_text(TEMPLATE))  # under callgrind, a first compile passes a run's 10 s limit
    if subject == "chatcodec convert":
        from chatcodec.cli import main

        return lambda source, out: main(_cli_arguments(source, out, tokenizer))
    return _render_converter(tokenizer)


def _transformers_loop(tokenizer: Path) -> Work:
    import tokenizers
    from transformers import PreTrainedTokenizerFast

    from chatcodec._training import families

    loaded = tokenizers.Tokenizer.from_file(str(tokenizer))
    hugging_face = PreTrainedTokenizerFast(tokenizer_object=loaded, eos_token="<|im_end|>", pad_token="<|endoftext|>")
    hugging_face.chat_template = families.template_text(TEMPLATE)

    def work(source: Path, out: Path) -> int:
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


def _render_converter(tokenizer: Path) -> Work:
    from chatcodec import RenderConverter

    converter = RenderConverter(
        template=TEMPLATE,
        tokenizer=str(tokenizer),
        column="conversation",
        source="openai-chat",
        train_on="all_assistant_messages",
        losses_column=None,
    )

    def work(source: Path, out: Path) -> int:
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


def counted_child(library: Path, subjects: Sequence[str], files: Sequence[Path], out: Path, tokenizer: Path) -> int:
    """Under callgrind: each subject set up and run once on the first file (uncounted: what a first
    run loads), then run whole on each other file, each run a region."""
    from bench import callgrind

    requests = callgrind.Requests(library)
    warm, *counted = files
    for subject in subjects:
        work = subject_work(subject, tokenizer)
        if work(warm, out) != 0:
            raise SystemExit(f"{subject} failed")
        for source in counted:
            requests.start()
            requests.zero()
            status = work(source, out)
            requests.dump(f"{subject}|{source.name}")
            requests.stop()
            if status != 0:
                raise SystemExit(f"{subject} failed on {source.name}")
    return 0


# --- the parent -------------------------------------------------------------------------------


def _command(subject: str, source: Path, out: Path, tokenizer: Path) -> list[str]:
    return [str(Path(__file__).resolve()), "--run", subject, str(source), str(out), str(tokenizer)]


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
    from chatcodec._training import families

    tagged = families.stored_profile(TEMPLATE).generation_tags  # without tags transformers' mask is empty
    for index, (ours, theirs, converted) in enumerate(zip(*read.values(), strict=True)):
        assert ours["token_ids"] == theirs["token_ids"], f"row {index}: the ids differ"
        for position, (trained, masked) in enumerate(zip(ours["sampled_mask"], theirs["sampled_mask"], strict=True)):
            assert not tagged or trained == masked or (masked and ours["token_ids"][position] == newline), (
                index,
                position,
            )
        assert (converted["token_ids"], converted["sampled_mask"]) == (ours["token_ids"], ours["sampled_mask"])


def instructions(folder: Path, tokenizer: Path, counted: int, subjects: Sequence[str]) -> dict[str, float]:
    """Instructions per row of each subject: its whole run on ``2 * counted`` rows less its run on
    ``counted``, in one process under callgrind (start-up paid once, outside the counts)."""
    from bench import callgrind

    library = callgrind.build(folder)
    files = [write_rows(folder / f"rows-{size}.jsonl", size) for size in (5, counted, 2 * counted)]
    dumps = folder / "dumps"
    dumps.mkdir()
    command = [str(Path(__file__).resolve()), "--counted-child", str(library), str(tokenizer), *map(str, files)]
    callgrind.run([*command, "--subjects", *subjects], dumps, ONE_THREAD)
    totals = {dump.label: dump.instructions for dump in callgrind.read_dumps(dumps)}
    return {
        subject: (totals[f"{subject}|{files[2].name}"] - totals[f"{subject}|{files[1].name}"]) / counted
        for subject in subjects
    }


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
        _note(f"{subject}: {best[low]:.2f} s CPU on {low} rows, {best[high]:.2f} s on {high}")
    return per_row


def _note(line: str) -> None:
    """A measurement as it is made (a long run on a shared machine keeps what it finished)."""
    print(line, file=sys.stderr, flush=True)


def memory(folder: Path, tokenizer: Path, sizes: Sequence[int], subjects: Sequence[str]) -> dict[str, list[int]]:
    """Each subject's ``ru_maxrss`` (KiB) at each size."""
    peaks: dict[str, list[int]] = {subject: [] for subject in subjects}
    for size in sizes:
        source = write_rows(folder / f"memory-{size}.jsonl", size)
        for subject in subjects:
            spent, peak = _usage(subject, source, folder / "out.jsonl", tokenizer)
            peaks[subject].append(peak)
            _note(f"{subject}: ru_maxrss {peak / 1024:.0f} MiB on {size} rows ({spent:.1f} s CPU)")
        source.unlink()
    return peaks


def table(
    subjects: Sequence[str],
    sizes: Sequence[int],
    counts: dict[str, float],
    times: dict[str, float],
    peaks: dict[str, list[int]],
) -> str:
    """One line per subject: millions of instructions and CPU milliseconds per row, peak memory by rows."""
    lines = [
        "| subject | instructions per row | CPU ms per row | "
        + " | ".join(f"peak memory, {size:,} rows" for size in sizes)
        + " |",
        "|---|---|---|" + "---|" * len(sizes),
    ]
    for subject in subjects:
        count = f"{counts[subject] / 1e6:.2f} M" if subject in counts else "-"
        spent = f"{times[subject]:.2f}" if subject in times else "-"
        held = " | ".join(f"{peak / 1024:.0f} MiB" for peak in peaks.get(subject, [])) or " | ".join("-" for _ in sizes)
        lines.append(f"| {subject} | {count} | {spent} | {held} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0] if __doc__ else None)
    parser.add_argument("--counted", type=int, default=20, help="rows n: callgrind counts n and 2n rows")
    parser.add_argument("--timed", type=int, nargs=2, default=[1000, 5000], help="rows of the two CPU-time runs")
    parser.add_argument("--repeat", type=int, default=1, help="CPU-time runs at each size (the best is taken)")
    parser.add_argument("--memory", type=int, nargs="*", default=[1000, 5000, 20000], help="rows of the memory runs")
    parser.add_argument("--subjects", nargs="*", default=list(SUBJECTS), choices=SUBJECTS)
    parser.add_argument("--check-rows", type=int, default=50)
    parser.add_argument("--skip-instructions", action="store_true")
    parser.add_argument("--skip-cpu", action="store_true")
    parser.add_argument("--skip-memory", action="store_true")
    parser.add_argument(
        "--template", help="the family rendered (default qwen3-training; stock qwen3 has no mask to compare)"
    )
    parser.add_argument("--cache", default=str(ROOT / "build" / "bench"), help="where the tokenizer.json is made once")
    parser.add_argument("--run", nargs=4, metavar=("SUBJECT", "FILE", "OUT", "TOKENIZER"), help=argparse.SUPPRESS)
    parser.add_argument("--counted-child", nargs="+", help=argparse.SUPPRESS)
    arguments = parser.parse_args(argv)
    if arguments.template:
        os.environ[TEMPLATE_VARIABLE] = arguments.template  # the subjects' processes read it
        globals()["TEMPLATE"] = arguments.template
    if arguments.run:
        subject, source, out, tokenizer = arguments.run
        return subject_work(subject, Path(tokenizer))(Path(source), Path(out))
    if arguments.counted_child:
        library, tokenizer, *files = map(Path, arguments.counted_child)
        return counted_child(library, arguments.subjects, files, files[0].with_name("out.jsonl"), tokenizer)
    from bench.render_instructions import tokenizer_json

    started = time.monotonic()
    cache = Path(arguments.cache)
    cache.mkdir(parents=True, exist_ok=True)
    tokenizer = tokenizer_json(cache)
    subjects: list[str] = arguments.subjects
    with tempfile.TemporaryDirectory(prefix="chatcodec-rollout-") as temporary:
        folder = Path(temporary)
        if arguments.check_rows:
            check(folder, tokenizer, arguments.check_rows)
        counts = {} if arguments.skip_instructions else instructions(folder, tokenizer, arguments.counted, subjects)
        times = {} if arguments.skip_cpu else cpu(folder, tokenizer, arguments.timed, arguments.repeat, subjects)
        peaks = {} if arguments.skip_memory else memory(folder, tokenizer, arguments.memory, subjects)
    print(table(subjects, arguments.memory, counts, times, peaks))
    print(f"\nThe run took {time.monotonic() - started:.0f} s of wall clock.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
