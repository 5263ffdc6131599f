"""Errors a codec raises the same way in every provider: JSON paths for messages, and the
:class:`~chatcodec.StreamError` for a canonical event that refused what a wire let through."""

from __future__ import annotations

import pydantic_core

from chatcodec._errors import StreamError, json_path


def json_path_of(*steps: int | str) -> str:
    """A JSON path for messages: ``path("messages", 2, "content")`` -> ``$.messages[2].content``."""
    return json_path(steps)


def canonical_refusal(error: pydantic_core.ValidationError, event_index: int) -> StreamError:
    """The :class:`~chatcodec.StreamError` for a canonical event that refused what the wire
    schema let through, so a stream decoder never lets a bare pydantic error out.

    The wire schemas keep unknown values as they are, for speed; a JSON value nested past
    pydantic-core's depth limit in such a value is refused only when the canonical event
    (its ``provider_metadata``) is built, at a canonical path the input does not have, so
    the error names the event and the rule.
    """
    detail = error.errors(include_url=False)[0]
    return StreamError(f"{detail['msg']} [rule: {detail['type']}]", "$", event_index)
