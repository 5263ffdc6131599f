"""What the conformance laws need to know about one provider: :class:`ProviderEntry`.

A codec's distribution states the facts its codec gives under a ``chatcodec.laws`` entry
point (the built-ins' in ``built_in/``); the repository's tests add those of recordings and
SDKs (``tests/providers/<name>/conformance.py``). The laws read only the entry, so no law
names a provider. A provider's difference from the others
is a field here (data, or a named hook with its reason in the entry's docstring), never a
branch on its name in a law.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from hypothesis import strategies as st

import chatcodec
from chatcodec._public_label import shown_as
from chatcodec.testing._laws.fixtures import JsonObject, stream_event_dicts
from chatcodec.testing._laws.normal_forms import identical
from chatcodec.testing._laws.stream_law import StreamCases

Comparable = Callable[[chatcodec.ChatResponse], object]
"""Maps a response to what two spellings of the same result share (see each use)."""


@dataclass(frozen=True)
class StreamPair:
    """A recorded stream and the non-streamed body the same request gave (or would give)."""

    stream: str
    """File name of the stream under ``stream/``."""
    response: Callable[[], JsonObject]
    """The non-streamed body: a recorded file, or the SDK's own accumulation of the stream."""
    comparable: Comparable
    """What the two share: separate live recordings differ in ids, timestamps and usage."""


@dataclass(frozen=True)
class SingleHop:
    """What the single-hop loss law needs: encode a request, decode it, and a loss is
    reported exactly when ``decoded(read back) != original(request)``."""

    requests: Callable[[], st.SearchStrategy[chatcodec.ChatRequest]]
    """The requests to encode (any canonical request, without what only the provider's
    own decoder writes)."""
    original: Callable[[chatcodec.ChatRequest], object]
    """What a request reads back as when nothing is lost (after the documented rewrites)."""
    decoded: Callable[[chatcodec.ChatRequest], object]
    """The same normal form, of the request read back."""


StreamPlace = Literal["with the finish", "on any event", "none"]
"""Where a provider's stream carries a choice's (and its message's) bag: only with the
choice's finish reason, on any event (so also for a choice that never finishes), or
nowhere (every such bag is reported as a loss)."""


@dataclass(frozen=True)
class BagSamples:
    """The bags this provider's decoder writes on a choice and on its message, for the
    law that a replayed stream carries them as ``encode_response`` does."""

    choice: JsonObject
    """A choice's bag as the decoder writes one (any bag, where the wire has no place)."""
    message: JsonObject | None
    """A message's bag as the decoder writes one, or None where the wire allows none."""
    stream_place: StreamPlace
    """Where the provider's stream carries them."""
    recorded: bool
    """Whether some recorded responses carry a choice or message bag."""


NO_BAGS = BagSamples(choice={"x_trace": "abc"}, message={"x_trace": "abc"}, stream_place="none", recorded=False)
"""A decoder that writes no choice or message bag: any bag has no place on the wire, so a
replayed stream reports them, as ``encode_response`` does."""


def no_sdk_oracle(_body: object) -> None:
    """The SDK check of a provider with no SDK types to check against yet: accepts anything."""


def no_stream_pairs(_entry: ProviderEntry) -> list[StreamPair]:
    """No recorded stream has a non-streamed equivalent (yet)."""
    return []


def recorded_counts(folder: Path | None) -> dict[str, int]:
    """How many recordings of each kind ``folder`` holds (none without a folder; error bodies
    are not responses)."""
    if folder is None:
        return dict.fromkeys(("request", "response", "stream"), 0)
    return {
        kind: sum(
            1
            for path in (folder / kind).iterdir()
            if path.is_file() and not (kind == "response" and path.name.startswith("error_"))
        )
        if (folder / kind).is_dir()
        else 0
        for kind in ("request", "response", "stream")
    }


DeepValueHook = Callable[[list[JsonObject], object], tuple[list[JsonObject], int]]
"""``(recorded events, a deeply nested value) -> (events with the value in a field the
stream decoder keeps, the position of the event that holds it)``."""


@dataclass(frozen=True)
class ProviderEntry:
    """Everything the conformance laws need to know about one codec."""

    name: str
    """The registry name."""
    names_in_prose: Sequence[str]
    """The words that name this provider (its vendor, its models): no law may use them."""
    check_request: Callable[[JsonObject], None]
    """SDK oracle for an encoded request body (fails with the SDK's complaint)."""
    check_response: Callable[[JsonObject], None]
    """SDK oracle for an encoded response body."""
    check_stream: Callable[[list[JsonObject]], None]
    """SDK oracle for encoded (or recorded) stream events."""
    recordings: Mapping[str, int]
    """How many fixtures of each kind are recorded (a lost or new file changes it)."""
    finish_reasons: Mapping[str, chatcodec.UnifiedFinishReason]
    """Every raw finish word the provider documents, with the unified reason it means."""
    with_finish_reason: Callable[[JsonObject, str], JsonObject]
    """A copy of a response body whose (first) finish word is the given one."""
    finish_reason_fixture: str
    """The recorded response the finish-reason law rewrites."""
    pair_streams: Callable[[ProviderEntry], list[StreamPair]]
    """Recorded streams (of this entry) and their non-streamed equivalents."""
    stream_pair_count: int
    """How many recorded streams have a non-streamed equivalent."""
    streams: StreamCases | None
    """Hand-written streams (plain, broken, one per decoder rule) and the mutation
    vocabulary of the stream law (``accumulate_stream`` gives what ``decode_stream`` does)."""
    shaped_responses: Callable[[], st.SearchStrategy[chatcodec.ChatResponse]]
    """Responses the provider carries exactly (its own shapes), streamed by the stream law."""
    single_hop: SingleHop
    """The single-hop loss law's generator and normal forms."""
    tool_name_rule: re.Pattern[str] | None
    """The provider's documented tool-name rule, written out from its SDK or API reference
    (not taken from the codec), with the source in the entry."""
    bags: BagSamples
    """The bags its decoder writes on a choice and a message, and where its stream has them."""
    deep_kept_value: DeepValueHook
    """Puts a value into a field of a recorded stream that the decoder keeps as it is."""
    same_result: Comparable = identical
    """Normal form under which a streamed and a non-streamed result of the same
    response must be equal: only spellings a stream cannot reproduce are normalized."""
    for_sdk: Callable[[str, JsonObject], JsonObject] = lambda _name, body: body
    """Adapts a recorded body (by fixture name) to the installed SDK's types, for
    recordings older than a field the SDK now requires."""
    stream_gaps: Mapping[str, str] = field(default_factory=lambda: {})
    """Recorded responses (by file name) and raw finish words left out of the laws that
    replay a response as a stream, each with the bug that breaks it (fix the bug, then
    delete the entry)."""
    silent_rewrites: Callable[[chatcodec.ChatRequest], chatcodec.ChatRequest] = lambda request: request
    """The documented rewrites the codec makes to a request on its way through without
    reporting a loss, because the request means the same after them (a setting the wire
    requires written out, a default setting left out, two spellings of one role). The
    cross-provider loss law accepts exactly these; each is listed with its reason."""
    unplaced_response_fields: Sequence[str] = ()
    """Dotted canonical response fields this wire has no place for (``created``,
    ``usage.cache_write_tokens``): a response converted here loses them, reported or by
    design (the server's clock is nothing a user sent), so a law over responses converted
    from another format compares them out and sets their reports aside."""
    marker_requests: Mapping[str, JsonObject] = field(default_factory=lambda: {})
    """A wire request for each marker the provider declares meaningful, which makes its
    decoder write that marker."""
    spelling_twins: Mapping[str, tuple[JsonObject, JsonObject]] = field(default_factory=lambda: {})
    """Wire requests that differ from a plain twin only in a spelling this wire's reader marks
    so its own writer restores it (a key's name, an SDK dump's ``null`` fields), by name:
    converted to any other format, the two give the same body and the same reports."""
    marker_responses: Mapping[str, JsonObject] = field(default_factory=lambda: {})
    """A wire response for a meaningful marker its response decoder writes."""
    sampling_options: Mapping[str, Any] = field(default_factory=lambda: {})
    """Encoder options under which this wire takes the sampling settings (``temperature``,
    ``top_p``) a law sends through it: an API version that still has them (the laws skip
    every range rule themselves: they send numbers of any size)."""
    rule_models: Sequence[str] = ()
    """Model ids a model-family rule of this provider's ``rules.py`` applies to (one of each
    family), for laws over its rules: a rule naming the keys it reads leaves a body without
    them as it is, for each of these models (``law_rule_reads``)."""
    own_parameters: Sequence[str] = ()
    """Top-level request keys of numeric settings only this wire has
    (integers above 2**53 survive a conversion to the same provider)."""
    reports_reparsed_arguments: bool = False
    """The wire takes tool-call arguments as a parsed object, and the encoder reports the
    argument text whenever parsing changes it (duplicate keys, rounded numbers)."""
    known_path_bugs: Mapping[tuple[str, str | None], str] = field(default_factory=lambda: {})
    """``(error type, first path step or None for any)`` of validation errors whose paths the
    mutation law does not check yet, each with its bug (fix it, then delete the entry)."""
    fixtures: Path | None = None
    """The folder holding the recordings (``request/``, ``response/``, ``stream/``), or None
    for a codec checked without any (the laws over recordings have no case for it). A codec
    registered twice (a folder's streamless twin) reads the same wire, so the same folder."""

    @classmethod
    def minimal(
        cls,
        name: str,
        *,
        finish_reasons: Mapping[str, chatcodec.UnifiedFinishReason],
        with_finish_reason: Callable[[JsonObject, str], JsonObject],
        finish_reason_fixture: str,
        streams: StreamCases | None,
        shaped_responses: Callable[[], st.SearchStrategy[chatcodec.ChatResponse]],
        single_hop: SingleHop,
        tool_name_rule: re.Pattern[str] | None,
        deep_kept_value: DeepValueHook,
        **stated: Any,
    ) -> ProviderEntry:
        """An entry from the facts only the provider's documentation gives (its finish
        words, its tool-name rule, its stream cases and normal forms), the rest derived
        unless ``stated``: ``names_in_prose`` the registry name's vendor word
        (its part before the first ``-``), no SDK oracle, ``recordings`` the fixture
        folder's counts (``fixtures``, or the registry name) (state them to pin the folder), no stream pairs
        (``stream_pair_count``: as many as ``pair_streams`` gives), and :data:`NO_BAGS`."""
        stated.setdefault("names_in_prose", (name.partition("-")[0],))
        for oracle in ("check_request", "check_response", "check_stream"):
            stated.setdefault(oracle, no_sdk_oracle)
        stated.setdefault("recordings", recorded_counts(stated.get("fixtures")))
        stated.setdefault("pair_streams", no_stream_pairs)
        stated.setdefault("bags", NO_BAGS)
        counted = "stream_pair_count" not in stated
        entry = cls(
            name=name,
            finish_reasons=finish_reasons,
            with_finish_reason=with_finish_reason,
            finish_reason_fixture=finish_reason_fixture,
            streams=streams,
            shaped_responses=shaped_responses,
            single_hop=single_hop,
            tool_name_rule=tool_name_rule,
            deep_kept_value=deep_kept_value,
            stream_pair_count=stated.pop("stream_pair_count", 0),
            **stated,
        )
        return replace(entry, stream_pair_count=len(entry.stream_pairs())) if counted else entry

    def __repr__(self) -> str:  # Hypothesis prints it in every falsifying example
        return f"ProviderEntry({self.name!r})"

    @property
    def folder(self) -> Path | None:
        return self.fixtures

    def names(self, kind: str) -> list[str]:
        """File names of the recorded fixtures of one kind (``request``, ``response``,
        ``stream``); provider error bodies (``error_*``) are not responses. A kind without
        its folder has none (a codec without streams has no ``stream/``, and git keeps no
        empty folder), as :func:`recorded_counts` counts it."""
        if self.folder is None or not (folder := self.folder / kind).is_dir():
            return []
        return sorted(
            path.name
            for path in folder.iterdir()
            if path.is_file() and not (kind == "response" and path.name.startswith("error_"))
        )

    def load(self, kind: str, name: str) -> JsonObject:
        loaded: JsonObject = json.loads((self._folder / kind / name).read_text(encoding="utf-8"))
        return loaded

    @property
    def _folder(self) -> Path:
        assert self.folder is not None, f"{self.name} has no recordings"
        return self.folder

    def stream_text(self, name: str) -> str:
        return (self._folder / "stream" / name).read_text(encoding="utf-8")

    def stream_events(self, name: str) -> list[JsonObject]:
        return stream_event_dicts(self.stream_text(name))

    def stream_pairs(self) -> list[StreamPair]:
        return self.pair_streams(self)

    @cached_property
    def recorded(self) -> dict[str, list[str]]:
        return {kind: self.names(kind) for kind in ("request", "response", "stream")}


shown_as("chatcodec.testing", BagSamples, ProviderEntry, SingleHop, StreamPair)
