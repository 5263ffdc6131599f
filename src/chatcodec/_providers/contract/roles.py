"""The roles a provider folder plays, one protocol each, with one signature for every
provider: a module satisfies a protocol through its functions, so a provider missing a
role function, or with a different signature, fails type-checking where
:class:`~chatcodec._providers.contract.provider_codec.ProviderCodec` is given its modules, and
a role module missing a function the protocol names is refused by name when
:meth:`~chatcodec._providers.contract.provider_codec.ProviderCodec.from_package` builds a
codec from its folder (:mod:`chatcodec._providers.contract.folder`).

Encoders take an :class:`~chatcodec._providers.contract.context.EncodeContext` (a provider may
pass its own subclass through its roles: the ``ContextT_contra`` of the protocols); the
decode entry points and the decoders that read a body take a
:class:`~chatcodec._providers.contract.context.DecodeContext`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from chatcodec._losses import Steps
from chatcodec._providers.contract.capabilities import Capabilities
from chatcodec._providers.contract.context import DecodeContext, EncodeContext
from chatcodec._providers.contract.target_rules import ProviderRules
from chatcodec._public_label import shown_as

if TYPE_CHECKING:  # a conversion imports no edge and no structure (first use)
    from chatcodec._providers.contract.edge import Edge
    from chatcodec._providers.contract.structure import Structure

CanonicalInput = Mapping[str, Any]
"""What an encoder role function reads: canonical data (the JSON a model dumps, a key
holding its default possibly absent; typed in :mod:`chatcodec._model.canonical_types`)."""

ContextT_contra = TypeVar("ContextT_contra", bound=EncodeContext, contravariant=True)
"""The encode context a provider's roles share: :class:`EncodeContext` or the
provider's subclass of it (Anthropic's carries its cache breakpoints)."""


class RequestFunctions(Protocol):
    """``request.py``: request bodies, and a bare stored message list, over canonical
    *data*: the one reader gives a canonical request dict (what
    :class:`~chatcodec.ChatRequest` validates: tags written, no ``None``) and the one
    writer takes one (as ``ChatRequest.model_dump()`` or any reader gives it: a key
    holding its default may be absent). No model is built inside a codec; the codec builds
    one only where the public API returns it (:meth:`ProviderCodec.decode_request`).

    Optional: ``CONTEXT``, the :class:`~chatcodec._providers.contract.context.EncodeContext`
    subclass its ``encode_request`` writes with, which the codec then makes at once rather
    than the writer extending the shared one (``encode_request`` still takes a plain one)."""

    def decode_request(self, payload: dict[str, Any], context: DecodeContext, /) -> dict[str, Any]: ...

    def encode_request(self, request: Mapping[str, Any], context: EncodeContext, /) -> dict[str, Any]: ...

    def decode_message_list(
        self, messages: list[dict[str, Any]], context: DecodeContext, /
    ) -> list[dict[str, Any]]: ...


class JsonFront(Protocol):
    """A request module's ``JSON_FRONT`` (optional): its closed schema, which parses JSON
    text and validates it in one pass in Rust, handing the copy to the reader's own first
    validation (:class:`~chatcodec._providers.kit.closed_schema.LazyValidator`)."""

    def read_json(self, text: str | bytes | bytearray, /) -> dict[str, Any] | None: ...

    def release(self) -> None: ...


class ResponseFunctions(Protocol):
    """``response.py``: response bodies over canonical data, as :class:`RequestFunctions`."""

    def decode_response(self, payload: dict[str, Any], context: DecodeContext, /) -> dict[str, Any]: ...

    def encode_response(self, response: Mapping[str, Any], context: EncodeContext, /) -> dict[str, Any]: ...


class FinishReasonFunctions(Protocol):
    """``finish_reason.py``: the wire's stop word <-> :class:`~chatcodec.FinishReason`.

    ``decode_finish_reason`` gives the canonical ``{"unified", "raw"}`` dict (None when
    the wire has no word), recording an undocumented word in ``bag`` so it is written
    back; ``encode_finish_reason`` gives the wire word (None: the field is left out),
    reading such a word back from ``bag``."""

    def decode_finish_reason(self, raw: str | None, bag: dict[str, Any], /) -> dict[str, Any] | None: ...

    def encode_finish_reason(
        self, reason: CanonicalInput | None, bag: Mapping[str, Any], context: EncodeContext, at: Steps, /
    ) -> str | None: ...


class UsageFunctions(Protocol):
    """``usage.py``: the wire's token counts <-> :class:`~chatcodec.Usage`."""

    def decode_usage(self, wire: Mapping[str, Any], /) -> dict[str, Any]: ...

    def encode_usage(self, usage: CanonicalInput, context: EncodeContext, at: Steps, /) -> dict[str, Any]: ...


class MessageFunctions(Protocol[ContextT_contra]):
    """``messages.py``: the wire's message list <-> canonical messages.

    ``encode_messages`` writes ``messages[start:]`` (the messages before ``start`` are a
    leading system prompt the format carries elsewhere, written by the request)."""

    def decode_messages(self, wire: list[Any], context: DecodeContext, /) -> list[dict[str, Any]]: ...

    def encode_messages(
        self, messages: list[CanonicalInput], start: int, context: ContextT_contra, /
    ) -> list[dict[str, Any]]: ...


class PartFunctions(Protocol[ContextT_contra]):
    """``parts.py``: one wire content entry <-> one canonical part.

    ``encode_part`` gives None for a part the format cannot carry (a loss)."""

    def encode_part(self, part: CanonicalInput, context: ContextT_contra, at: Steps, /) -> dict[str, Any] | None: ...


class ToolFunctions(Protocol[ContextT_contra]):
    """``tools.py``: the request's tool definitions and tool choice.

    ``decode_tools`` reads ``request`` (the validated wire body) into ``canonical`` and
    keeps what has no canonical field in ``bag``; ``encode_tools`` writes into ``wire``,
    reading such kept fields back from ``bag``."""

    def decode_tools(
        self, request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext, /
    ) -> None: ...

    def encode_tools(
        self, request: CanonicalInput, wire: dict[str, Any], bag: dict[str, Any], context: ContextT_contra, /
    ) -> None: ...


class SettingsFunctions(Protocol[ContextT_contra]):
    """``settings.py``: sampling, reasoning and output-format settings, the same shape as
    :class:`ToolFunctions`."""

    def decode_settings(
        self, request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext, /
    ) -> None: ...

    def encode_settings(
        self, request: CanonicalInput, wire: dict[str, Any], bag: dict[str, Any], context: ContextT_contra, /
    ) -> None: ...


class RulesTable(Protocol):
    """``rules.py``: the target's table of what it accepts (API versions, model families,
    required fields; :mod:`chatcodec._providers.contract.target_rules`)."""

    RULES: ProviderRules


class CapabilitiesTable(Protocol):
    """``capabilities.py``: what the wire can carry
    (:class:`~chatcodec._providers.contract.capabilities.Capabilities`)."""

    CAPABILITIES: Capabilities


class StructureTable(Protocol):
    """``structure.py``: where the request holds its conversation, tool calls and token
    limits, the provider's wording for what it refuses, and the turn order it requires
    (:mod:`chatcodec._providers.contract.structure`, read by strict mode)."""

    STRUCTURE: Structure


class DialectFunctions(Protocol):
    """``dialect.py``: the pieces of this provider's shape the dialect readers
    (:mod:`chatcodec._dialects`) find outside a request body (a content part, an assistant
    message, a ``tools`` list in a mixed history), read into canonical *data*, not yet
    validated: the boundary validates them with the caller's paths. A provider whose
    shape the readers do not accept has no such module; one that reads some pieces only
    says so from the others (a ``NotImplementedError`` naming what it cannot read)."""

    def decode_part(self, part: dict[str, Any], /) -> dict[str, Any]: ...

    def decode_assistant(self, message: dict[str, Any], /) -> dict[str, Any]: ...

    def decode_tools(self, tools: list[dict[str, Any]], context: DecodeContext, /) -> list[dict[str, Any]]: ...


class EdgeTable(Protocol):
    """``edge.py``: what the provider says on HTTP (routes, upstream URL and headers, stream
    framing, error shapes; :mod:`chatcodec._providers.contract.edge`)."""

    EDGE: Edge


shown_as(
    "chatcodec.contract",
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
