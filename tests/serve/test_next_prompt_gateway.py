"""chatcodec.next_prompt is the gateway's rule, called on one turn (issue 109's Done-when): on every
session the chatcodec-renders recording tests record (``test_turn_records_off_path``: three-turn
tool sessions through each front, answers sent back edited, a turn cut at ``max_tokens``, a
compaction, a retry, a branch continued), each recorded prompt that follows a recorded turn is
the prompt ``next_prompt`` gives for that turn and the conversation the harness sent, and its
``prompt_break`` is the record's.

The sessions are the recording tests' own: each is run here as its test runs it (its assertions
included), then its record is read back and every line is asked of the library.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec import SampledTurn
from serve import test_turn_records_off_path as sessions
from serve.harness import FakeUpstream
from serve.test_turn_records_off_path import fake, recorded
from training.qwen3_tokenizer import qwen3_encoding

__all__ = ["fake", "recorded"]  # the recording tests' fixtures, used here as there

RUNS: dict[str, Callable[[FakeUpstream, Path], None]] = {
    **{
        f"three turns through {api}": (
            lambda fake, recorded, api=api, session=session: (
                sessions.test_a_three_turn_tool_session_holds_three_distinct_call_ids(fake, recorded, api, session)
            )
        )
        for api, session in (
            ("anthropic", sessions._anthropic_session),
            ("openai-chat", sessions._chat_session),
            ("openai-responses", sessions._responses_session),
        )
    },
    **{
        f"the answer sent back with {edit}": (
            lambda fake, recorded, edit=edit: (
                sessions.test_an_answer_sent_back_edited_breaks_the_extension_naming_what_and_where(
                    fake, recorded, edit
                )
            )
        )
        for edit in sessions.EDITS
    },
    "the answer sent back as sampled": sessions.test_the_answer_sent_back_as_sampled_extends_with_the_sampled_ids,
    "a turn cut at max_tokens": sessions.test_a_turn_cut_at_max_tokens_is_never_extended_as_if_closed,
    "a compaction": sessions.test_a_compaction_of_earlier_turns_breaks_and_names_the_message,
    "a retry": sessions.test_a_retry_reuses_the_prompt_ids_of_the_turn_it_repeats_and_names_it,
    "a branch continued": sessions.test_a_branch_continued_from_an_earlier_turn_extends_that_turn,
    "a break in the harness's wire": sessions.test_a_break_names_the_place_in_the_harness_s_wire,
    "a chat client dropping reasoning": sessions.test_a_chat_client_dropping_reasoning_content_is_named_as_the_cause,
}


SOURCES = {"/v1/messages": "anthropic", "/v1/chat/completions": "openai-chat", "/v1/responses": "openai-responses"}
"""The format of a harness's body, by the front it was posted to."""


def _turn(line: dict[str, Any], body: dict[str, Any], source: str) -> SampledTurn:
    """A recorded line as the turn it records: its answer follows the messages it was sent, and
    its prompt's text is the body rendered, as the gateway held it (and as ``render_turns`` gives
    it): the ids alone hold the sampled spelling of earlier answers, which a fresh rendering of
    the messages does not, so without the text ``next_prompt`` breaks where the gateway extends."""
    rendered = chatcodec.render(body, source=source, template="qwen3", add_generation_prompt=True, on_loss="ignore")
    return SampledTurn(
        message_index=len(line["messages"]),
        prompt_ids=line["prompt_ids"],
        completion_ids=line["completion_ids"],
        logprobs=line["logprobs"],
        prompt_text=rendered.text,
    )


def _asked(recorded: Path, posted: list[tuple[str, dict[str, Any]]]) -> int:
    """Each line that follows a recorded turn, asked of ``next_prompt`` with the body the harness
    posted (in its own wire, as the gateway read it): how many were asked."""
    lines = sessions._lines(recorded)
    assert len(lines) == len(posted), "a line per body posted"
    answered = [
        (line, body, SOURCES[path])
        for line, (path, body) in zip(lines, posted, strict=True)
        if line.get("completion_ids")
    ]
    by_id = {line["request_id"]: (line, body, source) for line, body, source in answered}
    asked = 0
    for number, (line, body, source) in enumerate(answered[1:], start=1):
        before, sent, _ = by_id[line["parent_turn"]] if line.get("parent_turn") else answered[number - 1]
        if len(line["messages"]) <= len(before["messages"]):
            continue  # a retry of the same conversation: no answer of ``before`` is in it to extend
        found = chatcodec.next_prompt(
            _turn(before, sent, source),
            body,
            source=source,
            template="qwen3",
            tokenizer=qwen3_encoding(),
            finish_reason=before["finish_reason"],
            on_loss="ignore",
        )
        assert found.prompt_ids == line["prompt_ids"], f"line {number}: another prompt than the gateway's"
        assert found.prompt_break == line.get("prompt_break")
        asked += 1
    return asked


@pytest.mark.parametrize("session", list(RUNS))
def test_next_prompt_gives_the_gateway_s_prompt_on_every_recorded_session(
    fake: FakeUpstream, recorded: Path, session: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    posted: list[tuple[str, dict[str, Any]]] = []
    post = sessions._posted

    def kept(origin: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
        posted.append((path, copy.deepcopy(body)))
        return post(origin, path, body)

    monkeypatch.setattr(sessions, "_posted", kept)
    RUNS[session](fake, recorded)
    assert _asked(recorded, posted) >= 1
