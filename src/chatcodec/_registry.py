"""The registry of wire formats.

A codec is a module-level object with six methods (:class:`~chatcodec._codec_protocols.Codec`).
Provider codecs live in ``chatcodec._providers.<name>`` and are imported only when first used,
so ``import chatcodec`` stays light. Adding a provider means writing its folder and adding
one line to :data:`_BUILT_IN`; see CONTRIBUTING.md. A codec another distribution installs
is found by its ``chatcodec.codecs`` entry point (:mod:`chatcodec._installed_codecs`), and
one a program registers with :func:`register_codec`; the names are looked up in that order:
built in, registered at run time, installed.
"""

from __future__ import annotations

import copyreg
import importlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, cast

from chatcodec import _error_statuses as error_statuses
from chatcodec import _installed_codecs as installed_codecs
from chatcodec._errors import CodecNotAvailableError, ProviderLookupError, UnknownProviderError
from chatcodec._option_table import NO_OPTIONS, OptionTable
from chatcodec._public_label import shown_as

if TYPE_CHECKING:  # annotations only: a conversion imports no canonical model
    from types import ModuleType

    from chatcodec._codec_protocols import Codec, PlainParts
    from chatcodec._losses import LossRecorder
    from chatcodec._model.request import ChatRequest
    from chatcodec._model.response import ChatResponse
    from chatcodec._model.stream_events import AnyStreamEvent
    from chatcodec._providers.contract.edge import Edge
    from chatcodec._providers.contract.envelopes import BatchRows
    from chatcodec._providers.contract.framing import StreamFraming
    from chatcodec._providers.contract.target_rules import ProviderRules

CANONICAL = "canonical"
"""Name of chatcodec's own JSON format, usable wherever a provider name is."""

_BUILT_IN: dict[str, str] = {
    CANONICAL: "chatcodec._canonical_codec:CODEC",
    "openai-chat": "chatcodec._providers.openai_chat",
    "anthropic": "chatcodec._providers.anthropic",
    "openai-responses": "chatcodec._providers.openai_responses",
    "gemini": "chatcodec._providers.gemini",
    "bedrock-converse": "chatcodec._providers.bedrock_converse",
    "ollama": "chatcodec._providers.ollama",
    "bedrock-nova": "chatcodec._providers.bedrock_nova",
    "gemini-interactions": "chatcodec._providers.gemini_interactions",
    "langchain": "chatcodec._frameworks.langchain",
    "ai-sdk-model": "chatcodec._frameworks.ai_sdk_model",
    "ai-sdk-ui": "chatcodec._frameworks.ai_sdk_ui",
    "pydantic-ai": "chatcodec._frameworks.pydantic_ai",
    "google-adk": "chatcodec._frameworks.google_adk",
    "otel-genai": "chatcodec._frameworks.otel_genai",
    "a2a": "chatcodec._frameworks.a2a",
    "ag-ui": "chatcodec._frameworks.ag_ui",
    "mcp-sampling": "chatcodec._frameworks.mcp_sampling",
}
"""Name -> each built-in codec, imported on first use: a provider folder's package, its codec
built as :meth:`~chatcodec.contract.ProviderCodec.from_package` builds one from the modules it
has (each role imported when first read, so a stream imports no request role), or
``"module:attribute"`` of a codec object. The one line a new provider adds here."""

_BUILT_IN_NAMES = frozenset(_BUILT_IN)

FRAMEWORK_FORMATS = frozenset(
    {
        *("langchain", "pydantic-ai", "ai-sdk-model", "ai-sdk-ui", "google-adk", "otel-genai"),
        *("a2a", "ag-ui", "mcp-sampling"),
    }
)
"""The built-in formats that are a framework's stored history (or an agent protocol's
conversation: ``a2a``, ``ag-ui``, ``mcp-sampling``), not a provider's wire (``_frameworks/``):
converted to and from like any format (the agent protocols' streams too), but with no batch rows
and no upstream, so left out of :data:`PROVIDER_NAMES` and :func:`registered_providers`, which the
server, detection and the provider laws iterate. ``mcp-sampling``'s edge has a front only
(``chatcodec serve --api mcp-sampling``, taken by name: :func:`chatcodec.serve._config.check_side`)."""

PROVIDER_NAMES: tuple[str, ...] = tuple(
    name for name in _BUILT_IN if name != CANONICAL and name not in FRAMEWORK_FORMATS
)
"""The provider wire formats chatcodec knows, by their registry names (read from
:data:`_BUILT_IN`, so a provider is named once)."""

_loaded: dict[str, Codec] = {}
_custom: dict[str, Callable[[], Codec]] = {}

_edges_loaded: dict[str, Edge] = {}
_plain_parts_loaded: dict[str, PlainParts] = {}
"""Each name's edge once looked up (:func:`get_edge`; detection asks for every edge on
each body it reads); :func:`register_codec` and :func:`unregister_codec` forget it."""


def register_codec(name: str, factory: Callable[[], Codec]) -> None:
    """Register (or replace) a codec under ``name``; ``factory`` runs on first use."""
    _custom[name] = factory
    _forget(name)


def unregister_codec(name: str) -> None:
    """Remove a codec added with :func:`register_codec`."""
    _custom.pop(name, None)
    _forget(name)


def outside_origin(name: str) -> str | None:
    """Where the codec ``name`` came from when it is not chatcodec's own ("registered with
    register_codec", "installed by the distribution NAME VERSION"), for an error its results
    cause; None for a built-in codec (the laws hold those, and their results go unchecked)."""
    if name in _custom:
        return "registered with register_codec"
    if name in _BUILT_IN:
        return None
    return installed_codecs.origin(name)


_generation = [0]


def generation() -> int:
    """How many times a codec was registered or unregistered: what is derived from every
    codec (detection's table of marks) is built again when it changes."""
    return _generation[0]


def _forget(name: str) -> None:
    _generation[0] += 1
    _loaded.pop(name, None)
    _edges_loaded.pop(name, None)


def available_formats() -> list[str]:
    """Every name :func:`get_codec` accepts right now, ``canonical`` first: the built-in
    formats, those registered at run time, then those installed by other distributions
    (``chatcodec.codecs`` entry points, read on the first call)."""
    known = [*_BUILT_IN, *(name for name in _custom if name not in _BUILT_IN)]
    return [*known, *(name for name in _installed() if name not in known)]


def is_available(name: str) -> bool:
    """Whether :func:`get_codec` knows ``name`` (the entry points are read only for a name
    neither built in nor registered at run time)."""
    return name in _BUILT_IN or name in _custom or name in _installed()


def _installed() -> dict[str, Any]:
    return installed_codecs.installed(_BUILT_IN_NAMES)


def registered_providers() -> list[str]:
    """The provider formats with a codec right now (``canonical`` excluded)."""
    return [name for name in available_formats() if name != CANONICAL and name not in FRAMEWORK_FORMATS]


def providers_in_use() -> list[str]:
    """The providers built in, registered at run time, or installed and asked for by name: what
    work over every codec iterates, so built-in work never reads an entry point (:mod:`._installed_codecs`)."""
    in_use = dict.fromkeys((*_BUILT_IN, *_custom, *_loaded))
    return [name for name in in_use if name != CANONICAL and name not in FRAMEWORK_FORMATS]


def get_codec(name: str) -> Codec:
    """The codec for ``name``, imported on first use.

    Raises :class:`~chatcodec.CodecNotAvailableError` for a known provider without a
    codec yet, and :class:`~chatcodec.UnknownProviderError` for any other name.
    """
    codec = _loaded.get(name)
    if codec is not None:
        return codec
    if name in _custom:
        codec = _custom[name]()
    elif name in _BUILT_IN:
        codec = _built_in(_BUILT_IN[name])
    else:
        codec = installed_codecs.codec_named(name, _BUILT_IN_NAMES)
        if codec is None:
            raise _lookup_error(name)
        _generation[0] += 1  # what is derived from every codec in use now reads it too
    if not hasattr(codec, "write_request"):
        origin = "registered with register_codec" if name in _custom else installed_codecs.origin(name)
        codec = cast("Codec", ModelCodec(codec, origin))
    elif name not in _custom:  # a built-in or installed codec is found by its name in any process
        copyreg.pickle(cast("type[Any]", type(codec)), _by_name)
    _loaded[name] = codec
    return codec


_built: dict[str, Codec] = {}
"""Each built-in codec once built, by its :data:`_BUILT_IN` entry: one object per process (a
codec unregistered and looked up again is the same one), as a module's ``CODEC`` is."""


def _built_in(spec: str) -> Codec:
    """The codec ``spec`` names: a ``"module:attribute"``, or a provider folder's package."""
    codec = _built.get(spec)
    if codec is None:
        module_name, _, attribute = spec.partition(":")
        if attribute:
            codec = getattr(importlib.import_module(module_name), attribute)
        else:
            from chatcodec._providers.contract.provider_codec import from_folder

            codec = from_folder(module_name)
        _built[spec] = codec
    return codec


def _by_name(codec: object) -> tuple[Callable[[str], Codec], tuple[str]]:
    """How a built-in codec pickles: as its registry name, looked up again where it is
    unpickled, so an engine's workers (Ray, Spark, ``datasets.map(num_proc=...)``) share
    the module-level codec rather than a copy of the role modules it holds (which do
    not pickle). A codec's class is registered with :mod:`copyreg` when it is first
    looked up, as :func:`pickle.dumps` is only ever given a codec that was."""
    name = next((name for name, loaded in _loaded.items() if loaded is codec), None)
    if name is None:
        import pickle  # only to refuse: a first use need not load it

        raise pickle.PicklingError(f"{codec!r} is not a registered codec, so it has no name to pickle by")
    return get_codec, (name,)


class ModelCodec:
    """A codec written with the six model methods only (``decode_*``/``encode_*`` of
    requests, responses and streams, as :class:`Codec` was before canonical data was the
    currency): read and write go through models. It takes no option (``options=`` refuses
    every name); wire fields go by ``extra_fields=``, into ``provider_options[name]``.

    Its methods are someone else's code, so what they give back is checked (a model from a
    ``decode_*``, a dict from an ``encode_*``) and what they raise that is no chatcodec error
    is one, a :class:`~chatcodec.CodecNotAvailableError` naming the codec and where it
    came from (``origin``: the distribution that installed it), never taken for a bug in
    chatcodec."""

    options: OptionTable = NO_OPTIONS

    def __init__(self, codec: Any, origin: str = "registered with register_codec") -> None:
        self._codec = codec
        self.name: str = codec.name
        self.origin = origin

    def _call(self, method: str, returns: type[Any], *arguments: Any) -> Any:
        """``method`` of the wrapped codec called with ``arguments``, its result checked to be
        a ``returns``."""
        from chatcodec._errors import ChatcodecError

        try:
            result = getattr(self._codec, method)(*arguments)
        except ChatcodecError:
            raise
        except Exception as error:
            raise CodecNotAvailableError(
                f"the codec {self.name!r} ({self.origin}) failed in {method}: {type(error).__name__}: {error}"
            ) from error
        if not isinstance(result, returns):
            raise CodecNotAvailableError(
                f"the codec {self.name!r} ({self.origin}) returned a {type(result).__name__} from {method}, "
                f"not a {returns.__name__}"
            )
        if returns is dict:
            self._json_data(method, result)
        elif method.startswith("decode_"):  # a ChatRequest or ChatResponse
            self._json_data(method, self._dumped(method, result))
        return result

    def _dumped(self, method: str, model: Any) -> object:
        """A model a ``decode_*`` gave, as its data (one made without validation, by
        ``model_construct`` or ``model_copy(update=...)``, can hold anything, a NaN too)."""
        try:
            return model.model_dump()
        except Exception as error:
            raise CodecNotAvailableError(
                f"the codec {self.name!r} ({self.origin}) returned a {type(model).__name__} from {method} "
                f"that cannot be read: {type(error).__name__}: {error}"
            ) from error

    def _json_data(self, method: str, result: object) -> None:
        """A body, event or decoded model's data, checked to be JSON data all through (a NaN,
        bytes or an object in it would fail later, in chatcodec's JSON writer or a target's
        body, as if chatcodec's bug)."""
        from chatcodec._providers.contract.outside_values import not_json_data

        error = not_json_data(self.name, self.origin, method, result)
        if error is not None:
            raise error

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self._codec, attribute)

    def __reduce__(self) -> tuple[Callable[[str], Codec], tuple[str]]:
        """Pickled by its registry name, as the built-in codecs are (:func:`_by_name`)."""
        return _by_name(self)

    def read_request(self, payload: dict[str, Any]) -> dict[str, Any]:
        return self.decode_request(payload).model_dump()

    def read_request_json(self, text: str | bytes | bytearray) -> dict[str, Any]:
        from chatcodec._payloads import load_object

        return self.read_request(load_object(text, f"{self.name} request"))

    def write_request(
        self, request: Mapping[str, Any], losses: LossRecorder, *, options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        from chatcodec._canonical_validation import validate_canonical
        from chatcodec._model.request import ChatRequest

        return self.encode_request(validate_canonical(ChatRequest, request), losses, options=options)

    def decode_request(self, payload: dict[str, Any]) -> ChatRequest:
        from chatcodec._model.request import ChatRequest

        decoded: ChatRequest = self._call("decode_request", ChatRequest, payload)
        return decoded

    def encode_request(
        self, request: ChatRequest, losses: LossRecorder, *, options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        if options:
            bags = dict(request.provider_options or {})
            bags[self.name] = {**(bags.get(self.name) or {}), **options}
            request = request.model_copy(update={"provider_options": bags})
        encoded: dict[str, Any] = self._call("encode_request", dict, request, losses)
        return encoded

    def read_response(self, payload: dict[str, Any]) -> dict[str, Any]:
        return self.decode_response(payload).model_dump()

    def write_response(
        self, response: Mapping[str, Any], losses: LossRecorder, *, options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        from chatcodec._canonical_validation import validate_canonical
        from chatcodec._model.response import ChatResponse

        return self.encode_response(validate_canonical(ChatResponse, response), losses, options=options)

    def decode_response(self, payload: dict[str, Any]) -> ChatResponse:
        from chatcodec._model.response import ChatResponse

        decoded: ChatResponse = self._call("decode_response", ChatResponse, payload)
        return decoded

    def encode_response(
        self, response: ChatResponse, losses: LossRecorder, *, options: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        del options  # a six-method codec reads no output options
        encoded: dict[str, Any] = self._call("encode_response", dict, response, losses)
        return encoded

    def encode_stream(
        self, events: Iterable[AnyStreamEvent], losses: LossRecorder, *, options: Mapping[str, Any] | None = None
    ) -> Iterator[dict[str, Any]]:
        del options  # a six-method codec reads no output options
        encoded: Iterable[object] = self._call("encode_stream", Iterable, events, losses)
        return self._events(encoded)

    def _events(self, encoded: Iterable[object]) -> Iterator[dict[str, Any]]:
        """The wire events ``encode_stream`` yields, each checked to be a dict."""
        for event in encoded:
            if not isinstance(event, dict):
                raise CodecNotAvailableError(
                    f"the codec {self.name!r} ({self.origin}) yielded a {type(event).__name__} from encode_stream, "
                    "not a dict"
                )
            checked = cast("dict[str, Any]", event)
            self._json_data("encode_stream", checked)
            yield checked


def get_edge(name: str) -> Edge:
    """What ``name``'s API says on HTTP: its codec's ``edge`` role (routes, upstream URL and
    headers, stream framing, error shapes, detection marks, strict extension rows; see
    :mod:`chatcodec._providers.contract.edge`). A built-in provider's is imported without its
    codec, from the ``edge`` module beside the codec module :data:`_BUILT_IN` names, so
    detection on a conversion loads no canonical model.

    Raises :class:`~chatcodec.ProviderLookupError` for a codec without an edge
    (``canonical``, a codec a caller wrote without one): its HTTP facts are unknown, and
    no other provider's stand in for them.
    """
    loaded = _edges_loaded.get(name)
    if loaded is not None:
        return loaded
    from chatcodec._providers.contract.edge import Edge

    edge: object = None
    if name in _BUILT_IN and name not in _custom and name != CANONICAL:
        module_name = _folder(name) + ".edge"  # canonical has no edge
        try:
            edge = importlib.import_module(module_name).EDGE
        except ModuleNotFoundError as error:  # a folder without an edge.py: ask its codec
            if error.name != module_name:
                raise
    if edge is None:
        edge = getattr(get_codec(name), "edge", None)
    if not isinstance(edge, Edge):
        raise ProviderLookupError(
            f"the codec registered as {name!r} has no edge: its HTTP facts (paths, URL, auth, stream "
            "framing, error shapes) are unknown; give its ProviderCodec an edge= role (_providers/<name>/edge.py)"
        )
    _edges_loaded[name] = edge
    return edge


def get_plain_parts(name: str) -> PlainParts:
    """A built-in format's plain-part readers (its folder's ``plain_parts`` module:
    :class:`~chatcodec._codec_protocols.PlainParts`), imported without its codec, as
    :func:`get_edge` imports its edge: the dialect readers ask for them by the format's name and
    never name a provider's module. Raises :class:`~chatcodec.ProviderLookupError` for a format
    whose folder has none."""
    loaded = _plain_parts_loaded.get(name)
    if loaded is not None:
        return loaded
    if name not in _BUILT_IN or name == CANONICAL:
        raise ProviderLookupError(f"{name!r} has no plain-part readers: only a built-in folder's plain_parts.py")
    module_name = _folder(name) + ".plain_parts"
    try:
        found = cast("PlainParts", importlib.import_module(module_name))
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise
        raise ProviderLookupError(f"{name!r} has no plain-part readers (no {module_name})") from None
    _plain_parts_loaded[name] = found
    return found


def _folder(name: str) -> str:
    """The package of a built-in's folder: :data:`_BUILT_IN` names it, or a ``module:attribute``
    inside it."""
    spelled = _BUILT_IN[name]
    return spelled.partition(":")[0].rpartition(".")[0] if ":" in spelled else spelled


def origins_of(name: str) -> ModuleType | None:
    """The module saying where a built-in format's messages came from (its folder's,
    :func:`~chatcodec._providers.kit.origins.origins_module`): a conversion reporting a loss
    builds only the origins of the messages it names. ``None`` for any other codec, whose
    :meth:`~chatcodec.contract.ProviderCodec.message_origins` lists them all."""
    if name in _BUILT_IN and name not in _custom and name != CANONICAL:
        from chatcodec._providers.kit.origins import origins_module

        return origins_module(_folder(name))
    return None


def get_framing(name: str) -> StreamFraming:
    """How ``name``'s server frames a stream: its edge's ``framing``. A built-in provider's
    is read from the ``stream_framing`` module beside its codec module (the value its edge
    holds), so a stream conversion imports no ``edge.py`` (first use); any other codec's
    comes from :func:`get_edge`, which refuses a codec without an edge."""
    if name in _BUILT_IN and name not in _custom and name != CANONICAL:
        module_name = _folder(name) + ".stream_framing"
        try:
            framing: StreamFraming = importlib.import_module(module_name).FRAMING
        except ModuleNotFoundError as error:  # a folder without its own framing module
            if error.name != module_name:
                raise
        else:
            return framing
    return get_edge(name).framing


def get_batch_rows(name: str) -> BatchRows:
    """The batch envelopes ``name``'s bodies ride in and whether the training dialects hold
    its messages (:class:`~chatcodec._providers.contract.envelopes.BatchRows`): a built-in
    folder's ``batch_rows.py``, or a codec's ``batch_rows`` attribute; none for a format that
    declares none."""
    from chatcodec._providers.contract.envelopes import NO_BATCH_ROWS, BatchRows

    rows: object = None
    if name in _BUILT_IN and name not in _custom and name != CANONICAL:
        module_name = _BUILT_IN[name] + ".batch_rows"  # a folder's package (canonical has no rows)
        try:
            rows = importlib.import_module(module_name).BATCH_ROWS
        except ModuleNotFoundError as error:  # a folder without batch rows
            if error.name != module_name:
                raise
    elif name != CANONICAL and is_available(name):
        rows = getattr(get_codec(name), "batch_rows", None)
    return rows if isinstance(rows, BatchRows) else NO_BATCH_ROWS


def rules_for(name: str) -> ProviderRules | None:
    """``name``'s target rules (its codec's ``rules`` role), or None when it has none."""
    from chatcodec._providers.contract.target_rules import ProviderRules

    table: object = getattr(get_codec(name), "rules", None)
    return table if isinstance(table, ProviderRules) else None


_statuses: list[tuple[int, dict[str, int]]] = []
"""The generation the error-status table was built at, and the table."""


def _error_statuses() -> dict[str, int]:
    """Error type -> HTTP status from every registered edge's ``errors`` (its types by
    status and the other types it reads), in registry order; a codec without an edge adds
    none. :mod:`chatcodec._error_statuses` reads it (installed below)."""
    if _statuses and _statuses[0][0] == generation():
        return _statuses[0][1]
    table: dict[str, int] = {}
    for name in providers_in_use():
        try:
            statuses = get_edge(name).errors.statuses()
        except ProviderLookupError:
            continue
        for kind, status in statuses.items():
            table.setdefault(kind, status)
    _statuses[:] = [(generation(), table)]
    return table


def _own_error_statuses(name: str) -> Mapping[str, int]:
    """``name``'s own error types -> HTTP status (none for a codec without an edge)."""
    try:
        return get_edge(name).errors.statuses()
    except ProviderLookupError:
        return {}


error_statuses.read_statuses_from(_error_statuses, _own_error_statuses)


def _lookup_error(name: str) -> Exception:
    available = ", ".join(available_formats())
    providers = registered_providers()
    registered = ", ".join(providers) if providers else "none yet"
    if name in PROVIDER_NAMES:
        return CodecNotAvailableError(
            f"provider {name!r} is a known wire format but has no codec registered yet "
            f"(registered providers: {registered}; usable formats: {available})"
        )
    from chatcodec._first_names import did_you_mean

    known = [*PROVIDER_NAMES, *_installed()]  # the built-in wire formats, then the installed ones
    frameworks = sorted(FRAMEWORK_FORMATS)
    hint = did_you_mean(name, [*known, *frameworks, CANONICAL])
    return UnknownProviderError(
        f"unknown provider {name!r}{hint} (known wire formats: {', '.join(known)}, {CANONICAL}; "
        f"framework histories, traces and agent protocols: {', '.join(frameworks)})"
    )


shown_as(
    "chatcodec",
    available_formats,
    get_codec,
    register_codec,
    registered_providers,
    unregister_codec,
)
