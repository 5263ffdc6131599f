"""The end-of-turn token a sampled completion ends with, which is no part of the message.

A completion decoded with its special tokens (as parse_completion decodes ids, to keep the
markup) ends with the token that stopped sampling; servers drop it (vLLM stops on it and
skips special tokens when it detokenizes). Each token is the one its family's chat template
writes after an assistant turn.
"""

from __future__ import annotations

END_OF_TURN: dict[str, str] = {
    "<|im_end|>": "Qwen2.5/3/3.5, Kimi K2, Nemotron 3 (ChatML): the templates' turn end",
    "<|endoftext|>": "Qwen's end-of-text, GLM-4.5's",
    "<|eot_id|>": "Llama 3.x: end of turn",
    "<|eom_id|>": "Llama 3.1: end of message, awaiting a tool result",
    "<\uff5cend\u2581of\u2581sentence\uff5c>": "DeepSeek V3/R1/V3.1: end of sentence after an assistant turn",
    "</s>": "Mistral: end of sequence",
    "[e~[": "MiniMax-M2: its template's turn end",
    "<|user|>": "GLM-4.5: the next role token, which ends a turn",
    "<|observation|>": "GLM-4.5: the tool role token, which ends a calling turn",
}
"""Each end-of-turn token and the families whose templates write it."""


def without_end_of_turn(text: str) -> str:
    """``text`` without the end-of-turn tokens (and the whitespace before them) at its end."""
    stripped = text.rstrip()
    while True:
        for token in END_OF_TURN:
            if stripped.endswith(token):
                stripped = stripped.removesuffix(token).rstrip()
                break
        else:
            return stripped if stripped != text.rstrip() else text
