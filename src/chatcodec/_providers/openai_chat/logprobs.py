"""A choice's ``logprobs`` <-> the canonical choice's ``logprobs``.

OpenAI Chat answers a request with ``logprobs: true`` with ``choices[].logprobs`` =
``{"content": [...], "refusal": null}`` (``ChoiceLogprobs``: the answer's text tokens, and
a refusal's tokens when the model refused); a stream carries each chunk's tokens in its
choice's ``logprobs``: a text chunk's are its text delta's (:func:`.stream_calls.text_tokens`),
any other's are joined for the finish (:func:`.stream_calls.join_logprobs`). The
``content`` entries are the canonical tokens (:mod:`chatcodec._providers.kit.token_logprobs`,
every key written); an object of another shape (a refusal's tokens, a server's own
spelling) stays in the choice's bag, as it came.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from chatcodec._providers.openai_chat.markers import PROVIDER
from chatcodec.contract import as_dict, put_logprobs, read_token_logprobs, write_token_logprobs

if TYPE_CHECKING:
    from chatcodec import TokenLogprob
    from chatcodec.contract import LossRecorder, Steps


def read_choice_logprobs(logprobs: object) -> list[dict[str, Any]] | None:
    """The canonical tokens of a choice's ``logprobs``, or None when it is not
    ``{"content": [...], "refusal": null}`` with entries spelled as OpenAI spells them."""
    fields = as_dict(logprobs)
    if fields is None or fields.keys() != {"content", "refusal"} or fields["refusal"] is not None:
        return None
    return read_token_logprobs(fields["content"], every_key=True)


def take_choice_logprobs(bag: dict[str, Any], logprobs: object) -> list[dict[str, Any]] | None:
    """The canonical tokens of a choice's ``logprobs`` (:func:`read_choice_logprobs`); the
    choice's ``bag`` keeps the object as it came when they are not, and nothing else of it."""
    tokens = read_choice_logprobs(logprobs)
    bag.pop("logprobs", None)
    if tokens is None and logprobs is not None:
        bag["logprobs"] = logprobs
    return tokens


def write_choice_logprobs(tokens: Sequence[Mapping[str, Any] | TokenLogprob]) -> dict[str, Any]:
    """A choice's ``logprobs`` for canonical tokens (data, or the models a stream event holds)."""
    data = [token if isinstance(token, Mapping) else token.model_dump() for token in tokens]
    return {"content": write_token_logprobs(data, every_key=True), "refusal": None}


def place_choice_logprobs(
    fields: dict[str, Any], tokens: Sequence[Mapping[str, Any] | TokenLogprob], losses: LossRecorder, at: Steps
) -> dict[str, Any]:
    """A choice's ``fields`` with its canonical ``tokens`` written at ``logprobs``, over a
    ``logprobs`` its bag kept (:func:`~chatcodec._providers.kit.token_logprobs.put_logprobs`)."""
    return put_logprobs(fields, write_choice_logprobs(tokens), PROVIDER, losses, at)
