"""This provider's name, its kit, and the spelling markers it keeps in its bags.

A decoder keeps, on the closest canonical object, every wire field it did not map. Some
spellings carry no information but must come back exactly, so they are kept as markers
(keys starting with exactly one ``_``; a wire key starting with ``_`` is kept escaped as
``__key``, see ``_providers/kit/bags.py``). A field equal to its default is not kept at all, so
a bag holds only real information.

Pure spelling (every server that takes one spelling takes the other with the same
meaning; another provider drops them without a report):

* ``_integers`` (requests): ``temperature`` and ``top_p`` spelled as JSON integers (``top_p: 1``),
  which canonical holds as floats (``_providers/kit/integer_spelling.py``);
* ``_finish_reason`` (responses): a ``stop_reason`` this codec does not know, written
  back by this codec only (the canonical finish reason carries the word; ``finish_reason.py``);
* ``_nulls``: fields that were ``null`` (``"stop_details": null``), sorted;
* ``_absent``: fields with a fixed default (``"type": "message"``) that were missing;
* ``_separate`` (messages): a turn that followed tool results without joining them (the
  API combines consecutive same-role turns itself, ``messages.py``);
* ``_in_messages`` (system messages): a leading system message written as a
  ``role: "system"`` turn rather than the top-level ``system``, which every server takes;
* ``_rejected_id`` (``tool_use``, ``tool_result``): the wire id is one Anthropic itself
  rejects, so its rewrite on encode is reported (``parts.py``);
* ``_signed`` (``tool_use``: ``true``; tool results: the signature): the id carried a
  Gemini thought signature (``<id>__thought__<signature>``, ``tool_ids.py``; the call's
  own is its ``gemini`` bag's), so a request writes the id back so, a result's even when
  the call it answers is not in the body;
* ``_is_error`` (tool results): ``is_error: false`` was spelled out;
* ``_no_content`` (tool results): the result had no ``content`` key;
* ``_no_input_schema`` (tools): the tool had no ``input_schema`` key;
* ``_empty_tools``, ``_empty_stop_sequences`` (requests): an empty list was sent;
* ``_top_level`` (usage): the top-level ``[input_tokens, output_tokens]`` when the
  canonical counts add the compaction iterations (``usage.py``);
* ``_server`` (requests): the encoder option ``server``'s old spelling, read with a
  ``DeprecationWarning`` until the release :mod:`chatcodec._option_table` names;
* ``_api_version`` (requests): the decoder sets ``2023-06-01`` on a body only that version
  accepts (``rules.py``), and the request writer reads it back as the ``api_version``
  option when none is given; meaningless to another provider;
* ``_schema_as_sent`` (tools) / ``_format_as_sent`` (requests): the tool's or output
  format's schema goes back to this format as it came, though this writer would rewrite
  it (Gemini's spellings; the structured-outputs subset of a strict tool or an output
  format; ``_providers/families/schema_writing.py``); another format applies its own
  rewrites, reported as ``schema`` losses.

Carry meaning (declared in :data:`KIT`: another provider that drops one reports a loss):

* ``_tool_order`` (requests): server and client tools were interleaved; the model reads
  the tools in order (and the prompt cache prefix holds them). It only exists beside
  server tools, which another provider reports as lost too.
"""

from __future__ import annotations

from chatcodec.codec_kit import MODEL_OPTION, RULE_OPTIONS, TOOL_ORDER, ProviderKit
from chatcodec.contract import OptionTable

PROVIDER = "anthropic"
"""Registry name, and the key of this codec's provider-metadata bags."""

DEFAULT_MAX_TOKENS = 4096
"""``max_tokens`` sent, with a loss, when neither the request nor the caller's options set
it (here, beside the options, as ``rules.py`` reads it for its required-field rule)."""

KIT = ProviderKit(PROVIDER, meaningful_markers=TOOL_ORDER)
"""The shared bag operations, bound to this provider (:mod:`chatcodec._providers.kit`)."""

OPTIONS = OptionTable.of(
    "unsigned_thinking",
    "max_tokens",
    "server",
    MODEL_OPTION,
    *RULE_OPTIONS,
    stored=("unsigned_thinking", "max_tokens", MODEL_OPTION),
    legacy=("server", "skip_rules"),
)
"""This encoder's options (typed for callers as :class:`chatcodec.options.AnthropicOptions`):
what to do with thinking Anthropic cannot verify (``"drop"`` or ``"text"``), the
``max_tokens`` and ``model`` sent when the request has none (a stored request may set
these three in ``provider_options[PROVIDER]``), the Anthropic-compatible ``server`` the
body is written for (``servers/``), and the target rules' ``api_version`` and
``skip_rules``. The codec reads them into
:attr:`~chatcodec._providers.contract.context.EncodeContext.options`."""

API_VERSION = "_api_version"
"""The marker the reader sets on a body only ``2023-06-01`` accepts, read back by the
request writer as the ``api_version`` option when none is given (``request.py``)."""
