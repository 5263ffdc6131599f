"""The provider table of the conformance suite: one entry per codec, and nothing else.

Every law in ``tests/conformance`` is parametrized over :data:`PROVIDERS`; a new codec
gets the whole suite by adding one :class:`Provider` entry here (its fixtures copied to
``tests/fixtures/<name>/`` with their provenance, its SDK oracle written beside its own
tests). The laws use only the public API (``chatcodec``, ``chatcodec.testing``,
``chatcodec.stream_replay``), so refactors of the codecs' internals cannot break them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from hypothesis import strategies as st

import chatcodec
from conformance import (
    anthropic_rules,
    anthropic_streams,
    bedrock_converse_rules,
    bedrock_converse_streams,
    gemini_rules,
    gemini_streams,
    openai_chat_rules,
    openai_chat_streams,
    openai_responses_rules,
    openai_responses_streams,
)
from conformance.fixtures import JsonObject, stream_event_dicts
from conformance.normal_forms import identical
from conformance.stream_law import StreamCases
from providers.anthropic.test_properties import anthropic_responses
from providers.gemini.strategies import gemini_responses
from providers.openai_chat.test_properties import openai_responses

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"

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


@dataclass(frozen=True)
class Provider:
    """Everything the conformance laws need to know about one codec."""

    name: str
    """The registry name."""
    check_request: Callable[[JsonObject], None]
    """SDK oracle for an encoded request body (fails with the SDK's complaint)."""
    check_response: Callable[[JsonObject], None]
    """SDK oracle for an encoded response body."""
    check_stream: Callable[[list[JsonObject]], None]
    """SDK oracle for encoded (or recorded) stream events."""
    finish_reasons: Mapping[str, chatcodec.UnifiedFinishReason]
    """Every raw finish word the provider documents, with the unified reason it means."""
    with_finish_reason: Callable[[JsonObject, str], JsonObject]
    """A copy of a response body whose (first) finish word is the given one."""
    finish_reason_fixture: str
    """The recorded response the finish-reason law rewrites."""
    stream_pairs: Callable[[], list[StreamPair]]
    """Recorded streams and their non-streamed equivalents."""
    streams: StreamCases
    """Hand-written streams (plain, broken, one per decoder rule) and the mutation
    vocabulary of the stream law (``accumulate_stream`` gives what ``decode_stream`` does)."""
    shaped_responses: Callable[[], st.SearchStrategy[chatcodec.ChatResponse]]
    """Responses the provider carries exactly (its own shapes), streamed by the stream law."""
    single_hop: SingleHop
    """The single-hop loss law's generator and normal forms."""
    same_result: Comparable = identical
    """Normal form under which a streamed and a non-streamed result of the same
    response must be equal: only spellings a stream cannot reproduce are normalized."""
    for_sdk: Callable[[str, JsonObject], JsonObject] = lambda _name, body: body
    """Adapts a recorded body (by fixture name) to the installed SDK's types, for
    recordings older than a field the SDK now requires."""
    stream_gaps: Mapping[str, str] = field(default_factory=dict[str, str])
    """Recorded responses (by file name) and raw finish words left out of the laws that
    replay a response as a stream, each with the bug that breaks it (fix the bug, then
    delete the entry)."""
    silent_rewrites: Callable[[chatcodec.ChatRequest], chatcodec.ChatRequest] = lambda request: request
    """The documented rewrites the codec makes to a request on its way through without
    reporting a loss, because the request means the same after them (a setting the wire
    requires written out, a default setting left out, two spellings of one role). The
    cross-provider loss law accepts exactly these; each is listed with its reason."""

    def __repr__(self) -> str:  # Hypothesis prints it in every falsifying example
        return f"Provider({self.name!r})"

    @property
    def folder(self) -> Path:
        return FIXTURES / self.name

    def names(self, kind: str) -> list[str]:
        """File names of the recorded fixtures of one kind (``request``, ``response``,
        ``stream``); provider error bodies (``error_*``) are not responses."""
        return sorted(
            path.name
            for path in (self.folder / kind).iterdir()
            if path.is_file() and not (kind == "response" and path.name.startswith("error_"))
        )

    def load(self, kind: str, name: str) -> JsonObject:
        loaded: JsonObject = json.loads((self.folder / kind / name).read_text(encoding="utf-8"))
        return loaded

    def stream_text(self, name: str) -> str:
        return (self.folder / "stream" / name).read_text(encoding="utf-8")

    def stream_events(self, name: str) -> list[JsonObject]:
        return stream_event_dicts(self.stream_text(name))

    @cached_property
    def recorded(self) -> dict[str, list[str]]:
        return {kind: self.names(kind) for kind in ("request", "response", "stream")}


PROVIDERS: tuple[Provider, ...] = (
    Provider(
        name="openai-chat",
        check_request=openai_chat_rules.check_request,
        check_response=openai_chat_rules.check_response,
        check_stream=openai_chat_rules.check_stream,
        finish_reasons=openai_chat_rules.FINISH_REASONS,
        with_finish_reason=openai_chat_rules.with_finish_reason,
        finish_reason_fixture="text_stop.json",
        stream_pairs=lambda: openai_chat_rules.stream_pairs(PROVIDER["openai-chat"]),
        streams=openai_chat_streams.CASES,
        shaped_responses=openai_responses,
        single_hop=SingleHop(
            requests=openai_chat_rules.single_hop_requests,
            original=openai_chat_rules.single_hop_original,
            decoded=openai_chat_rules.single_hop_decoded,
        ),
        same_result=openai_chat_rules.streamed_form,
        silent_rewrites=openai_chat_rules.silent_rewrites,
    ),
    Provider(
        name="anthropic",
        check_request=anthropic_rules.check_request,
        check_response=anthropic_rules.check_response,
        check_stream=anthropic_rules.check_stream,
        finish_reasons=anthropic_rules.FINISH_REASONS,
        with_finish_reason=anthropic_rules.with_finish_reason,
        finish_reason_fixture="parallel_tool_use.json",
        stream_pairs=lambda: anthropic_rules.stream_pairs(PROVIDER["anthropic"]),
        streams=anthropic_streams.CASES,
        shaped_responses=anthropic_responses,
        single_hop=SingleHop(
            requests=anthropic_rules.single_hop_requests,
            original=anthropic_rules.meaning,
            decoded=anthropic_rules.meaning,
        ),
        same_result=anthropic_rules.compact_arguments,
        for_sdk=anthropic_rules.for_sdk,
        silent_rewrites=anthropic_rules.silent_rewrites,
    ),
    Provider(
        name="gemini",
        check_request=gemini_rules.check_request,
        check_response=gemini_rules.check_response,
        check_stream=gemini_rules.check_stream,
        finish_reasons=gemini_rules.FINISH_REASONS,
        with_finish_reason=gemini_rules.with_finish_reason,
        finish_reason_fixture="text_stop.json",
        stream_pairs=lambda: gemini_rules.stream_pairs(PROVIDER["gemini"]),
        streams=gemini_streams.CASES,
        shaped_responses=gemini_responses,
        single_hop=SingleHop(
            requests=gemini_rules.single_hop_requests,
            original=gemini_rules.single_hop_original,
            decoded=gemini_rules.single_hop_decoded,
        ),
        same_result=gemini_rules.streamed_form,
        for_sdk=gemini_rules.for_sdk,
        silent_rewrites=gemini_rules.silent_rewrites,
    ),
    Provider(
        name="bedrock-converse",
        check_request=bedrock_converse_rules.check_request,
        check_response=bedrock_converse_rules.check_response,
        check_stream=bedrock_converse_rules.check_stream,
        finish_reasons=bedrock_converse_rules.FINISH_REASONS,
        with_finish_reason=bedrock_converse_rules.with_finish_reason,
        finish_reason_fixture="tool_use_with_nova_thinking_text.json",
        stream_pairs=lambda: bedrock_converse_rules.stream_pairs(PROVIDER["bedrock-converse"]),
        streams=bedrock_converse_streams.CASES,
        shaped_responses=bedrock_converse_rules.bedrock_responses,
        single_hop=SingleHop(
            requests=bedrock_converse_rules.single_hop_requests,
            original=bedrock_converse_rules.meaning,
            decoded=bedrock_converse_rules.meaning,
        ),
        same_result=bedrock_converse_rules.compact_arguments,
        for_sdk=bedrock_converse_rules.for_sdk,
        silent_rewrites=bedrock_converse_rules.silent_rewrites,
    ),
    Provider(
        name="openai-responses",
        check_request=openai_responses_rules.check_request,
        check_response=openai_responses_rules.check_response,
        check_stream=openai_responses_rules.check_stream,
        finish_reasons=openai_responses_rules.FINISH_REASONS,
        with_finish_reason=openai_responses_rules.with_finish_reason,
        finish_reason_fixture="output_text_logprobs.json",
        stream_pairs=lambda: openai_responses_rules.stream_pairs(PROVIDER["openai-responses"]),
        streams=openai_responses_streams.CASES,
        shaped_responses=openai_responses_rules.shaped_responses,
        single_hop=SingleHop(
            requests=openai_responses_rules.single_hop_requests,
            original=openai_responses_rules.single_hop_original,
            decoded=openai_responses_rules.single_hop_decoded,
        ),
        for_sdk=openai_responses_rules.for_sdk,
        silent_rewrites=openai_responses_rules.silent_rewrites,
    ),
)

PROVIDER = {provider.name: provider for provider in PROVIDERS}
PROVIDER_NAMES = list(PROVIDER)
"""Hypothesis tests take the name (it prints a falsifying example's dataclass in full)."""


def by_name(provider: Provider) -> str:
    """Test ids: the registry name."""
    return provider.name


def fixture_cases(kind: str) -> list[tuple[Provider, str]]:
    """``(provider, file name)`` for every recorded fixture of ``kind``, every provider."""
    return [(provider, name) for provider in PROVIDERS for name in provider.recorded[kind]]


def case_id(case: object) -> str:
    return case.name if isinstance(case, Provider) else str(case)
