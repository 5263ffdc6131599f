"""Converse and Nova share the block wire, so a marker one's reader leaves on that wire is
written back by the other (the family's ``Body.sibling``): a tool result's ``json`` block
stays ``json`` and an S3 source keeps its ``bucketOwner``, both ways, with no loss.

Sources: Nova's user guide, "Returning tool results"
(https://docs.aws.amazon.com/nova/latest/userguide/tool-use-results.html:
``"content": [{"json": {"song": song, "artist": artist}}]``, "either a single JSON or a mix
of text and images"); the image and video blocks' ``s3Location`` with ``bucketOwner``
(https://docs.aws.amazon.com/nova/latest/userguide/modalities-image.html, and botocore's
``S3Location``: ``uri``, ``bucketOwner``)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import chatcodec
from chatcodec import Loss

OWNER = "111122223333"
RESULT = {"toolUseId": "tooluse_1", "content": [{"json": {"song": "Espresso", "artist": "Sabrina Carpenter"}}]}
MESSAGES: list[dict[str, Any]] = [
    {"role": "user", "content": [{"text": "What is the top song?"}]},
    {
        "role": "assistant",
        "content": [{"toolUse": {"toolUseId": "tooluse_1", "name": "top_song", "input": {"sign": "WZPZ"}}}],
    },
    {
        "role": "user",
        "content": [
            {"toolResult": RESULT},
            {"image": {"format": "png", "source": {"s3Location": {"uri": "s3://media/a.png", "bucketOwner": OWNER}}}},
            {"video": {"format": "mp4", "source": {"s3Location": {"uri": "s3://media/a.mp4", "bucketOwner": OWNER}}}},
        ],
    },
]


@pytest.mark.parametrize(
    ("source", "target"), [("bedrock-converse", "bedrock-nova"), ("bedrock-nova", "bedrock-converse")]
)
def test_json_results_and_bucket_owners_cross_between_the_siblings(source: str, target: str) -> None:
    body: dict[str, Any] = {"messages": copy.deepcopy(MESSAGES)}
    if source == "bedrock-converse":
        body["modelId"] = "amazon.nova-lite-v1:0"
    losses: list[Loss] = []
    written = chatcodec.convert_request(body, source=source, target=target, on_loss="ignore", losses=losses)
    assert written["messages"] == MESSAGES
    assert losses == []
