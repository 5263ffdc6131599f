"""``return_token_ids`` asked by the harness itself, answered in vLLM's shape where chatcodec
renders the prompt (a token upstream: ``vllm-generate``, ``sglang-generate``).

vLLM's Chat Completions extension (``ChatCompletionRequest.return_token_ids``, v0.10.2) writes
the prompt's ids at the answer's top level (``prompt_token_ids``) and each choice's sampled ids
on the choice (``token_ids``); a stream carries ``prompt_token_ids`` on its first chunk and the
sampled ids on its chunks (``vllm/entrypoints/openai/chat_completion/protocol.py``). A harness
written against vLLM (a trainer's rollout loop) asks for them; a gateway in vLLM's place gives
them: the ids chatcodec rendered and the token endpoint sampled. The shape is the API's
own: the fields its edge says its compatible servers write the ids in (the first such server
of the edge's table that takes ``return_token_ids``, vLLM on the Chat Completions API), so the
front whose API has them answers it; the other fronts' APIs have no place for the ids, and the
field is reported as the loss it is there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from chatcodec._narrow import as_dict, as_list
from chatcodec._registry import get_edge
from chatcodec.contract import TakenIds

FIELD = "return_token_ids"


def _giver(front: str) -> Callable[[dict[str, Any], TakenIds], None] | None:
    """How ``front``'s API puts ids on an answer: its first compatible server that is asked
    for them with :data:`FIELD` and writes them back; None where its API has no such server."""
    side = get_edge(front).upstream
    for ids in side.sampled_ids.values() if side is not None else ():
        if FIELD in ids.asks and ids.give_back is not None:
            return ids.give_back
    return None


def asked(canonical: Mapping[str, Any], front: str) -> bool:
    """Whether the harness asked ``front`` for the ids (``return_token_ids: true``), on an API that has them."""
    if _giver(front) is None:
        return False
    options = as_dict((as_dict(canonical.get("provider_options")) or {}).get(front)) or {}
    return options.get(FIELD) is True


def on_answer(written: dict[str, Any], front: str, prompt_ids: list[int], completion_ids: list[int]) -> None:
    """The ids put on a written answer, where ``front``'s servers put them."""
    give = _giver(front)
    if give is not None:
        give(written, TakenIds(prompt_ids, completion_ids))


def on_stream(
    chunks: Iterator[dict[str, Any]], front: str, prompt_ids: list[int], completion_ids: list[int]
) -> Iterator[dict[str, Any]]:
    """A replayed stream with the ids on it: the prompt's on the first chunk, the sampled ids
    on the chunk that finishes the choice (the stream is replayed from the whole completion,
    so its text chunks are not cut where the ids are; the ids a consumer joins from the chunks
    are the sampled ones, as from vLLM's), ``[]`` on the others."""
    give = _giver(front)
    first = True
    for chunk in chunks:
        if give is not None:
            choice = as_dict((as_list(chunk.get("choices")) or [None])[0])
            finished = choice is not None and choice.get("finish_reason") is not None
            give(chunk, TakenIds(prompt_ids if first else None, completion_ids if finished else []))
        first = False
        yield chunk
