"""``toolConfig``: the AWS family's reader and writer (``families/aws/tools.py``) for
Nova's body (no tool cache points, no ``strict``: its :data:`~.markers.BODY`)."""

from __future__ import annotations

from chatcodec._providers.bedrock_nova.markers import BODY
from chatcodec._providers.families.aws.tools import ToolConfig

TOOLS = ToolConfig(BODY)
r"""Nova's tools, choice and kept ``systemTool``\ s (``nova_grounding``, ``nova_code_interpreter``)."""
decode_tools = TOOLS.decode_tools
encode_tools = TOOLS.encode_tools
