"""Tool-call ids that Anthropic accepts, by a reversible, collision-free rewrite.

Anthropic rejects ``tool_use.id`` and ``tool_result.tool_use_id`` values that do not
match ``^[a-zA-Z0-9_-]+$`` (400 "String should match pattern"), and other providers mint
ids like ``functions.write:0`` (Kimi, DeepSeek) or ``call|abc`` (proxies). Replacing bad
characters with ``_`` (what many proxies do) makes ``a.b`` and ``a:b`` collide, and two
different calls then share one id.

The rewrite here is a pure function, so a call and its result always agree, and it is:

* **minimal**: a valid id is left alone (no length limit is documented in the API
  reference or the SDK types, so length alone never triggers a rewrite);
* **injective**: an id that needs rewriting becomes ``cc-`` followed by the id with every
  byte outside ``[A-Za-z0-9-]`` written as ``_`` plus two lowercase hex digits (UTF-8), so
  ``a.b`` -> ``cc-a_2eb`` and ``a:b`` -> ``cc-a_3ab``. A valid id that happens to *be* such
  an escape (``cc-a_2eb`` itself) is escaped too (``cc-cc-a_5f2eb``), so it cannot collide;
* **reversible**: :func:`restore_tool_use_id` undoes it, and decoding applies it, so
  ``encode(decode(x)) == x`` for every valid wire id.

The mechanism is the contract's :class:`~chatcodec.contract.ToolIdMapping`
(Bedrock Converse uses it with its own rule); this module binds it to Anthropic's.

**A Gemini thought signature rides in the id.** Gemini 3 refuses a tool loop whose function
call comes back without the ``thoughtSignature`` it was answered with ("Function call is
missing a thought_signature in functionCall parts",
https://ai.google.dev/gemini-api/docs/thought-signatures), and an Anthropic ``tool_use``
block has no field for it. The one thing every Claude client sends back exactly is the
call's id (its ``tool_use`` and the ``tool_result`` that answers it), so a call holding a
Gemini signature (its ``gemini`` bag's ``thoughtSignature``) is written, in a response or a
stream (what a client gets and sends back), with the id
``<id>__thought__<signature>``, the signature in the escape above (``[A-Za-z0-9-]`` kept,
any other byte ``_`` plus two hex digits: ``+`` is ``_2b``), which matches Anthropic's
pattern and never holds ``__``; a result answering that call in the same body gets the same
id. Reading splits it again: the call gets its signature back in its ``gemini`` bag, the
result the bare id, so a gateway with no store (an Anthropic front, a Gemini upstream)
sends Gemini the signature it gave, and an Anthropic body reads and writes back
unchanged (the ``_signed`` markers). A request built from another format's history is
sent to Claude without the signature, reported: it is Gemini's, and Claude is not the
client that sends it back. litellm carries it the same way in OpenAI tool-call ids
(``THOUGHT_SIGNATURE_SEPARATOR``, ``litellm_core_utils/prompt_templates/factory.py``).
The separator is reserved: an id that already ends in ``__thought__`` and an escape reads
as a signed one (another provider's then gets that signature).
"""

from __future__ import annotations

from chatcodec.codec_kit import ToolIdMapping

__all__ = [
    "MAPPING",
    "SIGNATURE_SEPARATOR",
    "restore_tool_use_id",
    "sanitize_tool_use_id",
    "signed_tool_use_id",
    "split_signed_id",
    "tool_id_rewrites",
]

MAPPING = ToolIdMapping(r"\A[a-zA-Z0-9_-]+\Z", identifiers=True)
"""Anthropic's rule: the pattern of the API's 400, no length limit."""


sanitize_tool_use_id = MAPPING.sanitize
"""The id Anthropic is sent for a tool-call id: unchanged when valid, else escaped."""
restore_tool_use_id = MAPPING.restore
"""The original id behind a rewritten one; any other id is returned unchanged."""
tool_id_rewrites = MAPPING.rewrites
"""``{original: sent}`` for the ids among those given that the encoder rewrites."""


SIGNATURE_SEPARATOR = "__thought__"
"""Between a call's id and the Gemini thought signature it carries (litellm's separator)."""


def signed_tool_use_id(sent_id: str, signature: str) -> str:
    """The id a call holding a Gemini ``signature`` is written with: the id Anthropic is
    sent (:func:`sanitize_tool_use_id`), the separator, the escaped signature."""
    return f"{sent_id}{SIGNATURE_SEPARATOR}{MAPPING.escape_text(signature)}"


def split_signed_id(wire_id: str) -> tuple[str, str | None]:
    """A wire id and the Gemini signature it carries, split (:func:`signed_tool_use_id`
    undone); an id carrying none comes back whole, with None."""
    head, separator, body = wire_id.rpartition(SIGNATURE_SEPARATOR)
    if not separator or not head or not body:
        return wire_id, None
    signature = MAPPING.unescape_text(body)
    return (wire_id, None) if signature is None else (head, signature)
