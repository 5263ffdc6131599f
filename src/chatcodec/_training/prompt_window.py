"""The few messages a template reads to write a session's newest messages: the window a next
prompt is rendered in, so a request that extends the last sampled turn costs what its new
messages cost, not a run of the template over the whole conversation.

A template writes each message from the message itself, its neighbours, the header before its
loop (the system prompt, the tools) and, on templates that drop an earlier answer's reasoning,
where the last question stands. So once the messages before the sampled answer are proved the
ones that turn saw (their digests, :mod:`.next_prompt`), what follows the answer is written
alike in the window: the leading system messages, the last question, the previous answer with
what followed it, the sampled answer and the new messages (from the answer before the previous
one, where a template writes an answer by what comes before it). This holds on the families the
tests hold to it (their ``next_prompt_window`` entry in ``families.json`` names the test, which
compares every windowed next prompt with the whole rendering); a template chatcodec does not
know renders the whole conversation.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from chatcodec._training import questions


@functools.lru_cache(maxsize=1)
def held_families() -> frozenset[str]:
    """The families whose windowed next prompts the tests hold equal to their whole renderings."""
    from chatcodec._training import families  # families reads profiles by rendering: it imports render

    return frozenset(name for name, entry in families.families().items() if "next_prompt_window" in entry)


@dataclass(frozen=True, slots=True)
class Window:
    """Which earlier messages a next prompt is rendered with (indices in the conversation)."""

    before: tuple[int, ...]
    """The messages before the sampled answer the window keeps, in order: the leading system
    messages, the last question, and the previous answer with the messages after it."""
    question: int
    """How many of :attr:`before` are the system messages and the question, and on a window
    from an earlier answer that answer (the part whose rendering the prompt of the window
    starts with)."""


def window(messages: Sequence[Mapping[str, Any]], answer: int, family: str | None) -> Window | None:
    """The window of the sampled answer at ``messages[answer]``, or None where the whole
    conversation is rendered (a template not held to the rule, no question before the answer,
    or a window that would keep every message)."""
    if family not in held_families():
        return None
    head = 0
    while head < answer and messages[head].get("role") == "system":
        head += 1
    roles = [message.get("role") for message in messages[:answer]]
    question = next((index for index in range(answer - 1, head - 1, -1) if roles[index] == "user"), None)
    if question is None or not questions.is_question(messages[question]):
        return None  # no question a template counts as one: where the last one stands is not known
    previous = next((index for index in range(answer - 1, question, -1) if roles[index] == "assistant"), None)
    start = question if previous is None else previous
    if previous is not None and family in _from_earlier_answer():
        return _from_earlier(roles, answer, head=head, question=question, previous=previous)
    kept = (*range(head), *((question,) if start != question else ()), *range(start, answer))
    if len(kept) >= answer:
        return None  # nothing left out: the whole rendering costs the same
    return Window(kept, head + 1)


@functools.lru_cache(maxsize=1)
def _from_earlier_answer() -> frozenset[str]:
    """The families whose window starts at the answer before the previous one (their entry's
    ``window_from_earlier_answer`` says why)."""
    from chatcodec._training import families

    return frozenset(name for name, entry in families.families().items() if "window_from_earlier_answer" in entry)


def _from_earlier(roles: list[Any], answer: int, *, head: int, question: int, previous: int) -> Window | None:
    """The window of a template that writes an answer by what comes before it (DeepSeek-V3's
    training template opens an answer after a question, not after a result): it starts at the
    answer before the previous one (or at the question), so the previous answer and its results
    follow what they follow in the whole conversation; the window's prompt is compared from there."""
    earlier = next((index for index in range(previous - 1, question, -1) if roles[index] == "assistant"), question)
    kept = (*range(head), *((question,) if earlier != question else ()), *range(earlier, answer))
    if len(kept) >= answer:
        return None
    return Window(kept, len(kept) - (answer - earlier) + 1)
