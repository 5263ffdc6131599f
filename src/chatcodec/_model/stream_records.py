"""Canonical stream events as plain records: what travels between a stream decoder, the
stream builder and a stream encoder inside a conversion.

The public event models (:mod:`chatcodec._model.stream_events`) are pydantic models; a
fresh process paid for pydantic, the canonical model classes, pydantic's plugin scan and
fifteen event schemas (most of its first stream's cost, issue 60) only to hand
each event from the decoder to the encoder. A record is one small class per event kind,
with ``__slots__``, the same field names, defaults and ``type`` tag as its model, so an
encoder's ``match`` keeps its shape (``case TextDeltaRecord():``). What a model holds as
a model (a part, a finish reason, usage, citations, token log probabilities) a record holds
as canonical data: the dict the model's own ``model_dump()`` gives.

A record checks nothing when it is made: :class:`~chatcodec.streams._builder.StreamBuilder`
checks what a decoder gives it before it makes one
(:func:`~chatcodec._model.stream_record_checks.checked`), the same checks the
model made, the model itself deciding (and naming the error) whenever a value is not plain.
The models are built only at the public edges (``decode_stream``, ``encode_stream`` given
models, a contract-1 codec's events): :func:`event_of` and :func:`record_of`, the one
conversion each way, import them when first called. This module imports no pydantic.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, Self, cast

from chatcodec._public_label import shown_as

if TYPE_CHECKING:
    from chatcodec._model.stream_events import AnyStreamEvent

__all__ = [
    "AnyStreamRecord",
    "ChoiceMetadataRecord",
    "ErrorRecord",
    "FinishRecord",
    "PartLifecycleRecord",
    "PartRecord",
    "RefusalDeltaRecord",
    "ResponseStartRecord",
    "TextDeltaRecord",
    "TextEndRecord",
    "TextStartRecord",
    "ThinkingDeltaRecord",
    "ThinkingEndRecord",
    "ThinkingSignatureDeltaRecord",
    "ThinkingStartRecord",
    "ToolCallDeltaRecord",
    "ToolCallEndRecord",
    "ToolCallStartRecord",
    "UsageRecord",
    "event_of",
    "is_record",
    "record_from_data",
    "record_of",
]

Bag = dict[str, dict[str, Any]] | None
"""A record's ``provider_metadata`` (and a choice's or message's bag): canonical data."""


class _Record:
    """What every record shares: the ``type`` tag, ``provider_metadata``, its canonical
    data (:meth:`data`), equality by value and a readable ``repr``."""

    __slots__ = ("provider_metadata",)
    type: ClassVar[str]
    field_names: ClassVar[tuple[str, ...]]
    """The fields in the model's order (its ``model_dump()`` order), ``type`` among them."""

    provider_metadata: Bag

    def data(self) -> dict[str, Any]:
        """The canonical event as the model dumps it: ``None``, a zero ``choice``, no
        citations and a ``function`` kind left out."""
        data: dict[str, Any] = {}
        for name in self.field_names:
            value = getattr(self, name)
            if value is None or (name in _LEFT_OUT and _LEFT_OUT[name](value)):
                continue
            data[name] = value
        return data

    def replaced(self, **changes: Any) -> Self:
        """A copy with ``changes`` (a record is not changed once made: others may hold it)."""
        copy = object.__new__(type(self))
        for name in self.field_names:
            if name != "type":
                setattr(copy, name, changes.get(name, getattr(self, name)))
        return copy

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, name) == getattr(other, name) for name in self.field_names)

    def __hash__(self) -> int:
        raise TypeError(f"unhashable type: {type(self).__name__!r} (a record holds dicts, as its model does)")

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in self.data().items() if name != "type")
        return f"{type(self).__name__}({shown})"


_LEFT_OUT: dict[str, Callable[[object], bool]] = {
    "choice": lambda value: type(value) is int and value == 0,
    "citations": lambda value: type(value) is list and not value,
    "kind": lambda value: type(value) is str and value == "function",
}
"""Fields the models leave out of a dump at their default (``exclude_if``)."""


class ResponseStartRecord(_Record):
    """:class:`~chatcodec.ResponseStartEvent` as a record."""

    __slots__ = ("created", "id", "model")
    type: ClassVar[str] = "response_start"
    field_names: ClassVar[tuple[str, ...]] = ("provider_metadata", "type", "id", "model", "created")
    provider_metadata: Bag
    id: str | None
    model: str | None
    created: int | None

    def __init__(
        self,
        *,
        id: str | None = None,
        model: str | None = None,
        created: int | None = None,
        provider_metadata: Bag = None,
    ) -> None:
        self.id, self.model, self.created, self.provider_metadata = id, model, created, provider_metadata


class _PartRecord(_Record):
    """A part event's place (``index``, ``choice``) and bag: all a start or an end without
    more fields holds (``TextStartRecord``, ``ToolCallEndRecord``)."""

    __slots__ = ("choice", "index")
    field_names: ClassVar[tuple[str, ...]] = ("provider_metadata", "index", "choice", "type")
    provider_metadata: Bag
    index: int
    choice: int

    def __init__(self, *, index: int, choice: int = 0, provider_metadata: Bag = None) -> None:
        self.index, self.choice, self.provider_metadata = index, choice, provider_metadata


class TextStartRecord(_PartRecord):
    """:class:`~chatcodec.TextStartEvent` as a record."""

    __slots__ = ()
    type: ClassVar[str] = "text_start"


class _DeltaRecord(_PartRecord):
    __slots__ = ("delta",)
    field_names: ClassVar[tuple[str, ...]] = ("provider_metadata", "index", "choice", "type", "delta")
    provider_metadata: Bag
    index: int
    choice: int
    delta: str

    def __init__(self, *, index: int, delta: str, choice: int = 0, provider_metadata: Bag = None) -> None:
        self.index, self.choice, self.delta, self.provider_metadata = index, choice, delta, provider_metadata


class TextDeltaRecord(_PartRecord):
    """:class:`~chatcodec.TextDeltaEvent` as a record (``logprobs``: canonical token data)."""

    __slots__ = ("delta", "logprobs")
    type: ClassVar[str] = "text_delta"
    field_names: ClassVar[tuple[str, ...]] = ("provider_metadata", "index", "choice", "type", "delta", "logprobs")
    provider_metadata: Bag
    index: int
    choice: int
    delta: str
    logprobs: list[dict[str, Any]] | None

    def __init__(
        self,
        *,
        index: int,
        delta: str,
        choice: int = 0,
        logprobs: list[dict[str, Any]] | None = None,
        provider_metadata: Bag = None,
    ) -> None:
        self.index, self.choice, self.delta, self.provider_metadata = index, choice, delta, provider_metadata
        self.logprobs = logprobs


class TextEndRecord(_PartRecord):
    """:class:`~chatcodec.TextEndEvent` as a record (``citations``: canonical citation data)."""

    __slots__ = ("citations",)
    type: ClassVar[str] = "text_end"
    field_names: ClassVar[tuple[str, ...]] = ("provider_metadata", "index", "choice", "type", "citations")
    provider_metadata: Bag
    index: int
    choice: int
    citations: list[dict[str, Any]]

    def __init__(
        self,
        *,
        index: int,
        choice: int = 0,
        citations: list[dict[str, Any]] | None = None,
        provider_metadata: Bag = None,
    ) -> None:
        self.index, self.choice, self.provider_metadata = index, choice, provider_metadata
        self.citations = [] if citations is None else citations


class RefusalDeltaRecord(_DeltaRecord):
    """:class:`~chatcodec.RefusalDeltaEvent` as a record."""

    __slots__ = ()
    type: ClassVar[str] = "refusal_delta"


class ThinkingStartRecord(_PartRecord):
    """:class:`~chatcodec.ThinkingStartEvent` as a record."""

    __slots__ = ("model", "provider")
    type: ClassVar[str] = "thinking_start"
    field_names: ClassVar[tuple[str, ...]] = ("provider_metadata", "index", "choice", "type", "provider", "model")
    provider_metadata: Bag
    index: int
    choice: int
    provider: str | None
    model: str | None

    def __init__(
        self,
        *,
        index: int,
        choice: int = 0,
        provider: str | None = None,
        model: str | None = None,
        provider_metadata: Bag = None,
    ) -> None:
        self.index, self.choice, self.provider_metadata = index, choice, provider_metadata
        self.provider, self.model = provider, model


class ThinkingDeltaRecord(_DeltaRecord):
    """:class:`~chatcodec.ThinkingDeltaEvent` as a record."""

    __slots__ = ()
    type: ClassVar[str] = "thinking_delta"


class ThinkingSignatureDeltaRecord(_DeltaRecord):
    """:class:`~chatcodec.ThinkingSignatureDeltaEvent` as a record."""

    __slots__ = ()
    type: ClassVar[str] = "thinking_signature_delta"


class ThinkingEndRecord(_PartRecord):
    """:class:`~chatcodec.ThinkingEndEvent` as a record."""

    __slots__ = ("encrypted",)
    type: ClassVar[str] = "thinking_end"
    field_names: ClassVar[tuple[str, ...]] = ("provider_metadata", "index", "choice", "type", "encrypted")
    provider_metadata: Bag
    index: int
    choice: int
    encrypted: str | None

    def __init__(
        self, *, index: int, choice: int = 0, encrypted: str | None = None, provider_metadata: Bag = None
    ) -> None:
        self.index, self.choice, self.encrypted, self.provider_metadata = index, choice, encrypted, provider_metadata


class ToolCallStartRecord(_PartRecord):
    """:class:`~chatcodec.ToolCallStartEvent` as a record."""

    __slots__ = ("id", "kind", "name")
    type: ClassVar[str] = "tool_call_start"
    field_names: ClassVar[tuple[str, ...]] = ("provider_metadata", "index", "choice", "type", "id", "name", "kind")
    provider_metadata: Bag
    index: int
    choice: int
    id: str
    name: str
    kind: str

    def __init__(
        self,
        *,
        index: int,
        id: str,
        name: str,
        choice: int = 0,
        kind: str = "function",
        provider_metadata: Bag = None,
    ) -> None:
        self.index, self.choice, self.id, self.name = index, choice, id, name
        self.kind, self.provider_metadata = kind, provider_metadata


class ToolCallDeltaRecord(_DeltaRecord):
    """:class:`~chatcodec.ToolCallDeltaEvent` as a record."""

    __slots__ = ()
    type: ClassVar[str] = "tool_call_delta"


class ToolCallEndRecord(_PartRecord):
    """:class:`~chatcodec.ToolCallEndEvent` as a record."""

    __slots__ = ()
    type: ClassVar[str] = "tool_call_end"


class PartRecord(_PartRecord):
    """:class:`~chatcodec.PartEvent` as a record (``part``: canonical part data)."""

    __slots__ = ("part",)
    type: ClassVar[str] = "part"
    field_names: ClassVar[tuple[str, ...]] = ("provider_metadata", "index", "choice", "type", "part")
    provider_metadata: Bag
    index: int
    choice: int
    part: dict[str, Any]

    def __init__(self, *, index: int, part: dict[str, Any], choice: int = 0, provider_metadata: Bag = None) -> None:
        self.index, self.choice, self.part, self.provider_metadata = index, choice, part, provider_metadata


class UsageRecord(_Record):
    """:class:`~chatcodec.UsageEvent` as a record (``usage``: canonical usage data)."""

    __slots__ = ("usage",)
    type: ClassVar[str] = "usage"
    field_names: ClassVar[tuple[str, ...]] = ("provider_metadata", "type", "usage")
    provider_metadata: Bag
    usage: dict[str, Any]

    def __init__(self, *, usage: dict[str, Any], provider_metadata: Bag = None) -> None:
        self.usage, self.provider_metadata = usage, provider_metadata


class FinishRecord(_Record):
    """:class:`~chatcodec.FinishEvent` as a record (``finish_reason``, ``logprobs``: canonical data)."""

    __slots__ = ("choice", "choice_metadata", "finish_reason", "logprobs")
    type: ClassVar[str] = "finish"
    field_names: ClassVar[tuple[str, ...]] = (
        "provider_metadata",
        "type",
        "choice",
        "finish_reason",
        "logprobs",
        "choice_metadata",
    )
    provider_metadata: Bag
    choice: int
    finish_reason: dict[str, Any]
    logprobs: list[dict[str, Any]] | None
    choice_metadata: Bag

    def __init__(
        self,
        *,
        finish_reason: dict[str, Any],
        choice: int = 0,
        logprobs: list[dict[str, Any]] | None = None,
        choice_metadata: Bag = None,
        provider_metadata: Bag = None,
    ) -> None:
        self.choice, self.finish_reason, self.logprobs = choice, finish_reason, logprobs
        self.choice_metadata, self.provider_metadata = choice_metadata, provider_metadata


class ChoiceMetadataRecord(_Record):
    """:class:`~chatcodec.ChoiceMetadataEvent` as a record."""

    __slots__ = ("choice", "choice_metadata", "message_metadata")
    type: ClassVar[str] = "choice_metadata"
    field_names: ClassVar[tuple[str, ...]] = (
        "provider_metadata",
        "type",
        "choice",
        "choice_metadata",
        "message_metadata",
    )
    provider_metadata: Bag
    choice: int
    choice_metadata: Bag
    message_metadata: Bag

    def __init__(
        self,
        *,
        choice: int = 0,
        choice_metadata: Bag = None,
        message_metadata: Bag = None,
        provider_metadata: Bag = None,
    ) -> None:
        self.choice, self.choice_metadata, self.message_metadata = choice, choice_metadata, message_metadata
        self.provider_metadata = provider_metadata


class ErrorRecord(_Record):
    """:class:`~chatcodec.ErrorEvent` as a record."""

    __slots__ = ("body", "error_type", "message")
    type: ClassVar[str] = "error"
    field_names: ClassVar[tuple[str, ...]] = ("provider_metadata", "type", "message", "error_type", "body")
    provider_metadata: Bag
    message: str
    error_type: str | None
    body: Any

    def __init__(
        self, *, message: str, error_type: str | None = None, body: Any = None, provider_metadata: Bag = None
    ) -> None:
        self.message, self.error_type, self.body, self.provider_metadata = message, error_type, body, provider_metadata


PartLifecycleRecord = (
    TextStartRecord
    | TextDeltaRecord
    | TextEndRecord
    | RefusalDeltaRecord
    | ThinkingStartRecord
    | ThinkingDeltaRecord
    | ThinkingSignatureDeltaRecord
    | ThinkingEndRecord
    | ToolCallStartRecord
    | ToolCallDeltaRecord
    | ToolCallEndRecord
    | PartRecord
)
"""The records that build one part of the assistant message."""

AnyStreamRecord = (
    ResponseStartRecord | PartLifecycleRecord | UsageRecord | FinishRecord | ChoiceMetadataRecord | ErrorRecord
)
"""Any stream record, for ``match`` statements and annotations."""

_RECORDS: dict[str, type[Any]] = {
    record.type: record
    for record in (
        ResponseStartRecord,
        TextStartRecord,
        TextDeltaRecord,
        TextEndRecord,
        RefusalDeltaRecord,
        ThinkingStartRecord,
        ThinkingDeltaRecord,
        ThinkingSignatureDeltaRecord,
        ThinkingEndRecord,
        ToolCallStartRecord,
        ToolCallDeltaRecord,
        ToolCallEndRecord,
        PartRecord,
        UsageRecord,
        FinishRecord,
        ChoiceMetadataRecord,
        ErrorRecord,
    )
}
RECORD_CLASSES = frozenset(_RECORDS.values())
"""Every record class (a set: :func:`is_record` asks by exact type)."""


def is_record(event: object) -> bool:
    """Whether ``event`` is a record (not a public event model): one set lookup."""
    return type(event) in RECORD_CLASSES


# --- the one conversion each way ---------------------------------------------------------


def event_of(record: AnyStreamRecord) -> AnyStreamEvent:
    """The public event model of ``record``, validated as any model is (a record made
    without :func:`checked` is refused here as the model would refuse it)."""
    from chatcodec._model import stream_events

    model: Any = getattr(stream_events, _MODEL_NAMES[record.type])
    event: AnyStreamEvent = model.model_validate(record.data())
    return event


def record_of(event: AnyStreamEvent | AnyStreamRecord) -> AnyStreamRecord:
    """The record of a public event model (its nested models as the canonical data they
    dump to); a record is returned as it is."""
    if type(event) in RECORD_CLASSES:
        return cast("AnyStreamRecord", event)
    model = cast("AnyStreamEvent", event)
    return record_from_data(model.model_dump())


def record_from_data(data: dict[str, Any]) -> AnyStreamRecord:
    """The record of canonical event data (a model's dump, keyed by ``type``), unchecked."""
    fields = dict(data)
    record: AnyStreamRecord = _RECORDS[fields.pop("type")](**fields)
    return record


_MODEL_NAMES = {
    "response_start": "ResponseStartEvent",
    "text_start": "TextStartEvent",
    "text_delta": "TextDeltaEvent",
    "text_end": "TextEndEvent",
    "refusal_delta": "RefusalDeltaEvent",
    "thinking_start": "ThinkingStartEvent",
    "thinking_delta": "ThinkingDeltaEvent",
    "thinking_signature_delta": "ThinkingSignatureDeltaEvent",
    "thinking_end": "ThinkingEndEvent",
    "tool_call_start": "ToolCallStartEvent",
    "tool_call_delta": "ToolCallDeltaEvent",
    "tool_call_end": "ToolCallEndEvent",
    "part": "PartEvent",
    "usage": "UsageEvent",
    "finish": "FinishEvent",
    "choice_metadata": "ChoiceMetadataEvent",
    "error": "ErrorEvent",
}


shown_as("chatcodec.contract", *_RECORDS.values())
