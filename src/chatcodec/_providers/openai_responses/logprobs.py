"""The answer's token log probabilities <-> its ``output_text`` parts' ``logprobs``.

A request that includes ``message.output_text.logprobs`` gets each ``output_text`` part's
tokens on the part (``ResponseOutputText.logprobs``: ``Logprob`` entries of ``token``,
``bytes``, ``logprob`` and ``top_logprobs`` of ``token``/``bytes``/``logprob``, every key
required); canonical has them once per answer (``ResponseChoice.logprobs``, as OpenAI
Chat's ``choices[].logprobs.content``). So the reader joins the parts' tokens, in order,
and the writer shares the answer's tokens out again by their bytes: each ``output_text``
takes the tokens whose bytes spell its text.

A part's tokens are taken only when that split gives them back exactly: every entry with
every key and its ``bytes`` a list, at least one token, and their bytes joined equal to the
part's text in UTF-8. Otherwise (``logprobs: []``, what a request that asked for none
gets; a server's own spelling; tokens that do not spell the text) the list stays in the
part's bag, as it came. In a stream, each ``output_text.delta`` gives its own tokens, without
``bytes`` (:func:`read_delta_logprobs`, :func:`write_delta_logprobs`); the finished items are
read by the same rule, and the tokens a canonical stream gives at its finish go on the
terminal response's parts that hold none (:func:`after_deltas`, :func:`place_answer_logprobs`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._providers.openai_responses.markers import PROVIDER
from chatcodec.codec_kit import as_dict, as_list, read_token_logprobs
from chatcodec.contract import LossRecorder, Steps

LOGPROBS = "logprobs"


def take_part_logprobs(part: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The canonical tokens of a text part read from an ``output_text`` (its bag's
    ``logprobs``), taken out of its bag when they spell its text (see the module
    docstring); None, the bag untouched, otherwise."""
    if part.get("type") != "text":
        return None
    metadata = as_dict(part.get("provider_metadata"))
    if metadata is None:
        return None
    bag = as_dict(metadata.get(PROVIDER))
    if bag is None or not bag.get(LOGPROBS):
        return None
    tokens = read_token_logprobs(bag[LOGPROBS], every_key=True)
    if tokens is None or not all(_with_bytes(token) for token in tokens):
        return None
    if b"".join(bytes(token["bytes"]) for token in tokens) != _utf8(part["text"]):
        return None
    del bag[LOGPROBS]
    if not bag:  # nothing else of the part was kept
        del metadata[PROVIDER]
        if not metadata:
            del part["provider_metadata"]
    return tokens


def _with_bytes(token: Mapping[str, Any]) -> bool:
    """Every entry and alternative has its ``bytes`` (the SDK requires them; a ``null``
    would not be written back)."""
    return "bytes" in token and all("bytes" in top for top in token.get("top_logprobs") or ())


def take_answer_logprobs(parts: Sequence[dict[str, Any]]) -> list[dict[str, Any]] | None:
    """The answer's tokens: those of each of its text parts that spell their text
    (:func:`take_part_logprobs`), joined in order; None when no part had any."""
    tokens: list[dict[str, Any]] | None = None
    for part in parts:
        taken = take_part_logprobs(part)
        if taken is not None:
            tokens = [*(tokens or ()), *taken]
    return tokens


def place_answer_logprobs(
    output: list[dict[str, Any]], tokens: Sequence[Mapping[str, Any]] | None, losses: LossRecorder, at: Steps
) -> list[dict[str, Any]]:
    """``output`` (the answer's items) with ``tokens`` on its ``output_text`` parts that
    hold none of their own, each the tokens whose bytes spell its text; the items and
    parts changed are copies (a stream's items were already sent). Tokens that do not
    divide so all go on the first such part, reported; with no such part, reported."""
    if tokens is None:
        return output
    places = [
        (item_index, part_index)
        for item_index, item in enumerate(output)
        if item.get("type") == "message"
        for part_index, part in enumerate(as_list(item.get("content")) or ())
        if (fields := as_dict(part)) is not None and fields.get("type") == "output_text" and LOGPROBS not in fields
    ]
    if not places:
        if tokens:
            why = "the Responses answer has no output_text to carry them"
            losses.add((*at, LOGPROBS), "token log probabilities", why)
        return output
    texts = [output[item]["content"][part]["text"] for item, part in places]
    nothing: list[list[Mapping[str, Any]]] = [[] for _ in places]
    shares = _shares(tokens, texts) if tokens else nothing
    if shares is None:
        why = f"they do not divide by their bytes along the answer's {len(places)} output_text parts: all on the first"
        losses.add((*at, LOGPROBS), "token log probabilities", why)
        shares = [list(tokens), *([] for _ in places[1:])]
    placed = list(output)
    for (item_index, part_index), share in zip(places, shares, strict=True):
        item = placed[item_index] = {**placed[item_index]}
        content = item["content"] = list(item["content"])
        content[part_index] = {**content[part_index], LOGPROBS: [_entry(token, top=True) for token in share]}
    return placed


def _shares(tokens: Sequence[Mapping[str, Any]], texts: Sequence[str]) -> list[list[Mapping[str, Any]]] | None:
    """``tokens`` split along ``texts`` so each share's bytes spell its text; one text
    takes them all. None when they do not divide so."""
    if len(texts) == 1:
        return [list(tokens)]
    shares: list[list[Mapping[str, Any]]] = []
    position = 0
    for text in texts:
        wanted, spelled = _utf8(text), b""
        share: list[Mapping[str, Any]] = []
        while len(spelled) < len(wanted) and position < len(tokens):
            spelled += _token_bytes(tokens[position])
            share.append(tokens[position])
            position += 1
        if spelled != wanted:
            return None
        shares.append(share)
    return shares if position == len(tokens) else None


def _entry(token: Mapping[str, Any], *, top: bool) -> dict[str, Any]:
    """A ``Logprob`` (or, ``top`` false, a ``LogprobTopLogprob``) in the SDK's field order,
    its ``bytes`` the token's UTF-8 where canonical has none (the SDK requires them)."""
    entry: dict[str, Any] = {"token": token["token"], "bytes": list(_token_bytes(token)), "logprob": token["logprob"]}
    if top:
        entry["top_logprobs"] = [_entry(item, top=False) for item in token.get("top_logprobs") or ()]
    return entry


def _token_bytes(token: Mapping[str, Any]) -> bytes:
    data = token.get("bytes")
    return bytes(data) if data is not None else _utf8(token["token"])


def _utf8(text: str) -> bytes:
    return text.encode(errors="surrogatepass")


_DELTA_KEYS = frozenset({"token", "logprob", "top_logprobs"})
_DELTA_TOP_KEYS = frozenset({"token", "logprob"})


def read_delta_logprobs(entries: object, text: str) -> list[dict[str, Any]] | None:
    """The canonical tokens of an ``output_text.delta``'s ``logprobs``
    (``ResponseTextDeltaEvent.Logprob``: ``token``, ``logprob``, ``top_logprobs`` of
    ``token``/``logprob``; no ``bytes``, which the part's entries have): each token's bytes
    are its text's UTF-8, so they are taken only when they spell the delta's ``text``.
    None for an empty list (what a request that asked for none gets) or another spelling."""
    listed = as_list(entries)
    if not listed:
        return None
    spelled: list[dict[str, Any]] = []
    for entry in listed:
        fields = as_dict(entry)
        top = as_list(fields.get("top_logprobs")) if fields is not None else None
        if fields is None or fields.keys() != _DELTA_KEYS or top is None or not _delta_entry(fields):
            return None
        alternatives = [as_dict(item) for item in top]
        if not all(item is not None and item.keys() == _DELTA_TOP_KEYS and _delta_entry(item) for item in alternatives):
            return None
        spelled.append(
            {
                **fields,
                "bytes": _utf8_list(fields),
                "top_logprobs": [{**item, "bytes": _utf8_list(item)} for item in top],
            }
        )
    tokens = read_token_logprobs(spelled, every_key=True)
    if tokens is None or b"".join(bytes(token["bytes"]) for token in tokens) != _utf8(text):
        return None
    return tokens


def _delta_entry(fields: Mapping[str, Any]) -> bool:
    return isinstance(fields["token"], str)


def _utf8_list(fields: Mapping[str, Any]) -> list[int]:
    return list(_utf8(fields["token"]))


def write_delta_logprobs(tokens: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The ``logprobs`` of an ``output_text.delta`` or ``.done`` for canonical tokens or a
    part's entries (``Logprob`` without ``bytes``, in the SDK's field order)."""
    return [
        {
            "token": token["token"],
            "logprob": token["logprob"],
            "top_logprobs": [
                {"token": item["token"], "logprob": item["logprob"]} for item in token.get("top_logprobs") or ()
            ],
        }
        for token in tokens
    ]


def delta_shares(entries: object, pieces: Sequence[str]) -> list[list[dict[str, Any]]]:
    """A part's ``logprobs`` shared out along its deltas' texts (``pieces``), each share
    the entries whose bytes spell its piece, for each delta's own ``logprobs``; ``[]`` for
    every delta when they do not divide so (a part kept as it came)."""
    nothing: list[list[dict[str, Any]]] = [[] for _ in pieces]
    listed = as_list(entries)
    tokens = [fields for entry in listed or () if (fields := as_dict(entry)) is not None]
    if not tokens or len(tokens) != len(listed or ()) or not all(_spelled_entry(token) for token in tokens):
        return nothing
    shares = _shares(tokens, pieces)
    if shares is None or any(
        b"".join(_token_bytes(t) for t in share) != _utf8(piece) for share, piece in zip(shares, pieces, strict=True)
    ):
        return nothing
    return [write_delta_logprobs(share) for share in shares]


def _spelled_entry(token: Mapping[str, Any]) -> bool:
    """An entry of the part's spelling (``Logprob``: ``token``, ``bytes``, ``logprob``,
    ``top_logprobs``), as :func:`place_answer_logprobs` writes them."""
    top = as_list(token.get("top_logprobs"))
    return (
        isinstance(token.get("token"), str)
        and "logprob" in token
        and isinstance(token.get("bytes"), list)
        and top is not None
        and all(
            (item := as_dict(entry)) is not None and isinstance(item.get("token"), str) and "logprob" in item
            for entry in top
        )
    )


def after_deltas(
    taken: Sequence[Mapping[str, Any]], tokens: list[dict[str, Any]] | None
) -> list[dict[str, Any]] | None:
    """The answer's ``tokens`` (the terminal response's) that no ``output_text.delta``
    gave (``taken``, in order): those after them, None when there are none. When the
    deltas' tokens are not the response's first, the deltas' stand and the response's
    are not given again."""
    if not taken:
        return tokens
    if tokens is None or len(tokens) < len(taken):
        return None
    if any(_unspelled(a) != _unspelled(b) for a, b in zip(taken, tokens, strict=False)):
        return None
    return tokens[len(taken) :] or None


def _unspelled(token: Mapping[str, Any]) -> tuple[Any, ...]:
    """A token as a delta says it: its text and log probability, and its alternatives'."""
    top = tuple((item.get("token"), item.get("logprob")) for item in token.get("top_logprobs") or ())
    return token.get("token"), token.get("logprob"), top


def part_entries(tokens: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """An ``output_text``'s ``logprobs`` for canonical tokens (``Logprob`` entries)."""
    return [_entry(token, top=True) for token in tokens]


def done_logprobs(entries: object) -> list[dict[str, Any]]:
    """An ``output_text.done``'s ``logprobs`` for its part's: the same tokens without
    ``bytes`` (the event's ``Logprob``); ``[]`` for a list of another spelling."""
    listed = as_list(entries) or []
    tokens = [fields for entry in listed if (fields := as_dict(entry)) is not None]
    if len(tokens) != len(listed) or not all(_spelled_entry(token) for token in tokens):
        return []
    return write_delta_logprobs(tokens)
