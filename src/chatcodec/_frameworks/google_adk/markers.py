"""The ``google-adk`` format's name, its kit, its encoder options and markers.

Markers are keys starting with exactly one ``_`` in a message's bag
(``provider_metadata["google-adk"]``), never written out, all pure spelling:

- ``_snake``: the event was dumped with snake_case keys (``model_dump(mode="json")``, what
  ADK's database session service stores), not camelCase (``by_alias=True``, what its web
  server sends); its content is written back so;
- ``_no_role``: the event's content had no ``role`` (read as its author says);
- ``_session`` (in the request's bag, ``provider_options["google-adk"]``): the request was a
  ``Session`` dump, its events under ``events``; written back so.

Data keys in the same bag (reported by another format): the event's own fields, each under
its own key as the event spelled it (``author``, ``invocationId``, ``id``, ``timestamp``,
``actions``, ``usageMetadata``...), on the first message its content gave; and
``events_before`` / ``events_after``: events without content (a state change, an agent
transfer) stored before or after this message, whole.
"""

from __future__ import annotations

from chatcodec.codec_kit import MODEL_OPTION, RULE_OPTIONS, ProviderKit
from chatcodec.contract import OptionTable

PROVIDER = "google-adk"
"""Registry name, and the key of this format's ``provider_metadata`` bags."""

DISPLAY = "Google ADK"
"""How losses name the format."""

KIT = ProviderKit(PROVIDER)
"""The shared bag operations bound to this format (it declares no meaningful marker)."""

OPTIONS = OptionTable.of(MODEL_OPTION, *RULE_OPTIONS)
"""Taken as every encoder takes them, so ``convert --storage`` works."""

USER = "user"
"""The author of what the user said (ADK's ``Event.author`` for a user's turn)."""

AGENT = "agent"
"""The author written for an agent's turn (a model's answer, a tool's results) when the
message names none: ADK names the agent (``LlmAgent.name``); a canonical message's ``name``
is its author when given."""

SNAKE, NO_ROLE, SESSION = "_snake", "_no_role", "_session"
EVENTS = "events"
"""Where a ``Session`` dump holds its events."""
BEFORE, AFTER = "events_before", "events_after"
