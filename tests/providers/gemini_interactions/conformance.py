"""What the conformance laws need to know about gemini-interactions: its :data:`ENTRY`,
collected by ``tests/conformance/providers.py``.

The oracle is google-genai 3.6.1's own types for the API (``interactions_support.py``: no
``Unknown*`` stand-in anywhere in the parsed object). Each recorded stream pairs with
:func:`reference_accumulation`: the Interaction its events stand for, built here by the
streaming guide's rules (https://ai.google.dev/gemini-api/docs/interactions/streaming: a
``step.start`` opens step ``index``, its ``step.delta`` events add to it, text deltas and
argument fragments concatenate; ``interaction.completed`` gives the status and usage),
independently of the codec.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from hypothesis import strategies as st

import chatcodec
from chatcodec.testing._laws.built_in import gemini_interactions
from chatcodec.testing._laws.entry import ProviderEntry, StreamPair
from chatcodec.testing._laws.fixtures import JsonObject
from chatcodec.testing._laws.normal_forms import with_compact_arguments, without_spelling_markers
from conformance.recordings import recordings_of
from providers.gemini_interactions.conformance_streams import CASES
from providers.gemini_interactions.interactions_support import sdk_checked

PROVIDER = "gemini-interactions"

FINISH_REASONS: dict[str, chatcodec.UnifiedFinishReason] = {
    "completed": "stop",
    "requires_action": "tool_calls",
    "incomplete": "length",
    "budget_exceeded": "length",
    "failed": "error",
    "cancelled": "other",
    "in_progress": "other",
    "queued": "other",
    "idle": "other",
    "requires_continuation": "other",
    "a_status_added_in_2027": "other",  # a status the API adds later: kept as sent
}
"""Every status google-genai 3.6.1 names (``InteractionStatus``, ``InteractionSseEventInteractionStatus``)."""


def check_request(body: JsonObject) -> None:
    sdk_checked("CreateModelInteraction", body)


def check_response(body: JsonObject) -> None:
    sdk_checked("Interaction", body)


def check_stream(events: list[JsonObject]) -> None:
    for event in events:
        sdk_checked("InteractionSSEEvent", event)


def with_finish_reason(payload: JsonObject, raw: str) -> JsonObject:
    return copy.deepcopy(payload) | {"status": raw}


# --- recorded streams and what they stand for ------------------------------------------------


def reference_accumulation(events: list[JsonObject]) -> JsonObject:
    """The Interaction a stream stands for (see the module docstring)."""
    steps: dict[int, dict[str, Any]] = {}
    arguments: dict[int, str] = {}
    body: dict[str, Any] = {}
    for event in events:
        kind = event["event_type"]
        if kind in ("interaction.created", "interaction.completed"):
            body.update(event["interaction"])
        elif kind == "step.start":
            steps[event["index"]] = copy.deepcopy(event["step"])
        elif kind == "step.delta":
            step, change = steps[event["index"]], event["delta"]
            if change["type"] == "text":
                content = step.setdefault("content", [])
                if content and content[-1]["type"] == "text":
                    content[-1]["text"] += change["text"]
                else:
                    content.append({"type": "text", "text": change["text"]})
            elif change["type"] == "thought_summary":
                summary = step.setdefault("summary", [{"type": "text", "text": ""}])
                summary[0]["text"] += change["content"]["text"]
            elif change["type"] == "thought_signature":
                step["signature"] = change["signature"]
            elif change["type"] == "arguments_delta":
                arguments[event["index"]] = arguments.get(event["index"], "") + change["arguments"]
    for index, text in arguments.items():
        steps[index]["arguments"] = json.loads(text)
    return {**body, "steps": [steps[index] for index in sorted(steps)]}


def streamed_meaning(response: chatcodec.ChatResponse) -> object:
    """A stream and a body of one answer: argument spelling aside."""
    return without_spelling_markers(with_compact_arguments(response)).model_dump(mode="json")


def stream_pairs(provider: ProviderEntry) -> list[StreamPair]:
    return [
        StreamPair(name, lambda name=name: reference_accumulation(provider.stream_events(name)), streamed_meaning)
        for name in provider.recorded["stream"]
    ]


# --- responses as the API carries them -------------------------------------------------------

_words = st.text(alphabet="abcdefghij _-", min_size=1, max_size=10).filter(lambda text: text.strip() != "")
_ids = st.text(alphabet="abcXYZ019_", min_size=1, max_size=20)
_names = st.text(alphabet="abcXYZ019_", min_size=1, max_size=20)


@st.composite
def interactions_responses(draw: st.DrawFn) -> chatcodec.ChatResponse:
    """Responses the codec carries exactly: text, this API's thoughts with a signature,
    function calls with object arguments, its statuses, plain usage."""
    thinking = st.builds(
        chatcodec.ThinkingPart, text=_words, provider=st.just(PROVIDER), signature=st.one_of(st.none(), _ids)
    )
    calls = st.builds(
        chatcodec.ToolUsePart,
        id=_ids,
        name=_names,
        arguments=st.dictionaries(_names, st.integers(0, 9), max_size=2).map(json.dumps),
    )
    parts = draw(st.lists(st.one_of(st.builds(chatcodec.TextPart, text=_words), thinking, calls), max_size=4))
    raw = draw(st.sampled_from(list(FINISH_REASONS)[:-1]))
    usage = draw(
        st.one_of(
            st.none(),
            st.builds(chatcodec.Usage, input_tokens=st.integers(10, 90), output_tokens=st.integers(0, 9)),
        )
    )
    return chatcodec.ChatResponse(
        message=chatcodec.AssistantMessage(content=parts),
        finish_reason=chatcodec.FinishReason(unified=FINISH_REASONS[raw], raw=raw),
        usage=usage,
    )


def deep_kept_value(events: list[JsonObject], value: object) -> tuple[list[JsonObject], int]:
    """``interaction.created`` keeps its Interaction's unknown fields: ``value`` goes into the first event's."""
    first = {**events[0], "interaction": {**events[0]["interaction"], "x_extension": value}}
    return [first, *events[1:]], 0


ENTRY = gemini_interactions.entry(
    fixtures=recordings_of(PROVIDER),
    check_request=check_request,
    check_response=check_response,
    check_stream=check_stream,
    recordings={"request": 6, "response": 3, "stream": 2},
    finish_reasons=FINISH_REASONS,
    with_finish_reason=with_finish_reason,
    finish_reason_fixture="completed_text.json",
    pair_streams=stream_pairs,
    streams=CASES,
    shaped_responses=interactions_responses,
    deep_kept_value=deep_kept_value,
)
"""The codec's own facts (``chatcodec.testing._laws.built_in.gemini_interactions``), the recordings' and the SDK's."""
