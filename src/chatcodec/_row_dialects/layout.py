"""Where a training row keeps its conversation: the keys, role names and columns of a
ShareGPT-style or alpaca row, read from LLaMA-Factory's or axolotl's dataset configuration.

LLaMA-Factory's ``dataset_info.json`` entry names a row's ``columns`` (``messages``,
``system``, ``tools``, ``images``; alpaca's ``prompt``, ``query``, ``response``,
``history``) and, for ShareGPT rows, its ``tags`` (role and content keys, role names):
https://github.com/hiyouga/LLaMA-Factory/blob/main/data/README.md. axolotl's
``chat_template`` dataset names ``field_messages``, ``message_property_mappings``,
``roles`` and ``message_field_training``, and when ``roles`` is not written reads the
defaults ``user: [human, user]``, ``assistant: [gpt, assistant]``, ``system: [system]``,
``tool: [tool]`` (https://docs.axolotl.ai/docs/dataset-formats/conversation.html and the
config reference, https://docs.axolotl.ai/docs/config-reference.html).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from chatcodec._errors import PayloadError
from chatcodec._narrow import as_dict, as_list


class TrainingRowError(PayloadError):
    """A row is not in the training dialect it was said to be in."""

    def __init__(self, message: str, path: str = "$", rule: str = "training_row") -> None:
        super().__init__(f"{message} [rule: {rule}]", path)
        self.rule = rule
        """The rule broken, as data."""


def _sharegpt_roles() -> dict[str, str]:
    return {
        "human": "user",
        "gpt": "assistant",
        "system": "system",
        "observation": "tool",
        "function_call": "tool_call",
    }


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
    """The column holding the system prompt, if any (without one, a system prompt is the
    first turn)."""
    tools: str | None = "tools"
    """The column holding the tools as JSON text, if any."""
    images: str | None = "images"
    """The column holding the row's images (paths or URLs), one for each ``<image>`` in
    the turns, in order (LLaMA-Factory's multimodal rows)."""
    prompt: str = "instruction"
    """An alpaca row's instruction column (LLaMA-Factory's ``columns.prompt``)."""
    query: str | None = "input"
    """An alpaca row's input column, joined to the instruction by a newline (``columns.query``)."""
    response: str = "output"
    """An alpaca row's answer column (``columns.response``)."""
    history: str | None = "history"
    """An alpaca row's earlier ``[instruction, answer]`` pairs (``columns.history``)."""
    training: str | None = None
    """A turn's key saying whether to train on it (axolotl's ``message_field_training``),
    if the layout has one: OpenAI's per-message ``weight`` (0 or 1) is written there."""
    roles: Mapping[str, str] = field(default_factory=_sharegpt_roles)
    """The row's role name -> ``user``, ``assistant``, ``system``, ``tool`` (a result) or
    ``tool_call`` (an assistant turn of calls, its value ``{"name", "arguments"}`` as JSON
    text, or a list of them)."""

    def tag_of(self, role: str) -> str:
        """The row's name for a role (the first that maps to it)."""
        return next((tag for tag, mapped in self.roles.items() if mapped == role), role)


SHAREGPT: Final = ConversationLayout()
"""LLaMA-Factory's ShareGPT layout (its README's example entry)."""

AXOLOTL_ROLES: Final[Mapping[str, tuple[str, ...]]] = {
    "user": ("user", "human"),
    "assistant": ("assistant", "gpt"),
    "system": ("system",),
    "tool": ("tool",),
}
"""axolotl's ``roles`` when a ``chat_template`` dataset does not write them out (its
documentation lists ``[human, user]``; a row is written with OpenAI's name, the first here)."""

_AXOLOTL_KEYS = frozenset({"field_messages", "message_property_mappings", "roles", "message_field_training"})


def layout_from_config(config: Mapping[str, Any]) -> ConversationLayout:
    """A layout from LLaMA-Factory's dataset entry (``columns``, ``tags``) or axolotl's
    ``chat_template`` keys (``field_messages``, ``message_property_mappings``, ``roles``,
    ``message_field_training``)."""
    if not _AXOLOTL_KEYS.isdisjoint(config) or config.get("type") == "chat_template":
        return _axolotl_layout(config)
    columns = as_dict(config.get("columns")) or {}
    tags = as_dict(config.get("tags")) or {}
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
    # LLaMA-Factory's columns default to None but ``messages``: an entry naming its
    # columns without ``system`` keeps the system prompt as the first turn.
    return ConversationLayout(
        messages=str(columns.get("messages") or SHAREGPT.messages),
        role=str(tags.get("role_tag") or SHAREGPT.role),
        content=str(tags.get("content_tag") or SHAREGPT.content),
        system=_column(columns, "system") if columns else SHAREGPT.system,
        tools=_column(columns, "tools") if columns else SHAREGPT.tools,
        images=_column(columns, "images") if columns else SHAREGPT.images,
        prompt=str(columns.get("prompt") or SHAREGPT.prompt),
        query=str(columns.get("query") or SHAREGPT.query),
        response=str(columns.get("response") or SHAREGPT.response),
        history=_column(columns, "history") if columns else SHAREGPT.history,
        roles=roles,
    )


def _column(columns: Mapping[str, Any], name: str) -> str | None:
    value = columns.get(name)
    return str(value) if value else None


def _names(value: object) -> list[object]:
    listed = as_list(value)
    return list(listed) if listed is not None else [value]


def _axolotl_layout(config: Mapping[str, Any]) -> ConversationLayout:
    """axolotl's ``chat_template`` dataset: OpenAI's keys and roles unless mapped."""
    mappings = as_dict(config.get("message_property_mappings")) or {}
    written = as_dict(config.get("roles"))
    named: dict[str, list[object]] = {role: list(names) for role, names in AXOLOTL_ROLES.items()}
    if written is not None:
        named = {str(role): _names(names) for role, names in written.items()}
    roles: dict[str, str] = {}
    for role, names in named.items():
        if role in AXOLOTL_ROLES:
            roles |= {str(name): role for name in names}
    training = config.get("message_field_training")
    return ConversationLayout(
        messages=str(config.get("field_messages") or "messages"),
        role=str(mappings.get("role") or "role"),
        content=str(mappings.get("content") or "content"),
        system=None,
        tools=None,
        images=None,
        training=str(training) if training else None,
        roles=roles,
    )
