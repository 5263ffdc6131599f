"""What the entry points call with ``strict=True``: the field check of :mod:`chatcodec._strict.fields`
and the structural rules of :mod:`chatcodec._strict.rules`, raised as one error.

Kept apart from the provider codecs: the check reads the wire payload before (a request)
or after (a response, so an error body is still a ``ProviderAPIError``) the tolerant
decoder, and needs nothing from it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Literal

from chatcodec import _detect as detect
from chatcodec._errors import (
    CodecNotAvailableError,
    PayloadError,
    Problem,
    StreamError,
    ValidationError,
    json_path,
    problems_error,
    rule_error,
)
from chatcodec._narrow import as_dict
from chatcodec._providers.contract.capabilities import Capabilities
from chatcodec._registry import CANONICAL, get_codec, get_edge
from chatcodec._strict.fields import Schema, every_field_name, payload_problems, schema_for, unknown_fields
from chatcodec._strict.rules import request_problems, structure_for, target_problems
from chatcodec._strict.values import shown

__all__ = [
    "check_messages",
    "check_payload",
    "check_request",
    "check_stream_event",
    "check_target",
    "checked_events",
    "refuse_unless_strict",
    "wrong_entry_point",
]


def refuse_unless_strict(provider: str) -> None:
    """Raise :class:`~chatcodec.CodecNotAvailableError` when ``provider``'s codec cannot
    honour ``strict=True`` (its capabilities say ``strict_reading=False``, or it states
    none): strict mode would otherwise read such a body as leniently as without it, and
    the caller who asked for a refusal of unknown fields would get none, unaware. The
    canonical format is read by its strict models, so it always honours it."""
    if provider == CANONICAL:
        return
    capabilities = getattr(get_codec(provider), "capabilities", None)
    if isinstance(capabilities, Capabilities) and capabilities.strict_reading:
        return
    stated = "it states no capabilities"
    if isinstance(capabilities, Capabilities):
        stated = "its capabilities say strict_reading=False"
    raise CodecNotAvailableError(
        f"the {provider} codec cannot read strictly ({stated}: it has no published field set or "
        "structural rules to refuse a body by); read it without strict=True"
    )


def check_request(provider: str, payload: Mapping[str, Any], title: str, server: str | None = None) -> None:
    """Raise one :class:`~chatcodec.ValidationError` for every unknown field and broken
    structural rule of a ``provider`` request (for one ``server`` of the format when named:
    its documented extensions are accepted, no other server's)."""
    refuse_unless_strict(provider)
    structural = request_problems(provider, payload)
    # A place a structural rule refuses in the provider's own words (a token limit under 1)
    # is not refused a second time by the generated bounds (Bedrock's ``maxTokens`` min 1).
    refused = {problem.location for problem in structural}
    fields = [
        problem for problem in payload_problems(provider, "request", payload, server) if problem.location not in refused
    ]
    problems = [*fields, *structural]
    if not problems:
        return
    misspelt = _misspellings(fields)
    if misspelt:  # a typo is named first, whatever format the rest of the body resembles
        raise _error(title, [*misspelt, *(problem for problem in problems if problem not in misspelt)])
    raise _error(title, _another_format(provider, payload) or problems)


def _another_format(provider: str, payload: Mapping[str, Any]) -> list[Problem]:
    """One problem for a body of another format given to ``provider``'s strict reader: an
    Anthropic body read as OpenAI Chat would otherwise be refused field by field, with a
    hint that misleads (``system``: "did you mean `stream`?"). Asked only once the field
    check has refused the body with no misspelt key (:func:`_misspellings`, named first),
    so a body any format could be passes as before."""
    against = detect.other_format(provider, payload)
    if against is None or against[1] is None:
        return []
    found, candidate = against
    message = (
        f"this looks like a request in the {candidate} format, not {provider}: it has {found}; "
        f'read it as `decode_request("{candidate}", ...)`'
    )
    return [Problem((), "wrong_format", message, None)]


def _misspellings(problems: list[Problem]) -> list[Problem]:
    """The unknown keys that are misspellings: a key no registered format has anywhere
    (``max_tokenss``, ``rolee``, ``textt``) with a known field near it. Such a key is the
    mistake to name, before any guess at the body's format: misspelt, a part's ``type``
    leaves a part with no type, which Bedrock's blocks are, and a mid-conversation
    ``system`` turn (Anthropic's since Opus 4.8) looks like OpenAI Chat, answers that name
    no mistake. A key another format has (Anthropic's ``system`` read as OpenAI Chat) is
    not one: that is the sign of a body in the wrong format."""
    names = every_field_name()
    return [
        problem
        for problem in problems
        if problem.rule == "unknown_field"
        and problem.nearest is not None
        and problem.location
        and problem.location[-1] not in names
    ]


def check_target(source: str, payload: Mapping[str, Any], target: str, title: str) -> None:
    """Raise when a ``source`` request has a turn order the ``target`` refuses."""
    problems = target_problems(source, payload, target)
    if problems:
        raise _error(title, problems)


def checked_events(provider: str, events: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """``events``, each checked before it is passed on; an error event passes unchecked
    (the decoder raises it as a :class:`~chatcodec.ProviderAPIError`). A codec that cannot
    read strictly is refused here, before the first event."""
    refuse_unless_strict(provider)
    return _checked_events(provider, events)


def _checked_events(provider: str, events: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for index, event in enumerate(events):
        if "error" not in event and event.get("type") != "error":
            problems = payload_problems(provider, "stream", event)
            if problems:
                first = problems[0]
                more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
                raise StreamError(f"{first.message}{more} [rule: {first.rule}]", json_path(first.location), index)
        yield event


def check_stream_event(provider: str, event: Mapping[str, Any], title: str) -> None:
    """Raise a :class:`~chatcodec.ValidationError` for unknown fields of one stream event
    (an error event passes: the decoder raises it)."""
    refuse_unless_strict(provider)
    if "error" not in event and event.get("type") != "error":
        problems = payload_problems(provider, "stream", event)
        if problems:
            raise _error(title, problems)


def wrong_entry_point(data: object) -> ValidationError | None:
    """The error for a whole provider response given where a message goes, naming the
    entry point that fits ("this is an Anthropic response: use
    ``append_response("anthropic", ...)``"); ``None`` for anything else."""
    fields = as_dict(data)
    if fields is None:
        return None
    provider = detect.detect(fields)
    if provider is None or provider == detect.CANONICAL or not _is_response(fields):
        return None
    name = get_edge(provider).response_name  # detection knows a provider by its edge
    message = f"this is {name}: use `append_response({provider!r}, ...)`".replace("'", '"')
    return rule_error("Message", (), "wrong_entry_point", message, data)


def _is_response(fields: Mapping[str, Any]) -> bool:
    return (
        any(key in fields for key in ("choices", "candidates", "stopReason"))
        or fields.get("type") == "message"
        or fields.get("object") == "response"
    )


def check_payload(
    provider: str, root: Literal["request", "response", "stream"], payload: Mapping[str, Any], title: str
) -> None:
    """Raise for every unknown field of a ``provider`` request, response or stream event."""
    refuse_unless_strict(provider)
    problems = payload_problems(provider, root, payload)
    if problems:
        raise _error(title, problems)


def check_messages(provider: str, messages: list[dict[str, Any]], title: str) -> None:
    """Raise for unknown fields in a bare wire ``messages`` list of ``provider``."""
    refuse_unless_strict(provider)
    schema = schema_for(provider)
    if schema is None:
        return
    problems = unknown_fields(schema, messages, _conversation_target(schema))
    if problems:
        raise _error(title, problems)


def _conversation_target(schema: Schema) -> str:
    """What a request's conversation list holds, for messages given without a request."""
    structure = structure_for(schema.provider)
    if structure is None:  # a provider codec a caller wrote, with no structure role
        return ""
    key = structure.conversation_key
    for arm in schema.arms(schema.roots["request"]):
        target = schema.kinds.get(arm, {}).get(key)
        if target:
            return target
    return ""


def _error(title: str, problems: list[Problem]) -> ValidationError | PayloadError:
    """One error for ``problems``; a :class:`~chatcodec.PayloadError` when a key on the way
    holds a lone surrogate, which a pydantic error location cannot keep (it would name a
    place the input does not have)."""
    for problem in problems:
        if any(isinstance(step, str) and shown(step) != step for step in problem.location):
            return PayloadError(f"{problem.message} [rule: {problem.rule}]", json_path(problem.location))
    return problems_error(title, problems)
