"""``return_token_ids`` asked by the harness itself, answered in vLLM's shape where chatcodec
renders the prompt (a token upstream: ``vllm-generate``, ``sglang-generate``).

vLLM's Chat Completions extension (``ChatCompletionRequest.return_token_ids``, v0.10.2) writes
the prompt's ids at the answer's top level (``prompt_token_ids``) and each choice's sampled ids
on the choice (``token_ids``); a stream carries ``prompt_token_ids`` on its first chunk and the
sampled ids on its chunks (``vllm/entrypoints/openai/chat_completion/protocol.py``). A harness
written against vLLM (a trainer's rollout loop) asks for them; a gateway in vLLM's place gives
them: the ids chatcodec rendered and the token endpoint sampled. The shape is the Chat
Completions API's own extension, so the Chat front answers it; the other fronts' APIs have no
place for the ids, and the field is reported as the loss it is there.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from chatcodec._narrow import as_dict, as_list

FIELD = "return_token_ids"
FRONT = "openai-chat"
"""The front whose API holds vLLM's token id fields."""


def asked(canonical: Mapping[str, Any], front: str) -> bool:
    """Whether the harness asked ``front`` for the ids (``return_token_ids: true``)."""
    if front != FRONT:
        return False
    options = as_dict((as_dict(canonical.get("provider_options")) or {}).get(front)) or {}
    return options.get(FIELD) is True


def on_answer(written: dict[str, Any], prompt_ids: list[int], completion_ids: list[int]) -> None:
    """The ids put on a written Chat Completions answer, as vLLM puts them."""
    written["prompt_token_ids"] = prompt_ids
    choice = as_dict((as_list(written.get("choices")) or [None])[0])
    if choice is not None:
        choice["token_ids"] = completion_ids


def on_stream(
    chunks: Iterator[dict[str, Any]], prompt_ids: list[int], completion_ids: list[int]
) -> Iterator[dict[str, Any]]:
    """A replayed Chat Completions stream with the ids on it: the prompt's on the first chunk,
    the sampled ids on the chunk that finishes the choice (the stream is replayed from the
    whole completion, so its text chunks are not cut where the ids are; the ids a consumer
    joins from the chunks are the sampled ones, as from vLLM's), ``[]`` on the others."""
    first = True
    for chunk in chunks:
        if first:
            chunk["prompt_token_ids"] = prompt_ids
            first = False
        choice = as_dict((as_list(chunk.get("choices")) or [None])[0])
        if choice is not None:
            choice["token_ids"] = completion_ids if choice.get("finish_reason") is not None else []
        yield chunk
