"""Tool-call ids and tool names that Bedrock Converse accepts.

botocore's ``bedrock-runtime`` service model (``ToolUseId``) allows ``[a-zA-Z0-9_.:-]+``
of 1 to 64 characters, so ids Anthropic rejects (``functions.write:0``) pass here, and
ids Anthropic accepts can be too long here (OpenAI ``call_`` ids of 40+ characters with a
proxy prefix, Gemini-generated ones). The rewrite is the kit's collision-free, reversible
:class:`~chatcodec._providers.kit.tool_id_mapping.ToolIdMapping` with Bedrock's rule; an id
whose escape would exceed 64 characters is hashed, and the encoder reports it.

A response's call with ``toolUseId: ""`` (compatible servers and proxies send it; the
service model's ``min: 1`` says Bedrock itself never does) gets a made-up id, as Gemini's
calls without one do (``bedrock_call_<block index>``, the same in a response and its
stream), marked ``_empty_id`` so this encoder writes ``""`` back; canonical calls and
results pair by id, and Anthropic and OpenAI reject an empty one.

Tool names (``ToolName``): ``[a-zA-Z0-9_-]+``, 1 to 64 characters; a name outside that is
a request Bedrock rejects with a ValidationException, so it is an error by policy
(renaming a tool silently would break the calls in the history).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chatcodec._providers.kit import tool_names
from chatcodec._providers.kit.tool_id_mapping import HASHED_PREFIX, ToolIdMapping
from chatcodec._providers.kit.tool_names import COMMON_TOOL_NAMES

if TYPE_CHECKING:
    from chatcodec._losses import LossRecorder, Steps
    from chatcodec._providers.contract.context import EncodeContext

MAX_LENGTH = 64
"""Longest tool id Bedrock accepts (its tool names follow ``tool_names.COMMON_TOOL_NAMES``)."""

MAPPING = ToolIdMapping(r"\A[a-zA-Z0-9_.:-]+\Z", max_length=MAX_LENGTH, identifiers=True)
"""Bedrock's ``ToolUseId`` rule."""


def sanitize_tool_use_id(tool_use_id: str) -> str:
    """The id Bedrock is sent: unchanged when valid, else escaped (or hashed when too long)."""
    return MAPPING.sanitize(tool_use_id)


SENT_AS_IS: set[str] = set()
"""Tool ids seen sent as they are (the rewrite left them alone): each id is sent twice a
request (call and result), and in every request of a session, so a set look-up spares the
rewrite's call. Only unchanged ids are kept (a rewritten one is reported every time), at
most :data:`SENT_AS_IS_MAX`."""
SENT_AS_IS_MAX = 4096


def tool_use_id(original: str, losses: LossRecorder, at: Steps) -> str:
    """The id sent for ``original`` (:data:`MAPPING`); a hashed one (too long to escape)
    is reported at ``at``."""
    if original in SENT_AS_IS:
        return original
    sent = MAPPING.sanitize(original)
    if sent == original:
        if len(SENT_AS_IS) >= SENT_AS_IS_MAX:
            SENT_AS_IS.clear()
        SENT_AS_IS.add(original)
    elif sent.startswith(HASHED_PREFIX):
        losses.add(at, "tool call id", "longer than Bedrock's 64 characters once escaped; sent hashed", "metadata")
    return sent


def restore_tool_use_id(wire_id: str) -> str:
    """The original id behind a rewritten one; any other id is returned unchanged."""
    return MAPPING.restore(wire_id)


EMPTY_ID = "_empty_id"
"""Marker on a call whose ``toolUseId`` was ``""`` (its id was made up)."""


def made_up_id(block_index: int) -> str:
    """The id given to a response's call that came with ``toolUseId: ""``."""
    return f"bedrock_call_{block_index}"


def name_empty_calls(parts: list[dict[str, Any]], provider: str) -> list[dict[str, Any]]:
    """``parts`` with a made-up id on each call whose wire id was ``""`` (marked ``_empty_id``
    in ``provider``'s bag by the block decoder; an escaped id that restores to ``""`` is a
    canonical ``""`` sent through, and stays one)."""
    for index, part in enumerate(parts):
        bag = part.get("provider_metadata", {}).get(provider, {})
        if part.get("type") == "tool_use" and part.get("id") == "" and bag.get(EMPTY_ID):
            part["id"] = made_up_id(index)
    return parts


VALID_NAMES = COMMON_TOOL_NAMES.accepted
"""Tool names seen valid (sent as they are): the common rule's own memory
(:meth:`~chatcodec._providers.kit.tool_names.ToolNameRule.takes`), which every writer of that
rule fills; a writer sends a name found here without another look."""


def tool_name(name: str, context: EncodeContext, at: Steps, provider: str) -> str:
    """``name`` as Bedrock's ``ToolName`` allows it (OpenAI's rule: botocore's pattern
    ``[a-zA-Z0-9_-]+``, 1 to 64), for either body (``provider``, the body's registry name):
    the shared rewrite (:mod:`~chatcodec._providers.kit.tool_names`), reported, so two long
    names stay two names and calls, choices and definitions agree. A blank name is an error
    in a request and ``tool``, reported, in a response or stream."""
    if COMMON_TOOL_NAMES.takes(name):
        return name
    if not name.strip() and not context.for_request:  # what the model called: no request to refuse
        context.losses.add((*at, "name"), "blank tool name", "Bedrock tool names are 1 to 64 characters; sent 'tool'")
        return "tool"
    return tool_names.tool_name(name, context.losses, at, provider)
