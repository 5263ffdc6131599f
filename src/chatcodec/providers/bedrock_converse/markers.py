"""This provider's name, its kit, and the spelling markers it keeps in its bags.

A decoder keeps, on the closest canonical object, every wire field it did not map.
Spellings that carry no information but must come back exactly are kept as markers (keys
starting with ``_``, which other providers never report as losses):

* ``_nulls`` / ``_absent``: the kit's markers (``null`` fields, defaults left out);
* ``_inference_config``, ``_tool_config``, ``_empty_stop``, ``_no_messages``: an empty
  ``inferenceConfig`` or ``toolConfig`` object, an empty ``stopSequences`` list, or no
  ``messages`` at all was sent (``request.py``, ``tools.py``);
* ``_schema_text``: the ``outputConfig`` JSON schema exactly as spelled (it is a string
  on the wire, an object in canonical);
* ``_json``: a tool-result ``json`` block, read as its JSON text;
* ``_no_name``, ``_no_format``: a document without ``name`` or ``format``;
* ``_tool_order``: server and client tools were interleaved;
* ``_no_metrics``: a stream's ``metadata`` had no ``metrics`` (``stream_decode.py``);
* ``_status``: ``toolResult.status: "success"`` was spelled out;
* ``_count_twins``: the legacy
  ``cache*InputTokenCount`` twins repeated the counts;
* ``_in_messages``, ``_separate``: as in the Anthropic codec (``messages.py``).

Encoder options ride in ``provider_options["bedrock-converse"]`` (see ``request.py``).
"""

from __future__ import annotations

from chatcodec.providers.kit import ProviderKit

PROVIDER = "bedrock-converse"
"""Registry name, and the key of this codec's provider-metadata bags."""

KIT = ProviderKit(PROVIDER)
"""The shared bag operations, bound to this provider (:mod:`chatcodec.providers.kit`)."""
