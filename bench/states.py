"""The agent step and the first sight of a session, each counted in a process of its own.

chatcodec remembers texts it proved or checked (tool-argument JSON, base64, data URLs, tool
readings: ``docs/performance.md``, "Memories"), so what one conversion costs depends on what
the process converted before. :mod:`bench.instructions` counts three states of every session:

* *steady*: the same body converted before (its own child, one process for every session);
* *agent step* (:data:`STEP`): request N after request N-1 of the same session, N-1 being the
  session cut one step shorter (:func:`one_step_shorter`), as an agent loop sends it;
* *first sight* (:data:`FIRST`): the method of the acceptance sessions' README (in the shared folder
  ``CHATCODEC_PERF_SESSIONS`` names; the repository's copy has no ``first-sight/``): in a fresh
  process, two sessions of the same pair, shape and size from other seeds are converted, then one
  conversion of the session is counted, and its output checked after the count (a check before
  it would warm the memories).

Both start the same way (the two other-seed sessions first: the modules imported and the
validators built, the memories holding someone else's texts); the agent step then converts
N-1. Each :class:`Job` is written to a folder as JSON files, so the counted process builds
nothing with chatcodec before its count (the bench makes some sources' sessions by converting
with chatcodec, which would fill the memories), and runs under callgrind by itself: one process
per session and state.
"""

from __future__ import annotations

import gc
import json
import os
import sys
import tempfile
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Literal, Protocol

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

STEP, FIRST = "agent step", "first sight"
STATES = (STEP, FIRST)
LITELLM_FIRST = "litellm first sight"
"""litellm's own first sight (asked by name, not counted by default: each job imports litellm under
callgrind): each of the pair's litellm anchors in a fresh process, run on the two other-seed
sessions first, then counted on the session, as chatcodec's :data:`FIRST` is. The tables judge
chatcodec's first sight against litellm's steady state (the stricter); this says what the same
state costs litellm, so a gap is split into what is ours and what is the interpreter's cold code."""
LITELLM_LABEL = "litellm first sight: "

POLICY = "CHATCODEC_BENCH_POLICY"
"""Set (by ``bench/instructions.py --policy``): the ``on_loss`` policy chatcodec converts under in
every counted process, ``ignore`` when unset."""
Policy = Literal["ignore", "warn", "warn-shown"]
POLICIES: tuple[Policy, ...] = ("ignore", "warn", "warn-shown")
"""``ignore``: the losses collected, nothing reported (the bench's tables); ``warn``: a user's
default with the warnings filtered out (``simplefilter("ignore")``, as a service or a test run
that silences them); ``warn-shown``: a user's default under Python's default filters, the one
warning per conversion made (every loss rendered at its place in the input) and given to the
warnings machinery, whose display is replaced by one that prints nothing."""


def loss_policy() -> Literal["ignore", "warn"]:
    """The ``on_loss`` policy of this counted process (:data:`POLICY`). Under ``warn`` every
    warning is filtered out here, once, so the count holds what deciding that costs and nothing
    is printed; under ``warn-shown`` the filters stay Python's defaults and only the display is
    silenced, so the count holds the warning's text and the ``warnings.warn`` call."""
    given = os.environ.get(POLICY) or "ignore"
    if given == "ignore":
        return "ignore"
    if given == "warn":
        warnings.simplefilter("ignore")
        return "warn"
    if given == "warn-shown":
        warnings.showwarning = _shown_nowhere
        return "warn"
    raise SystemExit(f"{POLICY}: {given!r} is none of {POLICIES}")


def _shown_nowhere(*shown: object, **where: object) -> None:
    """``warnings.showwarning`` for ``warn-shown``: the warning reached the display; nothing printed."""
    del shown, where


_ASSISTANT_ITEMS = frozenset({"reasoning", "function_call", "custom_tool_call"})


def _turns_key(source: str) -> str:
    return {"openai-responses": "input", "gemini": "contents"}.get(source, "messages")


def _is_assistant(item: Any, source: str) -> bool:
    if not isinstance(item, dict):
        return False
    if source == "openai-responses":
        return item.get("role") == "assistant" or item.get("type") in _ASSISTANT_ITEMS
    return item.get("role") == ("model" if source == "gemini" else "assistant")


def one_step_shorter(body: dict[str, Any], source: str) -> dict[str, Any]:
    """Request N-1 of the agent session ``body`` (request N): the body without its last
    assistant turn (every assistant message or item of the last run of them) and what follows it
    (that step's tool results and user words)."""
    key = _turns_key(source)
    items: list[Any] = body[key]
    last = max((index for index, item in enumerate(items) if _is_assistant(item, source)), default=None)
    if last is None:
        raise ValueError(f"a {source} session without an assistant turn has no previous request")
    while last > 0 and _is_assistant(items[last - 1], source):
        last -= 1
    return {**body, key: items[:last]}


@dataclass(frozen=True)
class Job:
    """One counted conversion: ``label`` (``row|dict|chatcodec, STATE``), the pair, the files the
    process converts before the count, and the counted body's file."""

    label: str
    source: str
    target: str
    before: tuple[str, ...]
    counted: str
    anchor: str = ""
    """A litellm anchor's name (:data:`LITELLM_FIRST`): the process runs it instead of chatcodec."""


def jobs(
    row: str,
    source: str,
    target: str,
    body: dict[str, Any],
    *,
    others: Sequence[dict[str, Any]],
    folder: Path,
    anchors: Sequence[str] = (),
) -> list[Job]:
    """The agent step and first sight of one session, their bodies written into ``folder``; and
    the first sight of each litellm anchor named in ``anchors`` (:data:`LITELLM_FIRST`)."""
    stem = str(len(list(folder.glob("*-counted.json"))))

    def write(name: str, value: dict[str, Any]) -> str:
        path = folder / f"{stem}-{name}.json"
        path.write_text(json.dumps(value), encoding="utf-8")
        return str(path)

    counted = write("counted", body)
    warm = tuple(write(f"other{index}", other) for index, other in enumerate(others))
    previous = write("previous", one_step_shorter(body, source))
    return [
        Job(f"{row}|dict|chatcodec, {STEP}", source, target, (*warm, previous), counted),
        Job(f"{row}|dict|chatcodec, {FIRST}", source, target, warm, counted),
        *(Job(f"{row}|dict|{LITELLM_LABEL}{name}", source, target, warm, counted, name) for name in anchors),
    ]


def state_of(job: Job) -> str:
    """The state ``job`` counts (one of :data:`STATES` or :data:`LITELLM_FIRST`)."""
    return LITELLM_FIRST if job.anchor else job.label.rpartition(", ")[2]


def anchor_names(source: str, target: str, body: dict[str, Any]) -> tuple[str, ...]:
    """The names of the pair's litellm anchors; none when litellm is not installed or converts
    no such pair."""
    from bench import anchors_litellm_agents

    if (source, target) not in anchors_litellm_agents.PAIRS:
        return ()
    try:
        return tuple(anchor.name for anchor in anchors_litellm_agents.anchors(source, target, body))
    except ImportError:
        return ()


class Session(Protocol):
    """What a state needs of a session (:class:`bench.instructions.Counted`)."""

    @property
    def row(self) -> str: ...
    @property
    def source(self) -> str: ...
    @property
    def target(self) -> str: ...
    @property
    def body(self) -> dict[str, Any]: ...
    def others(self) -> tuple[dict[str, Any], ...]: ...


def count(sessions: Iterable[Session], states: Sequence[str], keep: Path | None) -> tuple[dict[str, float], list[str]]:
    """Instructions of one conversion in each of ``states`` for every session, by label
    (``row|dict|chatcodec, STATE``), each job in its own process under callgrind, one at a time;
    and the labels whose output check failed (not counted). ``keep``: the dumps stay there."""
    from bench import callgrind

    counts: dict[str, float] = {}
    failed: list[str] = []
    with tempfile.TemporaryDirectory(prefix="chatcodec-states-") as temporary:
        folder = Path(temporary)
        directory = keep or folder / "dumps"
        directory.mkdir(parents=True, exist_ok=True)
        for stale in directory.glob("callgrind.out.*"):
            stale.unlink()
        library = callgrind.build(folder)
        for session in sessions:
            others = session.others()
            if len(others) < 2:
                print(f"{session.row}: fewer than two other-seed sessions, no first sight", file=sys.stderr)
            names = anchor_names(session.source, session.target, session.body) if LITELLM_FIRST in states else ()
            made = jobs(
                session.row, session.source, session.target, session.body, others=others, folder=folder, anchors=names
            )
            for job in made:
                if state_of(job) not in states:
                    continue
                job_file = folder / "job.json"
                job_file.write_text(json.dumps(job.__dict__), encoding="utf-8")
                stderr = callgrind.run([str(Path(__file__).resolve()), str(library), str(job_file)], directory)
                failed += [line.removeprefix("FAILED ") for line in stderr.splitlines() if line.startswith("FAILED ")]
        regions: dict[str, dict[int, int]] = {}
        for dump in callgrind.read_dumps(directory):
            label, _, times = dump.label.rpartition("|")
            regions.setdefault(label, {})[int(times)] = dump.instructions
    for label, found in regions.items():
        if len(found) == 2 and label not in failed:
            counts[label] = float(found[1] - found[0])
    return counts, failed


def child(library: Path, job_file: Path) -> int:
    """Count ``job_file``'s conversion once (this process runs under callgrind): a region of no
    call (``label|0``), then one of the call (``label|1``); then check what it wrote. A litellm
    job's anchor is made for each body before its call, so the count holds the call alone (as
    the steady count does)."""
    import chatcodec
    from bench import agent_sources, callgrind

    fields = json.loads(job_file.read_text(encoding="utf-8"))
    job = Job(**{**fields, "before": tuple(fields["before"])})
    policy = loss_policy()
    messages_only = False

    def load(path: str) -> dict[str, Any]:
        loaded: dict[str, Any] = json.loads(Path(path).read_text(encoding="utf-8"))
        return loaded

    def prepared(body: dict[str, Any]) -> Callable[[], object]:
        nonlocal messages_only
        if not job.anchor:
            return partial(chatcodec.convert_request, body, source=job.source, target=job.target, on_loss=policy)
        from bench import anchors_litellm_agents

        (anchor,) = [
            made for made in anchors_litellm_agents.anchors(job.source, job.target, body) if made.name == job.anchor
        ]
        messages_only = anchor.messages_only
        return anchor.call

    for path in job.before:
        prepared(load(path))()
    body = load(job.counted)
    convert = prepared(body)
    requests = callgrind.Requests(library)
    gc.collect()
    gc.freeze()
    requests.start()
    requests.zero()
    requests.dump(f"{job.label}|0")
    gc.collect()
    requests.zero()
    written = convert()
    requests.dump(f"{job.label}|1")
    requests.stop()
    view = agent_sources.viewer(job.source, job.target, messages_only=messages_only)
    if view(written) != agent_sources.expected(body, job.source, job.target, messages_only=messages_only):
        print(f"FAILED {job.label}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(child(Path(sys.argv[1]), Path(sys.argv[2])))
