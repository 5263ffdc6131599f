"""OpenAI Chat requests that differ from a plain twin only in a spelling the reader marks so
its own writer restores it: the conformance law over every provider's ``spelling_twins``
(``tests/conformance/test_silent_changes.py``) converts both to every other format and
finds the same body and the same reports (the spelling is nothing a user sent). What each
spelling does at home is tested beside it (``test_sdk_dump_nulls.py``,
``test_sdk_accumulated_calls.py``, ``test_silent_changes.py``)."""

from __future__ import annotations

import copy
from typing import Any

MAX_TOKENS_REQUEST: dict[str, Any] = {"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": "q"}]}
"""A request spelling its limit ``max_tokens`` (the ``_max_tokens_key`` marker): kept at
home; another provider holds the limit in its own field and drops the key unreported."""

CALL = {"id": "call_1", "type": "function", "function": {"name": "read_file", "arguments": '{"path": "a.py"}'}}


def sdk_dump_session() -> dict[str, Any]:
    """What an agent on the openai SDK sends: ``model_dump()`` of the assistant message
    (its four ``null`` fields), and ``"name": null`` on the messages it builds itself."""
    return {
        "model": "gpt-5.1",
        "max_completion_tokens": 1000,
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "Read a.py", "name": None},
            {
                "content": None,
                "refusal": None,
                "role": "assistant",
                "annotations": None,
                "audio": None,
                "function_call": None,
                "tool_calls": [CALL],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "print('hi')", "name": None},
            {"role": "user", "content": [{"type": "text", "text": "and now?"}], "name": None},
        ],
    }


def without_nulls(request: dict[str, Any]) -> dict[str, Any]:
    """``request`` without its messages' ``null`` fields (``content`` kept)."""
    plain = copy.deepcopy(request)
    plain["messages"] = [
        {key: value for key, value in message.items() if value is not None or key == "content"}
        for message in plain["messages"]
    ]
    return plain


def accumulated_call_session(*, index: bool = True) -> dict[str, Any]:
    """An assistant message the OpenAI SDK accumulated from a stream: each tool call keeps
    its ``index`` (where it streamed, nothing a user sent)."""
    call = {"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": "{}"}}
    return {
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": None, "tool_calls": [{"index": 0, **call} if index else call]},
            {"role": "tool", "tool_call_id": "call_1", "content": "ok"},
        ],
        "max_completion_tokens": 50,
    }


SPELLING_TWINS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "max_tokens key": (
        MAX_TOKENS_REQUEST,
        {"model": "m", "max_completion_tokens": 10, "messages": [{"role": "user", "content": "q"}]},
    ),
    "sdk dump nulls": (sdk_dump_session(), without_nulls(sdk_dump_session())),
    "accumulated call index": (accumulated_call_session(), accumulated_call_session(index=False)),
}
