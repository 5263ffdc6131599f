"""The token ids a compatible server puts on a Chat Completions answer when asked, taken out.

vLLM (``return_token_ids: true``, since v0.10.2) writes the prompt's ids at the answer's top
level (``prompt_token_ids``) and each choice's sampled ids on the choice (``token_ids``); a
stream carries ``prompt_token_ids`` on its first chunk and each chunk's new ids on its
choice (``ChatCompletionResponse``, ``ChatCompletionStreamResponse`` in
``vllm/entrypoints/openai/chat_completion/protocol.py``). SGLang (``return_token_ids``,
sgl-project/sglang#30917) writes both on the choice (``choices[].prompt_token_ids``,
``choices[].token_ids``) and refuses the field on a stream. Either server's logprobs are
OpenAI's (``choices[].logprobs.content[].logprob``, ``logprobs: true``).

A gateway recording turns asks for them and takes them out before the answer is converted,
so its caller gets the answer it asked for, and no loss is reported for fields the caller
never asked for.
"""

from __future__ import annotations

import json
from typing import Any

from chatcodec.codec_kit import as_dict, as_list
from chatcodec.contract import TakenIds

_ID_FIELDS = ("token_ids", "prompt_token_ids")


def take_ids(answer: dict[str, Any], caller_logprobs: bool) -> TakenIds:
    """The ids on ``answer`` (a plain answer or one stream chunk) and its first choice, those
    fields taken out of it; its ``logprobs`` read, and taken out unless the caller asked for them.
    An id field that holds something other than a list of integers is named in ``unreadable``
    (null or absent is no fault here: a stream's chunks carry the ids on some chunks only)."""
    unread: list[str] = []
    prompt = _ints(answer.pop("prompt_token_ids", None), "prompt_token_ids", unread)
    choices = as_list(answer.get("choices")) or []
    choice = as_dict(choices[0]) if choices else None
    if choice is None:
        return TakenIds(prompt_ids=prompt, unreadable=_first(unread))
    completion = _ints(choice.pop("token_ids", None), "choices[0].token_ids", unread) or []
    if prompt is None:
        prompt = _ints(choice.pop("prompt_token_ids", None), "choices[0].prompt_token_ids", unread)
    for other in choices[1:]:  # n > 1: only the first choice is a turn of the episode
        other_choice = as_dict(other)
        if other_choice is not None:
            for key in _ID_FIELDS:
                other_choice.pop(key, None)
    logprobs = _logprobs(choice.get("logprobs"))
    if not caller_logprobs and "logprobs" in choice:
        del choice["logprobs"]
    finish = choice.get("finish_reason")
    return TakenIds(prompt, completion, logprobs, finish if isinstance(finish, str) else None, _first(unread))


def give_ids_vllm(answer: dict[str, Any], taken: TakenIds) -> None:
    """The ids put back where vLLM writes them: the prompt's at the top level (a stream's
    first chunk), the sampled ones on the first choice."""
    if taken.prompt_ids is not None:
        answer["prompt_token_ids"] = taken.prompt_ids
    _give_choice(answer, {"token_ids": taken.completion_ids})


def give_ids_sglang(answer: dict[str, Any], taken: TakenIds) -> None:
    """The ids put back where SGLang writes them: both on the first choice."""
    fields: dict[str, Any] = {"token_ids": taken.completion_ids}
    if taken.prompt_ids is not None:
        fields["prompt_token_ids"] = taken.prompt_ids
    _give_choice(answer, fields)


def _give_choice(answer: dict[str, Any], fields: dict[str, Any]) -> None:
    choice = as_dict((as_list(answer.get("choices")) or [None])[0])
    if choice is not None:
        choice.update(fields)


def _ints(value: object, field: str, unread: list[str]) -> list[int] | None:
    if value is None:
        return None
    items = as_list(value)
    if items is None or set(map(type, items)) - {int}:  # a bool or a float is no id
        unread.append(f"{field} is {_shown(value)}")
        return None
    return list(items)


def _shown(value: object) -> str:
    try:
        return json.dumps(value)[:40]
    except (TypeError, ValueError):
        return type(value).__name__


def _first(unread: list[str]) -> str | None:
    return unread[0] if unread else None


def _logprobs(value: object) -> list[float] | None:
    content = as_list((as_dict(value) or {}).get("content"))
    if content is None:
        return None
    read: list[float] = []
    for entry in content:
        number = (as_dict(entry) or {}).get("logprob")
        if not isinstance(number, int | float) or isinstance(number, bool):
            return None
        read.append(float(number))
    return read
