"""Any text, under any parser: a message, never an exception, and no text silently gone.

Completions are sampled, so a parser meets every malformed mix of its markup (a block never
closed, a closer with no opener, another family's tokens). Drawn here from every format's
markers and short texts between them.
"""

from __future__ import annotations

import json
import re

from hypothesis import given
from hypothesis import strategies as st

from chatcodec import AssistantMessage, Loss, OpaquePart, TextPart, ThinkingPart, ToolUsePart, parse_completion
from chatcodec._training.completion.parsers import TOOL_CALL_PARSERS

D, S = "\uff5c", "\u2581"
MARKERS = [
    "<think>",
    "</think>",
    "[THINK]",
    "[/THINK]",
    "<tool_call>",
    "</tool_call>",
    "<function=f>",
    "</function>",
    "<parameter=a>",
    "</parameter>",
    "<arg_key>",
    "</arg_key>",
    "<arg_value>",
    "</arg_value>",
    "<minimax:tool_call>",
    "</minimax:tool_call>",
    '<invoke name="f">',
    "</invoke>",
    '<parameter name="a">',
    "[TOOL_CALLS]",
    "[ARGS]",
    "[CALL_ID]",
    "<|python_tag|>",
    "<|python_start|>",
    "<|python_end|>",
    "<|tool_calls_section_begin|>",
    "<|tool_calls_section_end|>",
    "<|tool_call_begin|>",
    "<|tool_call_end|>",
    "<|tool_call_argument_begin|>",
    "functions.f:0",
    f"<{D}tool{S}calls{S}begin{D}>",
    f"<{D}tool{S}calls{S}end{D}>",
    f"<{D}tool{S}call{S}begin{D}>",
    f"<{D}tool{S}call{S}end{D}>",
    f"<{D}tool{S}sep{D}>",
    "```json\n",
    "\n```",
    f"<{D}DSML{D}tool_calls>",
    f"</{D}DSML{D}tool_calls>",
    f'<{D}DSML{D}invoke name="f">',
    f"</{D}DSML{D}invoke>",
    f'<{D}DSML{D}parameter name="a" string="false">',
    f"</{D}DSML{D}parameter>",
    "<|start|>",
    "<|channel|>",
    "<|message|>",
    "<|end|>",
    "<|call|>",
    "<|return|>",
    "<|constrain|>",
    "analysis",
    "final",
    "commentary",
    " to=functions.f",
    " to=browser.search",
    "<|im_end|>",
    '{"name": "f", "arguments": {"a": 1}}',
    '{"name": "f", "parameters": {',
    "[f(a=1)",
    "[f(a=1)]",
    "{",
    "}",
    "[",
    "]",
    '"',
    ",",
    ";",
    "\n",
    " ",
]
PIECES = st.sampled_from(MARKERS) | st.text(max_size=6)
COMPLETIONS = st.lists(PIECES, max_size=24).map("".join)


def _texts(message: AssistantMessage) -> str:
    assert isinstance(message.content, list)
    kept: list[str] = []
    for part in message.content:
        if isinstance(part, (TextPart, ThinkingPart)):
            kept.append(part.text)
        elif isinstance(part, ToolUsePart):
            kept.append(part.name + part.arguments)
        elif isinstance(part, OpaquePart):
            kept.append(str(part.data["text"]))
    return "".join(kept)


@given(st.sampled_from(sorted(TOOL_CALL_PARSERS)), COMPLETIONS, st.booleans())
def test_any_text_parses_to_a_message(parser: str, completion: str, started: bool) -> None:
    losses: list[Loss] = []
    message = parse_completion(completion, parser=parser, reasoning_started=started, on_loss="ignore", losses=losses)
    assert isinstance(message, AssistantMessage)
    kept = sum(isinstance(part, OpaquePart) for part in message.content)
    assert sum(loss.kind == "content" for loss in losses) == kept  # every kept span reported, nothing else


@given(
    st.sampled_from(sorted(TOOL_CALL_PARSERS)),
    st.text(st.characters(blacklist_characters="<>[]{}|\uff5c"), max_size=60),
)
def test_text_with_no_markup_comes_back_whole(parser: str, completion: str) -> None:
    message = parse_completion(completion, parser=parser, on_loss="ignore")
    assert re.sub(r"\s", "", _texts(message)) == re.sub(r"\s", "", completion)


SENTINEL = "QZXJ"


@given(st.sampled_from(sorted(TOOL_CALL_PARSERS)), COMPLETIONS, st.integers(min_value=0), st.booleans())
def test_a_sentinel_planted_in_any_text_is_kept(parser: str, completion: str, where: int, started: bool) -> None:
    """Nothing silently dropped: a string planted anywhere in any mix of markup comes back in
    the message (text, reasoning, a call's name or arguments, an opaque part) or in a loss."""
    position = where % (len(completion) + 1)
    planted = completion[:position] + SENTINEL + completion[position:]
    losses: list[Loss] = []
    message = parse_completion(planted, parser=parser, reasoning_started=started, on_loss="ignore", losses=losses)
    kept = json.dumps(message.model_dump(), ensure_ascii=False) + "".join(str(loss) for loss in losses)
    assert SENTINEL in kept
