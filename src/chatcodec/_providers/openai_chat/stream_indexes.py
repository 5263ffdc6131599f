"""The ``index`` of each entry of a list in a streamed delta (``thinking_blocks``,
``reasoning_details``, Mistral's ``content`` list of thinking parts and each part's
``thinking`` chunks; ``tool_calls`` number themselves in the writer): the openai SDK's
stream helpers (``client.chat.completions.stream()``) merge a list's fragments by it and
raise ``RuntimeError: Expected list delta entry to have an `index` key`` on one without
(``_accumulate_delta`` in ``openai/lib/streaming/chat/_completions.py``, for every list of
dicts at any depth, so a Mistral thinking part's chunks need one too). The writer numbers
the entries per choice; the reader takes a block's or a content entry's index as framing."""

from __future__ import annotations

from typing import Any, Protocol

from chatcodec.codec_kit import as_dict, as_list


class _ChoiceState(Protocol):
    """What the writer counts per choice: the next index of each list."""

    blocks: int
    details: int
    contents: int


def next_block(state: _ChoiceState) -> int:
    """The index of the choice's next ``thinking_blocks`` entry. Every entry of a list in a
    streamed delta carries one, as ``tool_calls`` do: the openai SDK's stream helpers
    (``client.chat.completions.stream()``) merge a list's fragments by it and raise
    ``RuntimeError: Expected list delta entry to have an `index` key`` on one without."""
    state.blocks += 1
    return state.blocks - 1


def indexed_detail(entry: dict[str, Any], state: _ChoiceState) -> dict[str, Any]:
    """A ``reasoning_details`` entry with its ``index``: its own (read from the stream it
    came from), or the choice's next one (see :func:`next_block`)."""
    index = entry.get("index")
    if not isinstance(index, int) or isinstance(index, bool):
        entry = {**entry, "index": state.details}
        index = state.details
    state.details = max(state.details, index + 1)
    return entry


def unindexed(entry: object) -> dict[str, Any]:
    return {key: value for key, value in (as_dict(entry) or {}).items() if key != "index"}


def framed(fragment: dict[str, Any]) -> tuple[dict[str, Any], int | None]:
    """A ``thinking_blocks`` fragment without its ``index`` (where it goes in the stream,
    which the OpenAI SDK's stream helpers merge fragments by: not the block's data), and
    that index."""
    index = fragment.get("index")
    if not isinstance(index, int) or isinstance(index, bool):  # none, or not one: kept as data
        return fragment, None
    return {key: value for key, value in fragment.items() if key != "index"}, index


def next_content(state: _ChoiceState) -> int:
    """The index of the choice's next entry of a ``content`` list (a Mistral thinking part:
    its fragments share it, so the SDK's helpers join them)."""
    state.contents += 1
    return state.contents - 1


def indexed_content(entry: dict[str, Any], index: int) -> dict[str, Any]:
    """A Mistral thinking part for a streamed ``content`` list: at ``index``, its
    ``thinking`` chunks numbered by their place (each fragment of the part sends its text
    as chunk 0, which the SDK's helpers join)."""
    chunks = [
        {"index": position, **unindexed(chunk)} for position, chunk in enumerate(as_list(entry.get("thinking")) or [])
    ]
    return {"index": index, **{key: value for key, value in entry.items() if key != "index"}, "thinking": chunks}


def content_fragment(index: int, text: str) -> dict[str, Any]:
    """A delta's ``content`` with a fragment of the Mistral thinking part at ``index``."""
    return {"content": [indexed_content({"type": "thinking", "thinking": [{"type": "text", "text": text}]}, index)]}


def numbered_content(entry: dict[str, Any], state: _ChoiceState) -> dict[str, Any]:
    """A delta's ``content`` with a whole Mistral thinking part, at the choice's next index."""
    return {"content": [indexed_content(entry, next_content(state))]}
