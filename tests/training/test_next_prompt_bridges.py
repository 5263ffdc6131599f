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
