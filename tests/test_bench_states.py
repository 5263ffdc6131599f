"""``bench/states.py`` and ``bench/other_shapes.py``: request N-1 of an agent session is the session
one assistant turn shorter in every source format; a state's job converts the other-seed sessions
(and, for the agent step, N-1) before the count and checks the output after it; the other shapes are
seeded, the sizes the issue names, and each pair's session passes the check the counts make; the
three-state table gives first sight against its own limit."""

from __future__ import annotations

import gzip
import json
import sys
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import chatcodec

ROOT = Path(__file__).resolve().parents[1]


def _bench(module: str) -> ModuleType:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import importlib

    return importlib.import_module(f"bench.{module}")


def test_request_n_minus_one_drops_the_last_assistant_turn_and_its_results() -> None:
    states = _bench("states")
    other_shapes = _bench("other_shapes")
    body = other_shapes.chatty_session(3)
    previous = states.one_step_shorter(body, "openai-chat")
    last = max(index for index, message in enumerate(body["messages"]) if message["role"] == "assistant")
    assert previous["messages"] == body["messages"][:last]
    assert {key: value for key, value in previous.items() if key != "messages"} == {
        key: value for key, value in body.items() if key != "messages"
    }
    with pytest.raises(ValueError, match="no previous request"):
        states.one_step_shorter({"messages": [{"role": "user", "content": "hi"}]}, "openai-chat")


@pytest.mark.parametrize("source", ["anthropic", "openai-responses", "gemini", "bedrock-converse"])
def test_request_n_minus_one_in_each_source_format_is_the_same_session_one_step_shorter(source: str) -> None:
    states = _bench("states")
    other_shapes = _bench("other_shapes")
    session = other_shapes.chatty_session(4)
    shorter = states.one_step_shorter(session, "openai-chat")

    def written(body: dict[str, object]) -> dict[str, object]:
        return chatcodec.convert_request(body, source="openai-chat", target=source, on_loss="ignore")

    assert states.one_step_shorter(written(session), source) == written(shorter)


def test_a_states_job_converts_the_others_and_n_minus_one_first_and_checks_after_the_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    states = _bench("states")
    other_shapes = _bench("other_shapes")
    callgrind = _bench("callgrind")
    body, *others = (other_shapes.chatty_session(3, seed) for seed in (29, 901, 902))
    step, first = states.jobs("row", "openai-chat", "anthropic", body, others=others, folder=tmp_path)
    assert first.label == f"row|dict|chatcodec, {states.FIRST}"
    assert step.label == f"row|dict|chatcodec, {states.STEP}"
    assert [json.loads(Path(path).read_text()) for path in first.before] == others
    assert step.before[:2] == first.before
    assert json.loads(Path(step.before[2]).read_text()) == states.one_step_shorter(body, "openai-chat")
    library = callgrind.build(tmp_path)  # outside valgrind its client requests do nothing
    job_file = tmp_path / "job.json"
    job_file.write_text(json.dumps(first.__dict__))
    assert states.child(library, job_file) == 0
    assert "FAILED" not in capsys.readouterr().err
    agent_sources = _bench("agent_sources")
    monkeypatch.setattr(agent_sources, "viewer", lambda source, target, **_: lambda written: "not what it says")
    job_file.write_text(json.dumps({**first.__dict__, "label": "broken"}))
    states.child(library, job_file)
    assert "FAILED broken" in capsys.readouterr().err


def test_a_litellm_first_sight_job_runs_its_anchor_on_the_others_first_and_counts_only_its_call(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # --states "litellm first sight": the same warm-up as chatcodec's first sight, the anchor made
    # for each body before its call; litellm is not a test dependency, so a stand-in anchor
    # converts with chatcodec and records what it was made for and when it ran
    states = _bench("states")
    other_shapes = _bench("other_shapes")
    callgrind = _bench("callgrind")
    anchors_litellm_agents = _bench("anchors_litellm_agents")
    body, *others = (other_shapes.chatty_session(3, seed) for seed in (29, 901, 902))
    made = states.jobs("row", "openai-chat", "anthropic", body, others=others, folder=tmp_path, anchors=("stand-in",))
    assert [job.label for job in made] == [
        f"row|dict|chatcodec, {states.STEP}",
        f"row|dict|chatcodec, {states.FIRST}",
        f"row|dict|{states.LITELLM_LABEL}stand-in",
    ]
    litellm_job = made[2]
    assert litellm_job.before == made[1].before
    assert litellm_job.counted == made[1].counted
    assert [states.state_of(job) for job in made] == [states.STEP, states.FIRST, states.LITELLM_FIRST]
    ran: list[object] = []

    def anchors(source: str, target: str, payload: dict[str, Any]) -> list[Any]:
        def call() -> object:
            ran.append(payload["messages"][1]["content"])
            return chatcodec.convert_request(payload, source=source, target=target, on_loss="ignore")

        return [anchors_litellm_agents.Anchor("other", call, ""), anchors_litellm_agents.Anchor("stand-in", call, "")]

    monkeypatch.setattr(anchors_litellm_agents, "anchors", anchors)
    job_file = tmp_path / "job.json"
    job_file.write_text(json.dumps(litellm_job.__dict__))
    assert states.child(callgrind.build(tmp_path), job_file) == 0
    assert "FAILED" not in capsys.readouterr().err
    assert ran == [session["messages"][1]["content"] for session in (*others, body)]


def test_the_other_shapes_are_seeded_and_of_the_size_the_issue_names() -> None:
    other_shapes = _bench("other_shapes")
    session = other_shapes.chatty_session(50)
    assert session == other_shapes.chatty_session(50)
    assert session != other_shapes.chatty_session(50, 901)
    assert 180 <= len(session["messages"]) <= 195
    calls = [len(message["tool_calls"]) for message in session["messages"] if message["role"] == "assistant"]
    assert len(calls) == 50
    assert set(calls) == {1, 2, 3}
    compact = other_shapes.compact_arguments({"messages": [{"function": {"arguments": '{"a": [1, 2]}'}}]})
    assert compact == {"messages": [{"function": {"arguments": '{"a":[1,2]}'}}]}


def test_every_other_shape_passes_the_check_the_counts_make() -> None:
    other_shapes = _bench("other_shapes")
    agent_sources = _bench("agent_sources")
    seen = 0
    for shaped in other_shapes.sessions([3]):
        written = chatcodec.convert_request(shaped.body, source=shaped.source, target=shaped.target, on_loss="ignore")
        view = agent_sources.viewer(shaped.source, shaped.target)
        assert view(written) == agent_sources.expected(shaped.body, shaped.source, shaped.target), shaped.shape
        assert len(shaped.others) == 2
        assert shaped.body not in shaped.others
        seen += 1
    assert seen == sum(len(pairs) for pairs in other_shapes.PAIRS.values())


def test_the_other_seed_sessions_of_an_acceptance_session_are_read_by_its_stem(tmp_path: Path) -> None:
    perf_sessions = _bench("perf_sessions")
    (tmp_path / perf_sessions.FIRST_SIGHT).mkdir()
    body = {"model": "m", "messages": []}
    with gzip.open(tmp_path / "first-sight" / "an-oc-real-10-seed901.json.gz", "wt", encoding="utf-8") as file:
        json.dump(body, file)
    session = perf_sessions.Session("anthropic", "openai-chat", perf_sessions.REAL, 10, {})
    assert perf_sessions.others(session, tmp_path) == (body,)


def test_the_states_table_sets_first_sight_against_its_limit_and_the_others_against_litellm() -> None:
    instructions = _bench("instructions")
    states = _bench("states")
    row = instructions.row_key("openai-chat", "anthropic", "perf session", 10)
    counts = {
        f"{row}|dict|{instructions.LITELLM}litellm converter": 2.0e6,
        f"{row}|dict|{instructions.CHATCODEC}": 1.9e6,
        f"{row}|dict|{instructions.CHATCODEC}, {states.STEP}": 2.1e6,
        f"{row}|dict|{instructions.CHATCODEC}, {states.FIRST}": 2.4e6,
    }
    line = (
        "| openai-chat -> anthropic (perf session) | 10 | 2.00 M | 2.40 M | 1.20x ✓ | 2.10 M | 1.05x ✗ "
        "| 1.90 M | 0.95x ✓ | 1.26x |"
    )
    assert line in instructions.states_table(counts, [10])


def test_the_states_table_sets_first_sight_beside_litellms_own_first_sight_when_counted() -> None:
    instructions = _bench("instructions")
    states = _bench("states")
    row = instructions.row_key("openai-chat", "anthropic", "perf session", 10)
    counts = {
        f"{row}|dict|{instructions.LITELLM}litellm converter": 2.0e6,
        f"{row}|dict|{instructions.CHATCODEC}, {states.FIRST}": 2.4e6,
        f"{row}|dict|{states.LITELLM_LABEL}litellm converter": 2.5e6,
        f"{row}|dict|{states.LITELLM_LABEL}litellm request transform": 3.0e6,
    }
    table = instructions.states_table(counts, [10])
    assert "| litellm first sight | first sight / litellm first sight |" in table.splitlines()[0]
    assert "| 2.00 M | 2.40 M | 1.20x ✓ |" in table  # still judged against litellm's steady fastest
    assert table.splitlines()[2].endswith("| 2.50 M | 0.96x ✓ |")
    assert "litellm first sight" not in instructions.states_table(dict(list(counts.items())[:2]), [10])


def test_the_tables_are_read_again_from_the_dumps_a_run_kept(tmp_path: Path) -> None:
    instructions = _bench("instructions")
    (tmp_path / "states").mkdir()

    def dump(path: Path, label: str, total: int) -> None:
        path.write_text(f"desc: Trigger: Client Request: {label}\nsummary: {total}\n")

    dump(tmp_path / "callgrind.out.1.1", "row|dict|chatcodec|0", 1_000)
    dump(tmp_path / "callgrind.out.1.2", "row|dict|chatcodec|3", 7_000)
    dump(tmp_path / "states" / "callgrind.out.2.1", "row|dict|chatcodec, first sight|0", 1_000)
    dump(tmp_path / "states" / "callgrind.out.2.2", "row|dict|chatcodec, first sight|1", 4_500)
    (tmp_path / "states" / "callgrind.out.2").write_text("desc: Trigger: Program termination\nsummary: 9\n")
    assert instructions.kept_counts(tmp_path) == {
        "row|dict|chatcodec": 2_000.0,
        "row|dict|chatcodec, first sight": 3_500.0,
    }


def test_the_policies_warn_convert_under_a_users_default_its_warnings_filtered_out_or_shown_nowhere(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # bench/instructions.py --policy warn: every counted process converts with on_loss="warn" and
    # filters the warnings out, so nothing is printed; --policy warn-shown keeps Python's default
    # filters, so the one warning per conversion is made, and replaces its display
    states = _bench("states")
    other_shapes = _bench("other_shapes")
    callgrind = _bench("callgrind")
    instructions = _bench("instructions")
    body, *others = (other_shapes.chatty_session(3, seed) for seed in (29, 901, 902))
    for message in body["messages"]:
        if message["role"] == "assistant":
            message["reasoning_content"] = "thought"  # replayed as unsigned thinking: a loss into Anthropic
    _, first = states.jobs("row", "openai-chat", "anthropic", body, others=others, folder=tmp_path)
    job_file = tmp_path / "job.json"
    job_file.write_text(json.dumps(first.__dict__))
    library = callgrind.build(tmp_path)
    policies: list[object] = []
    converted = chatcodec.convert_request

    def convert(*arguments: object, **options: object) -> object:
        policies.append(options["on_loss"])
        return converted(*arguments, **options)

    monkeypatch.setattr(chatcodec, "convert_request", convert)
    assert states.loss_policy() == "ignore"
    assert instructions._policy_line() == ""
    monkeypatch.setenv(states.POLICY, "warn")
    with warnings.catch_warnings(record=True) as caught:
        assert states.child(library, job_file) == 0
    assert policies == ["warn"] * 3
    assert caught == []
    assert "on_loss='warn'" in instructions._header()
    assert "filtered out" in instructions._policy_line()
    monkeypatch.setenv(states.POLICY, "warn-shown")  # the default filters: the warning is made, shown nowhere
    given: list[object] = []
    warn = warnings.warn

    def spy(message: Any, *arguments: Any, **options: Any) -> None:
        given.append(message)
        warn(message, *arguments, **options)

    with warnings.catch_warnings(record=True) as caught:
        warnings.resetwarnings()
        warnings.warn = spy
        try:
            assert states.child(library, job_file) == 0
        finally:
            warnings.warn = warn
    assert policies == ["warn"] * 6
    assert caught == []  # the display replaced: nothing printed, nothing recorded
    assert given
    assert all(isinstance(message, chatcodec.LossWarning) for message in given)
    assert "default warning filters" in instructions._policy_line()
    monkeypatch.setenv(states.POLICY, "raise")
    with pytest.raises(SystemExit, match="none of"):
        states.loss_policy()
