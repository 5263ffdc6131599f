"""The token columns of a ``rollout`` row: what a model saw and sampled, beside its messages.

A rollout row is a conversation (``messages``, ``tools``, in a chat template's shapes) and
the tokens it was trained or sampled as, one value per token, under the names PrimeIntellect's
``renderers`` gives them (``RenderedTokens``: ``token_ids``, ``message_indices``,
``sampled_mask``) and the sampler's ``logprobs``. A wire body has no place for any of them,
so leaving the dialect reports each column the row held; a column whose length is not the
token count, or whose values are not its type, is refused at its path (a trainer would read
it shifted).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, Literal

from chatcodec._losses import Loss
from chatcodec.batch._training_layout import TrainingRowError

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
    ids = row.get("token_ids")
    if not isinstance(ids, list):
        raise TrainingRowError("a rollout row holds its tokens as a list of ids", "$.token_ids", "rollout_tokens")
    count = len(ids)  # pyright: ignore[reportUnknownArgumentType]
    columns: dict[str, list[Any]] = {}
    for name, kind in TOKEN_COLUMNS.items():
        values = row.get(name)
        if values is None and name != "token_ids":
            continue
        if not isinstance(values, list) or len(values) != count:  # pyright: ignore[reportUnknownArgumentType]
            raise TrainingRowError(
                f"expected a list of {count} values, one per token id", f"$.{name}", "rollout_tokens"
            )
        listed: list[Any] = values  # pyright: ignore[reportUnknownVariableType]
        for index, value in enumerate(listed):
            if not _fits(value, kind, nullable=name == "logprobs"):
                raise TrainingRowError(
                    f"expected {_NAMED[kind]}, not {value!r}", f"$.{name}[{index}]", "rollout_tokens"
                )
        columns[name] = listed
    return columns


_NAMED: Final[Mapping[TokenType, str]] = {"int": "an integer", "bool": "true or false", "float": "a number"}


def _fits(value: object, kind: TokenType, *, nullable: bool) -> bool:
    if value is None:
        return nullable
    if kind == "bool":
        return isinstance(value, bool)
    if isinstance(value, bool):
        return False
    return isinstance(value, int) if kind == "int" else isinstance(value, int | float)


def token_losses(row: Mapping[str, Any], target: str) -> list[Loss]:
    """A loss for each token column of ``row``, which ``target`` has no place for."""
    return [
        Loss(f"$.{name}", _WHAT[name], f"{target} has no place for a rollout's token columns", "metadata")
        for name in TOKEN_COLUMNS
        if row.get(name) is not None
    ]
