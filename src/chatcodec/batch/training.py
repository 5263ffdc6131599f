"""Training dataset dialects: the rows fine-tuning and RL libraries keep conversations in.

Each dialect maps a row to a conversation chatcodec converts (a request body read by the
canonical reader, which takes OpenAI's and Verifiers' message shapes) and back, so
``chatcodec convert --from sharegpt --to openai-chat`` (or ``--to sharegpt``) takes one
command. The dialects, each with the documentation it follows:

``sharegpt``               ``{"conversations": [{"from", "value"}], "system", "tools"}`` as
                           LLaMA-Factory reads it (``human``/``gpt``/``function_call``/
                           ``observation``/``system``; ``tools`` and calls as JSON text):
                           https://github.com/hiyouga/LLaMA-Factory/blob/main/data/README.md.
                           Keys and role names come from a configuration
                           (:func:`layout_from_config`: LLaMA-Factory's ``columns``/``tags``
                           or axolotl's ``field_messages``/``message_property_mappings``/
                           ``roles``, https://docs.axolotl.ai/docs/dataset-formats/conversation.html)
``trl-prompt-completion``  ``{"prompt": [...], "completion": [...], "tools"?}``, TRL's
                           conversational prompt-completion type:
                           https://huggingface.co/docs/trl/dataset_formats
``verifiers``              a Verifiers rollout: ``prompt`` and ``completion`` message lists
                           (flat ``tool_calls``) beside ``answer``, ``reward``, ``info``, ...
``trl-preference``         ``{"prompt", "chosen", "rejected"}`` (TRL's conversational
                           preference type; without ``prompt``, the sides' shared start is
                           the prompt, and written so again)
``sharegpt-preference``    LLaMA-Factory's ShareGPT preference row: ``conversations`` (and
                           ``system``, ``tools``) then ``chosen``/``rejected`` answers
                           ``{"from": "gpt", "value"}``
``openai-dpo``             ``{"input": {"messages", "tools"?, "parallel_tool_calls"?},
                           "preferred_output", "non_preferred_output"}``:
                           https://platform.openai.com/docs/guides/direct-preference-optimization
``preference``             chatcodec's pair form: ``{"prompt": <canonical request>,
                           "chosen": <canonical messages>, "rejected": <canonical messages>}``,
                           both sides kept exactly, whatever the pair came from
==========================================================================================

A pair dialect converts only to another pair dialect. Columns a dialect does not own
(Verifiers' ``reward``, a dataset's ``id``) are kept when reading and writing the same
dialect and are a ``metadata`` loss each when moving to another.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from chatcodec._narrow import as_dict, as_list
from chatcodec.errors import PayloadError
from chatcodec.losses import Loss

CONVERSATION_DIALECTS: Final = ("sharegpt", "trl-prompt-completion", "verifiers")
"""Dialects whose row is one conversation."""
PAIR_DIALECTS: Final = ("trl-preference", "openai-dpo", "sharegpt-preference", "preference")
"""Dialects whose row is a preference pair: a prompt and two completions."""
TRAINING_DIALECTS: Final = (*CONVERSATION_DIALECTS, *PAIR_DIALECTS)
"""Every training dialect's name (``--from``/``--to``)."""

READ_AS: Final = "canonical"
"""The format a dialect's conversation is read in: the canonical reader takes OpenAI's and
Verifiers' message shapes, which every dialect here holds."""
WRITTEN_FROM: Final = "openai-chat"
"""The format a conversation is converted to before a dialect's row is written from it."""


class TrainingRowError(PayloadError):
    """A row is not in the training dialect it was said to be in."""

    def __init__(self, message: str, path: str = "$", rule: str = "training_row") -> None:
        super().__init__(f"{message} [rule: {rule}]", path)
        self.rule = rule
        """The rule broken, as data."""


@dataclass(frozen=True, slots=True)
class ConversationLayout:
    """Where a ShareGPT-style row keeps its messages, and what it calls each role."""

    messages: str = "conversations"
    """The column holding the message list."""
    role: str = "from"
    """A message's role key."""
    content: str = "value"
    """A message's content key."""
    system: str | None = "system"
    """The column holding the system prompt, if any."""
    tools: str | None = "tools"
    """The column holding the tools as JSON text, if any."""
    roles: Mapping[str, str] = field(
        default_factory=lambda: {
            "human": "user",
            "gpt": "assistant",
            "system": "system",
            "observation": "tool",
            "function_call": "tool_call",
        }
    )
    """The row's role name -> ``user``, ``assistant``, ``system``, ``tool`` (a result) or
    ``tool_call`` (an assistant turn of calls, its value ``{"name", "arguments"}`` as JSON
    text, or a list of them)."""

    def tag_of(self, role: str) -> str:
        """The row's name for a role (the first that maps to it)."""
        return next((tag for tag, mapped in self.roles.items() if mapped == role), role)


SHAREGPT: Final = ConversationLayout()
"""LLaMA-Factory's ShareGPT layout (its ``dataset_info.json`` defaults)."""

_AXOLOTL_ROLES = {"user": "user", "assistant": "assistant", "system": "system", "tool": "tool"}


def layout_from_config(config: Mapping[str, Any]) -> ConversationLayout:
    """A layout from LLaMA-Factory's dataset entry (``columns``, ``tags``) or axolotl's
    ``chat_template`` keys (``field_messages``, ``message_property_mappings``, ``roles``)."""
    columns = as_dict(config.get("columns")) or {}
    tags = as_dict(config.get("tags")) or {}
    mappings = as_dict(config.get("message_property_mappings")) or {}
    roles = dict(SHAREGPT.roles)
    for key, role in (
        ("user_tag", "user"),
        ("assistant_tag", "assistant"),
        ("system_tag", "system"),
        ("observation_tag", "tool"),
        ("function_tag", "tool_call"),
    ):
        if isinstance(tags.get(key), str):
            roles = {tag: mapped for tag, mapped in roles.items() if mapped != role} | {tags[key]: role}
    for role, names in (as_dict(config.get("roles")) or {}).items():
        if role in _AXOLOTL_ROLES:
            roles = {tag: mapped for tag, mapped in roles.items() if mapped != role}
            roles |= {str(name): _AXOLOTL_ROLES[role] for name in as_list(names) or [names]}
    return ConversationLayout(
        messages=str(columns.get("messages") or config.get("field_messages") or SHAREGPT.messages),
        role=str(tags.get("role_tag") or mappings.get("role") or SHAREGPT.role),
        content=str(tags.get("content_tag") or mappings.get("content") or SHAREGPT.content),
        system=str(columns["system"]) if "system" in columns else SHAREGPT.system,
        tools=str(columns["tools"]) if "tools" in columns else SHAREGPT.tools,
        roles=roles,
    )


_OWN_COLUMNS: Final[Mapping[str, tuple[str, ...]]] = {
    "trl-prompt-completion": ("prompt", "completion", "tools"),
    "verifiers": ("prompt", "completion"),
    "trl-preference": ("prompt", "chosen", "rejected", "tools"),
    "openai-dpo": ("input", "preferred_output", "non_preferred_output"),
    "preference": ("prompt", "chosen", "rejected"),
}


def own_columns(dialect: str, layout: ConversationLayout = SHAREGPT) -> tuple[str, ...]:
    """The columns a dialect's row holds the conversation in."""
    if dialect in ("sharegpt", "sharegpt-preference"):
        columns = (layout.messages, layout.system, layout.tools)
        sides = ("chosen", "rejected") if dialect == "sharegpt-preference" else ()
        return tuple(column for column in (*columns, *sides) if column)
    return _OWN_COLUMNS[dialect]


def extra_columns(row: Mapping[str, Any], dialect: str, layout: ConversationLayout = SHAREGPT) -> list[str]:
    """The row's columns the dialect does not own."""
    owned = own_columns(dialect, layout)
    return [column for column in row if column not in owned]


def column_losses(row: Mapping[str, Any], dialect: str, target: str, layout: ConversationLayout) -> list[Loss]:
    """A ``metadata`` loss for each column of ``row`` another dialect has no place for."""
    return [
        Loss(f"$.{column}", f"{dialect} column", f"{target} rows have no place for it", "metadata")
        for column in extra_columns(row, dialect, layout)
    ]


def _messages(value: object, path: str) -> list[Any]:
    messages = as_list(value)
    if messages is None:
        text = " (text is TRL's standard form, which is no conversation)" if isinstance(value, str) else ""
        raise TrainingRowError(f"expected a list of messages{text}", path)
    return messages


# --- conversations ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReadConversation:
    """A conversation row read: the body to convert, and where its prompt ended."""

    body: dict[str, Any]
    """A request body (``messages``, ``tools``) in :data:`READ_AS`'s shapes."""
    prompt_length: int | None = None
    """How many messages the row's ``prompt`` held (prompt/completion dialects)."""


def read_conversation(row: Mapping[str, Any], dialect: str, layout: ConversationLayout = SHAREGPT) -> ReadConversation:
    """The conversation of a ``dialect`` row, as a request body."""
    if dialect == "sharegpt":
        return ReadConversation(_read_sharegpt(row, layout))
    prompt = _messages(row.get("prompt"), "$.prompt")
    completion = _messages(row.get("completion"), "$.completion")
    body: dict[str, Any] = {"messages": [*prompt, *completion]}
    if dialect == "trl-prompt-completion" and row.get("tools") is not None:
        body["tools"] = row["tools"]
    return ReadConversation(body, len(prompt))


def write_conversation(
    body: Mapping[str, Any],
    dialect: str,
    layout: ConversationLayout = SHAREGPT,
    *,
    prompt_length: int | None = None,
    losses: list[Loss],
) -> dict[str, Any]:
    """A ``dialect`` row from a :data:`WRITTEN_FROM` request body."""
    messages = _messages(body.get("messages"), "$.messages")
    if dialect == "sharegpt":
        return _write_sharegpt(body, messages, layout, losses)
    split = prompt_length if prompt_length is not None else _completion_start(messages)
    prompt, completion = messages[:split], messages[split:]
    if dialect == "verifiers":
        prompt, completion = [_flat_calls(message) for message in prompt], [_flat_calls(m) for m in completion]
    row: dict[str, Any] = {"prompt": prompt, "completion": completion}
    if dialect == "trl-prompt-completion" and body.get("tools"):
        row["tools"] = body["tools"]
    elif body.get("tools"):
        losses.append(Loss("$.tools", "tools", f"{dialect} rows keep no tools", "content"))
    return row


def _completion_start(messages: Sequence[Any]) -> int:
    """Where the completion starts: after the last user (or system) message."""
    for index in range(len(messages) - 1, -1, -1):
        message = as_dict(messages[index])
        if message is not None and message.get("role") in ("user", "system"):
            return index + 1
    return 0


def _flat_calls(message: Any) -> Any:
    """An OpenAI assistant message with Verifiers' flat calls (``{id, name, arguments}``)."""
    fields = as_dict(message)
    calls = None if fields is None else as_list(fields.get("tool_calls"))
    if fields is None or calls is None:
        return message
    flat: list[dict[str, Any]] = []
    for call in calls:
        function = as_dict((as_dict(call) or {}).get("function")) or {}
        flat.append(
            {
                "id": (as_dict(call) or {}).get("id"),
                "name": function.get("name"),
                "arguments": function.get("arguments"),
            }
        )
    return {**fields, "tool_calls": flat}


_SYNTHETIC_ID = "sharegpt_call_"
"""The prefix of the call ids made up for a ShareGPT row, which has none."""


def _read_sharegpt(row: Mapping[str, Any], layout: ConversationLayout) -> dict[str, Any]:
    entries = _messages(row.get(layout.messages), f"$.{layout.messages}")
    messages: list[dict[str, Any]] = []
    system = row.get(layout.system) if layout.system else None
    if isinstance(system, str) and system:
        messages.append({"role": "system", "content": system})
    pending: list[str] = []
    for index, entry in enumerate(entries):
        path = f"$.{layout.messages}[{index}]"
        fields = as_dict(entry)
        if fields is None:
            raise TrainingRowError("expected a message object", path)
        tag, value = fields.get(layout.role), fields.get(layout.content)
        role = layout.roles.get(tag) if isinstance(tag, str) else None
        if role is None:
            known = ", ".join(layout.roles)
            raise TrainingRowError(f"{tag!r} is no role this layout names ({known})", f"{path}.{layout.role}")
        if not isinstance(value, str):
            raise TrainingRowError("expected text", f"{path}.{layout.content}")
        if role == "tool_call":
            calls = _calls(value, f"{path}.{layout.content}", len(messages))
            pending.extend(call["id"] for call in calls)
            messages.append({"role": "assistant", "content": None, "tool_calls": calls})
        elif role == "tool":
            if not pending:
                raise TrainingRowError("an observation answers no function call", path, "training_orphan_result")
            messages.append({"role": "tool", "tool_call_id": pending.pop(0), "content": value})
        else:
            messages.append({"role": role, "content": value})
    body: dict[str, Any] = {"messages": messages}
    tools = row.get(layout.tools) if layout.tools else None
    if isinstance(tools, str) and tools:
        body["tools"] = [{"type": "function", "function": tool} for tool in _json_list(tools, f"$.{layout.tools}")]
    return body


def _json_list(text: str, path: str) -> list[Any]:
    try:
        value: object = json.loads(text)
    except ValueError:
        raise TrainingRowError("expected JSON text", path) from None
    listed = as_list(value)
    return listed if listed is not None else [value]


def _calls(text: str, path: str, index: int) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []
    for number, call in enumerate(_json_list(text, path)):
        fields = as_dict(call)
        if fields is None or not isinstance(fields.get("name"), str):
            raise TrainingRowError("expected a call {name, arguments}", path)
        arguments = fields.get("arguments", {})
        calls.append(
            {
                "id": f"{_SYNTHETIC_ID}{index}_{number}",
                "type": "function",
                "function": {"name": fields["name"], "arguments": json.dumps(arguments, ensure_ascii=False)},
            }
        )
    return calls


def _write_sharegpt(
    body: Mapping[str, Any], messages: list[Any], layout: ConversationLayout, losses: list[Loss]
) -> dict[str, Any]:
    entries: list[dict[str, Any]] = []
    system: str | None = None
    for index, message in enumerate(messages):
        fields = as_dict(message) or {}
        role, content = fields.get("role"), fields.get("content")
        path = f"$.messages[{index}]"
        if role in ("system", "developer") and index == 0 and layout.system and isinstance(content, str):
            system = content
            continue
        if not (content is None or isinstance(content, str)):
            raise TrainingRowError(f"{layout.messages} rows hold text only, not content parts", f"{path}.content")
        calls = as_list(fields.get("tool_calls")) or []
        if content or not calls:
            entries.append({layout.role: layout.tag_of(str(role)), layout.content: content or ""})
        if calls:
            entries.append({layout.role: layout.tag_of("tool_call"), layout.content: _calls_text(calls, path, losses)})
    row: dict[str, Any] = {layout.messages: entries}
    if system is not None and layout.system:
        row[layout.system] = system
    tools = as_list(body.get("tools"))
    if tools and layout.tools:
        functions = [(as_dict(tool) or {}).get("function") for tool in tools]
        row[layout.tools] = json.dumps(functions, ensure_ascii=False)
    return row


def _calls_text(calls: list[Any], path: str, losses: list[Loss]) -> str:
    written: list[dict[str, Any]] = []
    for number, call in enumerate(calls):
        fields = as_dict(call) or {}
        function = as_dict(fields.get("function")) or {}
        call_id = fields.get("id")
        if isinstance(call_id, str) and not call_id.startswith(_SYNTHETIC_ID):
            why = "ShareGPT calls have no id: results answer calls in order"
            losses.append(Loss(f"{path}.tool_calls[{number}].id", "tool call id", why, "metadata"))
        try:
            arguments = json.loads(function.get("arguments") or "{}")
        except ValueError:
            raise TrainingRowError("arguments are not JSON", f"{path}.tool_calls[{number}]") from None
        written.append({"name": function.get("name"), "arguments": arguments})
    return json.dumps(written[0] if len(written) == 1 else written, ensure_ascii=False)


# --- preference pairs ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PreferencePair:
    """A prompt and two completions, each in one format."""

    prompt: dict[str, Any]
    """The prompt as a request body (``messages``, ``tools``, settings)."""
    chosen: list[Any]
    """The preferred completion's messages."""
    rejected: list[Any]
    """The other completion's messages."""
    implicit: bool = False
    """The row gave no prompt: each side is the whole conversation (TRL's implicit prompt)."""


def read_pair(row: Mapping[str, Any], dialect: str, layout: ConversationLayout = SHAREGPT) -> PreferencePair:
    """The pair of a pair dialect's row (``preference``: canonical data; else OpenAI shapes)."""
    if dialect == "openai-dpo":
        prompt = as_dict(row.get("input"))
        if prompt is None:
            raise TrainingRowError("expected the prompt object", "$.input")
        chosen, rejected = row.get("preferred_output"), row.get("non_preferred_output")
        return PreferencePair(
            prompt, _messages(chosen, "$.preferred_output"), _messages(rejected, "$.non_preferred_output")
        )
    if dialect == "sharegpt-preference":
        chosen = _sharegpt_answer(row.get("chosen"), "$.chosen", layout)
        return PreferencePair(
            _read_sharegpt(row, layout), chosen, _sharegpt_answer(row.get("rejected"), "$.rejected", layout)
        )
    chosen, rejected = _messages(row.get("chosen"), "$.chosen"), _messages(row.get("rejected"), "$.rejected")
    if dialect == "trl-preference" and "prompt" not in row:  # TRL's implicit prompt: the shared start
        shared = next(
            (index for index, (one, other) in enumerate(zip(chosen, rejected, strict=False)) if one != other),
            min(len(chosen), len(rejected)),
        )
        return PreferencePair({"messages": chosen[:shared]}, chosen[shared:], rejected[shared:], implicit=True)
    if dialect == "preference":
        prompt = as_dict(row.get("prompt"))
        if prompt is None:
            raise TrainingRowError("expected a canonical request", "$.prompt")
    else:
        prompt = {"messages": _messages(row.get("prompt"), "$.prompt")}
        if row.get("tools") is not None:
            prompt["tools"] = row["tools"]
    return PreferencePair(prompt, chosen, rejected)


def _sharegpt_answer(value: object, path: str, layout: ConversationLayout) -> list[Any]:
    """LLaMA-Factory's ``chosen``/``rejected``: one assistant message ``{from, value}``."""
    fields = as_dict(value)
    if fields is None or fields.get(layout.role) != layout.tag_of("assistant"):
        raise TrainingRowError(f"expected an assistant message ({layout.role}: {layout.tag_of('assistant')!r})", path)
    text = fields.get(layout.content)
    if not isinstance(text, str):
        raise TrainingRowError("expected text", f"{path}.{layout.content}")
    return [{"role": "assistant", "content": text}]


def write_pair(
    pair: PreferencePair, dialect: str, losses: list[Loss], layout: ConversationLayout = SHAREGPT
) -> dict[str, Any]:
    """A pair dialect's row from a pair in its format (see :func:`read_pair`)."""
    if dialect == "openai-dpo":
        return {"input": pair.prompt, "preferred_output": pair.chosen, "non_preferred_output": pair.rejected}
    if dialect == "preference":
        return {"prompt": pair.prompt, "chosen": pair.chosen, "rejected": pair.rejected}
    if dialect == "sharegpt-preference":
        messages = _messages(pair.prompt.get("messages"), "$.prompt.messages")
        row = _write_sharegpt(pair.prompt, messages, layout, losses)
        for side, answer in (("chosen", pair.chosen), ("rejected", pair.rejected)):
            text = _only_text_answer(answer, f"$.{side}", layout)
            row[side] = {layout.role: layout.tag_of("assistant"), layout.content: text}
        return row
    prompt = pair.prompt.get("messages", [])
    if pair.implicit:
        return {"chosen": [*prompt, *pair.chosen], "rejected": [*prompt, *pair.rejected]}
    row = {"prompt": prompt, "chosen": pair.chosen, "rejected": pair.rejected}
    for key, value in pair.prompt.items():
        if key == "tools":
            row["tools"] = value
        elif key != "messages":
            losses.append(Loss(f"$.prompt.{key}", key, f"{dialect} rows keep no request settings", "setting"))
    return row


def _only_text_answer(answer: list[Any], path: str, layout: ConversationLayout) -> str:
    message = as_dict(answer[0]) if len(answer) == 1 else None
    content = None if message is None else message.get("content")
    if (
        message is None
        or message.get("role") != "assistant"
        or not isinstance(content, str)
        or message.get("tool_calls")
    ):
        raise TrainingRowError(f"{layout.messages} preference rows hold one assistant text answer per side", path)
    return content


def with_empty_fields(original: Mapping[str, Any], written: Mapping[str, Any]) -> dict[str, Any]:
    """``written`` with the empty fields of ``original`` it lacks, in their places: a codec
    drops a value equal to its default (OpenAI DPO's documented ``"tools": []``), which the
    same dialect written again keeps."""
    if all(key in written for key in original):
        return dict(written)
    merged = {
        key: written.get(key, value) for key, value in original.items() if key in written or value in ([], {}, None)
    }
    return merged | {key: value for key, value in written.items() if key not in merged}


def pair_part_format(dialect: str) -> str:
    """The format a pair dialect's parts are written in."""
    return "canonical" if dialect == "preference" else WRITTEN_FROM
