"""This provider's name, its kit, and the spelling markers it keeps in its bags.

The Responses API speaks in flat *items* (a message, a reasoning item, a function call,
a built-in tool call ...), where canonical speaks in messages made of parts. A decoder
keeps on the closest canonical object every wire field it did not map, and these markers
(keys starting with ``_``, never reported as lost by other providers) say how the items
were cut, so the same items come back out:

* ``_item``: on a part, this part opened a new wire item (value: ``"message"`` when the
  item spelled ``"type": "message"``, ``"bare"`` when it did not); the item's own fields
  (``id``, ``status``, ``phase``) ride in the part's bag under ``item`` (message items) or
  directly (reasoning, function call items, which are one part each or whole);
* ``_string``: the message item's ``content`` was a string, not a list of parts;
* ``_typed``: a user, system or developer message spelled ``"type": "message"``;
* ``_kind``: a reasoning part came from ``content`` (``"content"``) or stands for an item
  with neither summary nor content (``"empty"``); otherwise it is a summary entry;
* ``_custom``: a tool call or result was a ``custom_tool_call`` / ``custom_tool_call_output``;
* ``_items``: a user message that only carries items canonical has no message for
  (``item_reference``, ``computer_call_output``, ``mcp_approval_response`` ...), kept opaque;
* ``_instructions``: a system message that was the top-level ``instructions``;
* ``_input_string``: the request's ``input`` was one string;
* ``_nulls`` / ``_absent``: fields that were ``null`` / defaults that were missing (the kit's).
"""

from __future__ import annotations

from chatcodec.providers.kit import ProviderKit

PROVIDER = "openai-responses"
"""Registry name, and the key of this codec's provider-metadata bags."""

KIT = ProviderKit(PROVIDER)
"""The shared bag operations, bound to this provider (:mod:`chatcodec.providers.kit`)."""

ITEM = "_item"
STRING = "_string"
TYPED = "_typed"
KIND = "_kind"
CUSTOM = "_custom"
ITEMS = "_items"
INSTRUCTIONS = "_instructions"
INPUT_STRING = "_input_string"
