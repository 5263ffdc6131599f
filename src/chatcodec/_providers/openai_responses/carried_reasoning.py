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

A tool call can carry another provider's proof too: Gemini 3 signs its function calls
(``thoughtSignature``, in the call's ``gemini`` bag) and answers 400 "Function call is
missing a thought_signature in functionCall parts" to a history without it
(https://ai.google.dev/gemini-api/docs/thought-signatures). A ``function_call`` item has
no field for it, so the same option writes a reasoning item just before the call, sealing
``{"type": "tool_use", "id": <call_id>, "provider_metadata": <the other providers' bags>}``;
reading it back puts those bags on the call with that ``call_id`` (:class:`SealedCalls`).

The seal is not a secret, but it can be authenticated: with the encoder option
``seal_key`` (:data:`KEY_OPTION`) each seal ends with ``.`` and an HMAC-SHA256 of what
precedes it under that key (https://docs.python.org/3/library/hmac.html), and a reader
holding the key checks it with :func:`verify_seal` before trusting the seal: a gateway
that sends a caller's sealed reasoning upstream with its operator's key refuses one it did
not write (``chatcodec serve``: :mod:`chatcodec.serve._seals`). Reading a seal
(:func:`unseal`) never needs the key: what it holds is checked as canonical data either way,
its bags objects of finite JSON values.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from chatcodec import PayloadError
from chatcodec._providers.openai_responses.markers import PROVIDER
from chatcodec.codec_kit import as_dict, holds_a_container, is_dict

PREFIX = "chatcodec.reasoning.v1:"
"""What a sealed ``encrypted_content`` starts with (OpenAI's own payloads are Fernet
tokens, ``gAAAA...``, so the two never meet)."""

OPTION = "encrypted_reasoning"
"""The encoder option: seal other providers' signed reasoning into output items."""

KEY_OPTION = "seal_key"
"""The encoder option: the key each seal carries a MAC under."""

MAC_SEPARATOR = "."
"""What stands between a seal and its MAC (never in URL-safe base64)."""

SEALED_FIELDS = frozenset(
    {"type", "text", "signature", "encrypted", "redacted", "provider", "model", "provider_metadata"}
)
"""The canonical thinking part's fields a seal holds (``cache_control`` is a request
setting, never part of an answer)."""

CALL_FIELDS = frozenset({"type", "id", "provider_metadata"})
"""What a sealed call holds: its id and its other providers' bags."""

RULE = "sealed reasoning is a canonical thinking part of another provider (or a call's bags), as chatcodec wrote it"


def should_seal(part: Mapping[str, Any]) -> bool:
    """Whether a thinking part is another provider's and carries something only that
    provider can read back (a signature or an encrypted payload)."""
    return part.get("provider") != PROVIDER and bool(part.get("signature") or part.get("encrypted"))


def seal(part: Mapping[str, Any], key: str | None = None) -> str:
    """``encrypted_content`` carrying ``part`` (its sealed fields, in a fixed order, so
    the same part always seals the same way, streamed or not), with its MAC under ``key``
    when one is given."""
    fields = CALL_FIELDS if part.get("type") == "tool_use" else SEALED_FIELDS
    kept = {name: part[name] for name in sorted(fields) if part.get(name) is not None}
    text = json.dumps(kept, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    sealed = PREFIX + base64.urlsafe_b64encode(text.encode("utf-8", "surrogatepass")).decode("ascii")
    return sealed if key is None else sealed + MAC_SEPARATOR + _mac(sealed, key)


@dataclass(frozen=True, slots=True)
class Sealing:
    """Other providers' signed reasoning sealed into output items (the ``encrypted_reasoning``
    option), each seal with its MAC under ``key`` (the ``seal_key`` option) when one is given."""

    key: str | None = None

    def seal(self, part: Mapping[str, Any]) -> str:
        return seal(part, self.key)

    def seal_call(self, part: Mapping[str, Any]) -> tuple[str | None, dict[str, Any]]:
        return seal_call(part, self.key)


def sealing_of(options: Mapping[str, object]) -> Sealing | None:
    """The sealing an encoder's options ask for (None: none)."""
    if options.get(OPTION) is not True:
        return None
    key = options.get(KEY_OPTION)
    return Sealing(key if isinstance(key, str) else None)


def _mac(sealed: str, key: str) -> str:
    import hashlib  # hashlib and hmac here, not at import: loading OpenSSL costs a first
    import hmac  # conversion, and only a sealed reasoning item needs them

    digest = hmac.new(key.encode("utf-8", "surrogatepass"), sealed.encode("ascii"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def verify_seal(value: str, key: str) -> bool:
    """Whether ``value`` (a sealed ``encrypted_content``) ends with the MAC of what precedes
    it under ``key``: a seal written with that key, unchanged."""
    sealed, separator, mac = value.rpartition(MAC_SEPARATOR)
    if not separator or not sealed.isascii():
        return False
    import hmac  # see _mac

    return hmac.compare_digest(_mac(sealed, key).encode("ascii"), mac.encode("ascii", "replace"))


def foreign_bags(part: Mapping[str, Any]) -> dict[str, Any]:
    """The bags of providers other than this one on ``part``."""
    metadata = as_dict(part.get("provider_metadata")) or {}
    return {name: bag for name, bag in metadata.items() if name != PROVIDER}


def seal_call(part: Mapping[str, Any], key: str | None = None) -> tuple[str | None, dict[str, Any]]:
    """The seal of a tool call's other providers' bags (None: it has none), and the call
    without them."""
    foreign = foreign_bags(part)
    if not foreign:
        return None, dict(part)
    own = (as_dict(part.get("provider_metadata")) or {}).get(PROVIDER)
    stripped = {key: value for key, value in part.items() if key != "provider_metadata"}
    if own:
        stripped["provider_metadata"] = {PROVIDER: own}
    return seal({"type": "tool_use", "id": part["id"], "provider_metadata": foreign}, key), stripped


class SealedCalls:
    """The call bags sealed into reasoning items of one turn, until their call is read,
    and what the reading learns as it goes."""

    def __init__(self) -> None:
        self.pending: dict[str, dict[str, Any]] = {}
        """The bags sealed for each call id not read yet (:meth:`take`, :meth:`apply`): while
        empty, a plain call is read as it is (the usual history)."""
        self.encrypted = False
        """Whether a reasoning item replaying OpenAI's own encrypted reasoning was read."""
        self.deep = False
        """Whether a bag the reading wrote holds a JSON object or array
        (:func:`~chatcodec._providers.kit.holds_a_container`): what
        :func:`~chatcodec._providers.kit.keeps_a_container` asks of the canonical data,
        learnt where each bag is written instead of walking every message and part again."""
        self.ruled = False
        """Whether the history read may hold what the shared history rules act on
        (:attr:`Reading.plain_history <chatcodec._providers.contract.context.Reading.plain_history>`):
        learnt where each message is added; an item not looked into counts as such."""
        self.cited = False
        """Whether a text part was read with url citations (:attr:`DecodeContext.cited
        <chatcodec._providers.contract.context.DecodeContext.cited>`), learnt where they are read."""

    @staticmethod
    def noted(calls: SealedCalls | None, bag: dict[str, Any]) -> dict[str, Any]:
        """``bag``, noted as written in ``calls`` when the reading keeps them (:attr:`deep`)."""
        if bag and calls is not None and not calls.deep and holds_a_container(bag):
            calls.deep = True  # a call less than ``learn``: every bag of a request is noted here
        return bag

    def learn(self, bag: Mapping[str, Any]) -> None:
        """Note a bag of this provider as written (:attr:`deep`)."""
        if bag and not self.deep and holds_a_container(bag):
            self.deep = True

    def learn_bags(self, metadata: object) -> None:
        """Note every provider's bag of a ``provider_metadata`` as written (a value that is
        not a bag counts as deep, as :func:`~chatcodec._providers.kit.keeps_a_container` counts it)."""
        if not metadata or self.deep:
            return
        bags = as_dict(metadata)
        if bags is None:
            self.deep = True
            return
        for bag in bags.values():
            if type(bag) is not dict or holds_a_container(cast("dict[str, object]", bag)):
                self.deep = True
                return

    def take(self, part: Mapping[str, Any]) -> bool:
        """Keep a sealed call's bags (True), or say ``part`` is sealed thinking (False, its
        bags noted as written)."""
        if part.get("type") != "tool_use":
            self.learn_bags(part.get("provider_metadata"))
            return False
        self.pending[str(part["id"])] = as_dict(part.get("provider_metadata")) or {}
        return True

    def apply(self, part: dict[str, Any]) -> dict[str, Any]:
        """``part`` (a decoded tool call: its own bag, if any, alone in its metadata) with
        the bags sealed for its id, every bag noted as written (:attr:`deep`)."""
        metadata: dict[str, Any] | None = part.get("provider_metadata")
        if metadata is not None:
            self.learn(metadata[PROVIDER])
        if not self.pending:  # no call sealed into a reasoning item: the usual history
            return part
        bags = self.pending.pop(str(part.get("id", "")), None)
        if bags:
            part["provider_metadata"] = {**bags, **(metadata or {})}
            self.learn_bags(bags)
        return part


def is_sealed(value: object) -> bool:
    return isinstance(value, str) and value.startswith(PREFIX)


def _is_sealed_call(part: dict[str, Any]) -> bool:
    return (
        part.get("type") == "tool_use"
        and part.keys() == CALL_FIELDS
        and isinstance(part["id"], str)
        and _are_bags(part["provider_metadata"])
    )


def _are_bags(metadata: object) -> bool:
    """Whether ``metadata`` is a ``provider_metadata``: an object of objects (a bag of ``5``
    or ``[1]`` would reach a writer that spreads it)."""
    return is_dict(metadata) and all(is_dict(bag) for bag in metadata.values())


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"{text} is out of range")
    return number


def unseal(value: str, at: str) -> dict[str, Any]:
    """The canonical thinking part (or sealed call) ``value`` seals; a
    :class:`~chatcodec.PayloadError` at ``at`` (the ``encrypted_content``'s JSON path) when
    it is neither."""
    body = value[len(PREFIX) :].partition(MAC_SEPARATOR)[0]  # the MAC is the reader's to check (verify_seal)
    try:
        text = base64.urlsafe_b64decode(body.encode("ascii")).decode("utf-8", "surrogatepass")
        part = as_dict(json.loads(text, parse_constant=_no_constant, parse_float=_finite))
    except (binascii.Error, UnicodeError, ValueError, RecursionError):
        raise PayloadError(f"{RULE}: not base64 of a JSON object", at) from None
    if part is None:
        raise PayloadError(f"{RULE}: not base64 of a JSON object", at)
    if _is_sealed_call(part):
        return part
    if part.get("type") != "thinking":
        raise PayloadError(f"{RULE}: not a thinking part", at)
    extra = sorted(part.keys() - SEALED_FIELDS)
    if extra:
        raise PayloadError(f"{RULE}: unexpected field {extra[0]!r}", at)
    if part.get("provider") == PROVIDER:
        raise PayloadError(f"{RULE}: OpenAI's own reasoning is never sealed", at)
    for key in ("text", "signature", "encrypted", "provider", "model"):
        if key in part and not isinstance(part[key], str):
            raise PayloadError(f"{RULE}: {key} is not a string", at)
    if not _are_bags(part.get("provider_metadata", {})) or not isinstance(part.get("redacted", False), bool):
        raise PayloadError(f"{RULE}: provider_metadata must be an object of objects and redacted a boolean", at)
    return part
