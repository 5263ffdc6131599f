"""The ``developer`` role, for the formats that have none.

OpenAI's ``developer`` role replaced ``system`` for its reasoning models ("developer
messages are the new system messages",
https://platform.openai.com/docs/guides/text-generation#message-roles-and-instruction-following);
canonical keeps the two apart. Anthropic, Gemini and Bedrock Converse have only a system
prompt (or ``system`` turns), so a developer message is sent as system text and reads
back as ``system``: that change of role is reported (issue 24 item 5), never made silently.
"""

from __future__ import annotations

from collections.abc import Sequence

from chatcodec.losses import LossRecorder
from chatcodec.messages import AnyMessage


def report_developer_roles(messages: Sequence[AnyMessage], losses: LossRecorder, target: str) -> None:
    """A loss for each ``developer`` message, which ``target`` sends as system."""
    for index, message in enumerate(messages):
        if message.role == "developer":
            losses.add(("messages", index, "role"), "developer role", f"{target} has no developer role; sent as system")
