"""An empty stop sequence: botocore's ``InferenceConfiguration.stopSequences`` members are
``NonEmptyString`` (``min: 1``), so Bedrock refuses ``stopSequences: [""]``, which OpenAI
Chat's ``stop`` takes. From another format the empty entry is not sent, reported; a Bedrock
body that sent one itself gets it back as it came (issue 61, "open from earlier rounds")."""

from __future__ import annotations

import copy

import pytest

import chatcodec
from chatcodec import Loss
from providers.bedrock_converse.bedrock_support import PLACEHOLDER_MODEL, assert_valid_request


def test_botocore_refuses_an_empty_stop_sequence_and_takes_what_is_sent() -> None:
    request = {"model": PLACEHOLDER_MODEL, "messages": [{"role": "user", "content": "hi"}], "stop": ["", "END"]}
    body = chatcodec.convert_request(request, source="openai-chat", target="bedrock-converse", on_loss="ignore")
    assert_valid_request(body)
    with pytest.raises(AssertionError):
        assert_valid_request({**body, "inferenceConfig": {"stopSequences": [""]}})


@pytest.mark.parametrize("target", ["bedrock-converse", "bedrock-nova"])
@pytest.mark.parametrize(("stop", "sent"), [([""], None), (["", "END"], ["END"])])
def test_an_empty_stop_sequence_from_openai_chat_is_not_sent(
    target: str, stop: list[str], sent: list[str] | None
) -> None:
    losses: list[Loss] = []
    request = {"model": "m", "messages": [{"role": "user", "content": "hi"}], "stop": stop}
    body = chatcodec.convert_request(request, source="openai-chat", target=target, losses=losses, on_loss="ignore")
    assert body.get("inferenceConfig", {}).get("stopSequences") == sent
    assert [(loss.path, loss.what) for loss in losses] == [("$.stop", "empty stop sequence")]


@pytest.mark.parametrize("source", ["bedrock-converse", "bedrock-nova"])
def test_a_bedrock_bodys_own_empty_entry_goes_back_as_it_came(source: str) -> None:
    body = {
        "messages": [{"role": "user", "content": [{"text": "hi"}]}],
        "inferenceConfig": {"stopSequences": ["", "END"]},
    }
    losses: list[Loss] = []
    decoded = chatcodec.decode_request(source, copy.deepcopy(body))
    assert chatcodec.encode_request(source, decoded, losses=losses) == body
    assert losses == []
