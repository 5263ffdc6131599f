"""Normal forms only this repository's tests use (the shipped ones are
``chatcodec.testing._laws.normal_forms`` and ``rewrites``): what a response says in every
format."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import chatcodec
from chatcodec.codec_kit import is_dict, is_list
from chatcodec.testing._laws.normal_forms import with_compact_arguments

JsonObject = dict[str, Any]


def response_meaning(response: chatcodec.ChatResponse, unplaced: Sequence[str] = ()) -> JsonObject:
    """What a response says, in the form every format writes the same way: no provider
    bags (their reports are the bag laws' business), no raw finish word (each format spells
    its own; the unified reason is the meaning), content as a list of parts (a string is
    one text part), tool arguments as compact JSON (:func:`with_compact_arguments`), no
    empty text part (a format whose content is one string holds nothing for it, and it
    says nothing), no token ``bytes`` that are the token's UTF-8 (they say nothing more:
    one format keeps none, another always writes them), and the ``unplaced`` dotted fields (the
    target's ``unplaced_response_fields``) left out."""
    meaning: JsonObject = _without_bags(with_compact_arguments(response).model_dump(mode="json"))
    for choice in meaning["choices"]:
        for token in choice.get("logprobs") or ():
            for entry in (token, *token.get("top_logprobs", ())):
                if entry.get("bytes") == list(entry["token"].encode()):
                    del entry["bytes"]
        if choice.get("finish_reason") is not None:
            choice["finish_reason"].pop("raw", None)
        message = choice["message"]
        content = message["content"]
        if isinstance(content, str):
            message["content"] = content = [{"type": "text", "text": content}] if content else []
        message["content"] = content = [part for part in content if part != _EMPTY_TEXT]
    for dotted in unplaced:
        *parents, last = dotted.split(".")
        holder: Any = meaning
        for step in parents:
            holder = holder.get(step) if is_dict(holder) else None
        if is_dict(holder):
            holder.pop(last, None)
    return meaning


_EMPTY_TEXT = {"type": "text", "text": ""}


def _without_bags(value: Any) -> Any:
    if is_list(value):
        return [_without_bags(item) for item in value]
    if is_dict(value):
        return {key: _without_bags(item) for key, item in value.items() if key != "provider_metadata"}
    return value
