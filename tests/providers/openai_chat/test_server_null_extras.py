"""A compatible server's empty extras are its spelling, not data another format loses.

vLLM answers every call with the fields of ``ChatCompletionResponse`` whatever was asked
(``vllm/entrypoints/openai/chat_completion/protocol.py``: the top level's
``prompt_logprobs``, ``prompt_token_ids`` and ``kv_transfer_params``, each choice's
``stop_reason`` and ``token_ids``, the message's ``reasoning`` and ``tool_calls: []``; the
usage's ``prompt_tokens_details`` of ``engine/protocol.py``), dumped with their ``null``:
each was reported lost on every vLLM answer converted or passed through the gateway. A
``null`` (or ``[]``) under a field the SDK or a server documents says there is none; a
value there, or a ``null`` under a key no one documents, is still data.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

import chatcodec
from providers.openai_chat.servers_support import VLLM_ANSWER

TARGETS = ("anthropic", "gemini", "openai-responses", "bedrock-converse", "ollama")


def _losses(answer: dict[str, Any], target: str) -> list[str]:
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_response(answer, source="openai-chat", target=target, on_loss="ignore", losses=losses)
    return [f"{loss.path}: {loss.what}" for loss in losses]


@pytest.mark.parametrize("target", TARGETS)
def test_a_vllm_answer_loses_nothing_it_did_not_hold(target: str) -> None:
    assert [loss for loss in _losses(VLLM_ANSWER, target) if "openai-chat data" in loss] == []


def test_a_vllm_answer_goes_back_to_openai_chat_as_it_came() -> None:
    losses: list[chatcodec.Loss] = []
    written = chatcodec.convert_response(VLLM_ANSWER, source="openai-chat", target="openai-chat", losses=losses)
    assert written == VLLM_ANSWER
    assert losses == []


def test_a_value_in_an_extra_or_a_null_no_one_documents_is_still_reported() -> None:
    answer = copy.deepcopy(VLLM_ANSWER)
    answer["choices"][0]["stop_reason"] = "</answer>"  # the stop string that ended it: data
    answer["x_trace"] = None  # a key no server documents: the caller's data, null or not
    assert [loss for loss in _losses(answer, "anthropic") if "openai-chat data" in loss] == [
        "$: openai-chat data ['x_trace']",
        "$.choices[0]: openai-chat data ['stop_reason']",
    ]
