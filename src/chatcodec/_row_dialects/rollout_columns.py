"""The token columns of a ``rollout`` row: what a model saw and sampled, beside its messages.

A rollout row is a conversation (``messages``, ``tools``, in a chat template's shapes) and
the tokens it was trained or sampled as, one value per token, under the names PrimeIntellect's
``renderers`` gives them (``RenderedTokens``: ``token_ids``, ``message_indices``,
``sampled_mask``) and the sampler's ``logprobs``. A wire body has no place for any of them,
so leaving the dialect reports each column the row held; a column whose length is not the
token count, or whose values are not its type, is refused at its path (a trainer would read
it shifted). An integer column holds Parquet's ``int64`` (a larger id is refused at its row, not
by Arrow for the whole file), and a refused value is quoted short (a 5 MB string is not
copied into the error).
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping
from typing import Any, Final, Literal

from chatcodec._losses import Loss
from chatcodec._narrow import as_dict, as_list
from chatcodec._row_dialects.layout import TrainingRowError

TokenType = Literal["int", "bool", "float"]
"""The JSON type of one column's values (an Arrow list of ``int64``, ``bool`` or ``double``)."""

TOKEN_COLUMNS: Final[Mapping[str, TokenType]] = {
    "token_ids": "int",
    "message_indices": "int",
    "sampled_mask": "bool",
    "logprobs": "float",
}
"""The token columns, each with its values' type; ``token_ids`` is the one a row must hold."""

_WHAT: Final[Mapping[str, str]] = {
    "token_ids": "token ids",
    "message_indices": "token message indices",
    "sampled_mask": "sampled mask",
    "logprobs": "token logprobs",
}


def token_columns(row: Mapping[str, Any]) -> dict[str, list[Any]]:
    """The row's token columns, checked: each a list as long as ``token_ids``, of its type
    (``logprobs`` may hold ``null`` where a token has none: a prompt's)."""
    ids = as_list(row.get("token_ids"))
    if ids is None:
        raise TrainingRowError("a rollout row holds its tokens as a list of ids", "$.token_ids", "rollout_tokens")
    count = len(ids)
    columns: dict[str, list[Any]] = {}
    for name, kind in TOKEN_COLUMNS.items():
        if row.get(name) is None and name != "token_ids":
            continue
        listed = as_list(row.get(name))
        if listed is None or len(listed) != count:
            raise TrainingRowError(
                f"expected a list of {count} values, one per token id", f"$.{name}", "rollout_tokens"
            )
        for index, value in enumerate(listed):
            if not fits(value, kind, nullable=name == "logprobs"):
                raise TrainingRowError(
                    f"expected {NAMED[kind]}, not {reprlib.repr(value)}", f"$.{name}[{index}]", "rollout_tokens"
                )
        columns[name] = listed
    return columns


NAMED: Final[Mapping[TokenType, str]] = {
    "int": "an integer a 64-bit column holds",
    "bool": "true or false",
    "float": "a number",
}
_INT64: Final = range(-(2**63), 2**63)
"""The integers an Arrow ``int64`` holds: the Parquet column a rollout's integer columns are written to."""


def fits(value: object, kind: TokenType, *, nullable: bool) -> bool:
    """Whether ``value`` is one of a ``kind`` column's values (the rule trajectory turns' ids follow too)."""
    if value is None:
        return nullable
    if kind == "bool":
        return isinstance(value, bool)
    if isinstance(value, bool):
        return False
    if kind == "int":
        return isinstance(value, int) and value in _INT64
    return isinstance(value, int | float)


def token_losses(row: Mapping[str, Any], target: str) -> list[Loss]:
    """A loss for each token column of ``row``, which ``target`` has no place for."""
    return [
        Loss(f"$.{name}", _WHAT[name], f"{target} has no place for a rollout's token columns", "metadata")
        for name in TOKEN_COLUMNS
        if row.get(name) is not None
    ]


STEP_TOKENS: Final = ("prompt_ids", "prompt_mask", "completion_ids", "completion_mask", "completion_logprobs")
"""The token fields of a Verifiers trajectory step (``TrajectoryStepTokens`` in
``verifiers/types.py``): the prompt's ids and mask, then the completion's ids, mask and logprobs."""


def is_trajectory_step(row: Mapping[str, Any]) -> bool:
    """Whether ``row`` is a Verifiers trajectory step (``prompt``, ``completion``, ``tokens``)
    rather than a rollout row (``messages`` and the token columns)."""
    return "messages" not in row and isinstance(row.get("tokens"), dict)


def from_trajectory_step(row: Mapping[str, Any]) -> tuple[dict[str, Any], list[Loss]]:
    """A Verifiers trajectory step as a rollout row: ``prompt`` then ``completion`` as the
    messages (flat calls nested as OpenAI's), ``prompt_ids + completion_ids`` as
    ``token_ids``, both masks as ``sampled_mask`` (Verifiers' 1 is a trained token, as a
    rendering's ``trainable``), the completion's logprobs after a ``null`` for each prompt
    token; its other columns as they are. What the row has no place for (the step's
    ``overlong_prompt``, ``is_truncated``, ``routed_experts``) is a loss each, and the step's
    shape, not written again, a ``spelling`` loss."""
    tokens = as_dict(row["tokens"]) or {}
    for name in STEP_TOKENS:
        if as_list(tokens.get(name)) is None:
            raise TrainingRowError(
                "expected a list, as Verifiers' step tokens hold it", f"$.tokens.{name}", "rollout_tokens"
            )
    prompt_ids: list[Any] = tokens["prompt_ids"]
    completion_ids: list[Any] = tokens["completion_ids"]
    masks: list[Any] = [*tokens["prompt_mask"], *tokens["completion_mask"]]
    if len(masks) != len(prompt_ids) + len(completion_ids):
        raise TrainingRowError("expected a mask value for each prompt and completion id", "$.tokens", "rollout_tokens")
    messages = [*_listed(row.get("prompt"), "$.prompt"), *_listed(row.get("completion"), "$.completion")]
    read: dict[str, Any] = {"messages": [_nested_calls(message) for message in messages]}
    for key, value in row.items():
        if key not in ("prompt", "completion", "tokens"):
            read[key] = value
    read["token_ids"] = [*prompt_ids, *completion_ids]
    read["sampled_mask"] = [
        *_mask_values(tokens["prompt_mask"], "prompt_mask"),
        *_mask_values(tokens["completion_mask"], "completion_mask"),
    ]
    read["logprobs"] = [*([None] * len(prompt_ids)), *tokens["completion_logprobs"]]
    why = "a Verifiers trajectory step is read as a rollout row (messages, token_ids, sampled_mask, logprobs)"
    losses = [Loss("$.tokens", "trajectory step tokens", why, "spelling")]
    for key, value in tokens.items():
        if key not in STEP_TOKENS and value not in (None, False):
            losses.append(Loss(f"$.tokens.{key}", key, "rollout rows have no place for it", "metadata"))
    return read, losses


def _mask_values(mask: list[Any], name: str) -> list[bool]:
    """A Verifiers mask as trained flags: 1 (or true) trained, 0 (or false) not; any other value
    (2, -1) is refused at its place rather than read as "not trained"."""
    flags: list[bool] = []
    for index, value in enumerate(mask):
        if value not in (0, 1) or isinstance(value, float):
            raise TrainingRowError(
                f"expected 0 or 1 (Verifiers' mask: 1 is a trained token), not {reprlib.repr(value)}",
                f"$.tokens.{name}[{index}]",
                "rollout_tokens",
            )
        flags.append(value == 1)
    return flags


def _listed(value: object, path: str) -> list[Any]:
    listed = as_list(value)
    if listed is None:
        raise TrainingRowError("expected a list of messages", path, "rollout_tokens")
    return listed


def _nested_calls(message: Any) -> Any:
    """A message with Verifiers' flat calls (``{id, name, arguments}``) in OpenAI's nested shape."""
    fields = as_dict(message)
    listed = None if fields is None else as_list(fields.get("tool_calls"))
    if fields is None or listed is None:
        return message
    calls: list[Any] = []
    for call in listed:
        flat = as_dict(call)
        if flat is not None and "function" not in flat and "name" in flat:
            nested = {"name": flat.get("name"), "arguments": flat.get("arguments")}
            calls.append({"id": flat.get("id"), "type": "function", "function": nested})
        else:
            calls.append(call)
    return {**fields, "tool_calls": calls}
