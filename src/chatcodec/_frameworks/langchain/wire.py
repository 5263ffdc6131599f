"""The one description of what a LangChain history holds, and its validator.

A stored message is checked as one of the two serialisations (:func:`.messages.unwrap`), so
an entry LangChain would not load is refused at its own path (``$.messages[3]``) as a
:class:`~chatcodec.ValidationError`, before anything is read. Inside a message, LangChain's
own fields are open (its content blocks are open-ended by design): what has no canonical
field is kept as it is. The validator is built on first use, so importing the codec loads
no pydantic.
"""

from __future__ import annotations

from typing import Any

from chatcodec._frameworks.history import history_check


def _loadable(entry: dict[str, Any]) -> dict[str, Any]:
    from chatcodec._frameworks.langchain.messages import unwrap

    unwrap(entry)
    return entry


validated_history = history_check(_loadable)
"""``payload`` checked as a history whose every message LangChain can load."""
