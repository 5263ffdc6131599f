"""Held-out cases of renderers' bridge contract (PrimeIntellect-ai/renderers,
``tests/test_bridge.py``: ``test_bridge_declines_across_user_query_when_template_drops_thinking``,
``test_bridge_extension_includes_new_message_text``, ``test_bridge_synthesises_close_on_truncation``,
``test_bridge_rejects_assistant_in_extension``) asked of :func:`chatcodec.next_prompt` under stock
Qwen3 with real Qwen ids. Where renderers declines to bridge, chatcodec renders fresh and says why;
where the two differ by design (a cut turn, an assistant message among the new ones) the test
says so.
"""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from chatcodec import NextPrompt, SampledTurn
from training.qwen3_tokenizer import qwen3_encoding

U1 = {"role": "user", "content": "What is 2+2?"}
U2 = {"role": "user", "content": "Multiply that by 3."}
THINK = "<think>\n2 plus 2 is 4.\n</think>\n\n4"


def _prior(text: str) -> SampledTurn:
    """renderers' ``prior``: the prompt of ``[u1]`` and the completion ``text`` with ``<|im_end|>``."""
    encoding = qwen3_encoding()
    prompt = chatcodec.render([U1], template="qwen3", tokenizer=encoding, add_generation_prompt=True)
    assert prompt.token_ids is not None
    completion = [*encoding.encode(text, allowed_special="all"), *encoding.encode("<|im_end|>", allowed_special="all")]
    return SampledTurn(message_index=1, prompt_ids=list(prompt.token_ids), completion_ids=completion)


def _answer(text: str) -> dict[str, Any]:
    if text.startswith("<think>"):
        reasoning, _, content = text.removeprefix("<think>\n").partition("\n</think>\n\n")
        return {
            "role": "assistant",
            "content": [{"type": "thinking", "text": reasoning}, {"type": "text", "text": content}],
        }
    return {"role": "assistant", "content": text}


def _next(turn: SampledTurn, messages: list[Any], finish: str | None = None) -> NextPrompt:
    return chatcodec.next_prompt(
        turn, messages, template="qwen3", tokenizer=qwen3_encoding(), finish_reason=finish, on_loss="ignore"
    )


def _extends(found: NextPrompt, turn: SampledTurn) -> bool:
    return found.prompt_ids[: len(turn.prompt_ids) + len(turn.completion_ids)] == turn.prompt_ids + turn.completion_ids


def test_a_new_query_after_thinking_is_rendered_fresh_as_the_template_renders_it() -> None:
    turn = _prior(THINK)
    history = [U1, _answer(THINK), U2]
    found = _next(turn, history)
    assert found.prompt_break is not None
    assert "renders the earlier answer differently" in found.prompt_break
    fresh = chatcodec.render(
        history, template="qwen3", tokenizer=qwen3_encoding(), add_generation_prompt=True, on_loss="ignore"
    )
    assert found.prompt_ids == fresh.token_ids


def test_a_tool_response_continues_the_cycle_and_extends() -> None:
    turn = _prior(THINK)
    tool = {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "call_0", "content": "ok"}]}
    found = _next(turn, [U1, _answer(THINK), tool])
    assert found.prompt_break is None
    assert _extends(found, turn)


def test_no_prior_thinking_and_a_new_query_extends_where_renderers_declines_by_policy() -> None:
    """renderers declines at every new query by policy; chatcodec extends where the template, once
    the query follows, writes the answer exactly as the model sampled it (no think block: ``4``)."""
    turn = _prior("4")
    history = [U1, _answer("4"), U2]
    found = _next(turn, history)
    assert found.prompt_break is None
    assert _extends(found, turn)
    fresh = chatcodec.render(history, template="qwen3", tokenizer=qwen3_encoding(), add_generation_prompt=True)
    assert found.prompt_ids == fresh.token_ids  # the same ids a fresh rendering gives


def test_the_extension_holds_the_new_message_text() -> None:
    turn = _prior(THINK)
    tool = {
        "role": "tool",
        "content": [{"type": "tool_result", "tool_use_id": "call_0", "content": "HELLO_SENTINEL_XYZ"}],
    }
    found = _next(turn, [U1, _answer(THINK), tool])
    extension = found.prompt_ids[len(turn.prompt_ids) + len(turn.completion_ids) :]
    assert "HELLO_SENTINEL_XYZ" in qwen3_encoding().decode(extension)


def test_a_cut_turn_is_rendered_fresh_where_renderers_synthesises_the_close() -> None:
    """renderers keeps the cut ids and adds the close token (not sampled); chatcodec follows slime and
    renders fresh with the reason, so no sample runs across the cut."""
    turn = _prior(THINK)
    cut = SampledTurn(message_index=1, prompt_ids=turn.prompt_ids, completion_ids=turn.completion_ids[:-1])
    tool = {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "call_0", "content": "ok"}]}
    found = _next(cut, [U1, _answer(THINK), tool], finish="length")
    assert found.prompt_break is not None
    assert "cut at max_tokens" in found.prompt_break
    assert "4<|im_end|>" in found.text  # the template closes the cut answer in the fresh prompt


def test_an_assistant_message_among_the_new_ones_is_prompt_not_sample() -> None:
    """renderers refuses an assistant message in the extension; the gateway's rule extends, the
    message rendered into the prompt (mask 0 in a trainer sample), since its ids are the template's."""
    turn = _prior(THINK)
    tool = {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "call_0", "content": "ok"}]}
    found = _next(turn, [U1, _answer(THINK), tool, {"role": "assistant", "content": "forbidden"}])
    assert found.prompt_break is None
    assert _extends(found, turn)
    assert "forbidden" in qwen3_encoding().decode(found.prompt_ids[len(turn.prompt_ids) + len(turn.completion_ids) :])


class _RenderersTokenizer:
    """Qwen3's real ids (tiktoken) behind the calls renderers' ``Qwen3Renderer`` makes of a
    Hugging Face tokenizer: special tokens by name, text encoded with its specials, ids decoded."""

    unk_token_id = None

    def __init__(self) -> None:
        self.encoding = qwen3_encoding()

    def convert_tokens_to_ids(self, token: str) -> int:
        found: int = self.encoding.encode_single_token(token)
        return found

    def encode(self, text: str, add_special_tokens: bool = False) -> list[int]:
        del add_special_tokens
        encoded: list[int] = self.encoding.encode(text, allowed_special="all")
        return encoded

    def decode(self, ids: list[int], **_: Any) -> str:
        decoded: str = self.encoding.decode(list(ids))
        return decoded


TOOL_ANSWER = "<think>\nI look it up.\n</think>\n\n<tool_call>\n" + (
    '{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'
)
BRIDGED = {
    "a tool result after a call": (
        TOOL_ANSWER,
        [{"role": "tool", "tool_call_id": "call_0", "content": "Rain, 12 C"}],
    ),
    "two tool results": (
        TOOL_ANSWER,
        [
            {"role": "tool", "tool_call_id": "call_0", "content": "Rain"},
            {"role": "tool", "tool_call_id": "call_0", "content": "12 C"},
        ],
    ),
    "a tool result after thinking and text": (THINK, [{"role": "tool", "tool_call_id": "call_0", "content": "ok"}]),
}


@pytest.mark.parametrize("case", list(BRIDGED))
def test_next_prompt_is_renderers_bridge_where_both_extend(case: str) -> None:
    """renderers 0.1.12's ``Qwen3Renderer.bridge_to_next_turn`` (installed beside chatcodec's tests)
    and ``next_prompt`` both extend the sampled ids here: their next prompts are the same ids."""
    from renderers.qwen3 import Qwen3Renderer

    text, new = BRIDGED[case]
    turn = _prior(text)
    bridged = Qwen3Renderer(_RenderersTokenizer()).bridge_to_next_turn(turn.prompt_ids, turn.completion_ids, new)
    assert bridged is not None, "renderers declined to bridge"
    answer = _answer(text)
    if "<tool_call>" in text:
        answer = {
            "role": "assistant",
            "content": [
                {"type": "thinking", "text": "I look it up."},
                {"type": "tool_use", "id": "call_0", "name": "get_weather", "arguments": '{"city": "Paris"}'},
            ],
        }
    results = [
        {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "call_0", "content": message["content"]}]}
        for message in new
    ]
    found = _next(turn, [U1, answer, *results])
    assert found.prompt_break is None
    assert found.prompt_ids == bridged.token_ids
