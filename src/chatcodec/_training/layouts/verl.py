"""verl's ``AgentLoopOutput``: what an agent loop returns for one episode.

Field names and types from verl 0.9.1 (volcengine/verl,
``verl/experimental/agent_loop/agent_loop.py``: ``prompt_ids``, ``response_ids``,
``response_mask``, ``response_logprobs``, ``reward_score``, ``num_turns``, ``metrics``, a pydantic
model). ``AgentLoopBase.run`` returns one output per episode, so an episode split into several
samples has no place there and is refused with the reason (a template whose prompts extend
gives one sample). ``metrics`` is verl's ``AgentLoopMetrics`` (timings a loop measures): empty
here, its defaults.
"""

from __future__ import annotations

from typing import Any

from chatcodec import PayloadError
from chatcodec._training.layouts.episode import Episode


def rows(episode: Episode) -> dict[str, Any]:
    if len(episode.samples) > 1:
        raise episode.refuse(
            f"verl's agent loop returns one AgentLoopOutput per episode, and this episode is "
            f"{len(episode.samples)} samples (its prompts stop extending each other): render it with a "
            "template whose prompts extend, or train it step-wise (layout 'skyrl', step_wise)",
            rule="trainer_one_response",
        )
    [sample] = episode.samples
    row: dict[str, Any] = {
        "prompt_ids": list(sample.prompt_ids),
        "response_ids": list(sample.response_ids),
        "response_mask": list(sample.response_mask),
        "response_logprobs": None if sample.response_logprobs is None else list(sample.response_logprobs),
        "metrics": {},
    }
    if episode.reward is not None:
        row["reward_score"] = episode.reward
    turns = episode.option("num_turns")
    if turns is not None:
        if isinstance(turns, bool) or not isinstance(turns, int) or turns < 0:
            raise PayloadError(
                f"expected a count of turns (an integer, 0 or more), not {turns!r}", "$.options.num_turns"
            )
        row["num_turns"] = turns
    return row
