"""The ``a2a`` format's name, its kit, its encoder options and markers.

Markers are keys starting with exactly one ``_`` in a bag (``provider_metadata["a2a"]``),
never written out:

- ``_data`` (carries meaning) on a text part: the text is the compact JSON of a ``data``
  part's value, written back as that value; another format reports it when it sends the text;
- ``_no_media_type`` (pure spelling) on a media or document part: the file part named no
  ``mediaType`` (a base64 source needs one: ``application/octet-stream`` stands for it);
- ``_status`` (pure spelling) on a message: it was the task's ``status.message``;
- ``_no_id`` (pure spelling) on a message: it came without a ``messageId`` (written so);
- ``_in`` (pure spelling, in the request's bag): the request was the message or the task of a
  ``SendMessageRequest`` or ``SendMessageResponse`` (``{"message": ...}``, ``{"task": ...}``),
  its value that key; written back so, the body's other fields (``configuration``,
  ``metadata``...) from the bag's ``envelope``;
- ``_task`` (pure spelling, in the request's bag, ``provider_options["a2a"]``): the request
  was a ``Task``, written back as one.

Data keys (reported by another format): a message's ``messageId`` (unless it is the one this
format writes for its place, :func:`.messages.default_id`), ``contextId``, ``taskId``,
``metadata``, ``extensions``, ``referenceTaskIds`` and any other field; a part's ``metadata``,
``filename`` (where the canonical part has none) and a text part's ``mediaType``; on a
message read from an artifact, ``artifact``: the artifact's own fields (``artifactId``,
``name``, ``description``, ``metadata``, ``extensions``); in the request's bag, the task's
fields (``id``, ``contextId``, ``status`` without its message, ``metadata``).
"""

from __future__ import annotations

from chatcodec.codec_kit import MODEL_OPTION, RULE_OPTIONS, ProviderKit
from chatcodec.contract import OptionTable

PROVIDER = "a2a"
"""Registry name, and the key of this format's ``provider_metadata`` bags."""

DISPLAY = "A2A"
"""How losses name the format."""

DATA = "_data"
NO_MEDIA_TYPE, STATUS, TASK, NO_ID, WRAPPED = "_no_media_type", "_status", "_task", "_no_id", "_in"
EMPTY = "_empty"
ENVELOPE = "envelope"
"""The request bag's key of a method body's fields beside its message or task."""
ARTIFACT = "artifact"
"""The bag key of a message read from an artifact: the artifact's fields but its parts."""

KIT = ProviderKit(
    PROVIDER,
    meaningful_markers={DATA: "the text is an A2A data part's JSON value: structured data, not prose"},
)
"""The shared bag operations bound to this format."""

OPTIONS = OptionTable.of(MODEL_OPTION, *RULE_OPTIONS)
"""Taken as every encoder takes them, so ``convert --storage`` works."""

USER, AGENT = "ROLE_USER", "ROLE_AGENT"
"""The two roles of a v1.0 message, as its ProtoJSON spells the ``Role`` enum."""

OCTET_STREAM = "application/octet-stream"
"""The media type of bytes a file part gave none for."""


MADE_UP_TASK = {"id": "task-1", "contextId": "context-1", "status": {"state": "TASK_STATE_WORKING"}}
"""The task a stream is written as when the response names none (its id the response's when it
has one; a task starts working): read back as no data, so a stream written and read again gains
nothing."""


def made_up_artifact_id(place: int) -> str:
    """The ``artifactId`` of the artifact a part at ``place`` (the how-manieth part of the answer,
    from 0) is written in when its bag kept none: read back as no data."""
    return f"artifact-{place + 1}"
