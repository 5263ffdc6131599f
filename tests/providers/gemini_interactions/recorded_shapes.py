"""Recorded-shape bodies of the Interactions API, built from its reference and google-genai
3.6.1's types (no live recording of this API was available to copy in). Each names its
source; the values (ids, signatures, counts) are made up in the shapes the sources give.
"""

from __future__ import annotations

from typing import Any

SOURCE_REFERENCE = "https://ai.google.dev/api/interactions-api"
SOURCE_FUNCTIONS = "https://ai.google.dev/gemini-api/docs/interactions (Function calling)"
SOURCE_STREAMING = "https://ai.google.dev/gemini-api/docs/interactions/streaming"
SDK = "google-genai 3.6.1, google.genai._gaos.types.interactions"

STRING_INPUT: dict[str, Any] = {
    "model": "gemini-3-flash-preview",
    "input": "Count to from 1 to 25.",
    "stream": True,
}
"""The streaming guide's REST request (SOURCE_STREAMING)."""

AGENT_TURN: dict[str, Any] = {
    "model": "gemini-3-flash-preview",
    "system_instruction": "You are a weather assistant.",
    "input": [
        {
            "type": "user_input",
            "content": [
                {"type": "text", "text": "Weather in Paris and Lyon? And what is in this picture?"},
                {"type": "image", "data": "iVBORw0KGgo=", "mime_type": "image/png"},
            ],
        },
        {"type": "thought", "signature": "c2lnbmF0dXJlLTE=", "summary": [{"type": "text", "text": "Two cities."}]},
        {"type": "function_call", "id": "call_1", "name": "get_weather", "arguments": {"city": "Paris"}},
        {"type": "function_call", "id": "call_2", "name": "get_weather", "arguments": {"city": "Lyon"}},
        {"type": "function_result", "call_id": "call_1", "name": "get_weather", "result": "18C, sunny"},
        {"type": "function_result", "call_id": "call_2", "name": "get_weather", "result": {"temperature": 16}},
        {"type": "model_output", "content": [{"type": "text", "text": "Paris 18C, Lyon 16C."}]},
        {"type": "user_input", "content": [{"type": "text", "text": "Thanks. Search the news too."}]},
    ],
    "tools": [
        {
            "type": "function",
            "name": "get_weather",
            "description": "Current weather of a city.",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        },
        {"type": "google_search"},
    ],
    "generation_config": {
        "temperature": 0.7,
        "top_p": 0.9,
        "seed": 7,
        "max_output_tokens": 1024,
        "stop_sequences": ["END"],
        "thinking_level": "high",
        "thinking_summaries": "auto",
        "tool_choice": "auto",
    },
    "response_format": {"type": "text", "mime_type": "application/json", "schema": {"type": "object"}},
    "previous_interaction_id": "v1_previous",
    "store": True,
    "background": False,
}
"""A tool loop in the steps schema: the function-calling guide's steps (SOURCE_FUNCTIONS), the
``Function``, ``GoogleSearch``, ``GenerationConfig`` and ``TextResponseFormat`` fields (SDK)."""

CONTENT_LIST_INPUT: dict[str, Any] = {
    "model": "gemini-3-flash-preview",
    "input": [
        {"type": "text", "text": "Describe this video."},
        {
            "type": "video",
            "uri": "https://generativelanguage.googleapis.com/v1beta/files/abc",
            "mime_type": "video/mp4",
        },
    ],
}
"""``input`` as a list of ``Content`` (SDK ``InteractionsInput``)."""

INTERACTION: dict[str, Any] = {
    "id": "v1_ChdPU0Fh",
    "object": "interaction",
    "model": "gemini-3-flash-preview",
    "status": "requires_action",
    "created": "2026-06-10T10:00:00Z",
    "updated": "2026-06-10T10:00:02Z",
    "steps": [
        {"type": "thought", "signature": "c2lnLTI=", "summary": [{"type": "text", "text": "Need the weather."}]},
        {"type": "model_output", "content": [{"type": "text", "text": "Checking."}]},
        {"type": "function_call", "id": "call_9", "name": "get_weather", "arguments": {"city": "Rome"}},
        {"type": "google_search_call", "id": "gs_1", "arguments": {"queries": ["rome weather"]}},
    ],
    "usage": {
        "total_input_tokens": 120,
        "total_output_tokens": 30,
        "total_thought_tokens": 12,
        "total_cached_tokens": 64,
        "total_tokens": 162,
    },
}
"""An Interaction that called a function (SDK ``Interaction``, ``GoogleSearchCallStep``; statuses
from ``InteractionStatus``)."""

STREAM: list[dict[str, Any]] = [
    {
        "event_type": "interaction.created",
        "interaction": {
            "id": "v1_s",
            "status": "in_progress",
            "object": "interaction",
            "model": "gemini-3-flash-preview",
        },
    },
    {"event_type": "interaction.status_update", "interaction_id": "v1_s", "status": "in_progress"},
    {"event_type": "step.start", "index": 0, "step": {"type": "thought"}},
    {
        "event_type": "step.delta",
        "index": 0,
        "delta": {"type": "thought_summary", "content": {"type": "text", "text": "Hm."}},
    },
    {"event_type": "step.delta", "index": 0, "delta": {"type": "thought_signature", "signature": "c2ln"}},
    {"event_type": "step.stop", "index": 0},
    {"event_type": "step.start", "index": 1, "step": {"type": "model_output"}},
    {"event_type": "step.delta", "index": 1, "delta": {"type": "text", "text": "1, 2, "}},
    {"event_type": "step.delta", "index": 1, "delta": {"type": "text", "text": "3"}},
    {"event_type": "step.stop", "index": 1},
    {
        "event_type": "step.start",
        "index": 2,
        "step": {"type": "function_call", "id": "call_3", "name": "count", "arguments": {}},
    },
    {"event_type": "step.delta", "index": 2, "delta": {"type": "arguments_delta", "arguments": '{"to":'}},
    {"event_type": "step.delta", "index": 2, "delta": {"type": "arguments_delta", "arguments": "25}"}},
    {"event_type": "step.stop", "index": 2},
    {
        "event_type": "interaction.completed",
        "interaction": {
            "id": "v1_s",
            "status": "requires_action",
            "object": "interaction",
            "model": "gemini-3-flash-preview",
            "usage": {"total_input_tokens": 9, "total_output_tokens": 7, "total_thought_tokens": 2},
        },
    },
]
"""The streaming guide's event sequence (SOURCE_STREAMING) with a thought and a call (SDK
``StepStart``, ``StepDelta``, ``ThoughtSummaryDelta``, ``ThoughtSignatureDelta``, ``ArgumentsDelta``)."""
