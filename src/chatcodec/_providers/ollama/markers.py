"""This provider's name, its kit, and the spelling markers it keeps in its bags.

Markers are keys starting with exactly one ``_``, never written to the wire.

Pure spelling (every server that takes one spelling takes the other with the same
meaning; another provider drops them without a report):

* ``_integers`` (requests): the ``options`` sampling numbers spelled as JSON integers
  (``top_p: 1``), which canonical holds as floats (``_providers/kit/integer_spelling.py``);
* ``_nulls`` / ``_absent``: the kit's (``null`` fields, such as the ``"images": null`` of
  Ollama's own examples; a ``content`` or ``messages`` the payload left out);
* ``_synthesized_id`` (tool calls): the call came without an ``id`` (servers before
  ``id`` was added, and Ollama's own examples), so the decoder made one up
  (:mod:`.call_ids`); it is not written back;
* ``_index`` (tool calls): the call's ``function.index`` was its position among the
  message's calls, as the server writes it; written back the same way;
* ``_no_arguments`` (tool calls): the call had no ``function.arguments`` (read as ``{}``);
* ``_typed`` (tool calls): the call carried ``"type": "function"`` (Ollama's tool-calling
  guide sends it; the server reads no such field);
* ``_no_parameters`` (tools): the function had no ``parameters`` (read as the empty
  object schema, the canonical default); none is written back while it is that;
* ``_without_id`` (tool results): the result came without a ``tool_call_id`` and was paired
  with its call by name and position; no id is written back;
* ``_no_tool_name`` (tool results): the result came without a ``tool_name``; none is
  written back (one is taken from the call otherwise);
* ``_finish_reason`` (choices): a ``done_reason`` this codec does not know, written back
  only by this codec (:mod:`.finish_reason`);
* ``_schema_as_sent`` (tools) / ``_format_as_sent`` (requests): the tool's or output
  format's schema goes back to this format as it came, though this writer would rewrite
  it (Gemini's spellings; ``_providers/families/schema_writing.py``); another format applies its own
  rewrites, reported as ``schema`` losses.

Carry meaning: none. Ollama has one spelling for each field it shares with the canonical
form.

Encoder options: ``model`` (the model a request without one names), and the target
rules' ``api_version`` and ``skip_rules``.
"""

from __future__ import annotations

from chatcodec.codec_kit import MODEL_OPTION, RULE_OPTIONS, ProviderKit
from chatcodec.contract import OptionTable

PROVIDER = "ollama"
"""Registry name, and the key of this codec's provider-metadata bags."""

KIT = ProviderKit(PROVIDER)
"""The shared bag operations, bound to this provider (:mod:`chatcodec._providers.kit`)."""

OPTIONS = OptionTable.of(MODEL_OPTION, *RULE_OPTIONS, stored=(MODEL_OPTION,), legacy=RULE_OPTIONS)
"""This encoder's options (typed for callers as :class:`chatcodec.options.OllamaOptions`):
the ``model`` a request without one is sent to (a stored request may also set it in
``provider_options[PROVIDER]``), and the target rules' ``api_version`` and ``skip_rules``
(``rules.py``)."""

SYNTHESIZED_ID = "_synthesized_id"
INDEX = "_index"
TYPED = "_typed"
NO_ARGUMENTS = "_no_arguments"
NO_PARAMETERS = "_no_parameters"
WITHOUT_ID = "_without_id"
NO_TOOL_NAME = "_no_tool_name"
FINISH_REASON = "_finish_reason"
