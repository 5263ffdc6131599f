"""This codec's name, its kit, its encoder options, and the spelling markers it keeps.

Pure spelling: ``_list`` (a message's content written as a list of one block rather than
the block itself: the schema takes both, with one meaning); ``_no_content`` (a tool result
that came without its ``content``, which the MCP SDK's ``ToolResultContent`` defaults to ``[]``).

Carry meaning: none.

Encoder options: the target rules' ``api_version`` and ``skip_rules``; a sampling request
names no model (a server only hints one in ``modelPreferences``), so there is no
``model`` option.
"""

from __future__ import annotations

from chatcodec.codec_kit import RULE_OPTIONS, ProviderKit
from chatcodec.contract import OptionTable

PROVIDER = "mcp-sampling"
"""Registry name, and the key of this codec's ``provider_metadata`` / ``provider_options`` bags."""

DISPLAY = "MCP sampling"
"""How loss texts name the format."""

KIT = ProviderKit(PROVIDER)
"""The shared bag operations bound to this codec."""

LIST = "_list"
"""Marker: a message's single block came as a list of one."""

NO_CONTENT = "_no_content"
"""Marker: a tool result came without ``content`` (read as none, written back without)."""

OPTIONS = OptionTable.of(*RULE_OPTIONS)
"""This encoder's options: the target rules' only."""
