"""What the gateway (``chatcodec serve``) takes from the training room, and nothing else.

The gateway renders a session's prompts, parses what the model sampled, and records each turn
for a trainer (docs/gateway.md, "Recording"); every rule it applies there lives in the training
room, which it reaches through this one module. Its names are the boundary between the two:
a new need of the gateway is a line here, so the room's other modules may change shape without
the gateway knowing (``tests/test_layers.py`` holds that no module under ``serve/`` imports
another module of the room).
"""

from __future__ import annotations

from chatcodec._training.call_ids import held_calls
from chatcodec._training.completion.parse import parse_completion, reasoning_opener
from chatcodec._training.completion.parsers import TOOL_CALL_PARSERS
from chatcodec._training.completion.reasoning import REASONING_PARSERS
from chatcodec._training.completion.template_link import template_link
from chatcodec._training.families import families, template_profile, template_text
from chatcodec._training.next_prompt import Point, Renderer, cut_reason, digests, prompt_after, sampled_text
from chatcodec._training.origins import source_place
from chatcodec._training.reading import holds_object_arguments
from chatcodec._training.record_deltas import LineBase, Rebuilder, delta_fields
from chatcodec._training.record_lines import SHARD_SUFFIX, record_lines
from chatcodec._training.record_stream import FIELD, STREAM, is_redis, redis_client
from chatcodec._training.records import COMPLETE, END, end_line, ids_unreadable, logprobs_unreadable, record_line
from chatcodec._training.tokens import ids_fault, loaded, vocabulary_size

__all__ = [
    "COMPLETE",
    "END",
    "FIELD",
    "REASONING_PARSERS",
    "SHARD_SUFFIX",
    "STREAM",
    "TOOL_CALL_PARSERS",
    "LineBase",
    "Point",
    "Rebuilder",
    "Renderer",
    "cut_reason",
    "delta_fields",
    "digests",
    "end_line",
    "family_text",
    "held_calls",
    "holds_object_arguments",
    "ids_fault",
    "ids_unreadable",
    "is_redis",
    "loaded",
    "logprobs_unreadable",
    "parse_completion",
    "prompt_after",
    "reasoning_opener",
    "record_line",
    "record_lines",
    "redis_client",
    "sampled_text",
    "source_place",
    "template_link",
    "template_profile",
    "vocabulary_size",
]


def family_text(template: str) -> str:
    """The Jinja text of ``template``: a family's stored template when it names one, else the
    text itself (a route's ``template`` is either)."""
    return template_text(template) if template in families() else template
