"""Another provider's signed reasoning, carried to a Responses client in ``encrypted_content``.

Claude verifies the thinking it is given back: a tool-use turn replayed without its signed
``thinking`` block (text and ``signature`` exactly as returned) is refused with 400
"Expected `thinking` or `redacted_thinking`, but found `tool_use`"
(https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks).
A client of the Responses API keeps reasoning as ``reasoning`` items and sends them back
unchanged, with their ``encrypted_content`` when it asked for
``include: ["reasoning.encrypted_content"]`` or keeps no state on the server
(``store: false``): that is how Codex CLI and the OpenAI Agents SDK keep OpenAI's own
reasoning across turns (https://platform.openai.com/docs/guides/reasoning#encrypted-reasoning-items).

So when the encoder option ``encrypted_reasoning`` is true, a response or stream writes
another provider's signed or encrypted thinking part (Anthropic's ``thinking`` and
``redacted_thinking``, Claude on Bedrock, a signed Gemini thought) as a ``reasoning`` item
whose ``encrypted_content`` *seals* the whole canonical part: :data:`PREFIX` and the part's
JSON in URL-safe base64. Its text is shown as the summary too. Reading a request (or a
response) gives the sealed part back exactly, with its provider and model, so the
target's own rules decide whether to replay it (Anthropic replays only thinking Claude
signed). Sealed reasoning is never sent to OpenAI, which could not read it: a request
written for OpenAI drops it, reported, as any other provider's reasoning.

The seal is not a secret or a signature of chatcodec's: a caller could forge one, but it
could as well send the provider's own block through that provider's API.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Mapping
from typing import Any

from chatcodec.errors import PayloadError
from chatcodec.providers.openai_responses.markers import PROVIDER

PREFIX = "chatcodec.reasoning.v1:"
"""What a sealed ``encrypted_content`` starts with (OpenAI's own payloads are Fernet
tokens, ``gAAAA...``, so the two never meet)."""

OPTION = "encrypted_reasoning"
"""The encoder option: seal other providers' signed reasoning into output items."""

SEALED_FIELDS = frozenset(
    {"type", "text", "signature", "encrypted", "redacted", "provider", "model", "provider_metadata"}
)
"""The canonical thinking part's fields a seal holds (``cache_control`` is a request
setting, never part of an answer)."""

RULE = "sealed reasoning is a canonical thinking part of another provider, as chatcodec wrote it"


def should_seal(part: Mapping[str, Any]) -> bool:
    """Whether a thinking part is another provider's and carries something only that
    provider can read back (a signature or an encrypted payload)."""
    return part.get("provider") != PROVIDER and bool(part.get("signature") or part.get("encrypted"))


def seal(part: Mapping[str, Any]) -> str:
    """``encrypted_content`` carrying ``part`` (its sealed fields, in a fixed order, so
    the same part always seals the same way, streamed or not)."""
    kept = {key: part[key] for key in sorted(SEALED_FIELDS) if part.get(key) is not None}
    text = json.dumps(kept, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return PREFIX + base64.urlsafe_b64encode(text.encode("utf-8", "surrogatepass")).decode("ascii")


def is_sealed(value: object) -> bool:
    return isinstance(value, str) and value.startswith(PREFIX)


def unseal(value: str, at: str) -> dict[str, Any]:
    """The canonical thinking part ``value`` seals; a :class:`~chatcodec.PayloadError` at
    ``at`` (the ``encrypted_content``'s JSON path) when it is not one."""
    try:
        text = base64.urlsafe_b64decode(value[len(PREFIX) :].encode("ascii")).decode("utf-8", "surrogatepass")
        part = json.loads(text)
    except (binascii.Error, UnicodeError, ValueError):
        raise PayloadError(f"{RULE}: not base64 of a JSON object", at) from None
    if not isinstance(part, dict) or part.get("type") != "thinking":
        raise PayloadError(f"{RULE}: not a thinking part", at)
    extra = sorted(set(part) - SEALED_FIELDS)
    if extra:
        raise PayloadError(f"{RULE}: unexpected field {extra[0]!r}", at)
    if part.get("provider") == PROVIDER:
        raise PayloadError(f"{RULE}: OpenAI's own reasoning is never sealed", at)
    for key in ("text", "signature", "encrypted", "provider", "model"):
        if key in part and not isinstance(part[key], str):
            raise PayloadError(f"{RULE}: {key} is not a string", at)
    if not isinstance(part.get("provider_metadata", {}), dict) or not isinstance(part.get("redacted", False), bool):
        raise PayloadError(f"{RULE}: provider_metadata must be an object and redacted a boolean", at)
    return part
