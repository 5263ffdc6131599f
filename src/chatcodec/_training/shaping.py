"""Canonical messages in the shapes one chat template reads, every drop a loss at its path.

A template renders nothing for a key it does not read and nothing for a part it does not
know: content given as a list to a template that takes a string renders an empty turn,
reasoning under a key it does not read renders an answer without it, and no error is
raised. So the shape comes from the template's :class:`~chatcodec._training.profile.TemplateProfile`,
and whatever that shape cannot hold is recorded (``LossRecorder``, paths in the canonical
messages: ``$.messages[3].content[1]``) instead of passed on to be silently skipped.

Call arguments are the model's own text wherever the template takes text (Qwen3 writes a
string as it is); where it takes only an object, the object is given and a loss says when the
template's ``tojson`` will not write back the text the model sampled (key order, spacing,
escapes), the commonest way training and inference come to disagree. Where the source held the
arguments as an object (Anthropic's ``input``, a TRL row's ``arguments``), their text is
chatcodec's compact spelling, not the model's: the object is given to a template that takes one
(Qwen3's ``tojson`` branch writes ``{"a": 1}``, as for a TRL row), and written as ``json.dumps``
spaces it for a template that takes only text.

A call id made up in reading (a Hugging Face row's calls have none) is left out again, so the
template sees the row as TRL passes it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, cast

from chatcodec import (
    AnyMessage,
    AssistantMessage,
    ImagePart,
    LossKind,
    SystemMessage,
    TextPart,
    ThinkingPart,
    ToolDefinition,
    ToolMessage,
    ToolUsePart,
    UserMessage,
)
from chatcodec._narrow import as_dict
from chatcodec._providers.kit.provider_kit import pure_spelling
from chatcodec._row_dialects.chat_template_calls import is_made_up
from chatcodec._training.errors import TemplateError
from chatcodec._training.profile import TemplateProfile
from chatcodec._training.summaries import summaries_beside_raw
from chatcodec.codec_kit import compact_json, deeper_than, json_path
from chatcodec.contract import LossRecorder, Steps

ARGUMENT_DEPTH = 128
"""How deep a call's arguments may nest for a template taking them as an object: twice the
deepest tool schema chatcodec takes (``kit.schema_walk.MAX_DEPTH``), and far from Python's
recursion limit, which the template's ``tojson`` and ``json.loads`` meet near a thousand."""
_TOO_DEEP = object()


class Shaper:
    """Writes canonical messages for one profile, recording what it cannot carry."""

    def __init__(self, profile: TemplateProfile, losses: LossRecorder, *, object_arguments: bool = False) -> None:
        self.profile = profile
        self.losses = losses
        self.object_arguments = object_arguments
        """Whether the source gave arguments as objects (their canonical text is chatcodec's)."""
        self.lost: set[str] = set()
        """The canonical paths of what was reported (``$.messages[1].content``), so a later
        check does not report the same drop again."""
        self.marks: list[int] = []
        """How many losses were recorded once each canonical message was shaped: a shorter
        conversation's shaping reports the losses before its mark (shaping reads no later message)."""
        self.call_names: dict[str, str] = {}
        self.dropped_calls: set[str] = set()
        self.images: list[tuple[Steps, ImagePart]] = []
        """Each image part given to the template, at its path, in the order it renders them."""

    def _lose(self, path: Steps, what: str, why: str, kind: LossKind = "content") -> None:
        self.lost.add(json_path(path))
        self.losses.add(path, what, why, kind)

    def tools(self, tools: Sequence[ToolDefinition]) -> list[dict[str, Any]]:
        """Tool definitions as ``get_json_schema`` gives them to a template."""
        if tools and not self.profile.tools:
            self._lose(("tools",), "tool definitions", "the chat template renders no tool definitions")
        written: list[dict[str, Any]] = []
        for index, tool in enumerate(tools):
            function: dict[str, Any] = {"name": tool.name}
            if tool.description is not None:
                function["description"] = tool.description
            function["parameters"] = tool.parameters
            for field in ("strict", "cache_control", "provider_metadata"):
                if getattr(tool, field) is not None:
                    self._lose(("tools", index, field), field, "a chat template has no such setting", "metadata")
            written.append({"type": "function", "function": function})
        return written

    def messages(self, messages: Sequence[AnyMessage]) -> tuple[list[dict[str, Any]], list[int]]:
        """The template's messages and, for each, the index of the canonical message it came
        from (a tool message of several results is one template message per result)."""
        written: list[dict[str, Any]] = []
        origins: list[int] = []
        count, marks = self.losses.count, self.marks
        for index, message in enumerate(messages):
            if message.name is not None or message.cache_control is not None or message.provider_metadata is not None:
                self._message_fields(message, index)  # the common message has nothing beside its role and content
            for shaped in self._message(message, index):
                written.append(shaped)
                origins.append(index)
            marks.append(count())
        return written, origins

    def _message_fields(self, message: AnyMessage, index: int) -> None:
        for field in ("name", "cache_control", "provider_metadata"):
            value = getattr(message, field, None)
            if value is not None and not (field == "provider_metadata" and _spelling(value)):
                self._lose(("messages", index, field), field, "a chat template reads no such field", "metadata")

    def _message(self, message: AnyMessage, index: int) -> list[dict[str, Any]]:
        if isinstance(message, SystemMessage):
            if message.role == "developer":
                self._lose(("messages", index, "role"), "developer role", "written as the system role", "spelling")
            return [{"role": "system", "content": self._content(message.content, index)}]
        if isinstance(message, UserMessage):
            return [{"role": "user", "content": self._content(message.content, index)}]
        if isinstance(message, AssistantMessage):
            return [self._assistant(message, index)]
        if isinstance(message, ToolMessage):
            return self._results(message, index)
        self._lose(("messages", index), f"{message.role} message", "a chat template has no such role")
        return []

    def _content(self, content: str | Sequence[Any], index: int) -> str | list[dict[str, Any]]:
        """A user or system message's content: one string, or the parts the template renders."""
        if isinstance(content, str):
            return content if self.profile.content == "text" else [{"type": "text", "text": content}]
        texts, parts = self._shown_parts(content, ("messages", index, "content"))
        if self.profile.content == "text":
            return "\n".join(texts)
        return parts

    def _shown_parts(self, content: Sequence[Any], path: Steps) -> tuple[list[str], list[dict[str, Any]]]:
        """The texts of ``content`` and its parts as the template takes them (text, and images
        where it shows them); any other part is a loss at ``path`` + its position."""
        texts: list[str] = []
        parts: list[dict[str, Any]] = []
        for position, part in enumerate(content):
            part_path: Steps = (*path, position)
            if isinstance(part, TextPart):
                self._part_fields(part, part_path)
                texts.append(part.text)
                parts.append({"type": "text", "text": part.text})
            elif isinstance(part, ImagePart) and self.profile.images:
                self._part_fields(part, part_path)
                parts.append({"type": "image", "image": _image_reference(part)})
                self.images.append((part_path, part))
            else:
                self._lost_part(part, part_path)
        return texts, parts

    def _part_fields(self, part: Any, path: Steps, *, name: str | None = None) -> None:
        """Report the fields of ``part`` a template reads nowhere (a bag holding only the spelling
        of a field, or a result's tool ``name`` the template is given, is not lost)."""
        # read from the model's fields: asking a model without the field costs pydantic an error raised and caught
        fields = cast("dict[str, Any]", vars(part))
        if fields.get("cache_control") is not None:
            self._lose((*path, "cache_control"), "cache_control", "a chat template reads no such field", "metadata")
        metadata = fields.get("provider_metadata")
        if metadata is not None and not _spelling(metadata) and not _holds_only_name(metadata, name):
            self._lose(
                (*path, "provider_metadata"), "provider_metadata", "a chat template reads no such field", "metadata"
            )
        if fields.get("citations"):
            self._lose((*path, "citations"), "citations", "a chat template renders no citations", "metadata")

    def _lost_part(self, part: Any, path: Steps) -> None:
        kind = getattr(part, "type", type(part).__name__)
        why = (
            "the chat template renders no images"
            if kind == "image"
            else f"the chat template renders no {kind} part in this place"
        )
        self._lose(path, f"{kind} part", why)

    def _assistant(self, message: AssistantMessage, index: int) -> dict[str, Any]:
        content = message.content
        if isinstance(content, str):
            return {"role": "assistant", "content": content}
        texts: list[str] = []
        reasoning: list[str] = []
        calls: list[dict[str, Any]] = []
        text_after_call = False
        summaries = summaries_beside_raw(content)
        for position, part in enumerate(content):
            path: Steps = ("messages", index, "content", position)
            if isinstance(part, TextPart):
                self._part_fields(part, path)
                texts.append(part.text)
                text_after_call = text_after_call or bool(calls)
            elif position in summaries:
                why = "the model sampled the raw reasoning its item also holds; the summary is not text it wrote"
                self._lose(path, "reasoning summary", why)
            elif isinstance(part, ThinkingPart):
                self._thinking(part, path, reasoning)
            elif isinstance(part, ToolUsePart):
                self._part_fields(part, path)
                call = self._call(part, path, len(calls))
                if call is not None:
                    calls.append(call)
            else:
                self._lost_part(part, path)
        if text_after_call:
            self._lose(
                ("messages", index, "content"),
                "text after a call",
                "a chat template writes a turn's text before its calls",
            )
        shaped: dict[str, Any] = {"role": "assistant", "content": "\n".join(texts)}
        if reasoning and self.profile.reasoning_key is not None:
            shaped[self.profile.reasoning_key] = "\n".join(reasoning)
        if calls:
            shaped["tool_calls"] = calls
            if reasoning and shaped["content"] and "content_beside_thinking_in_calls" in self.profile.refusals:
                self._lose(
                    ("messages", index, "content"),
                    "text beside reasoning in a calling turn",
                    "the chat template refuses both in one turn with calls; the reasoning is kept",
                )
                shaped["content"] = ""
        return shaped

    def _thinking(self, part: ThinkingPart, path: Steps, reasoning: list[str]) -> None:
        if self.profile.reasoning_key is None:
            self._lose(path, "thinking part", "the chat template renders no reasoning")
            return
        if part.redacted or (part.encrypted is not None and not part.text):
            self._lose(path, "redacted thinking", "only the provider can read it; a template renders text")
            return
        if part.signature or part.encrypted is not None:  # an empty signature holds nothing to drop
            self._lose(path, "thinking signature", "a chat template renders the reasoning's text alone", "metadata")
        self._part_fields(part, path)
        reasoning.append(part.text)

    def _call(self, part: ToolUsePart, path: Steps, count: int) -> dict[str, Any] | None:
        self.call_names[part.id] = part.name
        if self.profile.arguments is None:
            self._lose(path, "tool call", "the chat template renders no calls")
            self.dropped_calls.add(part.id)
            return None
        if part.kind != "function":
            self._lose(path, f"{part.kind} tool call", "a chat template writes function calls alone")
            self.dropped_calls.add(part.id)
            return None
        if count and "one_call_per_turn" in self.profile.refusals:
            self._lose(path, "tool call", "the chat template refuses more than one call in a turn")
            self.dropped_calls.add(part.id)
            return None
        function = {"name": part.name, "arguments": self._arguments(part, path)}
        if is_made_up(part.id):
            return {"type": "function", "function": function}
        return {"id": part.id, "type": "function", "function": function}

    def _arguments(self, part: ToolUsePart, path: Steps) -> object:
        if self.profile.arguments == "text":
            return self._object_spelled(part.arguments) if self.object_arguments else part.arguments
        try:
            value: Any = json.loads(part.arguments or "{}")
        except ValueError:
            value = None
        except RecursionError:
            value = _TOO_DEEP
        if value is _TOO_DEEP or deeper_than(value, ARGUMENT_DEPTH):
            raise TemplateError(
                f"the call's arguments nest more than {ARGUMENT_DEPTH} levels deep: the chat template takes them as "
                "an object and writes it with recursive filters (tojson), which cannot go that deep",
                path=json_path((*path, "arguments")),
                rule="arguments_depth",
            )
        if not isinstance(value, dict):
            self._lose(
                (*path, "arguments"),
                "arguments",
                "the chat template takes arguments as a JSON object and these are not one: written as their text",
            )
            return part.arguments
        if not self.object_arguments and part.arguments and json.dumps(value, ensure_ascii=False) != part.arguments:
            self._lose(
                (*path, "arguments"),
                "argument text",
                "the chat template writes arguments from an object (tojson), not the text the model wrote",
                "spelling",
            )
        return cast("dict[str, Any]", value)

    def _object_spelled(self, arguments: str) -> str:
        """Arguments a source held as an object, spelled as a template's ``tojson`` spells an
        object (``json.dumps``'s spacing, non-ASCII kept) rather than chatcodec's compact text;
        any other text (the model's own, kept by a source that keeps text) as it is."""
        try:
            value: Any = json.loads(arguments)
        except (ValueError, RecursionError):
            return arguments
        if as_dict(value) is None or compact_json(value) != arguments:
            return arguments
        return json.dumps(value, ensure_ascii=False)

    def _results(self, message: ToolMessage, index: int) -> list[dict[str, Any]]:
        shaped: list[dict[str, Any]] = []
        for position, result in enumerate(message.content):
            path: Steps = ("messages", index, "content", position)
            if result.tool_use_id in self.dropped_calls:
                self._lose(path, "tool result", "its call could not be written")
                continue
            if not self.profile.tool_results:
                self._lose(path, "tool result", "the chat template renders no tool results")
                continue
            name = result.name or self.call_names.get(result.tool_use_id)
            self._part_fields(result, path, name=name)
            if result.is_error:
                self._lose((*path, "is_error"), "is_error", "a chat template has no error flag", "metadata")
            written: dict[str, Any] = {"role": "tool"}
            if not is_made_up(result.tool_use_id):
                written["tool_call_id"] = result.tool_use_id
            if name is not None:
                written["name"] = name
            written["content"] = self._result_content(result.content, path)
            shaped.append(written)
        return shaped

    def _result_content(self, content: str | Sequence[Any], path: Steps) -> str | list[dict[str, Any]]:
        """A result's content: its text, or its parts where the template shows images."""
        if isinstance(content, str):
            return content
        texts, parts = self._shown_parts(content, (*path, "content"))
        if self.profile.content == "parts" and self.profile.images and len(parts) > len(texts):
            return parts
        return "\n".join(texts)


def _spelling(metadata: object) -> bool:
    """Whether a provider bag holds only its reader's pure spelling (which wire field or item
    shape held the value: ``{"openai-chat": {"field": "reasoning_content"}}``, Responses'
    ``{"_item": "message"}``): the template's own shape replaces it, and nothing is lost."""
    return isinstance(metadata, dict) and pure_spelling(cast("dict[str, Any]", metadata))


def _holds_only_name(metadata: object, name: str | None) -> bool:
    """Whether a result's provider bag only keeps the tool name its format wrote beside it
    (OpenAI Chat's ``{"role": "tool", "name"}``), which the template is given as ``name``."""
    if name is None or not isinstance(metadata, dict):
        return False
    bags: dict[str, object] = cast("dict[str, object]", metadata)
    return all(bag == {"name": name} for bag in bags.values())


def _image_reference(part: ImagePart) -> str:
    """What a multimodal processor loads the image from: its URL or a data URL."""
    source = part.source
    if source.type == "url":
        return source.url
    if source.type == "base64":
        return f"data:{source.media_type};base64,{source.data}"
    return source.file_id
