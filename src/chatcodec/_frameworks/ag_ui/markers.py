"""The ``ag-ui`` format's name, its kit, its encoder options and its markers.

Markers are keys starting with exactly one ``_`` in a bag (``provider_metadata["ag-ui"]``),
never written out, all pure spelling:

- ``_alone`` on an assistant message read from reasoning messages that no assistant message
  followed: written back without the assistant message the writer closes reasoning with;
- ``_holder`` on the empty user message that holds a conversation of activity messages alone;
- ``_absent`` (the kit's :data:`~chatcodec.codec_kit.ABSENT_MARKER`) on a call whose ``type``
  was left out.

Data keys (reported by another format): a message's fields with no canonical home, each under
its own name as AG-UI spells it (``id``, ``encryptedValue``, ``metadata``, ``subagentRunId``),
on the canonical message it became (a reasoning message's on its thinking part, a tool
message's on its result); a part's ``id`` and ``metadata`` on the part, and its source's
fields beyond ``value`` and ``mimeType`` under ``source``; a call's ``encryptedValue`` and
``metadata`` on its ``tool_use`` part; a tool message's ``error`` on its result when it says
more than the result's text; and ``activities_before`` / ``activities_after``: activity
messages (structured progress a UI renders, no conversation content) that stood before or
after the message, whole. Read from a run's event stream: ``events`` (the events that built no
part of the answer) on the message, ``parentMessageId`` on a call and ``messageId`` on a text of
another assistant message than the answer's; written as messages, each is reported.
"""

from __future__ import annotations

from chatcodec.codec_kit import MODEL_OPTION, RULE_OPTIONS, ProviderKit
from chatcodec.contract import OptionTable

PROVIDER = "ag-ui"
"""Registry name, and the key of this format's ``provider_metadata`` bags."""

DISPLAY = "AG-UI"
"""How losses name the format."""

KIT = ProviderKit(PROVIDER)
"""The shared bag operations bound to this format (it declares no meaningful marker)."""

OPTIONS = OptionTable.of(MODEL_OPTION, *RULE_OPTIONS)
"""Taken as every encoder takes them, so ``convert --storage`` works."""

ALONE, HOLDER = "_alone", "_holder"
EVENTS, PARENT = "events", "parentMessageId"
"""From a stream (:mod:`.stream_decode`): the run's events that build no part of the answer, in
the message's bag; a call's assistant message when it is not the answer's, in the call's."""
EVENT_FIELDS = ("start", "end", "reasoningStart", "reasoningEnd")
"""From a stream: a part's events' other fields (a timestamp, a raw event), by the event they came
with. A message list has no place for an event's fields: its writer reports them."""
BEFORE, AFTER = "activities_before", "activities_after"
CALL_DEFAULTS = {"type": "function"}
"""A call's ``type``: AG-UI's one kind, left out of the call's bag (its absence marked) and
written back (:func:`~chatcodec.codec_kit.split_fields` / ``restore_fields`` defaults)."""
ERROR = "error"
"""A tool message's ``error`` in its result's bag, when it is not the result's own text."""


MADE_UP_RUN = {"threadId": "thread-1", "runId": "run-1"}
"""The thread and run a run's events are written with when the response's bag names none (AG-UI
requires both): read back as no data, so a stream written and read again gains nothing."""

MADE_UP_ANSWER = "answer-1"
"""The id of the assistant message a run's events are written for when neither its bag nor the
response names one: read back as no data."""

USAGE_FIELDS = {
    "input_tokens": "inputTokens",
    "output_tokens": "outputTokens",
    "reasoning_tokens": "reasoningTokens",
    "cache_read_tokens": "cachedInputTokens",
    "cache_write_tokens": "cacheWriteInputTokens",
}
"""The canonical counts an AG-UI ``TokenUsage`` holds, by its field names (``totalTokens`` is
their sum): what a stream's ``RUN_FINISHED`` ``usage`` is read from and written as."""


def made_up_reasoning_id(place: int) -> str:
    """The id of the reasoning message a thinking part at ``place`` (the how-manieth part of the
    answer, from 0) is written as when its bag kept none: read back as no data."""
    return f"reasoning-{place}"


def made_up_id(index: int) -> str:
    """The id the writer gives the AG-UI message at ``index`` of the list it writes (every
    message requires one) when the canonical message kept none: read back as no id, since
    writing it again at the same place gives it again (a value equal to the default is no data)."""
    return f"message-{index}"
