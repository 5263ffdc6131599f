"""Instructions per conversion under valgrind callgrind: ``make bench-instructions``.

Wall clock on a shared machine moves with the neighbours' load; an instruction count does
not. For each pair of the agent sessions (:mod:`bench.agent_sources`: the sessions as
Claude and OpenAI-SDK agents send them, 10 and 50 turns) this counts the instructions of
one conversion by

* chatcodec's ``convert_request`` on the full session, from dicts and from JSON bytes;
* litellm's fastest conversion of the same session (every anchor of
  :mod:`bench.anchors_litellm_agents` is counted, the cheapest shown; from bytes: its
  dict count plus ``json.loads`` of the body, which it needs first);
* chatcodec on the session's ``model`` and ``messages`` alone, beside each litellm anchor that
  writes only the system prompt and messages (its converter for OpenAI Chat -> Anthropic,
  Gemini and Bedrock): the "same work" column compares each anchor with chatcodec doing what
  it does, since the fastest anchor of those pairs converts no tools and no settings;
* with ``--pieces``, each acceptance session without its tools and cut to its first message:
  a second table splits a row into the per-request cost, the other messages and the tools;
* the bench's hand-written floor (:data:`bench.agent_sources.FLOORS`) on the plainest twin,
  beside chatcodec on that twin (the floors do not handle the shapes);
* pydantic-core validating the session's canonical form with the canonical model
  (``ChatRequest``: ``validate_python`` for dicts, ``validate_json`` of its JSON for bytes),
  the issue's "4x" reference.

Those are the *steady* state (the body converted before, as the memories of
``docs/performance.md`` keep it); every session is also counted at its *agent step* (request N
after N-1) and its *first sight* (the same shape from other seeds converted first, then the
session), each in a process of its own (:mod:`bench.states`), and the first table gives the three
states side by side, first sight first. The sessions are the bench's own, the acceptance sessions
(:mod:`bench.perf_sessions`) and sessions of other shapes (:mod:`bench.other_shapes`).

Each steady count is the difference between a region of ``k`` calls and a region of none, after
warm-up, divided by ``k``: what the loop, the client request and the dump cost cancels.
The child process runs under ``valgrind --tool=callgrind --instr-atstart=no`` (imports run
uninstrumented) with ``PYTHONHASHSEED=0``; :mod:`bench.callgrind` starts instrumentation
around each region and dumps its counts. Every output is first checked to say what its
input says (:mod:`bench.agent_views`), as the timed agent section does.

chatcodec converts with ``on_loss="ignore"``, losses collected and not reported; ``--policy
warn-shown`` counts a user's default instead under Python's default warning filters (every loss
traced to its place in the input and rendered, one ``LossWarning`` listing them given to
``warnings.warn``, whose display prints nothing), ``--policy warn`` the same with the warnings
filtered out (the losses recorded, never rendered); the header says which.

``python bench/instructions.py [--turns 10 50] [--only openai-chat->anthropic] [--sessions bench perf shapes]
[--states steady "agent step" "first sight" "litellm first sight"] [--calls 3] [--keep DIR] [--pieces]
[--policy warn-shown]`` (``litellm first sight`` only when named: it imports litellm in every counted process)
(``--keep``: the dumps stay in ``DIR``, the states' in ``DIR/states``, for ``callgrind_annotate``).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import callgrind  # noqa: E402

FULL = "full session"
STEADY = "steady"
NULLS = "SDK-dump nulls"
BENCH, PERF, SHAPES, FEATURES, HELD_OUT = "bench", "perf", "shapes", "features", "held-out"
"""The session sets: the bench's own (:mod:`bench.agent_sources`), the acceptance sessions
speed is judged on (:mod:`bench.perf_sessions`) and sessions of other shapes the bench
generates (:mod:`bench.other_shapes`); a coding agent with each feature of its wire on and off
(:mod:`bench.feature_shapes`, ``CHATCODEC_BENCH_FEATURES``: the shapes counted, by name, comma-separated); three
held-out sessions of the kinds real agents send (:mod:`bench.held_out`: Claude Code, an agent on litellm's SDK, a
Claude model through OpenRouter)."""

ROWS: tuple[tuple[str, str, str], ...] = (
    ("openai-chat", "anthropic", FULL),
    ("openai-chat", "anthropic", NULLS),
    ("anthropic", "openai-chat", FULL),
    ("openai-chat", "openai-responses", FULL),
    ("openai-responses", "openai-chat", FULL),
    ("openai-chat", "bedrock-converse", FULL),
    ("openai-chat", "gemini", FULL),
)
"""The pairs litellm converts (the issue's table), each on its full agent session; OpenAI
Chat -> Anthropic also on the twin whose one shape is the OpenAI SDK's ``model_dump`` nulls."""

FLOOR_LIMIT = 3.0
"""openai-chat -> anthropic: at most this many times the floor's instructions."""

VALIDATION_LIMIT = 4.0
"""Every pair: at most this many times the canonical model's validation of the session."""

CHATCODEC, CHATCODEC_PLAIN, FLOOR, LOADS, LOADS_PLAIN, VALIDATION = (
    "chatcodec",
    "chatcodec, plain twin",
    "floor, plain twin",
    "json.loads",
    "json.loads, plain twin",
    "canonical validation",
)
LITELLM = "litellm: "
MESSAGES_ONLY = "chatcodec, system and messages only"
"""chatcodec on what a messages-only litellm converter reads (``model`` and ``messages``, no
tools or settings), so that row's litellm ratio is also given like for like."""
SCOPE_MESSAGES = " (system and messages only)"
"""The end of a litellm anchor's name when it writes no tools and no settings."""
NO_TOOLS, FIRST_MESSAGE = "chatcodec, no tools", "chatcodec, first message only"
"""``--pieces``: the session without ``tools`` and ``tool_choice``, and that body cut to its
first message (the per-request cost every conversion pays)."""


@dataclass(frozen=True)
class Case:
    """One callable counted: its row (pair, turns, shape), its input form and its name."""

    row: str
    form: str
    name: str
    call: Callable[[], object]

    @property
    def label(self) -> str:
        return f"{self.row}|{self.form}|{self.name}"


def row_key(source: str, target: str, shape: str, turns: int) -> str:
    return f"{source}->{target}/{shape}/{turns}"


# --- the child: build the cases, check them, count them ------------------------------------------


@dataclass(frozen=True)
class Counted:
    """One session counted: its row, pair and body; ``plain``, what the floor converts (``None``: no
    floor row); ``others``, the same shape from other seeds (made only when a first sight needs them)."""

    row: str
    source: str
    target: str
    body: dict[str, Any]
    plain: dict[str, Any] | None
    others: Callable[[], tuple[dict[str, Any], ...]]
    acceptance: bool = False
    """One of the acceptance sessions (``--pieces`` splits those)."""


def sessions(turns: int, only: Sequence[str], sets: Sequence[str]) -> Iterator[Counted]:
    """Every session of one size: the bench's own (:mod:`bench.agent_sources`), the acceptance
    sessions (:mod:`bench.perf_sessions`), then the generated other shapes (:mod:`bench.other_shapes`)."""
    from bench import agent_sources, perf_sessions

    def wanted(source: str, target: str) -> bool:
        return not only or f"{source}->{target}" in only

    made = agent_sources.Sessions(turns)
    seeded = [agent_sources.Sessions(turns, seed) for seed in agent_sources.OTHER_SEEDS]
    for source, target, shape in ROWS if BENCH in sets else ():
        if wanted(source, target):
            reader = next(item for item in agent_sources.SOURCES if item.provider == source)
            shapes = reader.full if shape == FULL else (shape,)
            plain = made.get(reader, (), target) if shape == FULL else None

            def others(reader: Any = reader, shapes: Any = shapes, target: str = target) -> tuple[dict[str, Any], ...]:
                return tuple(other.get(reader, shapes, target) for other in seeded)

            body = made.get(reader, shapes, target)
            yield Counted(row_key(source, target, shape, turns), source, target, body, plain, others)
    for session in perf_sessions.sessions([turns]) if PERF in sets else ():
        if wanted(session.source, session.target):
            row = row_key(session.source, session.target, session.shape, turns)
            found = partial(perf_sessions.others, session)
            yield Counted(row, session.source, session.target, session.body, session.body, found, acceptance=True)
    for shaped in _generated(turns, sets):
        if wanted(shaped.source, shaped.target):
            row = row_key(shaped.source, shaped.target, shaped.shape, turns)
            yield Counted(row, shaped.source, shaped.target, shaped.body, None, partial(tuple, shaped.others))


def _generated(turns: int, sets: Sequence[str]) -> Iterator[Any]:
    """The generated sessions of one size in ``sets`` (each with its source, target, shape, body and
    ``others``): the feature shapes (``CHATCODEC_BENCH_FEATURES``: only those named), the other
    shapes, the held-out agents."""
    from bench import feature_shapes, held_out, other_shapes

    named = [name for name in os.environ.get("CHATCODEC_BENCH_FEATURES", "").split(",") if name]
    yield from feature_shapes.sessions([turns], named) if FEATURES in sets else ()
    yield from other_shapes.sessions([turns]) if SHAPES in sets else ()
    yield from held_out.sessions([turns]) if HELD_OUT in sets else ()


def _cases(turns: int, only: Sequence[str], sets: Sequence[str]) -> tuple[list[Case], list[str]]:
    """Every case of one size (steady state), and the checks that failed (a failed case is not counted)."""
    cases: list[Case] = []
    failed: list[str] = []
    pieces = bool(os.environ.get(PIECES))
    for counted in sessions(turns, only, sets):
        _payload_cases(
            counted.row,
            counted.source,
            counted.target,
            counted.body,
            counted.plain,
            into=(cases, failed),
            pieces=pieces and counted.acceptance,
        )
    return cases, failed


def _payload_cases(
    row: str,
    source: str,
    target: str,
    payload: dict[str, Any],
    plain: dict[str, Any] | None,
    *,
    into: tuple[list[Case], list[str]],
    pieces: bool = False,
) -> None:
    """The cases of one row (into ``cases, failed``), each output checked against the view of its input first.
    ``plain``: what the floor converts (the bench's plainest twin, or an acceptance session itself);
    ``None``, no floor on this row; ``pieces``: the row's :func:`_pieces` too."""
    cases, failed = into
    import chatcodec
    from bench import agent_sources, anchors_litellm_agents, states
    from chatcodec._conversion import read_request_data

    policy = states.loss_policy()

    def add(
        form: str, name: str, call: Callable[[], object], view: Callable[[Any], object] | None, expected: object
    ) -> None:
        case = Case(row, form, name, call)
        if view is not None and view(call()) != expected:
            failed.append(case.label)
        else:
            cases.append(case)

    def convert(given: object) -> object:
        if os.environ.get(EMPTY_MEMORIES):
            _forget_proved_texts()
        return chatcodec.convert_request(given, source=source, target=target, on_loss=policy)

    body = json.dumps(payload).encode()
    view = agent_sources.viewer(source, target)
    expected = agent_sources.expected(payload, source, target)
    add("dict", CHATCODEC, partial(convert, payload), view, expected)
    add("bytes", CHATCODEC, partial(convert, body), view, expected)
    add("bytes", LOADS, partial(json.loads, body), None, None)
    validator = chatcodec.ChatRequest.__pydantic_validator__
    canonical = read_request_data(payload, source)
    add("dict", VALIDATION, partial(validator.validate_python, canonical), None, None)
    add("bytes", VALIDATION, partial(validator.validate_json, json.dumps(canonical).encode()), None, None)
    if (source, target) in anchors_litellm_agents.PAIRS:
        _litellm_cases(source, target, payload, add, convert)
    if pieces:
        for name, piece in _pieces(payload).items():
            add("dict", name, partial(convert, piece), None, None)
    floor = agent_sources.FLOORS.get((source, target))
    if floor is not None and plain is not None and _floor_converts(floor, plain, view, source, target):
        plain_body = json.dumps(plain).encode()
        plain_expected = agent_sources.expected(plain, source, target)
        add("dict", FLOOR, partial(floor, plain), view, plain_expected)
        add("bytes", LOADS_PLAIN, partial(json.loads, plain_body), None, None)
        add("dict", CHATCODEC_PLAIN, partial(convert, plain), view, plain_expected)
        add("bytes", CHATCODEC_PLAIN, partial(convert, plain_body), view, plain_expected)


Add = Callable[[str, str, Callable[[], object], Callable[[Any], object] | None, object], None]
"""``_payload_cases``'s ``add(form, name, call, view, expected)``."""


def _litellm_cases(
    source: str, target: str, payload: dict[str, Any], add: Add, convert: Callable[[object], object]
) -> None:
    """Every litellm anchor of the pair, each checked by the view of what it writes, and for a
    messages-only one (once) chatcodec given the same ``model`` and ``messages`` alone."""
    from bench import agent_sources, anchors_litellm_agents

    bare_added = False
    for anchor in anchors_litellm_agents.anchors(source, target, payload):
        only_messages = anchor.messages_only
        anchor_view = agent_sources.viewer(source, target, messages_only=only_messages)
        anchor_expected = agent_sources.expected(payload, source, target, messages_only=only_messages)
        scope = SCOPE_MESSAGES if only_messages else ""
        add("dict", LITELLM + anchor.name + scope, anchor.call, anchor_view, anchor_expected)
        if only_messages and not bare_added:
            bare = {"model": payload["model"], "messages": payload["messages"]}
            add("dict", MESSAGES_ONLY, partial(convert, bare), anchor_view, anchor_expected)
            bare_added = True


PIECES = "CHATCODEC_BENCH_PIECES"
"""Set (by ``--pieces``): each session is also counted without its tools, and cut to its first
message, so a row splits into the per-request cost, the messages and the tools."""


def _pieces(payload: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The session without its tools, and that body with its first message (or input item) only."""
    listed = "messages" if "messages" in payload else "input"
    without = {key: value for key, value in payload.items() if key not in ("tools", "tool_choice")}
    return {NO_TOOLS: without, FIRST_MESSAGE: {**without, listed: payload[listed][:1]}}


EMPTY_MEMORIES = "CHATCODEC_BENCH_EMPTY_MEMORIES"
"""Set (by ``--empty-memories``, a diagnostic): every steady-state chatcodec conversion starts with
the memory of proved tool-argument texts emptied, the others kept; what a first sight costs is
counted by :mod:`bench.states` (``--states``), which forgets nothing."""


def _forget_proved_texts() -> None:
    from chatcodec._providers.kit import arguments
    from chatcodec._text_memory import TextMemory

    arguments._PROVED = TextMemory(arguments._PROVED.limit)  # pyright: ignore[reportPrivateUsage]


def _floor_converts(
    floor: Callable[[dict[str, Any]], object],
    plain: dict[str, Any],
    view: Callable[[Any], object],
    source: str,
    target: str,
) -> bool:
    """Whether the hand-written floor says what ``plain`` says (it handles the plain shapes only,
    so an acceptance session with one it lacks has no floor row rather than a failed one)."""
    from bench import agent_sources

    try:
        return view(floor(plain)) == agent_sources.expected(plain, source, target)
    except (KeyError, TypeError, ValueError, AttributeError):
        return False


def _repeat(call: Callable[[], object], times: int) -> None:
    for _ in range(times):
        call()


def child(
    library: Path, turns: Sequence[int], only: Sequence[str], calls: int, warmup: int, *, sets: Sequence[str]
) -> int:
    """Count every case under callgrind (this process runs under it); each region is dumped
    as ``label|n``. The failed checks are printed on stderr as ``FAILED label``."""
    requests = callgrind.Requests(library)
    cases: list[Case] = []
    for size in turns:
        made, failed = _cases(size, only, sets)
        cases.extend(made)
        for label in failed:
            print(f"FAILED {label}", file=sys.stderr)
    for case in cases:
        _repeat(case.call, warmup)
    gc.collect()
    gc.freeze()  # what the imports and sessions made is not walked again by each region's collections
    for case in cases:
        requests.start()
        case.call()
        for times in (0, calls):
            gc.collect()
            requests.zero()
            _repeat(case.call, times)
            requests.dump(f"{case.label}|{times}")
        requests.stop()
    return 0


# --- the parent: run the child under valgrind, read the dumps, print the table ----------------------


def count(
    turns: Sequence[int],
    only: Sequence[str],
    calls: int,
    warmup: int,
    keep: Path | None,
    *,
    sets: Sequence[str] = ("bench",),
) -> dict[str, float]:
    """Instructions per call of every case, by label (``row|form|name``)."""
    with tempfile.TemporaryDirectory(prefix="chatcodec-instructions-") as temporary:
        directory = keep or Path(temporary)
        directory.mkdir(parents=True, exist_ok=True)
        for stale in directory.glob("callgrind.out.*"):
            stale.unlink()
        library = callgrind.build(Path(temporary))
        arguments = [str(Path(__file__).resolve()), "--child", str(library), "--calls", str(calls)]
        arguments += ["--warmup", str(warmup), "--turns", *map(str, turns), "--sessions", *sets]
        if only:
            arguments += ["--only", *only]
        stderr = callgrind.run(arguments, directory, {"LITELLM_LOCAL_MODEL_COST_MAP": "True"})
        for line in stderr.splitlines():
            if line.startswith("FAILED "):
                print(f"check failed, not counted: {line.removeprefix('FAILED ')}", file=sys.stderr)
        regions: dict[str, dict[int, int]] = {}
        for dump in callgrind.read_dumps(directory):
            label, _, times = dump.label.rpartition("|")
            regions.setdefault(label, {})[int(times)] = dump.instructions
    return {label: (counts[calls] - counts[0]) / calls for label, counts in regions.items() if len(counts) == 2}


def _millions(value: float | None) -> str:
    return "" if value is None else f"{value / 1e6:.2f} M"


def _ratio(numerator: float | None, denominator: float | None, limit: float | None = None) -> str:
    if numerator is None or not denominator:
        return ""
    value = numerator / denominator
    mark = "" if limit is None else (" ✓" if value <= limit else " ✗")
    return f"{value:.2f}x{mark}"


def table(counts: dict[str, float], turns: Sequence[int]) -> str:
    """The Markdown table: per row and input form, chatcodec beside litellm, the floor and validation."""
    lines = [
        "| pair | turns | in | chatcodec | litellm fastest | / litellm | same work / litellm "
        "| chatcodec plain / floor | / floor | canonical validation | / validation |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row, source, target, shape, size in every_row(turns):
        for form in ("dict", "bytes"):

            def get(name: str, form: str = form, row: str = row) -> float | None:
                return counts.get(f"{row}|{form}|{name}")

            ours = get(CHATCODEC)
            if ours is None:
                continue
            litellm = [value for label, value in counts.items() if label.startswith(f"{row}|dict|{LITELLM}")]
            loads, loads_plain = get(LOADS, "bytes"), get(LOADS_PLAIN, "bytes")
            fastest = min(litellm) if litellm else None
            floor = get(FLOOR, "dict")
            if form == "bytes":
                fastest = None if fastest is None or loads is None else fastest + loads
                floor = None if floor is None or loads_plain is None else floor + loads_plain
            plain = get(CHATCODEC_PLAIN)
            pair = f"{source} -> {target}" + ("" if shape == FULL else f" ({shape})")
            is_floor_target = (source, target) == ("openai-chat", "anthropic")
            validation = get(VALIDATION)
            lines.append(
                f"| {pair} | {size} | {form} | {_millions(ours)} | {_millions(fastest)} | "
                f"{_ratio(ours, fastest, 1.0)} | {same_work(counts, row) if form == 'dict' else ''} | "
                f"{'' if plain is None else _millions(plain) + ' / ' + _millions(floor)} | "
                f"{_ratio(plain, floor, FLOOR_LIMIT if is_floor_target else None)} | "
                f"{_millions(validation)} | {_ratio(ours, validation, VALIDATION_LIMIT)} |"
            )
    return "\n".join(lines)


def same_work(counts: dict[str, float], row: str) -> str:
    """chatcodec against each litellm anchor on the work that anchor does (a messages-only
    converter against chatcodec given ``model`` and ``messages`` alone), the largest ratio:
    litellm's fastest anchor for three pairs writes no tools and no settings, which the main
    column's chatcodec count includes."""
    ratios: list[float] = []
    for label, value in counts.items():
        if label.startswith(f"{row}|dict|{LITELLM}") and value:
            ours = counts.get(f"{row}|dict|{MESSAGES_ONLY if label.endswith(SCOPE_MESSAGES) else CHATCODEC}")
            if ours is not None:
                ratios.append(ours / value)
    return _ratio(max(ratios), 1.0, 1.0) if ratios else ""


def pieces_table(counts: dict[str, float], turns: Sequence[int]) -> str:
    """``--pieces``: each acceptance session's dict conversion split into the per-request cost (the
    body cut to its first message), the rest of the messages and the tools, in M instructions."""
    from bench import perf_sessions

    lines = [
        "| pair | turns | whole | per request (first message only) | other messages | tools |",
        "|---|---|---|---|---|---|",
    ]
    for source, target, shape in perf_sessions.STEMS.values():
        for size in turns:
            row = row_key(source, target, shape, size)
            whole, without, first = (counts.get(f"{row}|dict|{name}") for name in (CHATCODEC, NO_TOOLS, FIRST_MESSAGE))
            if whole is None or without is None or first is None:
                continue
            pair = f"{source} -> {target}" + ("" if shape == perf_sessions.REAL else f" ({shape})")
            cells = (whole, first, without - first, whole - without)
            lines.append(f"| {pair} | {size} | " + " | ".join(_millions(cell) for cell in cells) + " |")
    return "\n".join(lines)


def every_row(turns: Sequence[int]) -> Iterator[tuple[str, str, str, str, int]]:
    """Each row of the tables, in order: ``(row key, source, target, shape, turns)``."""
    from bench import feature_shapes, held_out, other_shapes, perf_sessions

    shaped = [(source, target, shape) for shape, pairs in other_shapes.PAIRS.items() for source, target in pairs]
    shaped += [
        (source, target, f"features: {name}")
        for name, _ in feature_shapes.combinations()
        for source, target in feature_shapes.PAIRS
    ]
    shaped += [
        (source, target, f"held out: {kind}") for kind, pairs in held_out.PAIRS.items() for source, target in pairs
    ]
    for source, target, shape in (*ROWS, *perf_sessions.STEMS.values(), *shaped):
        for size in turns:
            yield row_key(source, target, shape, size), source, target, shape, size


def states_table(counts: dict[str, float], turns: Sequence[int]) -> str:
    """The three states of every session, dicts in and out: chatcodec's count and its ratio to
    litellm's fastest contender (counted once, in the steady child: litellm remembers nothing);
    when counted (``--states "litellm first sight"``), litellm's fastest at its own first sight and
    chatcodec's first sight against it, the same state on both sides."""
    from bench import states

    litellm_first = any(states.LITELLM_LABEL in label for label in counts)
    extra_head = " litellm first sight | first sight / litellm first sight |" if litellm_first else ""
    lines = [
        "| pair | turns | litellm fastest | first sight | / litellm | agent step | / litellm "
        "| steady | / litellm | first sight / steady |" + extra_head,
        "|---|---|---|---|---|---|---|---|---|---|" + ("---|---|" if litellm_first else ""),
    ]
    for row, source, target, shape, size in every_row(turns):
        steady = counts.get(f"{row}|dict|{CHATCODEC}")
        first = counts.get(f"{row}|dict|{CHATCODEC}, {states.FIRST}")
        step = counts.get(f"{row}|dict|{CHATCODEC}, {states.STEP}")
        if steady is None and first is None and step is None:
            continue
        litellm = [value for label, value in counts.items() if label.startswith(f"{row}|dict|{LITELLM}")]
        fastest = min(litellm) if litellm else None
        pair = f"{source} -> {target}" + ("" if shape == FULL else f" ({shape})")
        line = (
            f"| {pair} | {size} | {_millions(fastest)} | {_millions(first)} | {_ratio(first, fastest, FIRST_LIMIT)} | "
            f"{_millions(step)} | {_ratio(step, fastest, 1.0)} | "
            f"{_millions(steady)} | {_ratio(steady, fastest, 1.0)} | {_ratio(first, steady)} |"
        )
        if litellm_first:
            cold = [value for label, value in counts.items() if label.startswith(f"{row}|dict|{states.LITELLM_LABEL}")]
            coldest = min(cold) if cold else None
            line += f" {_millions(coldest)} | {_ratio(first, coldest, 1.0)} |"
        lines.append(line)
    return "\n".join(lines)


def kept_counts(directory: Path) -> dict[str, float]:
    """The counts of the dumps a run kept (``--keep``: the steady regions in ``directory``, the states'
    in ``directory/states``): each label's largest region less its empty one, per call."""
    from bench import callgrind

    regions: dict[str, dict[int, int]] = {}
    for folder in (directory, directory / "states"):
        for dump in callgrind.read_dumps(folder) if folder.is_dir() else ():
            label, _, times = dump.label.rpartition("|")
            regions.setdefault(label, {})[int(times)] = dump.instructions
    counts: dict[str, float] = {}
    for label, found in regions.items():
        calls = max(found)
        if 0 in found and calls:
            counts[label] = (found[calls] - found[0]) / calls
    return counts


FIRST_LIMIT = 1.25
"""Issue 81: at first sight, every dict row at most this many times litellm's fastest."""


def _parser() -> argparse.ArgumentParser:
    from bench import states

    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--turns", type=int, nargs="+", default=[10, 50])
    parser.add_argument("--only", nargs="+", default=[], help="pairs as source->target")
    parser.add_argument("--calls", type=int, default=3, help="conversions per counted region")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="keep the callgrind dumps in this directory")
    parser.add_argument(
        "--states",
        nargs="*",
        choices=(STEADY, *states.STATES, states.LITELLM_FIRST),
        default=[STEADY, *states.STATES],
        help="the states counted (default: all three; the litellm, floor and validation rows come with steady)",
    )
    parser.add_argument(
        "--empty-memories",
        action="store_true",
        help="a diagnostic: empty the memory of proved argument texts before each steady conversion",
    )
    parser.add_argument(
        "--pieces",
        action="store_true",
        help="also count each acceptance session without its tools and cut to its first message, and split it",
    )
    parser.add_argument(
        "--tables-from",
        type=Path,
        help="count nothing: print the tables from the dumps an earlier run kept in this directory (its --keep)",
    )
    parser.add_argument(
        "--policy",
        choices=states.POLICIES,
        default="ignore",
        help="the on_loss policy chatcodec converts under (default: ignore; warn, a user's default, with the warnings "
        "filtered out; warn-shown, the same under Python's default filters: the warning made, shown nowhere)",
    )
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    parser.add_argument(
        "--sessions",
        nargs="+",
        choices=(BENCH, PERF, SHAPES, FEATURES, HELD_OUT),
        default=None,
        help=f"{BENCH}: the bench's own agent sessions; {PERF}: the acceptance sessions "
        f"(CHATCODEC_PERF_SESSIONS, else the repository's 10-step copy); {SHAPES}: sessions of other shapes; "
        f"{FEATURES}: each feature of a wire on and off; {HELD_OUT}: three held-out agent sessions "
        f"(default: all, without {PERF} when that folder is missing)",
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    from bench import states

    arguments = _parser().parse_args(argv)
    if arguments.child is not None:
        sets = arguments.sessions or [BENCH]
        return child(arguments.child, arguments.turns, arguments.only, arguments.calls, arguments.warmup, sets=sets)
    from bench import perf_sessions

    if arguments.policy != "ignore":
        os.environ[states.POLICY] = arguments.policy  # the children inherit it
    if arguments.tables_from is not None:
        kept = kept_counts(arguments.tables_from)
        print(_policy_line() + states_table(kept, arguments.turns) + "\n\n" + table(kept, arguments.turns))
        return 0
    started = time.monotonic()
    sets = arguments.sessions or ([BENCH, PERF, SHAPES] if perf_sessions.available() else [BENCH, SHAPES])
    if arguments.empty_memories:
        os.environ[EMPTY_MEMORIES] = "1"  # the child inherits it
    if arguments.pieces:
        os.environ[PIECES] = "1"
    counts: dict[str, float] = {}
    if STEADY in arguments.states:
        counts |= count(arguments.turns, arguments.only, arguments.calls, arguments.warmup, arguments.keep, sets=sets)
    wanted = [state for state in arguments.states if state != STEADY]
    if wanted:
        keep = None if arguments.keep is None else arguments.keep / "states"
        every = [session for size in arguments.turns for session in sessions(size, arguments.only, sets)]
        found, failed = states.count(every, wanted, keep)
        counts |= found
        for label in failed:
            print(f"check failed, not counted: {label}", file=sys.stderr)
    print(_header())
    print()
    print(states_table(counts, arguments.turns))
    if STEADY in arguments.states:
        print()
        print(table(counts, arguments.turns))
    if arguments.pieces:
        print()
        print(pieces_table(counts, arguments.turns))
    print()
    print(f"The whole run took {time.monotonic() - started:.0f} s of wall clock.")
    return 0


def _header() -> str:
    revision = subprocess.run(
        ["git", "-C", str(ROOT), "describe", "--always", "--dirty"], capture_output=True, text=True, check=False
    ).stdout.strip()
    return (
        f"Instructions per conversion (valgrind callgrind, PYTHONHASHSEED=0), chatcodec {revision or '?'}, "
        f"Python {sys.version.split()[0]}; ✓/✗: first sight at most {FIRST_LIMIT}x litellm's fastest, the other "
        f"states at or below it, openai-chat -> anthropic <= {FLOOR_LIMIT:.0f}x the floor, "
        f"<= {VALIDATION_LIMIT:.0f}x canonical validation. First sight: a fresh process converts two sessions of the "
        "same shape from other seeds, then the counted one; agent step: the same, then request N-1 (the session one "
        "step shorter), then request N; steady: the same body converted before"
        + (
            " (memories of proved argument and base64 texts emptied before each)."
            if os.environ.get(EMPTY_MEMORIES)
            else "."
        )
        + (f" {_policy_line().rstrip()}" if _policy_line() else "")
    )


def _policy_line() -> str:
    """What the tables count under ``--policy`` other than ``ignore`` (nothing under ``ignore``,
    so the default run's tables are as before)."""
    from bench import states

    policy = os.environ.get(states.POLICY) or "ignore"
    if policy == "ignore":
        return ""
    if policy == "warn":
        return (
            "chatcodec converts with on_loss='warn' (a user's default), not 'ignore', its warnings filtered out "
            "(simplefilter('ignore')): its counts hold the losses recorded and the filter check.\n"
        )
    return (
        "chatcodec converts with on_loss='warn' (a user's default), not 'ignore', under Python's default warning "
        "filters: its counts hold the losses rendered at their place in the input, the one LossWarning listing them "
        "and the warn call (its display replaced by one printing nothing).\n"
    )


if __name__ == "__main__":
    raise SystemExit(main())
