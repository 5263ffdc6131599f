"""The record each OpenAI-compatible server is described by, and the rule a server adds.

Most ``openai-chat`` traffic does not go to OpenAI: Gemini's OpenAI-compatible endpoint,
DeepSeek, OpenRouter, vLLM, SGLang, Ollama, Groq, Mistral, xAI, Together and Azure each
take the same body with differences of their own. litellm keeps them as a parameter map
per provider that its users extend by hand (``drop_params``); Vercel's AI SDK writes one
``openai-compatible`` provider and a thin package per vendor. Here each server is one
:class:`Server` value in its own module beside this one, every fact with the address it
comes from, and the writer reads it (:mod:`.fitting`): what the server does not accept is
never sent to it, but dropped or moved, each change a loss of kind ``rule`` naming the
server. Choosing a server, the loss report and the rule record are shared with the
Anthropic-compatible servers (:mod:`chatcodec._providers.kit.servers`).
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field

from chatcodec.codec_kit import servers as kit_servers
from chatcodec.contract import Extension, SampledIds, SamplingRange

__all__ = ["ALL_PARTS", "Refusal", "Server", "ServerCall", "ServerRule"]

ALL_PARTS = frozenset({"text", "image_url", "input_audio", "file"})
"""The user content part types of the OpenAI SDK (``ChatCompletionContentPartParam``)."""
Refusal = kit_servers.Refusal


@dataclass(frozen=True, slots=True)
class ModelParts:
    """The user content part types the models matching ``pattern`` take (a regular
    expression matched whole against the lowercase model id), with the server's source."""

    pattern: str
    parts: frozenset[str]
    source: str


@dataclass(frozen=True, slots=True)
class Server:
    """One OpenAI-compatible server: what it takes in a Chat Completions request."""

    name: str
    """The option value that names it (``options={"server": "deepseek"}``)."""
    title: str
    """How the docs and losses name it."""
    docs: str
    """Its Chat Completions reference."""
    hosts: tuple[str, ...] = ()
    """URL hosts that name it (a host ending in one of these: ``.openai.azure.com``)."""
    models: tuple[str, ...] = ()
    """Model id patterns (regular expressions, matched whole, lowercase) that only this
    server serves under that spelling (``deepseek-chat``; not ``deepseek-ai/DeepSeek-R1``,
    which Together and vLLM serve too)."""
    fields: frozenset[str] | None = None
    """The request fields it documents, when it lists them (Ollama, DeepSeek, Mistral);
    None: the OpenAI SDK's request fields."""
    refuses: tuple[Refusal, ...] = ()
    """Fields of the SDK it refuses or ignores, or keeps under another name."""
    extensions: tuple[Extension, ...] = ()
    """Fields it documents beyond the SDK types (strict reading accepts them; the writer
    may send them): the same rows as an edge's ``extensions``."""
    reasoning_field: str | None = None
    """Where it takes reasoning sent back on an assistant message (``reasoning_content``,
    ``reasoning``, ``reasoning_details``); None: it takes none back (dropped, reported)."""
    reasoning_source: str = ""
    reasoning_object: str = ""
    """Where it documents OpenRouter's ``reasoning`` object (``effort``, ``max_tokens``,
    ``enabled``, ``exclude``), which says a thinking budget and reasoning switched on as they
    are: canonical reasoning that ``reasoning_effort`` cannot say (a budget, or reasoning on with
    no effort) is written there for it, with no loss; empty: it takes ``reasoning_effort`` only."""
    efforts: tuple[str, ...] | None = None
    """The ``reasoning_effort`` values it takes, in the canonical order; None: not
    checked (the model names its own). An effort it does not take becomes the nearest it
    does, reported; a server that refuses the field lists it in :attr:`refuses`."""
    efforts_source: str = ""
    parts: frozenset[str] = ALL_PARTS
    """The user content part types it takes (a part of another type is dropped, reported)."""
    parts_source: str = ""
    model_parts: tuple[ModelParts, ...] = ()
    """Models that take other part types than :attr:`parts` (DeepSeek's vision model takes
    images where its text models take text only); the first whose pattern matches wins."""
    file_types: frozenset[str] | None = None
    """The MIME types its ``file`` part takes (``file_data``'s data URL); None: any. A
    ``text/*`` file it cannot take goes as the text it holds, another is dropped (reported)."""
    image_files: bool = False
    """Whether its ``file`` part takes an image by Files-API id, spelled with the id beside
    the type (DeepSeek's vision model: ``{"type": "file", "file_id": ...}``, as it spells a
    document by id too); else an image by file id is not sent, reported (OpenAI's ``file``
    part is for PDFs, its id nested in ``file``)."""
    file_url_scheme: str | None = None
    """The scheme under which its ``image_url`` and ``video_url`` parts take a Files API id
    as a URL (Kimi's ``ms://<file-id>``, "moonshot storage"); None: a URL is fetched, and
    an image or video by file id is not sent that way."""
    sampling_ranges: tuple[SamplingRange, ...] | None = None
    """The sampling values' ranges its reference documents, each with its source (what
    the ``openai-chat`` ``sampling_range`` rule holds a body for it to: vLLM takes a
    ``temperature`` above 2, Kimi none above 1); ``None``: OpenAI's (the server documents
    OpenAI's numbers, or is OpenAI); ``()``: it documents none, and nothing is clamped."""
    cache_marker: str | None = None
    """The cache breakpoint it reads on a content part: OpenAI's ``prompt_cache_breakpoint``,
    the gateways' ``cache_control``, or None (it caches by itself; the marker is dropped)."""
    signatures: bool = False
    """Whether it takes Gemini's ``tool_calls[].extra_content.google.thought_signature``."""
    rules: tuple[ServerRule, ...] = ()
    """What field sets cannot say (reasoning needed back, a signature on the first call)."""
    notes: tuple[str, ...] = field(default=())
    """Other differences, for the docs (one line each, with its source)."""
    semconv_name: str = ""
    """Its ``gen_ai.provider.name`` in the OpenTelemetry GenAI conventions
    (https://opentelemetry.io/docs/specs/semconv/registry/attributes/gen-ai/#gen-ai-provider-name);
    empty: the conventions list none, and its option name is used."""
    sampled_ids: SampledIds | None = None
    """How it reports the token ids it prompted with and sampled, when asked (vLLM's and
    SGLang's ``return_token_ids``); None: it reports none."""

    def parts_for(self, model: str | None) -> tuple[frozenset[str], str]:
        """The part types the server takes for ``model``, with their source."""
        if model is not None and self.model_parts:
            lowered = model.lower()
            for row in self.model_parts:
                if re.fullmatch(row.pattern, lowered):
                    return row.parts, row.source
        return self.parts, self.parts_source

    def extension_fields(self, kind: str) -> frozenset[str]:
        """The extension fields this server documents on an object of ``kind``."""
        rows = self.extensions
        return frozenset(name for row in rows if fnmatch.fnmatchcase(kind, row.kind) for name in row.fields)


ServerCall = kit_servers.ServerCall[Server]
"""What a server rule gets (:class:`chatcodec._providers.kit.servers.ServerCall`): the body
written for the server, and where to say what changed."""
ServerRule = kit_servers.ServerRule[Server]
"""One thing a server refuses or needs back that field sets cannot say
(:class:`chatcodec._providers.kit.servers.ServerRule`)."""
