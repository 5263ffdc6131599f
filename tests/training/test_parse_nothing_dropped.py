"""Every character the model wrote is in the message or in a loss: a sentinel planted at every
position of vLLM's parser test samples comes back, whatever it breaks."""

from __future__ import annotations

import json

import pytest

from chatcodec import Loss, parse_completion
from training.parse_fixtures import VLLM_PARSER_SAMPLES

SENTINEL = "QZXJ"


def _kept(raw: str, parser: str) -> str:
    """Everything the parse kept: the message's JSON (its texts, names, arguments, opaque
    parts) and every loss."""
    losses: list[Loss] = []
    message = parse_completion(raw, parser=parser, on_loss="ignore", losses=losses)
    return json.dumps(message.model_dump(), ensure_ascii=False) + "".join(str(loss) for loss in losses)


@pytest.mark.parametrize(
    ("parser", "raw"), VLLM_PARSER_SAMPLES, ids=[f"{parser}-{n}" for n, (parser, _) in enumerate(VLLM_PARSER_SAMPLES)]
)
def test_a_sentinel_anywhere_is_kept(parser: str, raw: str) -> None:
    assert SENTINEL not in _kept(raw, parser)
    lost = [
        position
        for position in range(len(raw) + 1)
        if SENTINEL not in _kept(raw[:position] + SENTINEL + raw[position:], parser)
    ]
    assert lost == [], [raw[:position] + "|" + raw[position:] for position in lost[:3]]
