"""OpenHands' string-or-list content rule, by the target model's capabilities.

OpenHands (``openhands/core/message.py``, ``Message.serialize_model``) sends content as a
list of parts only when the model uses prompt caching, vision or native function calling;
otherwise as one string, because some servers (Hugging Face, Groq's Llama) take no list:

- string form (``_string_serializer``): the text parts joined with ``"\\n"``; images and
  cache markers are dropped; an assistant's tool calls still go beside the content;
- list form (``_list_serializer``): every part, images only when vision is on.

:class:`ContentRule` applies that rule to canonical messages. What the target cannot
carry (an image without vision, a cache marker or a document in a string, the boundaries
between joined text parts) is a :class:`~chatcodec.Loss`, never a silent drop. Use it on
canonical dumps (:meth:`ContentRule.dump`) or on encoding (``encode_request(...,
content_rule=...)``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, assert_never

from chatcodec._losses import Loss, LossRecorder, OnLoss
from chatcodec._model.content import (
    AudioPart,
    DocumentPart,
    ImagePart,
    OpaquePart,
    RefusalPart,
    TextPart,
    ThinkingPart,
    ToolResultPart,
    ToolUsePart,
    VideoPart,
)
from chatcodec._model.messages import AnyMessage, AssistantMessage, SystemMessage, TextMessage, ToolMessage, UserMessage
from chatcodec._public_label import shown_as
from chatcodec._validation import dump_messages

if TYPE_CHECKING:
    from chatcodec._model.canonical_types import MessageData

_BESIDE_CONTENT = (ThinkingPart, ToolUsePart)
"""Assistant parts a chat format keeps in fields of their own, beside a string content."""


@dataclass(frozen=True, slots=True)
class ContentRule:
    """The target model's capabilities, OpenHands' ``Message`` flags."""

    cache: bool = False
    """Prompt caching is on (``cache_enabled``): the list form, to carry cache markers."""
    vision: bool = False
    """The model sees images (``vision_enabled``); without it, images are dropped."""
    function_calling: bool = False
    """Native tool calls (``function_calling_enabled``): the list form."""

    @property
    def form(self) -> Literal["list", "string"]:
        """``list`` when any capability needs it, else ``string`` (OpenHands' rule)."""
        return "list" if self.cache or self.vision or self.function_calling else "string"

    def apply(self, messages: list[AnyMessage], losses: LossRecorder) -> list[AnyMessage]:
        """``messages`` in this rule's form; what does not fit is recorded in ``losses``."""
        return [self._message(message, f"$[{index}]", losses) for index, message in enumerate(messages)]

    def dump(
        self, messages: list[AnyMessage], *, on_loss: OnLoss = "warn", losses: list[Loss] | None = None
    ) -> list[MessageData]:
        """Canonical JSON of ``messages`` in this rule's form (the losses are settled by
        ``on_loss`` and put in ``losses``, as encoders do)."""
        recorder = LossRecorder()
        shaped = self.apply(messages, recorder)
        recorder.settle(on_loss, losses)
        return dump_messages(shaped, context={"content_form": self.form})

    def _message(self, message: AnyMessage, at: str, losses: LossRecorder) -> AnyMessage:
        match message:
            case SystemMessage() | UserMessage():
                content = self._content(message.content, f"{at}.content", losses)
                return message.model_copy(update={"content": content})
            case AssistantMessage():
                return message.model_copy(update={"content": self._assistant(message, at, losses)})
            case ToolMessage():
                results = [
                    self._result(result, f"{at}.content[{index}]", losses)
                    for index, result in enumerate(message.content)
                ]
                return message.model_copy(update={"content": results})
            case TextMessage():
                return message
            case _:
                assert_never(message)

    def _result(self, result: ToolResultPart, at: str, losses: LossRecorder) -> ToolResultPart:
        return result.with_content(self._content(result.content, f"{at}.content", losses))

    def _assistant(self, message: AssistantMessage, at: str, losses: LossRecorder) -> Any:
        if isinstance(message.content, str) or self.form == "list":
            return self._content(message.content, f"{at}.content", losses)
        beside = [part for part in message.content if isinstance(part, _BESIDE_CONTENT)]
        rest = [part for part in message.content if not isinstance(part, _BESIDE_CONTENT)]
        text = self._content(rest, f"{at}.content", losses)
        if not beside:
            return text
        thinking = [part for part in beside if isinstance(part, ThinkingPart)]
        calls = [part for part in beside if isinstance(part, ToolUsePart)]
        return [*thinking, *([TextPart(text=text)] if text else []), *calls]

    def _content(self, content: Any, at: str, losses: LossRecorder) -> Any:
        if isinstance(content, str):
            return ([TextPart(text=content)] if content else []) if self.form == "list" else content
        kept = [part for index, part in enumerate(content) if self._keeps(part, f"{at}[{index}]", losses)]
        if self.form == "list":
            return kept
        texts = [part for part in kept if isinstance(part, TextPart)]
        for index, part in enumerate(content):
            if isinstance(part, TextPart) and part.cache_control is not None:
                losses.add(f"{at}[{index}].cache_control", "cache marker", "string content has no cache markers")
        if len(texts) > 1:
            losses.add(at, f"{len(texts)} text parts", "joined with '\\n' into one string (OpenHands' string form)")
        return "\n".join(part.text for part in texts)

    def _keeps(self, part: Any, at: str, losses: LossRecorder) -> bool:
        """Whether ``part`` stays; a part the target cannot take is a loss."""
        if isinstance(part, TextPart | ThinkingPart | ToolUsePart):
            return True
        if isinstance(part, ImagePart) and not self.vision:
            losses.add(at, "image", "the target model has no vision (OpenHands drops images then)")
            return False
        if self.form == "list":
            return True
        media = ImagePart | AudioPart | VideoPart | DocumentPart
        if isinstance(part, media | RefusalPart | OpaquePart | ToolResultPart):
            losses.add(at, f"{part.type} part", "string content holds only text")
            return False
        return True


shown_as("chatcodec", ContentRule)
