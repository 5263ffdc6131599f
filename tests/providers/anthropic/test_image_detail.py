"""An image's ``detail`` from OpenAI Chat to Anthropic: OpenAI Chat's reader reads it as
canonical ``ImagePart.detail``, and Anthropic's writer drops it (``"auto"`` silently, a
real hint with a loss), so the bundled agent session, which sends ``"detail": "high"``,
converts on the one path."""

from __future__ import annotations
