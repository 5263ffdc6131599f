"""The ``pydantic-ai`` format's name, its kit, its encoder options, its defaults and markers.

Markers are keys starting with exactly one ``_`` in a bag (``provider_metadata["pydantic-ai"]``),
never written out. All are pure spelling (another format drops them without a report):

- ``_nulls`` / ``_absent`` (the shared :func:`~chatcodec.contract.split_fields` markers): the
  fields written as ``null``, and the defaulted fields a stored object left out;
- ``_request`` on the first message of a ``ModelRequest`` whose envelope holds nothing but
  spelling, when it has some or when the request follows another request (a request after a
  response or at the start begins by itself); its non-null fields, when it has some, ride under
  the data key ``request`` instead, which another format reports;
- ``_instructions`` on a system message: it is the request's ``instructions``, not a
  ``SystemPromptPart``; ``_same_instructions`` on a request's first message: its
  ``instructions`` repeat the previous request's (pydantic-ai writes them on every request);
- ``_part_kind`` on a message or tool result read from a part other than the usual one
  (``retry-prompt``, ``retry-feedback``);
- ``_args_text`` on a call whose ``args`` were a JSON string, not an object (on a built-in
  tool's call, the text itself when it is not the compact one: :mod:`.builtin_tools`);
  ``_no_args`` on a built-in tool's call whose ``args`` were ``null``;
- ``_json`` on content that was a JSON value, not text (kept as its compact JSON text; on a
  result, the AI SDK formats write the value too: :mod:`chatcodec._frameworks.json_results`);
- ``_standard_alphabet`` / ``_unpadded`` on a binary part whose stored ``data`` was not in the
  alphabet pydantic writes (URL-safe, padded; canonical holds the standard one: :mod:`.binary`);
- ``_file_part`` on an assistant's image or audio part read from a ``FilePart`` whose own fields
  are spelling only (its nulls; with data they ride under the data key ``file_part``: :mod:`.files`);
- ``_identifier`` on a media part whose ``identifier`` was pydantic-ai's own (derived from
  the URL or the bytes), written again the same way;
- ``_provider_name`` on thinking: pydantic-ai's provider name, when the canonical provider
  is spelled otherwise (``google-gla`` is ``gemini``); ``_details_signature`` on thinking
  whose signature sat in ``provider_details.thought_signature`` (Gemini's place; on a text or
  call part that signature goes to the part's ``gemini`` bag instead, where Gemini's reader keeps it);
- ``_no_id`` on a text part right after a run of one message item id that had no ``id`` key
  (it does not continue the item), ``_no_provider_name`` on a text part or call with a Responses item id
  but no ``provider_name`` key (:mod:`.message_items`: ``"openai"`` is implied beside the id);
- ``_empty_requests_before`` / ``_empty_requests_after``: requests without parts (a run left
  them ``interrupted``) written before or after this message, which no provider gets as an empty
  turn (under the data keys ``empty_requests_before`` / ``_after`` when their fields hold data,
  reported by another format); ``_no_parts`` on the one empty user message standing for a
  history of such requests only.
"""

from __future__ import annotations

from chatcodec.codec_kit import MODEL_OPTION, RULE_OPTIONS, ProviderKit
from chatcodec.contract import OptionTable

PROVIDER = "pydantic-ai"
"""Registry name, and the key of this format's ``provider_metadata`` bags."""

DISPLAY = "pydantic-ai"
"""How losses name the format."""

KIT = ProviderKit(PROVIDER)
"""The shared bag operations bound to this format (it declares no meaningful marker)."""

OPTIONS = OptionTable.of(MODEL_OPTION, *RULE_OPTIONS)
"""Taken as every encoder takes them, so ``convert --storage`` works."""

REQUEST_DEFAULTS = {"state": "complete"}
"""A ``ModelRequest``'s non-null defaults (kept only when they differ)."""

RESPONSE_DEFAULTS = {"state": "complete"}
"""A ``ModelResponse``'s non-null defaults."""

SYSTEM_DEFAULTS = {"scope": "conversation"}
"""A ``SystemPromptPart``'s non-null defaults."""

RETURN_DEFAULTS = {"outcome": "success"}
"""A ``ToolReturnPart``'s non-null defaults."""

URL_DEFAULTS = {"force_download": False}
"""A ``FileUrl``'s non-null defaults."""
