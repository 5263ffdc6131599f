"""Section 5: JSON bytes in, validated, JSON text out, in MB/s of input.

Two jobs on the 50-turn session: canonical JSON through ``ChatRequest`` (validate, then
dump), and OpenAI Chat bytes to Anthropic JSON through ``convert_request``. The floor is
``json.loads`` then ``json.dumps`` of the same bytes: the least any JSON-to-JSON service
does. The floor converter (parse, convert, dump with no validation) is shown too.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import chatcodec
from bench import convert_throughput, floor, workloads
from bench.compare import Outcome, run_checked
from bench.equivalence import anthropic_view
from bench.report import Section, Table, Target, ratio, seconds
from bench.timing import Contender, RunSettings
from bench.workloads import ANTHROPIC_OPTIONS

TURNS = 50
QUICK_TURNS = 8

INTRO = (
    "Throughput of whole JSON documents: bytes in, parsed and validated, JSON text out. MB/s counts input bytes "
    "(MB = 10^6 bytes). The floor is `json.dumps(json.loads(data))`. Outputs were checked before timing: the "
    "canonical round trip must give back the same document, the conversions an Anthropic request equivalent to "
    "the floor converter's."
)


def _parsed(text: str) -> object:
    return json.loads(text)


def _json_floor(data: bytes) -> Contender:
    """Checked like the others: it must give back the document it read."""
    return Contender(
        "floor `json.loads` + `json.dumps`", lambda: json.dumps(json.loads(data)), _parsed, scope="document"
    )


def _canonical(data: bytes, settings: RunSettings) -> Table:
    request_type = chatcodec.ChatRequest
    contenders = [
        _json_floor(data),
        Contender(
            "chatcodec `ChatRequest.model_validate_json` + `model_dump_json`",
            lambda: request_type.model_validate_json(data).model_dump_json(),
            _parsed,
            scope="document",
        ),
    ]
    outcomes = run_checked(
        contenders,
        {"document": json.loads(data)},
        settings=settings,
    )
    return _table(outcomes, len(data), f"**canonical JSON** ({len(data) / 1024:.0f} KiB)")


def _conversion(data: bytes, settings: RunSettings) -> Table:
    def view(text: str) -> object:
        return anthropic_view(json.loads(text))

    expected = anthropic_view(floor.openai_to_anthropic(json.loads(data)))

    def convert() -> str:
        converted = chatcodec.convert_request(
            data, source="openai-chat", target="anthropic", on_loss="ignore", options=ANTHROPIC_OPTIONS
        )
        return json.dumps(converted)

    contenders = [
        _json_floor(data),
        Contender(
            "floor converter + `json.dumps`", lambda: json.dumps(floor.openai_to_anthropic(json.loads(data))), view
        ),
        Contender("chatcodec `convert_request(bytes)` + `json.dumps`", convert, view),
    ]
    outcomes = run_checked(
        contenders,
        {"document": json.loads(data), "request": expected},
        settings=settings,
    )
    return _table(outcomes, len(data), f"**OpenAI Chat bytes -> Anthropic JSON** ({len(data) / 1024:.0f} KiB)")


def _table(outcomes: Sequence[Outcome], size: int, caption: str) -> Table:
    floor_median = outcomes[0].median
    table = Table(["contender", "median", "MB/s", "ratio to floor"], caption=caption)
    for outcome in outcomes:
        if outcome.median is None or floor_median is None:
            table.rows.append([outcome.name, "-", "-", outcome.status])
        else:
            throughput = f"{size / outcome.median / 1e6:.1f}"
            table.rows.append([outcome.name, seconds(outcome.median), throughput, ratio(outcome.median / floor_median)])
    return table


CLI_TARGET_RATIO = 1.1
"""Issue 25: the dataset CLI, per core, within 10% of the same conversion in process."""
CLI_LINES, QUICK_CLI_LINES = 5_000, 200
CLI_TURNS = 10


def _cli(section: Section, settings: RunSettings) -> None:
    lines = QUICK_CLI_LINES if settings.quick else CLI_LINES
    session = workloads.openai_session(CLI_TURNS)
    command, collecting, ignoring = convert_throughput.per_core_against_in_process(
        lines, session, 1 if settings.quick else 3
    )
    measured = command / collecting
    table = Table(
        ["job", "CPU time per line", "ratio to in process"],
        caption=f"**dataset CLI, per core**: {lines:,} lines of the {CLI_TURNS}-turn session (each with its own "
        f"tool-call ids and user text), OpenAI Chat -> Anthropic",
    )
    table.rows.append(
        ["in process: `convert_request(line bytes, losses=...)` + `dump_json`", seconds(collecting), "1.00x"]
    )
    table.rows.append(["in process, losses ignored (not collected)", seconds(ignoring), ratio(ignoring / collecting)])
    table.rows.append(["`chatcodec convert --workers 1 --quiet`, whole command", seconds(command), ratio(measured)])
    section.tables.append(table)
    section.footnotes.append(
        "Dataset CLI: CPU time (this process's, and the command's as a child), medians of interleaved runs. The "
        "command's includes its start (imports, with its bytecode cached as an installed package's is), reading and "
        "writing; it collects every line's losses (it counts and reports them), so the in-process row it is judged "
        "against collects them too; all three wrote the same bytes "
        "(`bench/convert_throughput.py`, `per_core_against_in_process`)."
    )
    section.targets.append(
        Target(
            "dataset CLI, per core, against in process (CPU time)",
            f"<= {CLI_TARGET_RATIO}x in process",
            ratio(measured),
            measured <= CLI_TARGET_RATIO,
        )
    )


def run(settings: RunSettings) -> Section:
    turns = QUICK_TURNS if settings.quick else TURNS
    openai_bytes = json.dumps(workloads.openai_session(turns)).encode()
    request = chatcodec.decode_request("openai-chat", openai_bytes)
    canonical_bytes = request.model_dump_json().encode()
    section = Section("throughput", f"JSON throughput ({turns}-turn session)", INTRO)
    section.tables.append(_canonical(canonical_bytes, settings))
    section.tables.append(_conversion(openai_bytes, settings))
    _cli(section, settings)
    return section
