"""Alpaca rows (LLaMA-Factory's default format) <-> OpenAI Chat bodies.

``{instruction, input, output, system, history}``: the user's turn is ``instruction``
and ``input`` joined by a newline, ``output`` the answer, ``system`` the system prompt and
``history`` the earlier ``[instruction, answer]`` pairs; a multimodal row's ``images``
column holds one path or URL for each ``<image>`` in the text. The columns are renamed by
the dataset's ``dataset_info.json`` entry (``columns``: ``prompt``, ``query``,
``response``, ``system``, ``history``, ``images``), given with ``--dialect-config``:
https://github.com/hiyouga/LLaMA-Factory/blob/main/data/README.md ("Alpaca Format").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from chatcodec._losses import Loss
from chatcodec._narrow import as_dict, as_list
from chatcodec._row_dialects.layout import ConversationLayout, TrainingRowError

TEXT_PAIR_CONFIG = '{"columns": {"prompt": "prompt", "response": "completion"}}'
"""The ``--dialect-config`` that reads a ``{prompt, completion}`` row of text as alpaca."""
TEXT_PAIR_HINT = (
    "a {prompt, completion} row of text (Together's instruction rows, TRL's standard prompt-completion) is one "
    f"user turn and its answer: --from alpaca --dialect-config FILE, FILE holding {TEXT_PAIR_CONFIG}"
)
"""What to do with a ``{prompt, completion}`` row of text: it names no roles, so no dialect
reads it without the configuration that says which column is the prompt
(https://docs.together.ai/docs/fine-tuning-data-preparation, "Instruction")."""


@dataclass(frozen=True, slots=True)
class AlpacaColumns:
    """An alpaca row's column names."""

    prompt: str
    query: str | None
    response: str
    system: str | None
    history: str | None
    images: str | None

    @classmethod
    def of(cls, layout: ConversationLayout) -> AlpacaColumns:
        """The alpaca columns a layout names."""
        return cls(layout.prompt, layout.query, layout.response, layout.system, layout.history, layout.images)

    @property
    def names(self) -> tuple[str, ...]:
        """Every column the row holds its conversation in."""
        listed = (self.prompt, self.query, self.response, self.system, self.history, self.images)
        return tuple(name for name in listed if name)


@dataclass(frozen=True, slots=True)
class ReadAlpaca:
    """An alpaca row read."""

    body: dict[str, Any]
    """The OpenAI Chat body (text contents; ``<image>`` placeholders not read yet)."""
    input_length: int | None
    """Where ``input`` starts in the last user turn (the instruction's length), if given."""


def _text(row: Mapping[str, Any], column: str | None, *, required: bool = False) -> str | None:
    if column is None or row.get(column) is None:
        if required:
            raise TrainingRowError(f"expected the {column!r} column", f"$.{column}")
        return None
    value = row[column]
    if not isinstance(value, str):
        raise TrainingRowError("expected text", f"$.{column}")
    return value


def read_alpaca(row: Mapping[str, Any], columns: AlpacaColumns) -> ReadAlpaca:
    """The OpenAI Chat body of an alpaca row, as LLaMA-Factory builds its prompt."""
    messages: list[dict[str, Any]] = []
    system = _text(row, columns.system)
    if system:
        messages.append({"role": "system", "content": system})
    for asked, answered in _history(row, columns.history):
        messages += [{"role": "user", "content": asked}, {"role": "assistant", "content": answered}]
    if (
        row.get(columns.prompt) is None
        and isinstance(row.get("prompt"), str)
        and isinstance(row.get("completion"), str)
    ):
        raise TrainingRowError(f"expected the {columns.prompt!r} column; {TEXT_PAIR_HINT}", f"$.{columns.prompt}")
    instruction = _text(row, columns.prompt, required=True) or ""
    given = _text(row, columns.query)
    content = f"{instruction}\n{given}" if given else instruction
    messages.append({"role": "user", "content": content})
    answer = _text(row, columns.response)
    if answer is not None:
        messages.append({"role": "assistant", "content": answer})
    return ReadAlpaca({"messages": messages}, len(instruction) if given else None)


def _history(row: Mapping[str, Any], column: str | None) -> list[tuple[str, str]]:
    value = row.get(column) if column else None
    if value is None:
        return []
    pairs: list[tuple[str, str]] = []
    for index, pair in enumerate(as_list(value) or [None]):
        listed = as_list(pair)
        if listed is None or len(listed) != 2 or not all(isinstance(text, str) for text in listed):
            raise TrainingRowError("expected [instruction, answer] pairs of text", f"$.{column}[{index}]")
        pairs.append((str(listed[0]), str(listed[1])))
    return pairs


def write_alpaca(
    messages: list[Any],
    columns: AlpacaColumns,
    losses: list[Loss],
    *,
    texts: list[str],
    input_length: int | None = None,
) -> dict[str, Any]:
    """An alpaca row from an OpenAI Chat conversation whose turns' texts are ``texts``
    (images already placeholders): a system prompt, then user and assistant turns in turn."""
    start = _first_turn(messages, columns)
    for index, message in enumerate(messages):
        for key in as_dict(message) or {}:
            if key not in ("role", "content"):
                losses.append(Loss(f"$.messages[{index}].{key}", key, "alpaca turns are text only", "metadata"))
    said = texts[start:]
    last_user = len(said) - 1 if len(said) % 2 else len(said) - 2
    row: dict[str, Any] = {}
    instruction = said[last_user]
    if input_length is not None and columns.query and instruction[input_length : input_length + 1] == "\n":
        row[columns.prompt], row[columns.query] = instruction[:input_length], instruction[input_length + 1 :]
    else:
        row[columns.prompt] = instruction
    if last_user + 1 < len(said):
        row[columns.response] = said[last_user + 1]
    if start and columns.system:
        row[columns.system] = texts[0]
    history = [[said[index], said[index + 1]] for index in range(0, last_user, 2)]
    if history and columns.history:
        row[columns.history] = history
    elif history:
        losses.append(Loss("$.messages", "earlier turns", "this layout names no history column", "content"))
    return row


def _first_turn(messages: list[Any], columns: AlpacaColumns) -> int:
    """Where the turns start (1 after a system prompt the layout has a column for), once
    they are checked to be user and assistant turns in turn."""
    roles = [str((as_dict(message) or {}).get("role")) for message in messages]
    start = 1 if roles[:1] == ["system"] and columns.system else 0
    turns = roles[start:]
    expected = ["user" if number % 2 == 0 else "assistant" for number in range(len(turns))]
    if not turns or turns != expected:
        raise TrainingRowError(
            "alpaca rows hold a system prompt, then user and assistant turns in turn (no calls, no results): "
            f"these are {', '.join(roles)}",
            "$.messages",
            "training_alpaca_turns",
        )
    return start
