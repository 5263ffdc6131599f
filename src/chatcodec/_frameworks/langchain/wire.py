"""The one description of what a LangChain history holds, and its validator.

A stored message is checked as one of the two serialisations (:func:`.messages.unwrap`), so
an entry LangChain would not load is refused at its own path (``$.messages[3]``) as a
:class:`~chatcodec.ValidationError`, before anything is read; so is a field the reader reads
holding what langchain-core's classes would not (:func:`_check_fields`: a number tool call id,
a fractional count), the field named in the refusal. Inside a message, LangChain's own fields
are otherwise open (its content blocks are open-ended by design): what has no canonical field
is kept as it is. The validator is built on first use, so importing the codec loads no
pydantic.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._frameworks.history import history_check, refuse_bad_counts, refuse_non_string
from chatcodec.codec_kit import as_dict, as_list


def _loadable(entry: dict[str, Any]) -> dict[str, Any]:
    from chatcodec._frameworks.langchain.messages import unwrap

    kind, data, _ = unwrap(entry)
    _check_fields(kind, data, "kwargs" if "kwargs" in entry and "data" not in entry else "data")
    return entry


_COUNTS = ("input_tokens", "output_tokens", "total_tokens")
_DETAIL_GROUPS = ("input_token_details", "output_token_details")


def _check_fields(kind: str, data: Mapping[str, Any], at: str) -> None:
    """What langchain-core's message classes require of the fields the reader reads
    (``BaseMessage.content``: a string or a list of strings and objects; ``name``, ``id``:
    strings; ``additional_kwargs``, ``response_metadata``: objects; ``ToolCall`` and
    ``InvalidToolCall``; ``UsageMetadata``'s counts; ``ToolMessage.tool_call_id``), with
    token counts held to 0 or more as canonical usage holds them: a :class:`ValueError`
    naming the field, so nothing Python-typed wrongly enters canonical data."""
    content = data.get("content", "")
    blocks = as_list(content)
    if blocks is None and not isinstance(content, str):
        raise ValueError(f"{at}.content: a string or a list of content blocks")
    for index, block in enumerate(blocks or []):
        if not isinstance(block, str) and as_dict(block) is None:
            raise ValueError(f"{at}.content[{index}]: a content block is a string or an object")
    refuse_non_string(data, ("name", "id", "tool_call_id"), at)
    for key in ("additional_kwargs", "response_metadata"):
        if data.get(key) is not None and not isinstance(data[key], dict):
            raise ValueError(f"{at}.{key}: an object")
    if kind == "ai":
        _check_calls(data, at)
        _check_usage(data.get("usage_metadata"), f"{at}.usage_metadata")


def _check_calls(data: Mapping[str, Any], at: str) -> None:
    for key in ("tool_calls", "invalid_tool_calls"):
        if data.get(key) is None:
            continue
        calls = as_list(data[key])
        if calls is None:
            raise ValueError(f"{at}.{key}: a list of calls")
        for index, item in enumerate(calls):
            where = f"{at}.{key}[{index}]"
            call = as_dict(item)
            if call is None:
                raise ValueError(f"{where}: a call is an object")
            refuse_non_string(call, ("id", "name"), where)
            if key == "tool_calls" and not isinstance(call.get("name"), str):
                raise ValueError(f"{where}.name: a ToolCall names its tool")
            if key == "tool_calls" and not isinstance(call.get("args", {}), dict):
                raise ValueError(f"{where}.args: a ToolCall's arguments are an object")
            if key == "invalid_tool_calls":
                refuse_non_string(call, ("args", "error"), where)


def _check_usage(usage: object, at: str) -> None:
    if usage is None:
        return
    fields = as_dict(usage)
    if fields is None:
        raise ValueError(f"{at}: an object of token counts")
    refuse_bad_counts(fields, _COUNTS, at)
    for group in _DETAIL_GROUPS:
        if fields.get(group) is None:
            continue
        details = as_dict(fields[group])
        if details is None:
            raise ValueError(f"{at}.{group}: an object of token counts")
        refuse_bad_counts(details, tuple(details), f"{at}.{group}")


validated_history = history_check(_loadable)
"""``payload`` checked as a history whose every message LangChain can load."""
