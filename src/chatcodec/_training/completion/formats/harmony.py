"""gpt-oss's harmony messages (vLLM's ``openai`` parser): reasoning on the ``analysis`` channel,
calls on ``commentary`` addressed ``to=functions.NAME``, the answer on ``final``.

A completion after the generation prompt ``<|start|>assistant`` reads
``<|channel|>analysis<|message|>...<|end|><|start|>assistant<|channel|>commentary
to=functions.get_weather <|constrain|>json<|message|>{"city": "SF"}<|call|>``; the recipient
may also stand in the role's part of the header (``<|start|>assistant to=functions.f<|channel|>commentary``).

Source: OpenAI's harmony response format guide (cookbook.openai.com, "OpenAI Harmony Response
Format": channels, recipients, ``<|constrain|>``, ``<|call|>`` and ``<|return|>``), vLLM's
``vllm/tool_parsers/openai_tool_parser.py``, ``tests/tool_parsers/test_openai_tool_parser.py``
and ``test_harmony_recipient_to_name`` in ``tests/tool_parsers/test_format_conformance.py``
(``functions.NAME`` is a call to NAME). Harmony writes no call ids; a commentary message with
no recipient is a preamble the user sees, so text; a call to a built-in tool (``browser.search``,
``python``) has no canonical function call and is kept unparsed.
"""

from __future__ import annotations

import re

from chatcodec._training.completion.pieces import Call, Piece, Reasoning, Text, Unparsed
from chatcodec._training.completion.tool_call_parser import ToolCallParser, text_pieces
from chatcodec._training.completion.tool_schemas import ToolSchemas

START, MESSAGE = "<|start|>", "<|message|>"
STOPS = ("<|end|>", "<|call|>", "<|return|>")
_CHANNEL = re.compile(r"<\|channel\|>\s*([^\s<]+)")
_RECIPIENT = re.compile(r"\bto=([^\s<]+)")
_SPACE = re.compile(r"\s*")
_STOP = re.compile("|".join(re.escape(stop) for stop in STOPS))
_HEADER_PARTS = re.compile(
    r"<\|start\|>|<\|channel\|>\s*[^\s<]*|\bto=[^\s<]+|(?:<\|constrain\|>\s*)?\bjson\b|\bassistant\b|\s+"
)
"""What a message header holds: the role, its channel, its recipient, its content type."""


def read(text: str, tools: ToolSchemas) -> list[Piece]:
    if MESSAGE not in text:
        return [Text(text)] if text else []
    pieces: list[Piece] = []
    index = _after_start(text, 0)
    next_start = -1  # the next <|start|> at or after index, found once per stretch (linear)
    while index < len(text):
        body_start = text.find(MESSAGE, index)
        if body_start < 0:
            rest = text[index:]
            if rest.strip():
                pieces.append(Unparsed(rest, "a harmony header with no <|message|>"))
            break
        header = text[index:body_start]
        body_start += len(MESSAGE)
        body_end, stop = _stop(text, body_start)
        pieces.append(_message(header, text[body_start:body_end], text[index : body_end + len(stop)]))
        index = body_end + len(stop)
        if next_start < index:
            found = text.find(START, index)
            next_start = len(text) if found < 0 else found
        if text.find(MESSAGE, index, next_start) < 0:  # no header before the next message: the model's text
            pieces.extend(text_pieces(text[index:next_start].strip()))
            index = next_start
        index = _after_start(text, index)
    return pieces


def _after_start(text: str, index: int) -> int:
    """The index after a ``<|start|>`` at ``index`` (whitespace first skipped), if one is there."""
    space = _SPACE.match(text, index)
    stripped = index if space is None else space.end()
    return stripped + len(START) if text.startswith(START, stripped) else index


def _stop(text: str, start: int) -> tuple[int, str]:
    """Where the message body starting at ``start`` ends, and the token that ends it ("" at the end)."""
    found = _STOP.search(text, start)
    return (len(text), "") if found is None else (found.start(), found.group())


def _message(header: str, body: str, whole: str) -> Piece:
    if _HEADER_PARTS.sub("", header):
        return Unparsed(whole, "a harmony message whose header holds text no harmony header field holds")
    channel = _CHANNEL.search(header)
    recipient = _RECIPIENT.search(header)
    if recipient is not None:
        name = recipient.group(1)
        if name.startswith("functions.") and (channel is None or channel.group(1) in ("commentary", "analysis")):
            return Call(name.removeprefix("functions."), body)
        return Unparsed(whole, f"a call to {name!r} (a built-in tool, or on no call channel), which no part holds")
    kind = None if channel is None else channel.group(1)
    if kind == "analysis":
        return Reasoning(body)
    if kind in ("final", "commentary", None):
        return Text(body)
    return Unparsed(whole, f"a message on the channel {kind!r}, which harmony does not define")


OPENAI = ToolCallParser(
    "openai",
    read,
    "OpenAI harmony response format guide; vllm/tool_parsers/openai_tool_parser.py; "
    "tests/tool_parsers/test_openai_tool_parser.py",
    reasoning=None,
    reads_reasoning=True,
)
