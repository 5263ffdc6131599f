"""OpenPipe ART's ``Trajectory``: the exchanges of an episode, here its raw Completions calls.

Field names and types from openpipe-art 0.5.23 (OpenPipe/ART, ``src/art/trajectories/__init__.py``:
``Trajectory`` with ``exchanges.completions``, each a ``CompletionsExchange`` of the request sent,
the ``openai`` ``Completion`` answered and its ``start_time`` and ``end_time``; ``reward``). ART
reads a token-exact history from a Completions exchange whose request ``prompt`` is the prompt's
ids and whose choice carries ``token_ids`` (and ``prompt_token_ids``), as vLLM answers with
``return_token_ids`` (``_tokenize.py``'s ``_completion_evidence``), and merges the exchanges into
branches where prompts extend, as ``trainer_samples`` does. So each turn is one exchange:
the turn's prompt ids, its completion ids, text and logprobs (as ``token_id:N`` tokens beside
their ``token_logprobs``). The records hold no times: each exchange starts and ends its turn's
number of seconds after the Unix epoch, which keeps their order and says nothing more, and the
``finish_reason`` is ``"stop"`` (a completion cut at its length is found by
``trainer_samples(overlong=...)``, not here). ``model`` is the caller's
(``options={"model": ...}``), as ART selects exchanges by model.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from chatcodec import PayloadError
from chatcodec._training.layouts.episode import Episode


def rows(episode: Episode) -> dict[str, Any]:
    assert episode.turns is not None  # the table says this layout needs them
    model = episode.option("model")
    if not isinstance(model, str) or not model:
        raise PayloadError(
            "ART selects an episode's exchanges by model: pass options={'model': name}", "$.options.model"
        )
    exchanges: list[dict[str, Any]] = []
    for number, turn in enumerate(episode.turns):
        at = datetime.fromtimestamp(number, UTC).isoformat()
        choice: dict[str, Any] = {
            "index": 0,
            "text": turn.completion_text or "",
            "finish_reason": "stop",
            "logprobs": None,
            "token_ids": list(turn.completion_ids),
            "prompt_token_ids": list(turn.prompt_ids),
        }
        if turn.logprobs is not None:
            choice["logprobs"] = {
                "tokens": [f"token_id:{token}" for token in turn.completion_ids],
                "token_logprobs": list(turn.logprobs),
            }
        exchanges.append(
            {
                "request": {"model": model, "prompt": list(turn.prompt_ids)},
                "response": {
                    "id": f"turn-{number}",
                    "object": "text_completion",
                    "created": number,
                    "model": model,
                    "choices": [choice],
                },
                "start_time": at,
                "end_time": at,
            }
        )
    written: dict[str, Any] = {"exchanges": {"completions": exchanges}}
    if episode.reward is not None:
        written["reward"] = episode.reward
    return written
