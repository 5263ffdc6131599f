"""Gemini's tool-name rule: "must start with a letter or an underscore; a-z, A-Z, 0-9,
underscores, dots, colons and dashes, with a maximum length of 128" (google-genai's
``FunctionDeclaration.name``), for the kit's one rewrite (:mod:`chatcodec._providers.kit.tool_names`).
"""

from __future__ import annotations

import re

from chatcodec.codec_kit import ToolNameRule

GEMINI_TOOL_NAMES = ToolNameRule(
    valid=re.compile(r"\A[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}\Z"),
    limit=128,
    replaced=re.compile(r"[^a-zA-Z0-9_.:-]"),
    shown="^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$",
    first=re.compile(r"[a-zA-Z_]"),
)
"""Gemini function declarations (and the calls and responses naming them)."""
