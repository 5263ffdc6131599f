"""What the entry points call with ``strict=True``: the field check of :mod:`chatcodec.strict`
and the structural rules of :mod:`chatcodec.strict_rules`, raised as one error.

Kept apart from the provider codecs: the check reads the wire payload before (a request)
or after (a response, so an error body is still a ``ProviderAPIError``) the tolerant
decoder, and needs nothing from it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from chatcodec.errors import StreamError, json_path, problems_error
from chatcodec.strict import check_messages, check_payload, payload_problems
from chatcodec.strict_rules import first_turn_problems, request_problems

__all__ = ["check_messages", "check_payload", "check_request", "check_target", "checked_events"]


def check_request(provider: str, payload: Mapping[str, Any], title: str) -> None:
    """Raise one :class:`~chatcodec.ValidationError` for every unknown field and broken
    structural rule of a ``provider`` request."""
    problems = [*payload_problems(provider, "request", payload), *request_problems(provider, payload)]
    if problems:
        raise problems_error(title, problems)


def check_target(source: str, payload: Mapping[str, Any], target: str, title: str) -> None:
    """Raise when a ``source`` request has a turn order the ``target`` refuses."""
    problems = first_turn_problems(source, payload, target)
    if problems:
        raise problems_error(title, problems)


def checked_events(provider: str, events: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """``events``, each checked before it is passed on; an error event passes unchecked
    (the decoder raises it as a :class:`~chatcodec.ProviderAPIError`)."""
    for index, event in enumerate(events):
        if "error" not in event and event.get("type") != "error":
            problems = payload_problems(provider, "stream", event)
            if problems:
                first = problems[0]
                more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
                raise StreamError(f"{first.message}{more} [rule: {first.rule}]", json_path(first.location), index)
        yield event
