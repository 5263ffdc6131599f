"""What the OpenAI Chat stream decoder keeps for each choice while it streams: which
canonical part each wire stream of the choice feeds (text, refusal, each reasoning field,
each ``thinking_blocks`` entry and ``reasoning_details`` entry, each tool call), the
choice's finish and role as first seen (a repeat must match them), its extras and joined
``logprobs``. Kept apart from :mod:`.stream_decode`, which reads the chunks, so each module
holds one concern (and stays under the house's 600 lines).
"""

from __future__ import annotations

from typing import Any

from chatcodec import StreamError
from chatcodec._providers.openai_chat.logprobs import NO_REFUSAL, join_logprobs, lacks_refusal
from chatcodec._providers.openai_chat.stream_calls import CustomCall, text_tokens
from chatcodec.codec_kit import as_list
from chatcodec.contract import PartBuilder

CONTINUED_REASONING = ("reasoning_content", "reasoning")
"""The reasoning fields a one-field delta may continue (:func:`continued_reasoning`)."""


class ChoiceState:
    """Which canonical part each wire stream of one choice feeds."""

    __slots__ = (
        "annotations",
        "block",
        "block_key",
        "custom",
        "details",
        "encrypted",
        "extras",
        "finish_word",
        "finished",
        "logprobs",
        "next_index",
        "open",
        "pending_refusal",
        "pending_text",
        "refusal",
        "role",
        "streamed_tokens",
        "text",
        "thinking",
        "tools",
    )

    def __init__(self) -> None:
        self.next_index: int = 0
        self.text: PartBuilder | None = None
        self.refusal: PartBuilder | None = None
        self.thinking: dict[str, PartBuilder] = {}  # reasoning field -> part
        self.block: PartBuilder | None = None  # the thinking_blocks entry being streamed, until its signature
        self.block_key: int | None = None  # the wire index of the last thinking_blocks fragment, if it had one
        self.details: dict[int, PartBuilder | int] = {}  # reasoning_details index -> part (its index: kept whole)
        self.tools: dict[int, tuple[PartBuilder, str, str]] = {}  # tool-call index -> (part, id, name)
        self.custom: dict[int, CustomCall] = {}  # tool-call index -> custom call being gathered
        self.open: list[PartBuilder] = []
        self.encrypted: dict[int, str] = {}
        self.pending_text: bool = False
        self.pending_refusal: bool = False
        self.finished: bool = False
        self.finish_word: str | None = None  # the raw finish_reason, which a repeat must match
        self.role: str | None = None  # the first delta.role, which a repeat must match
        self.extras: dict[str, Any] = {}  # the choice's own fields seen so far (logprobs ...)
        self.logprobs: dict[str, Any] | None = None  # the chunks' logprobs no text delta took, lists joined
        self.streamed_tokens: bool = False  # whether a text delta took a chunk's tokens
        self.annotations: list[Any] = []  # the deltas' annotations, for the finish (.citations.take_annotations)

    def chunk_tokens(self, extras: dict[str, Any], delta: dict[str, Any]) -> tuple[list[dict[str, Any]], Any] | None:
        """A text chunk's tokens, for its text delta, with the ``logprobs`` they were read
        from (taken out of the chunk's choice ``extras``); None, the chunk's ``logprobs``
        joined for the finish, when they are no text delta's (:func:`.stream_calls.text_tokens`),
        or once tokens went to the finish (they come after the deltas')."""
        tokens = text_tokens(extras, delta) if not _any_tokens(self.logprobs) else None  # the order holds
        if tokens is None:
            self.logprobs = join_logprobs(self.logprobs, extras.get("logprobs"))
            return None
        self.streamed_tokens = True
        taken = extras.pop("logprobs")
        if lacks_refusal(taken):  # vLLM's spelling: the text delta's bag says so (logprobs.NO_REFUSAL)
            extras[NO_REFUSAL] = True
        return tokens, taken

    def check_role(self, number: int, role: object, where: tuple[int, int]) -> None:
        """``delta.role`` may come again (OpenRouter repeats it on every chunk); another
        role in the same choice is a conflict, not an answer."""
        if not isinstance(role, str):
            return
        if self.role is None:
            self.role = role
        elif role != self.role:
            message = f"choice {number} changed its role from {self.role!r} to {role!r}"
            raise StreamError(message, f"$.choices[{where[1]}].delta.role", where[0])

    def take(self) -> int:
        """The next canonical part index of the choice."""
        index = self.next_index
        self.next_index += 1
        return index


def _any_tokens(joined: dict[str, Any] | None) -> bool:
    """Whether the chunks' joined ``logprobs`` hold a token (a list that is not empty)."""
    return joined is not None and any(as_list(value) for value in joined.values())


def continued_reasoning(state: ChoiceState, delta: dict[str, Any]) -> tuple[PartBuilder | None, Any]:
    """The open thinking part a one-field reasoning delta continues, and its text."""
    field, text = next(iter(delta.items()))
    return (state.thinking.get(field) if field in CONTINUED_REASONING else None), text
