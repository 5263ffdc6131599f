"""What one decode or one encode carries along, the same for every provider.

Before this module each encoder found its settings in its own place (a knob popped from
``provider_options[provider]``, an ``_``-marker read from a response's metadata, a
``losses`` argument threaded beside them), and each folder grew its own context class.
:class:`EncodeContext` and :class:`DecodeContext` are the one door: the codec
(:class:`~chatcodec._providers.contract.provider_codec.ProviderCodec`) builds them at the edge,
with the options given by argument (over those a stored request's bag sets) in
:attr:`EncodeContext.options`, and every role function of a provider takes them. A
provider that needs more state while encoding (cache breakpoints, tool names by call id)
subclasses :class:`EncodeContext`, so the shared fields stay where every reader expects
them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import KW_ONLY, dataclass, field
from dataclasses import fields as dataclass_fields
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

from chatcodec._losses import LossRecorder
from chatcodec._option_table import OptionTable, escaped_fields, stored_options
from chatcodec._providers.kit.remembered_tools import (
    OwnMarkers,
    Recalled,
    SchemaTexts,
    recall,
    remember,
    remember_written,
    written,
)
from chatcodec._public_label import shown_as

if TYPE_CHECKING:
    from chatcodec._providers.contract.target_rules import ProviderRules

RULE_OPTIONS = ("api_version", "skip_rules")
"""The target rules' options (:mod:`chatcodec._providers.contract.target_rules`), for the ``OPTIONS``
table of every provider with a ``rules.py`` (here, below the registry the rules engine
imports, so a provider's ``markers.py`` loads neither)."""


class Reading:
    """What a request's reading leaves its writer to reuse, which ``convert_request`` takes
    from the reader and hands to the writer as an argument (``read_request``'s and
    ``write_request``'s ``noted``): no state beside the data, and a reader's canonical data
    a function of its input alone."""

    __slots__ = ("own", "plain_history", "reader", "recalled", "schema_texts", "uncited", "unsealed_history")

    def __init__(self) -> None:
        self.reader: str | None = None
        """The provider whose reader filled this record."""
        self.own: list[OwnMarkers] = []
        """Markers only the reader's own writer reads (an SDK dump's ``null`` fields, whether
        a schema goes back as it came), put on their objects for that writer or canonical
        data out (:meth:`put_own`); another writer passes them over, its objects plain."""
        self.schema_texts: SchemaTexts = {}
        """The schema texts of :mod:`chatcodec._providers.kit.schema_memory`, made once."""
        self.recalled: Recalled | None = None
        """The function tools read from the memory of tool readings (:meth:`recall_tools`),
        for a writer that remembers how it wrote them
        (:func:`~chatcodec._providers.kit.remembered_tools.written`)."""
        self.uncited: object = None
        """The ``messages`` list read, held, when the reading put no url citation on a text
        part: a writer with no place for them need not look (a swapped list is looked at)."""
        self.plain_history: object = None
        """The ``messages`` list read, held, when its reader knew as it read that the list
        holds nothing the shared history rules act on (:func:`~chatcodec._providers.history.turns.history_for`:
        no ``content: []``, no opaque part or custom call in an assistant turn, no message
        right after an assistant's calls but their results or another assistant turn): a
        writer handed this same list need not survey it again (:meth:`plain`)."""
        self.unsealed_history: object = None
        """The ``messages`` list read, held, when its reader knew as it read that no thinking
        part in it carries ``encrypted`` reasoning: with :attr:`plain_history`, a writer that
        surveys its turns for what it must ask for or send whole (the Responses writer's
        ``include``) need not look (:meth:`unsealed`)."""

    def plain(self, messages: object) -> bool:
        """Whether ``messages`` is the list read and its reader said it is :attr:`plain_history`."""
        return self.plain_history is not None and self.plain_history is messages

    def unsealed(self, messages: object) -> bool:
        """Whether ``messages`` is the list read and its reader said it is :attr:`unsealed_history`."""
        return self.unsealed_history is not None and self.unsealed_history is messages

    def read_by(self, reader: str, request: Mapping[str, Any], cited: bool) -> None:
        """``reader``'s reader read canonical ``request`` (``cited``: it may hold url citations)."""
        self.reader = reader
        self.uncited = None if cited else request.get("messages")

    def handed_to(self, writer: str, request: Mapping[str, Any]) -> bool:
        """Hand the record to ``writer``'s writer: the :attr:`own` markers put when it is the
        reader's own format; whether ``request`` holds the history read without citations."""
        if self.own and writer == self.reader:
            self.put_own()
        return self.uncited is not None and self.uncited is request.get("messages")

    def put_own(self) -> None:
        """Put the :attr:`own` markers on their objects, as a reading with no record does."""
        for target, provider, make, argument in self.own:
            made = argument if make is None else make(argument)
            metadata = target.get("provider_metadata")
            if metadata is None:
                target["provider_metadata"] = {provider: made}
            else:
                metadata[provider] = made
        self.own = []

    def recall_tools(
        self,
        tools: list[dict[str, Any]],
        key: object,
        nested: str | None = None,
        *,
        unchecked: bool = False,
        schema: str = "parameters",
    ) -> tuple[list[dict[str, Any]] | None, bytes | None]:
        """The reading of ``tools`` by ``key`` from the memory of tool readings, its notes
        given again to this record; else None and the text to :meth:`remember_tools` the
        reading under (:func:`~chatcodec._providers.kit.remembered_tools.recall`; ``unchecked``:
        the caller's own list, before a closed front took it; ``schema``: where a wire tool
        holds its schema)."""
        found, text, recalled = recall(
            tools, key, self.own, self.schema_texts, nested, unchecked=unchecked, schema=schema
        )
        if recalled is not None:
            self.recalled = recalled
        return found, text

    def written_tools(
        self, tools: object, key: object, schema: str = "parameters", *, nested: str | None = None
    ) -> list[dict[str, Any]] | None:
        """Canonical ``tools`` as a writer (``key``: its function and what else its writing
        depends on; ``schema``: the wire tool's field for the schema; ``nested``: the key of
        the object a written tool holds it in) wrote them before, when they are the tools this
        conversion recalled (:func:`~chatcodec._providers.kit.remembered_tools.written`); else None."""
        return written(self.recalled, tools, key, schema, nested=nested)

    def remember_written_tools(
        self,
        tools: object,
        key: object,
        wire: list[dict[str, Any]],
        schema: str = "parameters",
        *,
        nested: str | None = None,
    ) -> None:
        """Remember ``wire``, canonical ``tools`` as a writer (``key``) wrote them with no loss,
        beside the reading they were recalled as
        (:func:`~chatcodec._providers.kit.remembered_tools.remember_written`)."""
        remember_written(self.recalled, tools, key, wire, schema, nested=nested)

    def remember_tools(
        self,
        text: bytes | None,
        key: object,
        tools: list[dict[str, Any]],
        canonical: list[dict[str, Any]] | None,
        *,
        start: int,
        nested: str | None = None,
        whole: bool = False,
        schema: str = "parameters",
    ) -> None:
        """Remember the reading :meth:`recall_tools` did not find, with what it noted here
        from ``own[start]`` on (:func:`~chatcodec._providers.kit.remembered_tools.remember`;
        ``whole``: its schemas too, for an ``unchecked`` recall)."""
        remember(
            text,
            key,
            tools,
            canonical,
            owned=self.own,
            texts=self.schema_texts,
            start=start,
            nested=nested,
            whole=whole,
            schema=schema,
        )


MODEL_OPTION = "model"
"""The option naming the model a request without one is sent to, for the ``OPTIONS`` table
of every provider whose body names the model (an option, not a field written back from
the bag, where a stored request may also set it)."""


NO_OPTIONS: Mapping[str, object] = MappingProxyType({})
"""The options of an encode that was given none."""


def read_options(
    provider: str, bag: Mapping[str, Any] | None, table: OptionTable, field: str = "provider_options"
) -> Mapping[str, object]:
    """The encoder options a stored ``provider_options[provider]`` (or a response's
    ``provider_metadata[provider]``) bag sets, by their public names: the table's
    :attr:`~chatcodec._option_table.OptionTable.stored` names, and a legacy ``_``-spelling
    (warned, :func:`~chatcodec._option_table.stored_options`). The bag is left as it is
    (the encoder leaves an option out of what it writes back)."""
    if not bag:
        return NO_OPTIONS
    found = stored_options(provider, table, bag, field)
    return MappingProxyType(found) if found else NO_OPTIONS


def with_field_data(request: dict[str, Any], provider: str, fields: Mapping[str, Any]) -> dict[str, Any]:
    """Canonical request data (taken over: a reader made it) with ``fields`` (wire fields
    the caller asks to send, ``extra_fields=``) over its ``provider_options[provider]``, a
    ``_``-key escaped so it is sent, not read as a marker."""
    if fields:
        provider_options = dict(request.get("provider_options") or {})
        provider_options[provider] = {**(provider_options.get(provider) or {}), **escaped_fields(fields)}
        request["provider_options"] = provider_options
    return request


ContextT = TypeVar("ContextT", bound="EncodeContext")


@dataclass(slots=True)
class EncodeContext:
    """One encode's shared state: who is writing, where losses go, for which model, with
    which options and rules.

    Every encoder role function (``encode_messages``, ``encode_part``, ``encode_tools``,
    ``encode_settings``, ``encode_usage``, ``encode_finish_reason``, the stream encoder)
    takes one, so a new setting or rule reaches all of them without a new argument."""

    provider: str
    """The registry name of the format being written: the key of this provider's own
    bags (``provider_metadata[provider]``), and the name losses and errors give."""
    losses: LossRecorder
    """Where what the format cannot carry is recorded; the caller settles it (warn,
    raise or ignore) once the encode is done."""
    _: KW_ONLY
    model: str | None = None
    """The request's (or response's) model, when known: some rules depend on it (Gemini 3
    wants thought signatures replayed, Bedrock replays Claude signatures only to Claude)."""
    options: Mapping[str, object] = field(default_factory=lambda: NO_OPTIONS)
    """This provider's encoder options, read-only and by public name
    (``reasoning_field``, ``unsigned_thinking``...): the one place encoders read settings
    from, by argument or from a stored bag (see :func:`read_options`)."""
    rules: ProviderRules | None = None
    """The target's rules table (its ``rules.py``, the codec's ``rules`` role): what the
    API versions and model families accept, applied last to a request body
    (:func:`~chatcodec._providers.contract.target_rules.apply_target_rules`); None for a provider
    without one."""
    for_request: bool = field(default=True)
    """Writing a request (True) or a response: some fields exist in only one of them
    (cache markers), and names follow request rules only in a request."""
    holds: set[str] | None = None
    """What the body written may hold of what target rules look for
    (:attr:`~chatcodec._providers.contract.target_rules.TargetRule.looks_for`), for a writer that
    keeps count (it sets an empty set and adds as it writes); None: not known, every rule
    in force runs. Shared by :meth:`extend`, so a provider's context adds to the same set."""
    reading: Reading | None = None
    """What the request's reading left this writer to reuse (:class:`Reading`), when one
    conversion reads and writes it; None: the writer makes what it needs itself."""

    def option(self, name: str) -> object:
        """The option ``name``, or None when not set."""
        return self.options.get(name)

    def extend(self, kind: type[ContextT], **fields: Any) -> ContextT:
        """This context as a provider's subclass of it, with that subclass's own
        ``fields``: how an encoder that needs more state (cache breakpoints, tool names
        by call id) keeps the shared fields the codec gave it."""
        shared: dict[str, Any] = {
            "provider": self.provider,
            "losses": self.losses,
            "model": self.model,
            "options": self.options,
            "rules": self.rules,
            "for_request": self.for_request,
            "holds": self.holds,
            "reading": self.reading,
        }  # each named (tests/test_encode_context.py holds them to the class's fields): a
        # comprehension of getattr over them cost more than making the object
        shared.update(fields)  # a shared field given anew wins
        return kind(**shared)


SHARED_FIELDS = tuple(field.name for field in dataclass_fields(EncodeContext))
"""The shared context's fields, which :meth:`EncodeContext.extend` passes on by name."""


@dataclass(slots=True)
class DecodeContext:
    """One decode's shared state: which format is read, where changes made while reading
    are recorded, and how strictly."""

    provider: str
    """The registry name of the format being read: the key of the bags the decoder fills."""
    losses: LossRecorder = field(default_factory=LossRecorder)
    """Where a reading that changes the input (a value normalised, a field the canonical
    form cannot hold exactly) is recorded; a decode that changes nothing leaves it empty."""
    strict: bool = False
    """Refuse what the documented wire format does not allow instead of reading it as
    far as it goes (the lenient default); the strict-boundary work reads it."""
    closed: bool = False
    """Set by a reader whose closed front took the whole body (:mod:`.closed_schema`):
    every free-form value was then checked in Rust as a JSON value no deeper than the
    canonical model holds it, so the codec need not write the canonical data again to be
    sure a model would hold it (:meth:`~chatcodec._providers.contract.provider_codec.ProviderCodec.read_request`)."""
    reading: Reading | None = None
    """Where a conversion's reading notes what its writer may reuse (:class:`Reading`); None
    when no writer follows (the canonical data is the caller's)."""
    tools_recalled: tuple[list[dict[str, Any]] | None, bytes] | None = None
    """What a reader's front found of the request's tools in the memory of tool readings
    (:meth:`Reading.recall_tools`, ``unchecked``) before its closed front took the body: their
    reading (its front then left them unchecked), or None and the text a new reading is
    remembered under; None: not looked up (the tools are recalled by the front's copy)."""
    cited: bool | None = None
    """Whether the reading put a url citation on a text part: said (True or False) by the
    reader of a format whose requests carry them (``Capabilities.citations`` names
    ``request``); None: not said, and a conversion's writer looks for them. A format
    without them in requests has none to say: its reader never puts one there."""


shown_as("chatcodec.contract", DecodeContext, EncodeContext, Reading)
shown_as("chatcodec.codec_kit", read_options)
