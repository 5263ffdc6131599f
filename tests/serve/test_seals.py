"""Sealed reasoning authenticated (the Responses front, :mod:`chatcodec.serve._seals`): a seal
this server wrote comes back and is replayed; one it did not write (forged, altered, from
another key) is refused 400 under ``--validate`` and left out with a loss otherwise; what
a seal holds never reaches a bare exception, nor the upstream when its API does not
define it; replicas sharing a store or a key file accept each other's seals."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

import chatcodec
from chatcodec import AssistantMessage, ChatResponse, FinishReason, TextPart, ThinkingPart, ToolUsePart
from chatcodec._errors import ChatcodecError
from chatcodec._providers.openai_responses.carried_reasoning import PREFIX, seal, verify_seal
from serve.harness import FakeUpstream, proxy

pytestmark = pytest.mark.usefixtures("fresh_fake")

THOUGHT = "The user wants the weather; I call get_weather."
SIGNATURE = base64.b64encode(b"a signature only Claude can verify").decode()
TOOL = {"type": "function", "name": "get_weather", "parameters": {"type": "object"}, "strict": False}
USER = {"role": "user", "content": "Weather in Paris?"}
OPTIONS = {"store": False, "include": ["reasoning.encrypted_content"]}


def _queue_loop(fake: FakeUpstream) -> None:
    thinking = ThinkingPart(text=THOUGHT, signature=SIGNATURE, provider="anthropic", model="claude-sonnet-4-5")
    call = ToolUsePart(id="toolu_01A", name="get_weather", arguments='{"location":"Paris"}')
    first = ChatResponse(
        id="msg_1",
        model="claude-sonnet-4-5",
        message=AssistantMessage(content=[thinking, call]),
        finish_reason=FinishReason(unified="tool_calls", raw="tool_use"),
    )
    final = ChatResponse(
        id="msg_2",
        model="claude-sonnet-4-5",
        message=AssistantMessage(content=[TextPart(text="Sunny.")]),
        finish_reason=FinishReason(unified="stop", raw="end_turn"),
    )
    fake.reply(chatcodec.encode_response("anthropic", first, on_loss="ignore"))
    fake.reply(chatcodec.encode_response("anthropic", final, on_loss="ignore"))


def _post(origin: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(f"{origin}/v1/responses", json=body, headers={"authorization": "Bearer k"}, timeout=30)


def _first_output(origin: str) -> list[dict[str, Any]]:
    answer = _post(origin, {"model": "m", "input": [USER], "tools": [TOOL], **OPTIONS})
    assert answer.status_code == 200, answer.text
    output: list[dict[str, Any]] = answer.json()["output"]
    return output


def _second(origin: str, output: list[dict[str, Any]]) -> httpx.Response:
    result = {"type": "function_call_output", "call_id": "toolu_01A", "output": "sunny"}
    return _post(origin, {"model": "m", "input": [USER, *output, result], "tools": [TOOL], **OPTIONS})


def _with_seal(output: list[dict[str, Any]], sealed: str) -> list[dict[str, Any]]:
    return [{**item, "encrypted_content": sealed} if item["type"] == "reasoning" else item for item in output]


def _forged(**fields: Any) -> str:
    part = {"type": "thinking", "text": THOUGHT, "signature": SIGNATURE, "provider": "anthropic", **fields}
    return seal(part)  # no key: what any caller can write


@pytest.mark.parametrize("validate", [False, True])
def test_a_seal_this_server_wrote_is_replayed(fake: FakeUpstream, validate: bool) -> None:
    _queue_loop(fake)
    with proxy("openai-responses", "anthropic", fake.base, validate=validate) as origin:
        output = _first_output(origin)
        final = _second(origin, output)
    sealed = next(item["encrypted_content"] for item in output if item["type"] == "reasoning")
    assert sealed.startswith(PREFIX)
    assert "." in sealed  # the MAC follows the seal
    assert final.status_code == 200, final.text
    assert fake.received[1].body["messages"][1]["content"][0] == {
        "type": "thinking",
        "thinking": THOUGHT,
        "signature": SIGNATURE,
    }


FORGERIES = {
    "no MAC": lambda genuine: _forged(),
    "a field put on the block": lambda genuine: _forged(provider_metadata={"anthropic": {"cache_control": "x"}}),
    "the MAC of another seal": lambda genuine: _forged(text="other") + "." + genuine.rpartition(".")[2],
    "another key": lambda genuine: seal(json.loads(_plain(genuine)), "another server's key, long enough"),
}


def _plain(sealed: str) -> str:
    return base64.urlsafe_b64decode(sealed[len(PREFIX) :].partition(".")[0]).decode()


@pytest.mark.parametrize("forgery", list(FORGERIES))
def test_a_seal_this_server_did_not_write_is_refused_under_validate(fake: FakeUpstream, forgery: str) -> None:
    _queue_loop(fake)
    with proxy("openai-responses", "anthropic", fake.base, validate=True) as origin:
        output = _first_output(origin)
        genuine = next(item["encrypted_content"] for item in output if item["type"] == "reasoning")
        refused = _second(origin, _with_seal(output, FORGERIES[forgery](genuine)))
    assert refused.status_code == 400
    assert "sealed reasoning this server did not write" in refused.json()["error"]["message"]
    assert len(fake.received) == 1  # never sent upstream


@pytest.mark.parametrize("forgery", list(FORGERIES))
def test_a_seal_this_server_did_not_write_is_left_out_with_a_loss(fake: FakeUpstream, forgery: str) -> None:
    _queue_loop(fake)
    with proxy("openai-responses", "anthropic", fake.base) as origin:
        output = _first_output(origin)
        genuine = next(item["encrypted_content"] for item in output if item["type"] == "reasoning")
        answer = _second(origin, _with_seal(output, FORGERIES[forgery](genuine)))
    assert answer.status_code == 200, answer.text
    assert "sealed reasoning this server did not write" in answer.headers["chatcodec-losses"]
    turn = fake.received[1].body["messages"][1]["content"]
    assert [block["type"] for block in turn] == ["tool_use"]  # what the seal held was not sent


@pytest.mark.parametrize(
    "bags",
    [{"anthropic": 5}, {"anthropic": [1]}, 5, [1]],
    ids=["bag-5", "bag-list", "metadata-5", "metadata-list"],
)
def test_a_seal_holding_something_else_than_bags_is_a_chatcodec_error(bags: object) -> None:
    sealed = seal(
        {"type": "thinking", "text": "t", "signature": "s", "provider": "anthropic", "provider_metadata": bags}
    )
    request = {"model": "m", "input": [USER, {"type": "reasoning", "summary": [], "encrypted_content": sealed}]}
    with pytest.raises(ChatcodecError, match="provider_metadata must be an object of objects"):
        chatcodec.decode_request("openai-responses", request)


@pytest.mark.parametrize("number", ["NaN", "Infinity", "1e999"])
def test_a_seal_holding_a_number_json_has_not_is_a_chatcodec_error(number: str) -> None:
    bags = f'{{"anthropic":{{"x":{number}}}}}'
    text = f'{{"type":"thinking","text":"t","signature":"s","provider":"anthropic","provider_metadata":{bags}}}'
    sealed = PREFIX + base64.urlsafe_b64encode(text.encode()).decode()
    request = {"model": "m", "input": [USER, {"type": "reasoning", "summary": [], "encrypted_content": sealed}]}
    with pytest.raises(ChatcodecError, match="not base64 of a JSON object"):
        chatcodec.decode_request("openai-responses", request)


def test_a_seal_with_the_servers_own_key_but_bags_of_5_is_a_400(fake: FakeUpstream, tmp_path: Path) -> None:
    key_file = tmp_path / "seal-key"
    key_file.write_text("the operator's own key, shared by replicas\n")
    part = {"type": "thinking", "text": "t", "signature": "s", "provider": "anthropic", "provider_metadata": [1]}
    sealed = seal(part, "the operator's own key, shared by replicas")
    _queue_loop(fake)
    with proxy("openai-responses", "anthropic", fake.base, seal_key_file=str(key_file)) as origin:
        output = _first_output(origin)
        answer = _second(origin, _with_seal(output, sealed))
    assert answer.status_code == 400  # was a bare TypeError: 500
    assert "provider_metadata must be an object of objects" in answer.json()["error"]["message"]


def test_replicas_sharing_a_store_accept_each_others_seals(fake: FakeUpstream, tmp_path: Path) -> None:
    store = f"sqlite:{tmp_path / 'answers.db'}"
    _queue_loop(fake)
    with proxy("openai-responses", "anthropic", fake.base, store=store, validate=True) as first:
        output = _first_output(first)
    with proxy("openai-responses", "anthropic", fake.base, store=store, validate=True) as second:
        final = _second(second, output)
    assert final.status_code == 200, final.text


def test_replicas_given_one_key_file_accept_each_others_seals(fake: FakeUpstream, tmp_path: Path) -> None:
    key_file = tmp_path / "seal-key"
    key_file.write_text("a key every replica is given, long enough\n")
    _queue_loop(fake)
    with proxy("openai-responses", "anthropic", fake.base, seal_key_file=str(key_file), validate=True) as first:
        output = _first_output(first)
    with proxy("openai-responses", "anthropic", fake.base, seal_key_file=str(key_file), validate=True) as second:
        final = _second(second, output)
    assert final.status_code == 200, final.text
    sealed = next(item["encrypted_content"] for item in output if item["type"] == "reasoning")
    assert verify_seal(sealed, "a key every replica is given, long enough")


def test_what_a_genuine_seal_puts_on_the_block_is_checked_with_the_upstreams_field_sets(
    fake: FakeUpstream, tmp_path: Path
) -> None:
    key = "the operator's own key, shared by replicas"
    key_file = tmp_path / "seal-key"
    key_file.write_text(key + "\n")
    part = {"type": "thinking", "text": THOUGHT, "signature": SIGNATURE, "provider": "anthropic"}
    bagged = seal({**part, "provider_metadata": {"anthropic": {"budget": 1}}}, key)
    _queue_loop(fake)
    with proxy("openai-responses", "anthropic", fake.base, seal_key_file=str(key_file), validate=True) as origin:
        output = _first_output(origin)
        refused = _second(origin, _with_seal(output, bagged))
    assert refused.status_code == 400, refused.text
    assert "would send anthropic what it refuses" in refused.json()["error"]["message"]
    assert "budget" in refused.json()["error"]["message"]
