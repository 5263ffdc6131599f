"""What ``render`` reads: any conversation, as a canonical request, and whether its calls' arguments came as objects.

A render's input is a wire body (``source="anthropic"``), a training dialect's row
(``source="hf-chat"``, ``"trl-prompt-completion"``, ``"verifiers"``...), a canonical request, or a
bare list of messages. Rows as TRL passes them to ``apply_chat_template`` hold calls without ids
and arguments as objects (https://huggingface.co/docs/transformers/chat_extras#tools): they are
read as the ``hf-chat`` dialect reads them, ids made up from each call's place (left out again by
the shaping, so the template sees the row as TRL gave it).

A harness may send roles its API's own reader does not know: Claude Code (2.1.154 and later)
sends ``ctx`` and ``msg`` turns in an Anthropic body's ``messages``
(https://github.com/vllm-project/vllm/issues/44000), client text in the user's place (context it
gathered, messages queued for the model). A render reads each as the nearest canonical role
(its codec's ``Capabilities.harness_roles``) and reports it, rather than refusing a session a
trainer wants, as a conversion does (:mod:`chatcodec._harness_roles`, the rule's one home).

Where a source holds a call's arguments as an object (Anthropic's ``input``, Gemini's ``args``,
an hf-chat row's ``arguments``), the canonical text is chatcodec's compact spelling of it, not
text the model sampled: the shaping then lets the template spell the object as it does
(``tojson``'s ``{"a": 1}``), which is what the model saw.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from chatcodec._errors import ChatcodecError, PayloadError
from chatcodec._losses import LossRecorder
from chatcodec._model.request import ChatRequest
from chatcodec._narrow import as_dict, as_list
from chatcodec._row_dialects.chat_template_calls import call_forms, with_call_ids
from chatcodec._validation import validate_messages, validate_model

if TYPE_CHECKING:
    from collections.abc import Callable

    from chatcodec._api import SdkPayload
    from chatcodec._model.messages import AnyMessage


@dataclass(frozen=True, slots=True)
class ReadConversation:
    """A render's input as a canonical request."""

    request: ChatRequest
    object_arguments: bool
    """Whether the source gave call arguments as objects (their text is chatcodec's spelling)."""


def read_input(conversation: object, source: str | None, recorder: LossRecorder) -> ReadConversation:
    """``conversation`` (in ``source``'s format, or canonical) as a request; ``recorder`` names
    losses at the source's own paths where the source's codec tells them. A conversation already
    read (``render_turns`` renders each prefix of one) is taken as it is."""
    if isinstance(conversation, ReadConversation):
        return conversation
    if source is not None:
        return _read_from_source(conversation, source, recorder)
    if isinstance(conversation, ChatRequest):
        return ReadConversation(conversation, False)
    fields = as_dict(conversation)
    if fields is not None and "messages" in fields:  # a canonical request's dict, not a bare list
        messages, objects = _with_call_ids(fields["messages"])
        try:
            return ReadConversation(validate_model(ChatRequest, {**fields, "messages": messages}), objects)
        except ChatcodecError as error:
            raise _read_as_another_format(fields, error) or error from None
    messages, objects = _with_call_ids(conversation)
    # The messages are validated here, and a request of messages alone has no other rule to check:
    # built without a second validation, which would build the whole request's schema once more.
    return ReadConversation(_request_of(validate_messages(messages)), objects)


_DEFAULT_FACTORIES = tuple(
    (name, cast("Callable[[], Any]", field.default_factory))
    for name, field in ChatRequest.model_fields.items()
    if name != "messages" and field.default_factory is not None and not field.default_factory_takes_validated_data
)
"""The request's fields made by a factory (its lists), read from the model once."""


@functools.cache
def _empty_request() -> ChatRequest:
    """A request of no messages, every other field at its default, built once."""
    return ChatRequest.model_construct({"messages"}, messages=[], **{name: make() for name, make in _DEFAULT_FACTORIES})


def _request_of(messages: list[AnyMessage]) -> ChatRequest:
    """A request of ``messages`` alone, already validated, its other fields at their defaults: a
    shallow copy of :func:`_empty_request` (pydantic's ``__copy__``: the values and the set of
    fields given, ``messages``), given the messages and new lists. ``model_construct`` walks every
    field's default at each call, which costs more than a short conversation's reading; the
    other defaults are ``None``, shared safely."""
    request = _empty_request().__copy__()
    vars(request).update({"messages": messages, **{name: make() for name, make in _DEFAULT_FACTORIES}})
    return request


def _read_from_source(conversation: object, source: str, recorder: LossRecorder) -> ReadConversation:
    """``conversation`` read by ``source``: a harness's session, a training dialect's row or a
    wire body. Its readers are imported here, on first use: a render of canonical or
    OpenAI-shaped messages loads none of them (nor the conversion path they decode with)."""
    from chatcodec._api import decode_request
    from chatcodec._harness_roles import with_harness_roles_read
    from chatcodec._row_dialects.dialects import CONVERSATION_DIALECTS, read_conversation, read_format
    from chatcodec._row_dialects.sessions import SESSION_DIALECTS, read_session
    from chatcodec._training.origins import trace_to_source

    if source in SESSION_DIALECTS:  # a harness's session file, its lines as a list: read in its harness's wire
        session = read_session(conversation, source)
        for loss in session.losses:
            recorder.add(loss.path, loss.what, loss.why, loss.kind)
        request = decode_request(session.format, cast("SdkPayload", session.body))
        trace_to_source(recorder, session.body, session.format, request)
        return ReadConversation(request, holds_object_arguments(session.format))
    if source in CONVERSATION_DIALECTS:
        if not isinstance(conversation, Mapping):
            raise PayloadError(f"a {source} row is a JSON object, not {type(conversation).__name__}")
        read = read_conversation(cast("Mapping[str, Any]", conversation), source)
        wire = read_format(source)
        request = decode_request(wire, cast("SdkPayload", read.body))
        trace_to_source(recorder, read.body, wire, request)
        return ReadConversation(request, read.object_arguments)
    conversation = with_harness_roles_read(conversation, source, recorder)
    request = decode_request(source, cast("SdkPayload", conversation))
    trace_to_source(recorder, conversation, source, request)
    return ReadConversation(request, holds_object_arguments(source))


def holds_object_arguments(source: str) -> bool:
    """Whether ``source``'s calls carry their arguments as a JSON object, not the model's text
    (its codec's ``Capabilities.object_arguments``: Anthropic's ``input``, Gemini's ``args``...)."""
    return bool(getattr(_capabilities(source), "object_arguments", False))


def _capabilities(source: str) -> object:
    from chatcodec._registry import get_codec

    try:
        codec = get_codec(source)
    except ChatcodecError:  # no such codec: neither trait
        return None
    capabilities: object = getattr(codec, "capabilities", None)  # a codec without the record: neither
    return capabilities


def _read_as_another_format(fields: Mapping[str, Any], error: ChatcodecError) -> PayloadError | None:
    """``error`` (a request without ``source=`` refused as canonical) with what the request
    reads as, where its markers name a wire format (an Anthropic body's top-level ``thinking``):
    the fix is ``source=``, which the schema's rule alone does not say."""
    from chatcodec._detect import fitting, markers, other_format

    other = other_format("canonical", fields)
    if other is None or other[1] is None:
        return None
    candidates = [name for name in fitting(markers(fields)) if name != "canonical"]
    sources = " or ".join(f"source={name!r}" for name in candidates)
    return PayloadError(
        f"this is not a canonical request: it has {other[0]}; it reads as {' or '.join(candidates)} (pass {sources}). "
        f"Read as canonical: {error}"
    )


def _with_call_ids(messages: object) -> tuple[object, bool]:
    """Messages in Hugging Face's chat-template shapes read as the ``hf-chat`` dialect reads
    them (ids made up, object arguments as their text), and whether any arguments were objects;
    any other list as it is."""
    listed = as_list(messages)
    if listed is None:
        return messages, False
    objects, missing = call_forms(listed)
    if not objects and not missing:
        return listed, False
    return with_call_ids(listed, "$.messages", []), objects
