"""``toolConfig``: the AWS family's reader and writer (``families/aws/tools.py``) for
Converse (every member Converse documents)."""

from __future__ import annotations

from chatcodec._providers.bedrock_converse.markers import BODY
from chatcodec._providers.families.aws.tools import ToolConfig

TOOLS = ToolConfig(BODY)
r"""Converse's tools, choice and kept ``systemTool``\ s."""
decode_tools = TOOLS.decode_tools
encode_tools = TOOLS.encode_tools
