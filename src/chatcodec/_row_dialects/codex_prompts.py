"""The user's prompts of a Codex rollout that holds them only in its UI events.

Codex records each prompt twice: the ``message`` item it sent (``response_item``, role
``user``) and the UI's ``event_msg`` of type ``user_message`` (``message``, ``images``,
``local_images``), the item first in the rollouts Codex writes (a viewer's hand-written files
put the event first). A rollout written without the user's items (a trimmed file, a writer that
keeps the events only: ``codemie-ai/codemie-code``'s held-out rollout,
``tests/fixtures/harness_sessions/SOURCES.md``) still holds the prompt in the event, and the
model was shown it: dropping it would start each turn from the model's own reasoning.

So a ``user_message`` event is the prompt unless a user message item is next to it: one read
since the event before it, or one that comes after it before anything else of the model's turn.
The test is by place, not by text: a redacted or re-rendered rollout writes the two texts
differently. An event that repeats its item is bookkeeping.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chatcodec._losses import Loss
from chatcodec._narrow import as_list
from chatcodec._row_dialects.session_lines import Bookkeeping

_WHAT = "event_msg user_message"


@dataclass(slots=True)
class Prompts:
    """The ``user_message`` events of a rollout, each read as its prompt or noted as the echo
    of its item."""

    losses: list[Loss]
    bookkeeping: Bookkeeping
    user_item_since: bool = False
    """Whether a user message item was read since the last event."""
    pending: tuple[str, dict[str, Any]] | None = None
    """An event's path and its prompt, until the next item says whether it was the only record."""

    def before(self, item: dict[str, Any] | None) -> list[dict[str, Any]]:
        """The prompt to read before ``item`` (None: the file's end): the pending event's,
        unless ``item`` is the user message item it repeats."""
        pending, self.pending = self.pending, None
        user = item is not None and item.get("type", "message") == "message" and item.get("role") == "user"
        self.user_item_since = self.user_item_since or user
        if pending is None:
            return []
        at, prompt = pending
        if user:  # the event came first; the item is its record
            self.bookkeeping.note(_WHAT, at)
            return []
        why = (
            "the user's prompt, read from the UI's user_message event: the rollout holds no user message "
            "item for it (the event's text is the prompt; its other fields are the UI's)"
        )
        self.losses.append(Loss(at, "prompt from its event", why, "spelling"))
        return [prompt]

    def event(self, payload: dict[str, Any], at: str) -> list[dict[str, Any]]:
        """A ``user_message`` event at ``at``: the prompt an earlier event left pending (read now:
        no item came for it), and this event's own, pending until the next item."""
        earlier = self.before(None)
        seen, self.user_item_since = self.user_item_since, False
        prompt = None if seen else self._prompt(payload, at)
        if prompt is None:
            self.bookkeeping.note(_WHAT, at)
        else:
            self.pending = (at, prompt)
        return earlier

    def _prompt(self, payload: dict[str, Any], at: str) -> dict[str, Any] | None:
        """The event's text and images as a user message item (None when it holds neither)."""
        text = payload.get("message")
        content: list[dict[str, Any]] = []
        if isinstance(text, str) and text:
            content.append({"type": "input_text", "text": text})
        for index, image in enumerate(as_list(payload.get("images")) or []):
            if isinstance(image, str):
                content.append({"type": "input_image", "image_url": image})
            else:
                why = "an image of the prompt that is not a URL or data URL: not read"
                self.losses.append(Loss(f"{at}.images[{index}]", "prompt image", why, "content"))
        for index, _ in enumerate(as_list(payload.get("local_images")) or []):
            why = "a local file's path, not the image the model was shown (the rollout holds no item with it)"
            self.losses.append(Loss(f"{at}.local_images[{index}]", "prompt image", why, "content"))
        return {"type": "message", "role": "user", "content": content} if content else None
