"""What strict mode's structural rules read of a Gemini ``generateContent`` request
(:class:`~chatcodec._providers.contract.structure.Structure`): its ``contents``, its output token
limit (in both JSON spellings), its ``functionCall`` and ``functionResponse`` parts, and
Gemini's 400 texts.

Gemini pairs a response with its call by id when both have one, else by function name, and
one name may be answered many times. As a target, Gemini requires a function response
turn right after the model turn with the calls, and a function call turn right after a
user turn or a function response turn; its wordings, as its API answers them, are quoted
in https://github.com/google-gemini/gemini-cli/issues/11814 and
https://github.com/GoogleCloudPlatform/generative-ai/pull/368.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, Literal

from chatcodec.codec_kit import as_dict, as_list, role_at, spoken_turns
from chatcodec.contract import Location, Structure, ToolStep, Turn, TurnProblem

_KEYS: tuple[tuple[str, Literal["call", "result"]], ...] = (
    ("functionCall", "call"),
    ("function_call", "call"),
    ("functionResponse", "result"),
    ("function_response", "result"),
)
_RESPONSE_AFTER_CALL = "Please ensure that function response turn comes immediately after a function call turn."
_CALL_AFTER_USER = (
    "Please ensure that function call turn comes immediately after a user turn or after a function response turn."
)


def tool_steps(content: Mapping[str, Any], turn: int, where: Location) -> Iterator[ToolStep]:
    """The calls and responses of a content: a call under its id and its name, a
    response under its id or else its name."""
    for index, part in enumerate(as_list(content.get("parts")) or ()):
        fields = as_dict(part) or {}
        for key, kind in _KEYS:
            inner = as_dict(fields.get(key))
            if inner is None:
                continue
            names = [inner.get("id"), inner.get("name")]
            keys = [name for name in names if isinstance(name, str)]
            for tool_id in keys if kind == "call" else keys[:1]:
                yield ToolStep(kind, tool_id, turn, (*where, "parts", index, key))


def turn(content: Mapping[str, Any], where: Location) -> Turn | None:
    """A content as a turn: a user content of function responses alone is a tool turn."""
    kinds = {key for part in as_list(content.get("parts")) or () for key in (as_dict(part) or {})}
    calls = bool(kinds & {"functionCall", "function_call"})
    results = bool(kinds & {"functionResponse", "function_response"})
    at = role_at(content, where)
    if content.get("role") == "model":
        return Turn("assistant", at, calls=calls)
    only_results = results and not kinds - {"functionResponse", "function_response", "thoughtSignature"}
    return Turn("tool" if only_results else "user", at, results=results)


def _calls_and_responses_in_place(turns: Sequence[Turn]) -> Iterator[TurnProblem]:
    previous: Turn | None = None
    for current in spoken_turns(turns):
        if current.calls and (previous is None or previous.speaker == "assistant"):
            yield TurnProblem(current, "function_call_turn", _CALL_AFTER_USER)
        elif current.results and not (previous is not None and (previous.calls or previous.speaker == "tool")):
            yield TurnProblem(current, "function_response_turn", _RESPONSE_AFTER_CALL)
        previous = current


STRUCTURE = Structure(
    conversation_key="contents",
    token_limits=(
        ("generationConfig", "maxOutputTokens"),
        ("generationConfig", "max_output_tokens"),
        ("generation_config", "maxOutputTokens"),
        ("generation_config", "max_output_tokens"),
    ),
    tool_steps=tool_steps,
    turn=turn,
    orphan_result=_RESPONSE_AFTER_CALL,
    empty_conversation="contents is not specified",
    repeated_results=True,
    turn_order=(_calls_and_responses_in_place,),
)
"""Gemini's conversation, for strict mode."""
