"""The user's prompts of a Codex rollout that holds them only in its UI events.

Codex records each prompt twice: the ``message`` item it sent (``response_item``, role
``user``) and, right after it, the UI's ``event_msg`` of type ``user_message`` (``message``,
``images``, ``local_images``). A rollout written without the user's items (a trimmed file, a
writer that keeps the events only: ``codemie-ai/codemie-code``'s held-out rollout,
``tests/fixtures/harness_sessions/SOURCES.md``) still holds the prompt in the event, and the
model was shown it: dropping it would start each turn from the model's own reasoning.

So a ``user_message`` event with no user message item read since the event before it (or
since the file's start) is the prompt, written as the Responses API's user message item; one
that follows its item repeats it and stays bookkeeping. The test is by place, not by text: a
redacted or re-rendered rollout writes the two texts differently.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chatcodec._losses import Loss
from chatcodec._narrow import as_list


@dataclass(slots=True)
class Prompts:
    """Whether a user message item came since the last ``user_message`` event."""

    user_item_since: bool = False

    def note_item(self, item: dict[str, Any]) -> None:
        """An item read into the conversation (a user message item answers the next event)."""
        if item.get("type", "message") == "message" and item.get("role") == "user":
            self.user_item_since = True

    def from_event(self, payload: dict[str, Any], at: str, losses: list[Loss]) -> dict[str, Any] | None:
        """The prompt a ``user_message`` event at ``at`` is the only record of, as a user
        message item, or None when its item came before it."""
        seen, self.user_item_since = self.user_item_since, False
        if seen:
            return None
        text = payload.get("message")
        content: list[dict[str, Any]] = []
        if isinstance(text, str) and text:
            content.append({"type": "input_text", "text": text})
        for index, image in enumerate(as_list(payload.get("images")) or []):
            if isinstance(image, str):
                content.append({"type": "input_image", "image_url": image})
            else:
                why = "an image of the prompt that is not a URL or data URL: not read"
                losses.append(Loss(f"{at}.images[{index}]", "prompt image", why, "content"))
        for index, _ in enumerate(as_list(payload.get("local_images")) or []):
            why = "a local file's path, not the image the model was shown (the rollout holds no item with it)"
            losses.append(Loss(f"{at}.local_images[{index}]", "prompt image", why, "content"))
        if not content:
            return None
        why = (
            "the user's prompt, read from the UI's user_message event: the rollout holds no user message "
            "item for it (the event's text is the prompt; its other fields are the UI's)"
        )
        losses.append(Loss(at, "prompt from its event", why, "spelling"))
        return {"type": "message", "role": "user", "content": content}
