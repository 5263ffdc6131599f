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
part's bag, as it came. Streams read the same rule on each finished item (its
``output_item.done``), and write the tokens on the terminal response's parts: a canonical
stream gives them at its finish, after the items were sent.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec._losses import LossRecorder, Steps
from chatcodec._narrow import as_dict, as_list
from chatcodec._providers.kit.token_logprobs import read_token_logprobs
from chatcodec._providers.openai_responses.markers import PROVIDER

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
