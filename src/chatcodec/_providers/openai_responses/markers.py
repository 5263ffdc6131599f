"""This provider's name, its kit, and the spelling markers it keeps in its bags.

The Responses API speaks in flat *items* (a message, a reasoning item, a function call,
a built-in tool call ...), where canonical speaks in messages made of parts. A decoder
keeps on the closest canonical object every wire field it did not map, and these markers
(keys starting with exactly one ``_``) say how the items were cut, so the same items come
back out.

Pure spelling (every server that takes one spelling takes the other with the same
meaning; another provider drops them without a report):

* ``_item``: on a part, this part opened a new wire item (value: ``"message"`` when the
  item spelled ``"type": "message"``, ``"bare"`` when it did not); the item's own fields
  (``id``, ``status``, ``phase``) ride in the part's bag under ``item`` (message items) or
  directly (reasoning, function call items, which are one part each or whole);
* ``_content``: on an opaque part, a message item's content part of a kind added later,
  written back inside its message item (``items.py``);
* ``_string``: the message item's ``content`` was a string, not a list of parts;
* ``_server_fields``, ``_encrypted_reasoning`` (never from a payload): the old spellings
  of the ``server_fields`` option (the answer is a server's own resource, :mod:`.server`)
  and the ``encrypted_reasoning`` one (other providers' signed reasoning sealed into
  ``encrypted_content``, :mod:`.carried_reasoning`), read with a ``DeprecationWarning``
  (:mod:`chatcodec._option_table`);
* ``_typed``: a user, system or developer message spelled ``"type": "message"``;
* ``_kind``: a reasoning part came from ``content`` (``"content"``) or stands for an item
  with neither summary nor content (``"empty"``); otherwise it is a summary entry;
* ``_empty_content``: a reasoning item spelled ``"content": []``;
* ``_empty_output``: a tool output spelled ``"output": []`` (no parts), read as the empty
  text ``""`` every format takes (OpenAI Chat refuses a tool message's ``content: []``);
* ``_items``: a user message that only carries items canonical has no message for
  (``item_reference``, ``computer_call_output``, ``mcp_approval_response`` ...), kept opaque
  (another provider reports the opaque items themselves);
* ``_input_string``: the request's ``input`` was one string;
* ``_instructions``: a system message that was the top-level ``instructions``. Pure for
  the request it is in: the model sees the same system text. Only a later request that
  chains this one with ``previous_response_id`` would tell them apart (instructions are
  not carried over, an input system message is; OpenAI API reference), and that field is
  reported as lost by every other provider itself;
* ``_input_audio``: an audio part read from ``input_audio`` (``parts.py``); other audio
  is reported when encoded here, so dropping it is reported in the end;
* ``_no_input``, ``_no_include``: the request had no ``input``, or replayed encrypted
  reasoning without asking for it in ``include`` (``request.py``);
* ``_no_filename``: an inline ``input_file`` had no ``filename`` (``parts.py``);
* ``_empty_logprobs``: an ``output_text`` spelled ``"logprobs": []``, what the API answers a
  request that asked for no log probabilities and the Agents SDK replays on every assistant
  message: no token, so nothing for another format to carry (``parts.py``);
* ``_citation_keys``: on a cited text part, the order its ``url_citation`` annotations' keys
  came in, when not the writer's (a recording re-serialised with sorted keys;
  ``_providers/families/openai/citation_keys.py``);
* ``_integers`` (requests): the sampling numbers (``temperature``, ``top_p``) spelled as
  JSON integers (``1``, not ``1.0``: the same number to every server);
* ``_empty_tools``: ``tools`` was an empty list;
* ``_no_parameters``, ``_no_strict``: a function tool without those keys;
* ``_no_cached_tokens``, ``_no_cache_write_tokens``, ``_no_reasoning_tokens``: usage
  details without those counts (``usage.py``);
* ``_finish_reason``, ``_status``: an undocumented incomplete reason or status, written
  back (the canonical finish reason carries its meaning; ``finish_reason.py``);
* ``_nulls`` / ``_absent``: fields that were ``null`` / defaults that were missing (the kit's);
* ``_schema_as_sent`` (tools) / ``_format_as_sent`` (requests): the tool's or output
  format's schema goes back to this format as it came, though this writer would rewrite
  it (Gemini's spellings; strict mode's closed objects and required properties;
  ``_providers/families/schema_writing.py``); another format applies its own rewrites,
  reported as ``schema`` losses;
* ``_strict_schema`` (requests): the old spelling of the encoder option ``strict_schema``
  (what a strict function or format whose schema strict mode refuses becomes), read with
  a ``DeprecationWarning``.

Carry meaning (declared in :data:`KIT`: another provider that drops one reports a loss):

* ``_custom``: a tool result was a ``custom_tool_call_output`` whose call is not in the
  input (a chain through ``previous_response_id``): without it the output comes back as a
  ``function_call_output``. A custom call is a ``tool_use`` of ``kind: custom``, and the
  output of a call read before it is written as its call's kind, so neither needs it (a
  call stored with the marker before the kind existed is still written as custom);
* ``_tool_order``: built-in and function tools were interleaved (the kit's
  :data:`~chatcodec._providers.kit.TOOL_ORDER`).
"""

from __future__ import annotations

from chatcodec.codec_kit import MODEL_OPTION, RULE_OPTIONS, TOOL_ORDER, ProviderKit
from chatcodec.contract import OptionTable

PROVIDER = "openai-responses"
"""Registry name, and the key of this codec's provider-metadata bags."""

KIT = ProviderKit(
    PROVIDER,
    meaningful_markers={
        "_custom": "Responses gets a function_call_output back for a custom tool call's output",
        **TOOL_ORDER,
    },
)
"""The shared bag operations, bound to this provider (:mod:`chatcodec._providers.kit`)."""

SERVER_FIELDS = "server_fields"
"""The option of a server answering a request itself (``chatcodec serve``'s Responses
front): the response resource fields it sets (its own ``resp_`` id, the request's settings
echoed); see :func:`.response.as_served`."""

OPTIONS = OptionTable.of(
    "strict_schema",
    MODEL_OPTION,
    *RULE_OPTIONS,
    SERVER_FIELDS,
    "encrypted_reasoning",
    "seal_key",
    stored=(MODEL_OPTION,),
    legacy=("strict_schema", *RULE_OPTIONS, SERVER_FIELDS, "encrypted_reasoning"),
)
"""This encoder's options (typed for callers as
:class:`chatcodec.options.OpenAIResponsesOptions`): what a strict function or format whose
schema strict mode refuses becomes (``strict_schema``), the ``model`` sent when the request has none, a
server's ``server_fields``, and ``encrypted_reasoning`` (another provider's signed reasoning
sealed into output items, :mod:`.carried_reasoning`) with ``seal_key`` (the key each seal
is authenticated with). The codec reads them into
:attr:`~chatcodec._providers.contract.context.EncodeContext.options`."""

ITEM = "_item"
CONTENT = "_content"
STRING = "_string"
TYPED = "_typed"
KIND = "_kind"
CUSTOM = "_custom"
ITEMS = "_items"
INSTRUCTIONS = "_instructions"
EMPTY_OUTPUT = "_empty_output"
INPUT_STRING = "_input_string"
NO_FILENAME = "_no_filename"
EMPTY_LOGPROBS = "_empty_logprobs"
