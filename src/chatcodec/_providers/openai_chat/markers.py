"""This provider's name, its kit, and the spelling markers it keeps in its bags.

Spelling markers (keys starting with exactly one ``_`` in this codec's ``provider_metadata`` bag;
a wire key starting with ``_`` is kept escaped as ``__key``, see ``_providers/kit/bags.py``)
record how the wire wrote something that has no canonical difference, so the encoder can
write it the same way again. They are only added when the encoder's default would differ.

Pure spelling (every server that takes one spelling takes the other with the same
meaning; another provider drops them without a report):

``_absent``            keys the encoder writes by default but the payload left out
``_defaults``          request fields equal to what every provider does anyway (``n: 1``,
                       ``store: false``; ``request.py``)
``_content``           assistant ``content``: ``"absent"``, ``"list"`` for a list of parts, or
                       ``"empty"`` for ``""`` beside calls (an empty text says nothing:
                       clients that always send a string)
``_field``             on a refusal part: it came from the ``refusal`` field, not a content part
``_citation_keys``     on a cited text part: the order its url citations' keys came in, when
                       not the writer's (``_providers/families/openai/citation_keys.py``)
``_image_url``         ``"string"``: ``image_url`` was the URL itself (litellm's form), not an object
``_format``            input-audio ``format`` spelled differently from its MIME type's name
``_no_filename``       on a document: its ``file_data`` came without a ``filename``
``_file_format``       on a document by file id: its media type came as the file's ``format``
                       (litellm's field, https://docs.litellm.ai/docs/providers/gemini), written back so
``_video_url``         on a video: it was read from a ``video_url`` part, so it goes back as
                       one with no server named (OpenAI's own API has no video part; a body
                       read from a compatible server's traffic is written back as it came)
``_storage_url``       on an image or video by file id: the scheme of the server's file URL
                       it was read from (Kimi's ``ms://<file-id>``), written back so with no
                       server named (``server_media.py``)
``_flat_file_id``      on a document by file id: it was read from DeepSeek's flat
                       ``{"type": "file", "file_id"}`` part, written back so with no server
                       named (``server_media.py``)
``_stop``              ``"string"`` when ``stop`` was one string, not a list
``_reasoning_keys``    the keys of OpenRouter's ``reasoning`` object in their order: it came as
                       that object, not ``reasoning_effort``, so it goes back as one
                       (``reasoning_object.py``)
``_passed``            ``top_k`` and ``thinking`` (vLLM's, litellm's) read into canonical ``top_k`` and
                       ``reasoning``: written back here, not reported (``passed_through.py``)
``_empty_result``      on a tool result: its tool message's ``content`` was ``[]``, read as the
                       empty text (the same no output; OpenAI refuses ``[]``, ``messages.py``)
``_no_refusal``        on a choice or a text delta: its ``logprobs`` had no ``refusal`` key
                       (vLLM's ``ChatCompletionLogProbs``), so none is written back (``logprobs.py``)
``_integers``          the sampling numbers spelled as JSON integers (``top_p: 1``), which
                       canonical holds as floats (``_providers/kit/integer_spelling.py``)
``_also``              on a reasoning part: other reasoning fields that repeated its text
``_block``             on a thinking part: it was an entry of litellm's ``thinking_blocks``
                       (Claude's block, signature kept: ``reasoning.py``), written back there
``_position``          on a custom tool: its index in the wire ``tools`` list (the order is
                       in the prompt, but a custom tool is an openai-chat provider tool,
                       which every other provider reports as lost already); on a
                       server-tool block read from litellm's shape: its place there
``_in``                on an opaque part: ``"tool_calls"`` for a custom-tool call
``_finish_reason``     a compatible server's own finish reason, so it is written back (the
                       canonical finish reason carries its meaning)
``_chunk``             on a stream's finish or usage event: chunk fields that changed late
``_function_call``     on a tool call: it was the deprecated ``function_call`` (``functions.py``)
``_function``          on a tool result: it was a deprecated ``function`` message; both pure
                       here: a request that still declares ``functions`` reports them as lost
                       itself, and one that declares ``tools`` goes to a server that takes
                       ``tool_calls`` and ``tool`` messages
``_null_content``      on a deprecated ``function`` result: its ``content`` was ``null``
``_nulls``             on a message (or a tool result): the keys an OpenAI SDK dump left
                       ``null`` (``refusal``, ``function_call``, ``annotations``, ``audio``,
                       ``name``), in their order, written back as ``null`` (``null_spelling.py``);
                       on an answer's response, choice, message or usage, every ``null`` field
                       the SDK or a compatible server documents there (vLLM's ``kv_transfer_params``)
``_empty``             on an answer's message: the documented list fields that were ``[]``
                       (vLLM's ``tool_calls: []`` on every answer), written back as ``[]``
``_index``             on a tool call or a ``thinking_blocks`` entry: its ``index``, left by
                       the OpenAI SDK's stream accumulation (``tool_calls.py``, ``reasoning.py``)
``_parsed_arguments``  on a tool call: its function's ``"parsed_arguments": null``, left by the
                       SDK's ``parse`` and ``stream`` helpers (``ParsedFunction``), written back
``_call_id``           on a deprecated ``function`` result: it named its call by ``tool_call_id``
                       (litellm, LangChain), written back (``functions.py``)
``_arguments``         ``"object"`` on a tool call whose ``arguments`` was a JSON object
                       (litellm; the text form is the one every OpenAI server takes)
``_server_tool``       on an Anthropic server-tool block read from litellm's shapes: where it
                       was (``server_tools.py``), with ``_position`` and ``_arguments_text``
``_arguments_text``    that block's ``arguments`` text, when not the compact JSON of its input
``_zero_details``      on usage: ``prompt_tokens_details`` / ``completion_tokens_details``
                       whose counts no canonical count took are all 0 (or none): they
                       say nothing, so another format drops them unreported (``usage.py``)
``_max_tokens_key``    ``"max_tokens"`` when the request used the older key (older compatible
                       servers, vLLM, llama.cpp, Ollama, proxies, know only it; o-series
                       OpenAI models refuse it): pure to another provider, which holds the
                       limit in its own field, so nothing the user sent is lost there; the
                       key matters only to the OpenAI Chat server a request is sent to,
                       which the caller picks with ``options={"max_tokens_key": ...}``
``_schema_as_sent``    on a tool, and ``_format_as_sent`` on a request for its
                       ``response_format``: the schema goes back to this format as it came,
                       though this writer would rewrite it (Gemini's spellings; strict mode's
                       closed objects and required properties); another format applies its
                       own rewrites, reported as ``schema`` losses (``_providers/families``)
``_strict_schema``     the old spelling of the encoder option ``strict_schema`` (what a strict
                       function or format whose schema strict mode refuses becomes,
                       ``_providers/families/schema_writing.py``), read with a ``DeprecationWarning``

A source key, without the ``_`` (declared in :data:`KIT`'s ``source_keys``: canonical data
held it before markers took the ``_``, so it keeps its name; another provider never reports it):

``field``              on a reasoning part: the wire field it came from (``reasoning_content``,
                       ``reasoning``, ``reasoning_details``, or ``content`` for a thinking
                       part of Mistral's), so it goes back there; every answer of a reasoning
                       model at vLLM or DeepSeek carries it, and an Anthropic caller's answer
                       reported it as ``openai-chat data ['field']`` before

Carry meaning (declared in :data:`KIT`: another provider that drops one reports a loss,
because OpenAI Chat then gets the other spelling back, which some servers refuse):

``_cache``             ``"cache_control"``: the breakpoint came as OpenRouter / litellm
                       ``cache_control``, not ``prompt_cache_breakpoint`` (``cache_control.py``);
                       the gateways document only ``cache_control``, so they may not read
                       OpenAI's key (the cache is then silently off)

Options for this encoder (:data:`OPTIONS`) go by argument, ``options={"reasoning_field":
...}``. Their old spellings as bag keys (``_reasoning_field``, ``_server``,
``_missing_signature``, ``_strict_schema`` in ``provider_options["openai-chat"]``;
``_reasoning_field`` and ``_include_usage`` on a response's or stream start event's
``provider_metadata["openai-chat"]``) are still read, with a ``DeprecationWarning``, until
the release :mod:`chatcodec._option_table` names; other encoders drop them unreported.
``_max_tokens_key`` is the reader's marker above, read back by the request writer when
the ``max_tokens_key`` option is not given. ``_reasoning_in_content`` and
``_reasoning_as_object`` are no markers: internal options the servers' ``prepare`` sets in the
encoder's options for the server a body is written for (``server_options.py``).
"""

from __future__ import annotations

from typing import Any

from chatcodec.codec_kit import MODEL_OPTION, RULE_OPTIONS, ProviderKit
from chatcodec.contract import OptionTable

PROVIDER = "openai-chat"
"""Registry name of this wire format and key of its ``provider_metadata`` bags."""

_BACK = "OpenAI Chat gets"

KIT = ProviderKit(
    PROVIDER,
    meaningful_markers={
        "_cache": f"{_BACK} prompt_cache_breakpoint back, which gateways documenting only cache_control "
        "(OpenRouter, litellm) may not read",
    },
    source_keys=frozenset({"field"}),
)
"""The shared bag operations, bound to this provider (:mod:`chatcodec._providers.kit`)."""

EMPTY = "empty"
"""The ``_content`` marker's value for an assistant turn's ``content: ""`` beside its calls (pure:
an empty text says nothing, so the reader reads no text part and another format drops it
unreported; this format's writer writes ``""`` back)."""

SDK_INDEX = "_index"
"""Marker (pure): the ``index`` the OpenAI SDK's stream accumulation
(``ChatCompletionStreamState``) leaves on each tool call and ``thinking_blocks`` entry of the
message it builds; it says where the entry streamed, nothing a user sent, so another format
drops it unreported."""

SDK_PARSED = "_parsed_arguments"
"""Marker (pure): the ``"parsed_arguments": null`` the OpenAI SDK's ``parse`` and ``stream`` helpers
leave on each call's function (``ParsedFunction``, its ``model_dump()``): arguments the SDK did not
parse against a strict tool, nothing a user sent, so another format drops it unreported."""


def opaque(part: dict[str, Any], bag: dict[str, Any] | None = None) -> dict[str, Any]:
    """A wire object this codec has no canonical meaning for, kept whole, as canonical data
    (here, beside :data:`KIT`: every reading module uses it)."""
    return KIT.attach({"type": "opaque", "provider": PROVIDER, "data": part}, bag or {})


OPTIONS = OptionTable.of(
    "reasoning_field",
    "max_tokens_key",
    "include_usage",
    "strict_schema",
    "server",
    "missing_signature",
    MODEL_OPTION,
    *RULE_OPTIONS,
    stored=(MODEL_OPTION,),
    legacy=("reasoning_field", "include_usage", "strict_schema", "server", "missing_signature", *RULE_OPTIONS),
)
"""This encoder's options (typed for callers as :class:`chatcodec.options.OpenAIChatOptions`):
where another provider's reasoning goes (see
``reasoning.py``), and the key ``max_tokens`` is sent under (``"max_tokens"`` for
servers without ``max_completion_tokens``), and, for a stream, whether the held usage
is sent as the last chunk (the client's ``stream_options.include_usage``), what a strict
function whose schema strict mode refuses becomes (``strict_schema``), and the
``model`` sent when the request has none; the compatible ``server`` the body is written
for and, for Gemini's endpoint, what to send for a ``missing_signature``
(``servers/``). The codec
reads them into
:attr:`~chatcodec._providers.contract.context.EncodeContext.options`."""
