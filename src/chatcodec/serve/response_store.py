"""The opt-in store of answers a later request may continue (``--store memory[:N]``).

A Responses caller may send ``previous_response_id`` instead of the conversation so far;
answering it needs that conversation. The store keeps, for each of the last ``N``
answers (1,000 by default), the conversation that answer ended: its request's input
items (the earlier conversation included) and its output items, as the caller saw them.
Continuing an answer is then exactly what the caller would do with no server memory:
send those items, then its new input. It is bounded by count, in the process's memory:
the oldest answer is forgotten first, and a restart forgets all (a continued answer
that is gone is refused with a 400 that says so). Conversations share their items, so
a long thread costs its items once, not once per answer.
"""

from __future__ import annotations

from collections import OrderedDict

DEFAULT_CAPACITY = 1000
"""Answers kept by ``--store memory``."""


class ResponseStore:
    """The last ``capacity`` answers' conversations, by answer id."""

    def __init__(self, capacity: int = DEFAULT_CAPACITY) -> None:
        if capacity < 1:
            raise ValueError(f"a response store keeps at least one answer, not {capacity}")
        self.capacity = capacity
        self._conversations: OrderedDict[str, list[object]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._conversations)

    def get(self, answer_id: str) -> list[object] | None:
        """The conversation answer ``answer_id`` ended (None when never kept or forgotten);
        reading it makes it the most recent."""
        conversation = self._conversations.get(answer_id)
        if conversation is not None:
            self._conversations.move_to_end(answer_id)
        return conversation

    def put(self, answer_id: str, conversation: list[object]) -> None:
        """Keep ``conversation`` for ``answer_id``, forgetting the oldest beyond capacity."""
        self._conversations[answer_id] = conversation
        self._conversations.move_to_end(answer_id)
        while len(self._conversations) > self.capacity:
            self._conversations.popitem(last=False)


def open_store(spec: str | None) -> ResponseStore | None:
    """The store ``--store`` names: ``memory`` or ``memory:N``; None for no store."""
    if spec is None:
        return None
    kind, colon, size = spec.partition(":")
    if kind != "memory" or (colon and not size.isdigit()):
        raise ValueError(f"--store takes memory or memory:N (N answers kept), not {spec!r}")
    return ResponseStore(int(size) if colon else DEFAULT_CAPACITY)
