"""Anthropic's law facts: the API version that still takes sampling settings, the names that
say the vendor, its tool-name rule and what its wire has no place for. (Its documented
rewrites and single-hop normal form still live with its tests, which add them.)"""

from __future__ import annotations

import re
from functools import partial

from chatcodec.testing._laws.derived_entry import derived_entry

entry = partial(
    derived_entry,
    "anthropic",
    rule_models=("claude-3-5-haiku", "claude-sonnet-4-5", "claude-opus-4-7", "claude-sonnet-5", "claude-opus-5-5"),
    sampling_options={"api_version": "2023-06-01"},  # 2026-10-21 takes no sampling settings
    names_in_prose=("anthropic", "claude"),
    # Anthropic's client tools share OpenAI's rule (the openai SDK's FunctionDefinition.name).
    tool_name_rule=re.compile(r"\A[a-zA-Z0-9_-]{1,64}\Z"),
    unplaced_response_fields=("created",),
    reports_reparsed_arguments=True,  # ``input`` is an object: the argument text is parsed
)
"""The facts the codec gives, for ``chatcodec check-codec anthropic`` (the repository's tests
add the recordings', the SDK's and the rewrites as keywords)."""
