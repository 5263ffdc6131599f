"""Converse's ``toolConfig``: the AWS family's reader and writer (``families/aws/tools.py``) bound to
this body, the folder's ``tools`` role (a file of its own, so the markers name no module that
imports them)."""

from __future__ import annotations

from chatcodec._providers.bedrock_converse.markers import BODY
from chatcodec._providers.families.aws.tools import ToolConfig

TOOLS = ToolConfig(BODY)
decode_tools, encode_tools = TOOLS.decode_tools, TOOLS.encode_tools
