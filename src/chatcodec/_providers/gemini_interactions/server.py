"""What a server answering the Interactions API itself owes its callers (the edge's
``Front.answering``): an Interaction of its own around the converted answer.

An Interaction is a resource of the server that made it (https://ai.google.dev/api/interactions-api):
it has that server's ``id``, which a later request names in ``previous_interaction_id`` to
continue it, and ``GET /v1beta/interactions/{id}`` reads it back. ``store`` is true when left
out (the API keeps interactions by default: https://ai.google.dev/gemini-api/docs/migrate-to-interactions),
so a server with a store keeps the answer unless the caller sends ``store: false``.

``system_instruction``, ``tools`` and ``generation_config`` belong to the interaction that
sends them, not to the conversation it continues: a continued interaction's instruction is
not carried over (the canonical system message the reader made of it).

``background: true`` is refused: the API then answers at once with an interaction still
``in_progress``, to be fetched or streamed later (the reference's ``background``), which a
converting proxy answering in the request itself does not do.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from chatcodec._providers.gemini_interactions.markers import SERVER_FIELDS
from chatcodec.codec_kit import as_dict

PREVIOUS = "previous_interaction_id"
"""The request field naming the earlier interaction a request continues."""


class InteractionsAnswering:
    """The Interactions API's :class:`~chatcodec._providers.contract.edge.Answering`."""

    reference = PREVIOUS
    streamed_whole = False
    """``interaction.completed`` holds the status and usage, not the steps streamed before it
    (the streaming guide's events): the kept answer is the stream written as one Interaction."""
    seals = False
    """Another provider's signed thinking is kept by the store (``--store``), never sealed into
    an answer: a ``thought``'s ``signature`` is Google's to check."""

    def new_id(self) -> str:
        """``v1_`` and 32 random hex digits (the API's ids start ``v1_``: the streaming guide's
        events, https://ai.google.dev/gemini-api/docs/interactions/streaming)."""
        return f"v1_{secrets.token_hex(16)}"

    def server_options(self, payload: Mapping[str, Any], answer_id: str, stored: bool) -> dict[str, Any]:
        """The ``server_fields`` option: the server's id, ``object``, its clock's ``created``
        and ``updated`` (ISO 8601 as the reference writes them), and the interaction continued."""
        if payload.get("background") is True:
            raise ValueError(
                "background: true is not supported: this server answers in the request itself "
                "and runs no interaction to fetch later; send the request without background"
            )
        now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        fields: dict[str, Any] = {"id": answer_id, "object": "interaction", "created": now, "updated": now}
        previous = payload.get(PREVIOUS)
        if isinstance(previous, str) and previous:
            fields[PREVIOUS] = previous
        return {SERVER_FIELDS: fields}

    def continues(self, payload: Mapping[str, Any]) -> str | None:
        """The ``previous_interaction_id`` (a string in the SDK's ``CreateModelInteraction``);
        any other value, ``""`` included, is refused, never read as none."""
        value = payload.get(PREVIOUS)
        if value is not None and not isinstance(value, str):
            raise ValueError(f"previous_interaction_id must be a string, not {type(value).__name__}")
        if value == "":
            raise ValueError(
                "previous_interaction_id must name an interaction, not be empty (leave it out to start anew)"
            )
        return value

    def wants_stored(self, payload: Mapping[str, Any]) -> bool:
        """The caller's ``store`` (true when left out, as the API's default)."""
        return payload.get("store") is not False

    def detached(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        """The request without ``previous_interaction_id``."""
        return {key: value for key, value in payload.items() if key != PREVIOUS}

    def carried_over(self, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The messages without the system message ``system_instruction`` became (an input's
        steps hold no system turn)."""
        return [message for message in messages if message.get("role") != "system"]

    def final_answer(self, event: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """The Interaction of ``interaction.completed`` when it completed or stopped for a
        tool (a failed or cancelled one is not continued)."""
        if event.get("event_type") != "interaction.completed":
            return None
        interaction = as_dict(event.get("interaction"))
        if interaction is None or interaction.get("status") not in ("completed", "requires_action", "incomplete"):
            return None
        return interaction

    @property
    def routes(self) -> tuple[str, ...]:
        """``GET /v1beta/interactions/{id}``, and ``/v1/...`` as google-genai 3.6.1 builds it
        by default (``/{api_version}/interactions/{interactionsId}``, its version ``v1``)."""
        return ("/v1beta/interactions/{answer_id}", "/v1/interactions/{answer_id}")

    def seal_options(self, key: str | None) -> dict[str, Any]:
        """Nothing: this front seals nothing (another provider's signed thinking is kept by the store)."""
        del key
        return {}

    def unverified_seals(self, payload: Mapping[str, Any], key: str) -> tuple[dict[str, Any], list[str], bool]:
        """``payload`` as it is: this front writes no seals to check."""
        del key
        return dict(payload), [], False


ANSWERING = InteractionsAnswering()
"""The one instance the edge's front holds."""
