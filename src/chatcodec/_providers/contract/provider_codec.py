"""The one codec class every provider is an instance of, and the roles it is built from.

A provider folder writes functions, never a codec class, and no codec object either: the
registry builds each built-in's as :meth:`ProviderCodec.from_package` does (each role
imported when first read: :func:`from_folder`), which finds the
folder's role modules by their file names (``request.py``, ``response.py``,
``finish_reason.py``, ``usage.py``, ``messages.py``, ``parts.py``, ``tools.py``,
``settings.py``, ``capabilities.py``, ``rules.py``, ``edge.py``, ``structure.py``,
``dialect.py``, ``stream_decode.py``, ``stream_encode.py``) and gives a role the folder
does not have its default (no tools, no settings, no usage, no stream...). So a folder is
the modules it has, the forwarding is written once, and a reader who knows one folder
knows them all.

Each role is a protocol in :mod:`chatcodec._providers.contract.roles`, with one signature for every
provider. Where a provider's reading really differs, the difference is a named keyword
argument with a default (Gemini's ``decode_finish_reason(..., has_tool_calls=...)``), as
Vercel's AI SDK does with ``mapGoogleFinishReason({finishReason, hasToolCalls})``.
``decode_usage`` and ``decode_finish_reason`` map one value and take no context.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from importlib import import_module
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

from chatcodec._codec_protocols import RecordStreamEncoder, StreamDecoder, StreamEncoder
from chatcodec._losses import LossRecorder
from chatcodec._option_table import OptionTable
from chatcodec._payloads import load_object, too_deep
from chatcodec._providers.contract.capabilities import Capabilities
from chatcodec._providers.contract.context import NO_OPTIONS, DecodeContext, EncodeContext, Reading, read_options
from chatcodec._providers.contract.folder import LazyRole, codec_of, without_streams
from chatcodec._providers.contract.reading import held, reading, validated
from chatcodec._providers.contract.rules_applied import RulesApplied
from chatcodec._providers.contract.target_rules import ProviderRules, apply_target_rules, outside_own_ranges
from chatcodec._providers.kit.bags import own_bag
from chatcodec._providers.kit.citations import report_request_citations, report_response_citations
from chatcodec._providers.kit.depth_guard import DepthGuard
from chatcodec._providers.kit.field_sets import FieldSets, load_field_sets
from chatcodec._providers.kit.freeform_calls import holds_custom_calls, without_custom_calls
from chatcodec._providers.kit.logprob_settings import report_choice_logprobs, report_logprob_settings
from chatcodec._providers.kit.origins import origins_in, origins_module
from chatcodec._providers.kit.provider_kit import OUTSIDE_RANGE
from chatcodec._public_label import shown_as

if TYPE_CHECKING:  # a codec loads no canonical model until one is asked for (first use), nor the role protocols
    from chatcodec._model.messages import AnyMessage
    from chatcodec._model.request import ChatRequest
    from chatcodec._model.response import ChatResponse
    from chatcodec._model.stream_events import AnyStreamEvent
    from chatcodec._model.stream_records import AnyStreamRecord
    from chatcodec._providers.contract.edge import Edge
    from chatcodec._providers.contract.roles import (
        CapabilitiesTable,
        DialectFunctions,
        EdgeTable,
        FinishReasonFunctions,
        JsonFront,
        MessageFunctions,
        PartFunctions,
        RequestFunctions,
        ResponseFunctions,
        RulesTable,
        SettingsFunctions,
        StructureTable,
        ToolFunctions,
        UsageFunctions,
    )
    from chatcodec._providers.contract.structure import Structure
    from chatcodec._providers.kit.origins import Origin
    from chatcodec.streams._builder import StreamBuilder

ProviderContextT = TypeVar("ProviderContextT", bound=EncodeContext)
RequestSide = tuple["RequestFunctions", "ProviderRules | None", type[EncodeContext]]  # _requests_and_rules


class ProviderCodec:
    """A wire format's codec, assembled from its folder's role modules: built from the
    package by :meth:`from_package` (the registry's way for every built-in), or given
    the role modules one by one."""

    __slots__ = (
        "_edge",
        "_edge_role",
        "_new_stream_decoder",
        "_new_stream_encoder",
        "_request_side",
        "_roles",
        "_structure",
        "_structure_role",
        "capabilities",
        "name",
        "options",
    )

    name: str
    """The registry name (``"openai-chat"``)."""
    capabilities: Capabilities
    """What the wire can carry (its ``capabilities.py``): read by the shared history rules,
    strict mode and the conformance laws, so none assumes a feature of every provider."""
    options: OptionTable
    """This encoder's options, by their one name."""
    _roles: dict[str, object]
    """The role modules by argument name, a built-in folder's each a
    :class:`~chatcodec._providers.contract.folder.LazyRole` until first read."""
    _edge: Edge | None
    _structure: Structure | None

    def __init__(
        self,
        name: str,
        *,
        options: OptionTable,
        requests: RequestFunctions,
        responses: ResponseFunctions,
        capabilities: CapabilitiesTable,
        finish_reasons: FinishReasonFunctions | None = None,
        usage: UsageFunctions | None = None,
        messages: MessageFunctions[ProviderContextT] | None = None,
        parts: PartFunctions[ProviderContextT] | None = None,
        tools: ToolFunctions[ProviderContextT] | None = None,
        settings: SettingsFunctions[ProviderContextT] | None = None,
        stream_decoder: Callable[[StreamBuilder | None, DecodeContext], StreamDecoder] | None = None,
        stream_encoder: Callable[[EncodeContext], StreamEncoder | RecordStreamEncoder] | None = None,
        rules: RulesTable | None = None,
        structure: StructureTable | str | None = None,
        dialect: DialectFunctions | None = None,
        edge: EdgeTable | str | None = None,
    ) -> None:
        """The arguments are the folder's modules (and its two stream classes), each
        checked against its role's protocol; ``options`` is the encoder's option table
        (:class:`~chatcodec._option_table.OptionTable`). Only the request, response and
        capabilities roles are required: a wire without tools, settings, usage, finish
        words or streams leaves those out, and every stream entry point then raises
        :class:`~chatcodec.CodecNotAvailableError` naming the codec and what it lacks.
        ``edge`` and ``structure`` may be a module's dotted name, imported on first read
        (a conversion reads neither, and importing them, with the contract's records, is a large
        part of a fresh process's first conversion)."""
        self.name, self.options, self.capabilities = name, options, capabilities.CAPABILITIES
        self._roles = {
            "requests": requests,
            "responses": responses,
            "finish_reasons": finish_reasons,
            "usage": usage,
            "messages": messages,
            "parts": parts,
            "tools": tools,
            "settings": settings,
            "rules": rules,
            "dialect": dialect,
        }
        self._new_stream_decoder, self._new_stream_encoder = stream_decoder, stream_encoder
        self._request_side: RequestSide | None = None  # _requests_and_rules
        self._structure_role, self._structure = structure, None
        self._edge_role, self._edge = edge, None

    @classmethod
    def from_package(
        cls, package: str, /, *, name: str | None = None, options: OptionTable | None = None
    ) -> ProviderCodec:
        """The codec of the provider folder ``package`` (a dotted package name,
        ``"chatcodec_cohere"``): how the registry builds each built-in (its roles imported when
        first read, :func:`from_folder`), and what an
        outside distribution's entry point may name (``cohere = "chatcodec_cohere"``, or
        ``CODEC = ProviderCodec.from_package("chatcodec_cohere")`` in one of its modules).

        Each role is the package's module of that file name
        (:data:`~chatcodec._providers.contract.folder.ROLE_FILES`). Its ``markers.py`` gives
        ``PROVIDER`` (the name, unless ``name`` is given), ``OPTIONS`` (the options, unless
        ``options`` is given; no options without one) and, optionally, ``ROLES``: a role's
        file name -> the ``"module"`` or ``"module:attribute"`` that plays it instead of a
        file of the folder (a family's reader shared by two folders). The edge, structure
        and stream modules are imported on their first use, the others now. A role the
        folder does not have gets its default (no tools, no stream...); a folder without
        ``request.py``, ``response.py`` or ``capabilities.py`` is refused with a
        :class:`TypeError` naming what is missing, as is a role module without its
        protocol's functions."""
        return codec_of(cls, package, name=name, options=options, lazy=False)

    def _role(self, argument: str) -> Any:
        """The role module given as ``argument``, imported now if it was only named (a
        built-in folder's, :func:`from_folder`)."""
        role = self._roles[argument]
        if isinstance(role, LazyRole):
            role = self._roles[argument] = role.load()
        return role

    @property
    def rules(self) -> ProviderRules | None:
        """The target's rules (its ``rules.py`` table), put in every encode context and applied
        last by :meth:`encode_request`; None for a provider without a table."""
        table: RulesTable | None = self._role("rules")
        return None if table is None else table.RULES

    @property
    def finish_reasons(self) -> FinishReasonFunctions | None:
        """The role modules the request and response roles call, kept for readers above the
        providers (the dialect readers), which reach a provider only through its codec; None
        for a role the wire does not have (a history without usage, a wire without tools).
        A built-in folder's is imported when first read (a stream reads none)."""
        found: FinishReasonFunctions | None = self._role("finish_reasons")
        return found

    @property
    def usage(self) -> UsageFunctions | None:
        """The ``usage.py`` role (as :attr:`finish_reasons`)."""
        found: UsageFunctions | None = self._role("usage")
        return found

    @property
    def messages(self) -> MessageFunctions[Any] | None:
        """The ``messages.py`` role (as :attr:`finish_reasons`)."""
        found: MessageFunctions[Any] | None = self._role("messages")
        return found

    @property
    def parts(self) -> PartFunctions[Any] | None:
        """The ``parts.py`` role (as :attr:`finish_reasons`)."""
        found: PartFunctions[Any] | None = self._role("parts")
        return found

    @property
    def tools(self) -> ToolFunctions[Any] | None:
        """The ``tools.py`` role (as :attr:`finish_reasons`)."""
        found: ToolFunctions[Any] | None = self._role("tools")
        return found

    @property
    def settings(self) -> SettingsFunctions[Any] | None:
        """The ``settings.py`` role (as :attr:`finish_reasons`)."""
        found: SettingsFunctions[Any] | None = self._role("settings")
        return found

    @property
    def _requests(self) -> RequestFunctions:
        found: RequestFunctions = self._role("requests")
        return found

    @property
    def _responses(self) -> ResponseFunctions:
        found: ResponseFunctions = self._role("responses")
        return found

    def _requests_and_rules(self) -> RequestSide:
        """The request role, the target rules and its writer's context class (its ``CONTEXT``), held once
        loaded: a request's read and write find them with no call (``self._request_side or ...``)."""
        side = self._request_side = (self._requests, self.rules, getattr(self._requests, "CONTEXT", EncodeContext))
        return side

    def __repr__(self) -> str:
        return f"ProviderCodec({self.name!r})"

    def guard(self, role: Callable[[str, Any], object], stream: Callable[[str, Any], Any]) -> None:
        """Each role module replaced by ``role(argument, module)``, each stream maker by
        ``stream(file, maker)``: an installed codec's functions checked (:mod:`.outside_roles`)."""
        self._roles = {key: None if self._role(key) is None else role(key, self._role(key)) for key in self._roles}
        decode, encode = self._new_stream_decoder, self._new_stream_encoder
        self._new_stream_decoder = None if decode is None else stream("stream_decode.py", decode)
        self._new_stream_encoder = None if encode is None else stream("stream_encode.py", encode)
        self._request_side = None

    @property
    def edge(self) -> Edge | None:
        """What the provider says on HTTP (its ``edge.py``), read through
        :func:`~chatcodec._registry.get_edge`; None for a codec without one, which the
        server, stream framing and error shapes refuse."""
        edge = self._edge
        if edge is None and self._edge_role is not None:
            role = self._edge_role
            edge = self._edge = (import_module(role) if isinstance(role, str) else role).EDGE
        return edge

    @edge.setter
    def edge(self, edge: Edge | None) -> None:
        self._edge, self._edge_role = edge, None

    @property
    def structure(self) -> Structure | None:
        """The provider's conversation shape and refusals (its ``structure.py``), for the
        structural rules of strict mode; None for a provider without one."""
        structure = self._structure
        if structure is None and self._structure_role is not None:
            role = self._structure_role
            structure = self._structure = (import_module(role) if isinstance(role, str) else role).STRUCTURE
        return structure

    def decode_context(self) -> DecodeContext:
        """A fresh context for one decode."""
        return DecodeContext(self.name)

    def encode_context(
        self,
        losses: LossRecorder,
        *,
        model: str | None = None,
        bag: Mapping[str, Any] | None = None,
        options: Mapping[str, Any] | None = None,
        for_request: bool = True,
    ) -> EncodeContext:
        """A fresh context for one encode: ``options`` are the caller's, by public name;
        ``bag`` is this provider's own bag of the request or response, where stored
        requests may still set an option (``provider_options[name]``: an option given by
        argument wins)."""
        return self._encode_context(losses, model, bag, options, for_request=for_request, rules=self.rules)

    def _encode_context(
        self,
        losses: LossRecorder,
        model: str | None,
        bag: Any,
        options: Any,
        *,
        for_request: bool,
        rules: Any,
        kind: type[EncodeContext] = EncodeContext,
    ) -> EncodeContext:
        """:meth:`encode_context` (``bag``, ``options`` as there) as a ``kind`` (a request module's ``CONTEXT``),
        its ``rules`` (``ProviderRules`` or ``None``) given: a stream's holds none (rules apply to requests alone)."""
        stored = "provider_options" if for_request else "provider_metadata"
        found = read_options(self.name, bag, self.options, stored) if bag else NO_OPTIONS  # no bag: no call
        if options:
            found = MappingProxyType({**found, **options})
        return kind(self.name, losses, model=model, options=found, rules=rules, for_request=for_request)

    # --- requests -------------------------------------------------------------------------

    def read_request(self, payload: dict[str, Any], *, noted: Reading | None = None) -> dict[str, Any]:
        """A request body as canonical data (no model built): the one reader. It refuses
        what :meth:`decode_request` refuses: a body the reader's closed front took holds
        only values the model holds, and its reader keeps them so for the rest (the laws
        check it); a reader with no closed front at all (an outside codec's) need not check
        the values it reads, so the model checks them (:func:`held`). ``noted``: a
        conversion's record for its writer (:class:`Reading`, :meth:`write_request`'s)."""
        requests, rules, _ = self._request_side or self._requests_and_rules()
        context = DecodeContext(self.name)
        context.reading = noted
        canonical = self._marked(reading(requests.decode_request, payload, context), outside_own_ranges(rules, payload))
        if noted is not None:
            noted.read_by(self.name, canonical, context.cited is not False and "request" in self.capabilities.citations)
        if not context.closed and getattr(requests, "JSON_FRONT", None) is None:
            from chatcodec._model.request import ChatRequest  # no closed front: nothing checked the values

            held(canonical, self.decode_request, payload, ChatRequest)
        elif not context.closed:
            held(canonical, self.decode_request, payload)
        return canonical

    def _read_request_unheld(self, payload: dict[str, Any]) -> dict[str, Any]:
        canonical = reading(self._requests.decode_request, payload, self.decode_context())
        return self._marked(canonical, outside_own_ranges(self.rules, payload))

    def _marked(self, canonical: dict[str, Any], outside: list[str]) -> dict[str, Any]:
        """``canonical`` with the ``_outside_range`` marker (``kit/provider_kit.py``) in its bag when
        the payload sets a sampling value this format's own range does not take (``outside``, from
        :func:`outside_own_ranges`): the caller's error, which a writer sends as it came rather than clamping it."""
        if outside:
            bags = canonical.setdefault("provider_options", {})
            bags[self.name] = {**bags.get(self.name, {}), OUTSIDE_RANGE: outside}
        return canonical

    def read_request_json(self, text: str | bytes | bytearray, *, noted: Reading | None = None) -> dict[str, Any]:
        """A request body given as JSON text, as canonical data: parsed and validated in
        one pass in Rust by the provider's closed schema (its request module's
        ``JSON_FRONT``), then read; a body of another shape, or no JSON front, is parsed
        as :func:`~chatcodec._payloads.load_object` parses it and read as a dict."""
        validated = self.common_json(text)
        if validated is None:
            return self.read_request(load_object(text, f"{self.name} request"), noted=noted)
        try:
            return self.read_request(validated, noted=noted)
        finally:
            self.release_json()

    def common_json(self, text: str | bytes | bytearray) -> dict[str, Any] | None:
        """JSON text parsed and validated in one pass by the provider's closed front, when
        it takes it (the copy is taken: :meth:`read_request` of it on this thread does not
        validate it again); ``None`` otherwise, or for a provider without a front."""
        front: JsonFront | None = getattr((self._request_side or self._requests_and_rules())[0], "JSON_FRONT", None)
        return None if front is None else front.read_json(text)

    def release_json(self) -> None:
        """Forget the copy :meth:`common_json` took (a read that did not take it)."""
        front: JsonFront | None = getattr((self._request_side or self._requests_and_rules())[0], "JSON_FRONT", None)
        if front is not None:
            front.release()

    def decode_request(self, payload: dict[str, Any]) -> ChatRequest:
        """Read a request body into a model; everything without a canonical field is kept."""
        from chatcodec._model.request import ChatRequest

        return reading(validated(ChatRequest, self._read_request_unheld), payload, self.decode_context())

    def write_request(
        self,
        request: Mapping[str, Any],
        losses: LossRecorder,
        *,
        options: Mapping[str, Any] | None = None,
        noted: Reading | None = None,
        applied: RulesApplied | None = None,
    ) -> dict[str, Any]:
        """Write canonical request data as a body: the one writer. What the format cannot
        carry is recorded in ``losses``; the provider's rules in force (API version, model
        family) are applied last (:mod:`chatcodec._providers.contract.target_rules`), and
        token log probability settings a format cannot ask for reported. ``noted``: what its reading
        left the writer (:meth:`read_request`'s); ``applied``: told the API version applied."""
        bag = own_bag(request.get("provider_options"), self.name)
        requests, rules, kind = self._request_side or self._requests_and_rules()  # kind: no second one by ``extend``
        context = self._encode_context(
            losses, request.get("model"), bag, options, for_request=True, rules=rules, kind=kind
        )
        context.reading = noted
        uncited = noted is not None and noted.handed_to(self.name, request)
        if "request" not in self.capabilities.citations and not uncited:  # before the writer:
            report_request_citations(request, losses, self.capabilities.display_name)  # named where the input has them
        try:
            wire = requests.encode_request(request, context)
        except RecursionError:
            raise too_deep() from None
        finally:
            losses.renumber(None)  # the rules number the body's own messages (history_for's renumbering ends)
            losses.trace(None)  # and name places in the body, not in the input converted
        if not self.capabilities.logprob_settings:
            report_logprob_settings(request, losses, self.capabilities.display_name)
        version = apply_target_rules(wire, context, request=request)
        if applied is not None:  # the caller sends the version header of the body written
            applied.version = version
        return wire

    def encode_request(
        self, request: ChatRequest, losses: LossRecorder, *, options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """Write a request model as a body: its canonical data through :meth:`write_request`."""
        return self.write_request(request.model_dump(), losses, options=options)

    # --- responses ------------------------------------------------------------------------

    def read_response(self, payload: dict[str, Any]) -> dict[str, Any]:
        """A response body as canonical data (no model built)."""
        return reading(self._responses.decode_response, payload, self.decode_context())

    def decode_response(self, payload: dict[str, Any]) -> ChatResponse:
        """Read a response body into a model."""
        from chatcodec._model.response import ChatResponse

        return reading(validated(ChatResponse, self.read_response), payload, self.decode_context())

    def write_response(
        self, response: Mapping[str, Any], losses: LossRecorder, *, options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """Write canonical response data as a body (for proxies and test doubles)."""
        if not self.capabilities.freeform_calls and holds_custom_calls(response):
            response = without_custom_calls(response, losses, self.capabilities.display_name)
        if not self.capabilities.logprobs:
            report_choice_logprobs(response, losses, self.capabilities.display_name)
        if "response" not in self.capabilities.citations:
            report_response_citations(response, losses, self.capabilities.display_name)
        bag = own_bag(response.get("provider_metadata"), self.name)
        context = self.encode_context(losses, model=response.get("model"), bag=bag, options=options, for_request=False)
        try:
            return self._responses.encode_response(response, context)
        except RecursionError:
            raise too_deep() from None

    def encode_response(
        self, response: ChatResponse, losses: LossRecorder, *, options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """Write a response model as a body: its canonical data through :meth:`write_response`."""
        return self.write_response(response.model_dump(), losses, options=options)

    def read_messages(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """A bare wire ``messages`` list (a stored conversation) as canonical message data."""
        return reading(self._requests.decode_message_list, messages, self.decode_context())

    def decode_messages(self, messages: list[dict[str, Any]]) -> list[AnyMessage]:
        """Read a bare wire ``messages`` list (a stored conversation) into models."""
        from chatcodec._canonical_validation import validate_with
        from chatcodec._model.messages import MESSAGES_ADAPTER

        def decode(payload: list[dict[str, Any]], context: DecodeContext) -> list[AnyMessage]:
            del context  # ``read_messages`` builds its own
            return validate_with(MESSAGES_ADAPTER, self.read_messages(payload), "Messages")

        return reading(decode, messages, self.decode_context())  # a value too deep: refused at its place

    def stream_decoder(self, builder: StreamBuilder | None = None) -> StreamDecoder:
        """A fresh push-style decoder for one stream (``feed`` each event, then ``close``),
        driving ``builder`` (by default one that emits canonical events)."""
        if self._new_stream_decoder is None:
            raise without_streams(self.name, "decoder", "decode")
        return DepthGuard(self._new_stream_decoder(builder, self.decode_context()), builder, self.name)

    @property
    def decodes_streams(self) -> bool:
        """Whether this codec reads streams (its folder has ``stream_decode.py``)."""
        return self._new_stream_decoder is not None

    @property
    def encodes_streams(self) -> bool:
        """Whether this codec writes streams (its folder has ``stream_encode.py``)."""
        return self._new_stream_encoder is not None

    def decode_stream(self, events: Iterable[dict[str, Any]]) -> Iterator[AnyStreamEvent]:
        """Canonical events for a whole stream, lazily: ``feed`` over the events, then
        ``close`` (a codec without streams refuses at the call, not at the first event);
        the public models, built from the decoder's records here."""
        from chatcodec._providers.kit.stream_boundary import decoded_models  # a stream's, not a request's

        return decoded_models(self.stream_decoder(None), events)

    def stream_encoder(self, losses: LossRecorder, *, options: Mapping[str, Any] | None = None) -> StreamEncoder:
        """A fresh push-style encoder for one stream (``feed`` each canonical event, a model or
        a record, then ``close``); ``options`` are its output options by name, into its context.
        What the format's capabilities say it cannot carry (freeform calls, token log
        probabilities) is taken out or reported here, around its own encoder; a version 1
        encoder (it reads models) is given models (``stream_boundary.record_encoder``)."""
        if self._new_stream_encoder is None:
            raise without_streams(self.name, "encoder", "encode")
        context = self._encode_context(losses, None, None, options, for_request=False, rules=None)
        from chatcodec._providers.kit.stream_boundary import either_encoder, record_encoder  # a stream's
        from chatcodec._providers.kit.stream_capabilities import within_capabilities

        encoder = within_capabilities(record_encoder(self._new_stream_encoder(context)), losses, self.capabilities)
        return either_encoder(encoder)  # fed by a caller, models are taken too

    def encode_stream(
        self,
        events: Iterable[AnyStreamEvent | AnyStreamRecord],
        losses: LossRecorder,
        *,
        options: Mapping[str, Any] | None = None,
    ) -> Iterator[dict[str, Any]]:
        """Wire events for canonical ones (models or records), lazily (for proxies): ``feed``
        over the events, then ``close`` (a codec without streams refuses at the call)."""
        from chatcodec._providers.kit.stream_boundary import encoded_records, record_encoder  # a stream's

        return encoded_records(record_encoder(self.stream_encoder(losses, options=options)), events)

    # --- dialect reading ----------------------------------------------------------------------
    # What the dialect readers (chatcodec._dialects.reader, chatcodec._dialects.tools) call: pieces of
    # this provider's shape found outside a request body, read into canonical *data* (dicts,
    # not yet validated: the boundary validates them with the caller's paths), by the
    # provider's ``dialect`` role (its ``dialect.py``).

    def decode_part(self, part: dict[str, Any]) -> dict[str, Any]:
        """One content part (block) in this provider's shape, as canonical part data."""
        return self._dialect_role("content parts").decode_part(part)

    def decode_assistant(self, message: dict[str, Any]) -> dict[str, Any]:
        """One assistant message in this provider's shape, as canonical message data."""
        return self._dialect_role("assistant messages").decode_assistant(message)

    def decode_tools(self, tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """A request's ``tools`` list in this provider's shape, as canonical tool data
        (function tools only: a provider's own tool kinds have no canonical tool)."""
        return self._dialect_role("tool definitions").decode_tools(tools, self.decode_context())

    def _dialect_role(self, what: str) -> DialectFunctions:
        dialect: DialectFunctions | None = self._role("dialect")
        if dialect is None:
            raise NotImplementedError(f"the {self.name} codec reads no {what} outside a body")
        return dialect

    # --- published field sets, for strict reading ---------------------------------------------
    # What chatcodec._strict.fields reads through the codec (never from a provider folder): the
    # ``known_fields.json`` package data beside the provider's own modules.

    def field_sets(self) -> FieldSets | None:
        """The fields this provider's published API defines, per object kind (its
        ``known_fields.json``, generated from the official SDK by ``tools/known_fields.py``),
        read once on first use; ``None`` for a codec whose package has no such file."""
        package = self._package()
        return load_field_sets(package) if package else None

    def _package(self) -> str | None:
        """The package of the request role's module (the folder's), not importing it to say."""
        role = self._roles["requests"]
        package = role.package() if isinstance(role, LazyRole) else None
        if package is None:
            package = getattr(self._requests, "__package__", None)
        return package if isinstance(package, str) and package else None

    def message_origins(self, payload: Mapping[str, Any], messages: Sequence[Mapping[str, Any]]) -> list[Origin]:
        """Where each of ``messages`` (read from the request ``payload``) is in ``payload``
        (the provider's ``origins.py``, or the module its ``markers.ROLES`` names for
        ``"origins"``, :mod:`chatcodec._providers.kit.origins`): read only when a conversion
        reports a loss; none for a provider without one."""
        return origins_in(origins_module(self._package()), payload, messages).every()


shown_as("chatcodec.contract", ProviderCodec)


def from_folder(package: str) -> ProviderCodec:
    """The codec of a built-in provider folder, as the registry builds it: each role but the
    capabilities imported (and checked) when first read, so a stream imports no request or response
    role (issue 60). Beside the class, not in :mod:`.folder`, which the class imports."""
    return codec_of(ProviderCodec, package, lazy=True)
