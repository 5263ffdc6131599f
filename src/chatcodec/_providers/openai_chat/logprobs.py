"""A choice's ``logprobs`` <-> the canonical choice's ``logprobs``.

OpenAI Chat answers a request with ``logprobs: true`` with ``choices[].logprobs`` =
``{"content": [...], "refusal": null}`` (``ChoiceLogprobs``: the answer's text tokens, and
a refusal's tokens when the model refused); a stream carries each chunk's tokens in its
choice's ``logprobs``: a text chunk's are its text delta's (:func:`.stream_calls.text_tokens`),
any other's are joined for the finish (:func:`join_logprobs`). The
``content`` entries are the canonical tokens (:mod:`chatcodec._providers.kit.token_logprobs`,
every key written); an object of another shape (a refusal's tokens, a server's own
spelling) stays in the choice's bag, as it came. vLLM (and other compatible servers)
write ``{"content": [...]}`` with no ``refusal`` key: the same tokens, read as such, the
absent key kept as the :data:`NO_REFUSAL` marker of the bag the tokens' writer reads
(the choice's, or the text delta's) so the object comes back as it came.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from chatcodec._providers.openai_chat.markers import PROVIDER
from chatcodec.codec_kit import as_dict, as_list, put_logprobs, read_token_logprobs, write_token_logprobs

if TYPE_CHECKING:
    from chatcodec import TokenLogprob
    from chatcodec.contract import LossRecorder, Steps


NO_REFUSAL = "_no_refusal"
"""Marker: the ``logprobs`` object the canonical tokens came from had no ``refusal`` key
(vLLM's spelling), so none is written back."""


def read_choice_logprobs(logprobs: object) -> list[dict[str, Any]] | None:
    """The canonical tokens of a choice's ``logprobs``, or None when it is not
    ``{"content": [...], "refusal": null}`` (or ``{"content": [...]}``, :data:`NO_REFUSAL`)
    with entries spelled as OpenAI spells them."""
    fields = as_dict(logprobs)
    if fields is None or not (fields.keys() == {"content"} or _with_null_refusal(fields)):
        return None
    return read_token_logprobs(fields["content"], every_key=True)


def _with_null_refusal(fields: Mapping[str, Any]) -> bool:
    return len(fields) == 2 and "content" in fields and "refusal" in fields and fields["refusal"] is None


def lacks_refusal(logprobs: object) -> bool:
    """Whether a ``logprobs`` object read as tokens had no ``refusal`` key (:data:`NO_REFUSAL`)."""
    fields = as_dict(logprobs)
    return fields is not None and "refusal" not in fields


def take_choice_logprobs(bag: dict[str, Any], logprobs: object) -> list[dict[str, Any]] | None:
    """The canonical tokens of a choice's ``logprobs`` (:func:`read_choice_logprobs`); the
    choice's ``bag`` keeps the object as it came when they are not, and nothing else of it."""
    tokens = read_choice_logprobs(logprobs)
    bag.pop("logprobs", None)
    if tokens is None and logprobs is not None:
        bag["logprobs"] = logprobs
    elif tokens is not None and lacks_refusal(logprobs):
        bag[NO_REFUSAL] = True
    return tokens


def write_choice_logprobs(
    tokens: Sequence[Mapping[str, Any] | TokenLogprob], bag: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """A choice's ``logprobs`` for canonical tokens (data, or the models a stream event
    holds); with no ``refusal`` key when ``bag`` (this codec's own) has :data:`NO_REFUSAL`."""
    data = [token if isinstance(token, Mapping) else token.model_dump() for token in tokens]
    written = write_token_logprobs(data, every_key=True)
    return {"content": written} if bag and bag.get(NO_REFUSAL) is True else {"content": written, "refusal": None}


def place_choice_logprobs(
    fields: dict[str, Any],
    tokens: Sequence[Mapping[str, Any] | TokenLogprob],
    losses: LossRecorder,
    at: Steps,
    bag: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A choice's ``fields`` with its canonical ``tokens`` written at ``logprobs`` (spelled
    as its own ``bag`` says), over a ``logprobs`` its bag kept
    (:func:`~chatcodec._providers.kit.token_logprobs.put_logprobs`)."""
    return put_logprobs(fields, write_choice_logprobs(tokens, bag), PROVIDER, losses, at)


def join_logprobs(joined: dict[str, Any] | None, chunk: object) -> dict[str, Any] | None:
    """``joined`` with one chunk's ``logprobs`` added: each chunk carries the entries of
    its own tokens (``content``, ``refusal``), the non-streamed choice all of them in one
    object, so the lists are concatenated; a key that is ``null`` stays ``null`` until a
    list comes."""
    fields = as_dict(chunk)
    if fields is None:
        return joined
    result = dict(joined or {})
    for key, value in fields.items():
        if isinstance(value, list):
            result[key] = [*(as_list(result.get(key)) or []), *value]
        else:
            result.setdefault(key, value)
    return result
