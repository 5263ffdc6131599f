"""Reasoning on OpenAI-compatible servers: three fields and a content part, both ways.

OpenAI's own Chat Completions API never returns reasoning and takes none back; the
compatible servers each chose a spelling:

- ``reasoning_content`` (string): DeepSeek, z.ai GLM, Qwen, older vLLM;
- ``reasoning`` (string): OpenRouter, Groq, newer vLLM;
- ``reasoning_details`` (list of ``reasoning.text`` / ``reasoning.summary`` /
  ``reasoning.encrypted`` entries with ``signature``, ``format``, ``index``): OpenRouter,
  which uses it to replay signed Anthropic or Gemini reasoning;
- a ``{"type": "thinking", "thinking": [text chunks]}`` part inside ``content``: Mistral;
- ``thinking_blocks`` (list of Anthropic's own ``{"type": "thinking", "thinking",
  "signature"}`` and ``{"type": "redacted_thinking", "data"}`` blocks): litellm, beside
  ``reasoning_content`` (https://docs.litellm.ai/docs/reasoning_content). litellm reads it
  back from an assistant message to replay Claude's signed thinking, and so do the OpenAI
  Agents SDK's litellm and any-llm models; a client that appends the message it got
  (``messages.append(completion.choices[0].message)``) sends it back unchanged.

Each becomes a :class:`~chatcodec.ThinkingPart` with ``provider="openai-chat"`` whose
metadata bag names its ``field`` (and keeps the rest of a ``reasoning_details`` entry), so
encoding writes it back where it came from; an entry of OpenRouter's Claude format is
``provider="anthropic"`` (:func:`detail_provider`), so its signature reaches Claude again.
OpenRouter repeats the text of ``reasoning_details`` in ``reasoning``, and vLLM has sent the same text as both
``reasoning_content`` and ``reasoning``; such a copy is not a second part but an ``_also``
marker on the parts it repeats.

Reasoning produced by another provider has no standard place in an OpenAI request, so it
is dropped with a loss, unless the caller sets the encoder option ``reasoning_field``
(``options={"reasoning_field": ...}``) to one of the three field names; then it is sent there, which is how DeepSeek
(``reasoning_content``) or OpenRouter (``reasoning_details``, signatures included) accept
replayed reasoning.
A named compatible server (the option ``server``, :mod:`.servers`) sets the option's default
to the field that server reads back, and reasoning in another field is moved there or
dropped, reported (``servers/fitting.py``).

On output (a response or a stream, what a proxy serves to OpenAI clients) the option
defaults to ``reasoning_content``, as litellm and the other gateways write it:
a client reading reasoning reads it there, and the official SDK keeps the unknown field.
``reasoning_field: None`` drops it with a loss instead. Claude's signed thinking (and
redacted thinking), which a plain string cannot carry, also goes into ``thinking_blocks``
as litellm writes it, so the client's next request restores the signed blocks Claude
requires before a replayed ``tool_use`` (:func:`decode_block` reads them back as
``provider="anthropic"`` thinking, and ``reasoning_content`` equal to their joined text as
the same reasoning, an ``_also`` copy). A thinking part read from ``thinking_blocks``
(marked ``_block``) is written back there, in a request too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from chatcodec import PayloadError
from chatcodec._providers.families.claude.wire_rules import CLAUDE_SIGNERS
from chatcodec._providers.openai_chat.markers import KIT, PROVIDER, SDK_INDEX
from chatcodec._providers.openai_chat.plain_parts import reasoning_content_thinking, reasoning_thinking
from chatcodec._providers.openai_chat.server_options import IN_CONTENT
from chatcodec.codec_kit import absent_keys, as_dict, as_list, json_path_of, leftovers, wire_fields

if TYPE_CHECKING:
    from chatcodec.contract import EncodeContext, LossRecorder, Steps

Thinking = Mapping[str, Any]
"""A canonical thinking part's data (``text`` may be absent: its default is ``""``)."""

STRING_FIELDS = ("reasoning_content", "reasoning")
DETAILS = "reasoning_details"
FIELDS = (*STRING_FIELDS, DETAILS)
"""The message fields reasoning is read from and written to, in the order decoded."""

CONTENT = "content"
"""``field`` of a Mistral thinking part, which lives inside ``content``."""

BLOCKS = "thinking_blocks"
"""litellm's field of Anthropic thinking blocks (signatures and redacted payloads kept)."""
BLOCK = "_block"
"""The marker of a thinking part read from :data:`BLOCKS` (written back there)."""
BLOCK_PROVIDER = "anthropic"
"""Whose thinking a signed or redacted block is: litellm returns blocks for Claude only,
and Claude's signatures verify on every platform serving Claude (Bedrock included)."""

PUBLIC_OPTION = "reasoning_field"
"""The option's public name (:attr:`~chatcodec._providers.contract.context.EncodeContext.options`)."""

OUTPUT_DEFAULT = "reasoning_content"
"""Where a response or stream puts another provider's reasoning when no option says."""

FORMATS = {"anthropic": "anthropic-claude-v1", "gemini": "google-gemini-v1", "openai-responses": "openai-responses-v1"}
"""OpenRouter's ``format`` names for reasoning replayed from other providers."""
CLAUDE_FORMAT = FORMATS[BLOCK_PROVIDER]


# --- decode --------------------------------------------------------------------------


def thinking(text: str, bag: dict[str, Any]) -> dict[str, Any]:
    """A canonical thinking part produced by this codec."""
    return KIT.attach({"type": "thinking", "text": text, "provider": PROVIDER}, bag)


def decode_reasoning(message: Mapping[str, Any]) -> tuple[list[dict[str, Any]], list[str]]:
    """The thinking parts in a message's reasoning fields, and the fields they used."""
    if (
        "reasoning_content" not in message
        and "reasoning" not in message
        and DETAILS not in message
        and BLOCKS not in message
    ):
        return [], []  # the common case, checked first: most messages carry no reasoning
    content = message.get("reasoning_content")
    reasoning = message.get("reasoning")
    details = message.get(DETAILS)
    parts: list[dict[str, Any]] = []
    mapped: list[str] = []
    block_parts, repeated = decode_blocks(as_list(message.get(BLOCKS)) or (), content)
    if isinstance(content, str):
        mapped.append("reasoning_content")
        if not repeated:
            parts.append(reasoning_content_thinking(content))
    detail_parts = [decode_detail(detail) for detail in as_list(details) or ()]
    if isinstance(reasoning, str):
        mapped.append("reasoning")
        copied = _copied_by_reasoning(reasoning, content, parts, detail_parts)
        _mark_copy(copied, "reasoning")
        if not copied:
            parts.append(reasoning_thinking(reasoning))
    if detail_parts:
        parts.extend(detail_parts)
        mapped.append(DETAILS)
    if block_parts:
        parts.extend(block_parts)
        mapped.append(BLOCKS)
    return parts, mapped


def decode_blocks(blocks: Iterable[Any], content: Any) -> tuple[list[dict[str, Any]], bool]:
    """litellm's ``thinking_blocks`` as thinking parts (:func:`decode_block`), and whether the
    ``reasoning_content`` beside them (``content``) repeats their text joined, which is then
    marked on them (a copy, not a part of its own). :func:`decode_reasoning`'s reading of
    them, and a direct path's of a turn with only those two fields
    (:mod:`chatcodec._direct.openai_chat_to_anthropic`)."""
    parts = [decode_block(block) for block in blocks]
    copied = bool(parts) and isinstance(content, str) and content == "".join([part["text"] for part in parts])
    if copied:
        _mark_copy(parts, "reasoning_content")
    return parts, copied


_VALUED = ("type", "format", "index", "id")
_TEXTED = ("text", "summary", "data", "signature")
"""The fields of a ``reasoning_details`` entry (the wire's ``ReasoningDetail``, with the SDK's
``index``) whose values a :func:`reasoning_shape` holds, and those it holds as whether they
are empty (the texts a part takes: its text, encrypted data, signature)."""
_ENTRY_FIELDS = frozenset((*_VALUED, *_TEXTED))


def reasoning_shape(message: Mapping[str, Any]) -> tuple[Any, ...] | None:
    """What the thinking parts :func:`decode_reasoning` reads from a turn's ``reasoning`` and
    ``reasoning_details`` are, but for their texts: each entry's fields in order, the values
    of :data:`_VALUED`, and whether each of :data:`_TEXTED` is empty; whether ``reasoning`` is
    there, empty, and the entries' texts again (read as their copy, no part of its own). Two
    turns of one :func:`whole_shape` read parts that differ in those texts alone (a direct
    path that proved its writer does not write them reuses one turn's parts). None for a
    turn with litellm's fields or an entry not an object; hashable when the entries' values
    are texts and numbers, as the front takes them."""
    if "reasoning_content" in message or BLOCKS in message:
        return None
    if DETAILS not in message and "reasoning" not in message:  # (calls with an index, a named turn: no call)
        return _NO_REASONING
    details: list[Any] = as_list(message.get(DETAILS)) or []
    shape: list[Any] = []
    texts: list[str] = []
    for detail in details:
        if detail.__class__ is not dict:
            return None
        get = detail.get  # (an entry of the front's Any: no cast called an entry)
        kind = get("type")  # the fields of _VALUED and _TEXTED, spelled out: a loop over them cost more
        entry = (tuple(detail), kind, get("format"), get("index"), get("id"))
        shape.append((*entry, not get("text"), not get("summary"), not get("data"), not get("signature")))
        text = get("summary" if kind == "reasoning.summary" else "text")  # (text_key's, inline: an entry each)
        texts.append(text if text.__class__ is str and kind != "reasoning.encrypted" else "")
    reasoning = message.get("reasoning")
    if not isinstance(reasoning, str):
        return (tuple(shape), reasoning is None)
    return (tuple(shape), not reasoning, bool(details) and reasoning == "".join(texts))


_NO_REASONING = ((), True)
"""The :func:`reasoning_shape` of a turn with neither ``reasoning`` nor ``reasoning_details``."""


def whole_shape(shape: tuple[Any, ...]) -> bool:
    """Whether a :func:`reasoning_shape` names every value of its entries but their texts (each
    entry's fields among :data:`_ENTRY_FIELDS`): a turn of the same shape has the same fields,
    so this is asked of the first only."""
    return all(_ENTRY_FIELDS.issuperset(entry[0]) for entry in shape[0])


def text_key(kind: object) -> str | None:
    """The field of a ``reasoning_details`` entry of ``kind`` that holds its text (None: an
    encrypted entry's, which has none)."""
    if kind == "reasoning.encrypted":
        return None
    return "summary" if kind == "reasoning.summary" else "text"


def _mark_copy(parts: list[dict[str, Any]], field: str) -> None:
    """Note on ``parts`` that ``field`` repeated their text (the ``_also`` marker)."""
    for part in parts:
        bag = part["provider_metadata"][PROVIDER]
        bag["_also"] = [*bag.get("_also", []), field]


def decode_block(block: Mapping[str, Any]) -> dict[str, Any]:
    """One ``thinking_blocks`` entry as a thinking part: a block is Claude's
    (:data:`BLOCK_PROVIDER`; litellm writes the field for Claude only), signed or not, so a
    stream, which opens the part before its signature arrives, reads the same part; the
    entry's other keys ride in its bag."""
    canonical: dict[str, Any] = {"type": "thinking", "text": "", "provider": BLOCK_PROVIDER}
    if block.get("type") == "redacted_thinking":
        canonical.update(encrypted=block["data"], redacted=True)
        mapped: tuple[str, ...] = ("type", "data")
    else:
        canonical["text"] = block.get("thinking", "")
        if isinstance(block.get("signature"), str):
            canonical["signature"] = block["signature"]
        mapped = ("type", "thinking", "signature")
    bag = {BLOCK: True, **leftovers(block, mapped)}
    if "index" in bag:  # the OpenAI SDK's stream accumulation leaves it: a position, written back
        bag[SDK_INDEX] = bag.pop("index")
    return KIT.attach(canonical, bag)


def is_block(part: Thinking) -> bool:
    """Whether ``part`` was read from ``thinking_blocks``."""
    return KIT.marker(part.get("provider_metadata"), BLOCK) is True


def is_claude_detail(provider: str | None, metadata: Mapping[str, Any] | None) -> bool:
    """Whether a part of ``provider`` with ``metadata`` is Claude's thinking this codec read
    from ``reasoning_details`` (:func:`decode_detail`), so it is written back there."""
    return provider == BLOCK_PROVIDER and KIT.marker(metadata, "field") == DETAILS


def read_here(part: Thinking) -> bool:
    """Whether ``part``, Claude's, was read by this codec (from ``thinking_blocks`` or
    ``reasoning_details``), so its own field holds it without the ``reasoning_field`` option."""
    return "provider_metadata" in part and (
        is_block(part) or is_claude_detail(part.get("provider"), part["provider_metadata"])
    )


def claude_thinking(part: Thinking) -> bool:
    """Whether ``part`` is Claude's signed or redacted thinking, which only a thinking block carries."""
    return part.get("provider") in CLAUDE_SIGNERS and bool(part.get("signature") or part.get("encrypted"))


def _copied_by_reasoning(
    reasoning: str, content: object, content_parts: list[dict[str, Any]], detail_parts: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    if content_parts and reasoning == content:
        return content_parts
    if detail_parts and reasoning == "".join(part["text"] for part in detail_parts):
        return detail_parts
    return []


def detail_provider(detail: Mapping[str, Any]) -> str:
    """Whose thinking a ``reasoning_details`` entry holds: Claude's (:data:`BLOCK_PROVIDER`)
    for OpenRouter's Claude format, signed or not (as a thinking block, so a stream, which
    opens the part before its signature arrives, reads the same part), else this format's."""
    return BLOCK_PROVIDER if detail.get("format") == CLAUDE_FORMAT else PROVIDER


def decode_detail(detail: Mapping[str, Any]) -> dict[str, Any]:
    """One ``reasoning_details`` entry as a thinking part (the entry's other keys in its
    bag). An entry of OpenRouter's Claude format (``anthropic-claude-v1``) is Claude's
    thinking (:func:`detail_provider`), as chatcodec
    writes Anthropic's for OpenRouter (:func:`_foreign_entries`) and OpenRouter returns
    Claude's (https://openrouter.ai/docs/use-cases/reasoning-tokens#preserving-reasoning-blocks):
    replayed to Anthropic or Bedrock, it goes back as a signed thinking block; its bag still
    says it came from ``reasoning_details`` (:func:`is_claude_detail`), where it is written back."""
    canonical: dict[str, Any] = {"type": "thinking", "text": "", "provider": PROVIDER}
    mapped: list[str] = []
    kind = detail.get("type")
    if kind == "reasoning.encrypted":
        if isinstance(detail.get("data"), str):
            canonical.update(encrypted=detail["data"], redacted=True)
            mapped.append("data")
    else:
        key = text_key(kind) or "text"
        if isinstance(detail.get(key), str):
            canonical["text"] = detail[key]
            mapped.append(key)
    if isinstance(detail.get("signature"), str):
        canonical["signature"] = detail["signature"]
        mapped.append("signature")
    canonical["provider"] = detail_provider(detail)
    bag = {"field": DETAILS, **leftovers(detail, mapped)}
    if kind != "reasoning.encrypted":
        key = "summary" if kind == "reasoning.summary" else "text"
        if key not in detail:
            bag["_absent"] = [key]
    return KIT.attach(canonical, bag)


def decode_content_thinking(part: Mapping[str, Any]) -> dict[str, Any]:
    """Mistral's ``{"type": "thinking", "thinking": [chunks]}`` content part."""
    chunks: list[Any] = part["thinking"]
    bag: dict[str, Any] = {"field": CONTENT, **leftovers(part, ("type", "thinking"))}
    if (
        len(chunks) == 1
        and chunks[0] == {"type": "text", "text": chunks[0].get("text")}
        and isinstance(chunks[0]["text"], str)
    ):
        return thinking(chunks[0]["text"], bag)
    bag["thinking"] = chunks
    return thinking(chunk_text(chunks), bag)


def chunk_text(chunks: list[Any]) -> str:
    texts = ((as_dict(chunk) or {}) for chunk in chunks)
    return "".join(text["text"] for text in texts if text.get("type") == "text" and isinstance(text.get("text"), str))


# --- encode --------------------------------------------------------------------------


def option(context: EncodeContext, at: Steps) -> str | None:
    """The ``reasoning_field`` option, checked;
    ``at`` is where the caller spelled it, for the error."""
    value = context.option(PUBLIC_OPTION)
    if value is None:
        return None  # the usual request
    if context.options.get(IN_CONTENT) is True:
        return CONTENT  # set by the named server, not the caller (servers.prepare)
    if value in FIELDS:
        return value
    raise PayloadError(f"reasoning_field must be one of {', '.join(FIELDS)}, not {value!r}", json_path_of(*at))


def output_option(context: EncodeContext, at: Steps) -> str | None:
    """The option for a response or stream: :data:`OUTPUT_DEFAULT` unless set (``None`` drops)."""
    return option(context, at) if PUBLIC_OPTION in context.options else OUTPUT_DEFAULT


def field_for(part: Thinking, reasoning_field: str | None) -> str | None:
    """Where ``part`` goes: its own field when this codec produced it, else the option."""
    if part.get("provider") == PROVIDER:
        field = KIT.marker(part.get("provider_metadata"), "field")
        if field in FIELDS or field == CONTENT:
            return str(field)
    if is_block(part):
        return BLOCKS
    if is_claude_detail(part.get("provider"), part.get("provider_metadata")):
        return DETAILS
    return reasoning_field


_NO_FIELD = f"OpenAI Chat has no standard reasoning field; the option reasoning_field can name one: {', '.join(FIELDS)}"


def drop_loss(provider: str | None, losses: LossRecorder, at: Steps) -> None:
    """Record that a thinking part from ``provider`` has nowhere to go (every Claude
    thinking part of a conversion without ``reasoning_field``: the reason is made once)."""
    losses.add(at, f"thinking part from {provider or 'an unknown provider'}", _NO_FIELD)


class ReasoningWriter:
    """Collects the thinking parts of one message into its reasoning fields; ``output``
    (a response's message) also writes Claude's signed thinking as a thinking block."""

    def __init__(self, losses: LossRecorder, *, output: bool = False) -> None:
        self._losses = losses
        self._output = output
        self._strings: dict[str, list[str]] = {}
        self._sources: dict[str, list[str]] = {}
        self._details: list[dict[str, Any]] = []
        self._blocks: list[dict[str, Any]] = []

    def add(self, part: Thinking, field: str, at: Steps) -> None:
        """Write ``part`` to ``field`` (one of :data:`FIELDS`, or :data:`BLOCKS`)."""
        own = part.get("provider") == PROVIDER or read_here(part)
        bag = KIT.own(part.get("provider_metadata")) if own else {}
        text: str = part.get("text", "")
        if field == BLOCKS:
            self._blocks.append(block_entry(part, bag, self._losses, at))
        elif self._output and field in STRING_FIELDS and claude_thinking(part):
            self._add_string(field, text, json_path_of(*at))  # the text where clients read it, the block beside it
            self._blocks.append(block_entry(part, bag, self._losses, at))
        elif field == DETAILS and bag.get("field") == DETAILS:
            self._details.append(_own_detail(part, bag, self._losses, at))
        elif field == DETAILS:
            first = len(self._details)
            entries = _foreign_entries(part)
            self._details.extend({**entry, "index": first + count} for count, entry in enumerate(entries))
        else:
            self._add_string(field, text, json_path_of(*at))
            _carry_nothing_else(part, field, self._losses, at)
            unsigned = part.get("signature") is None and part.get("encrypted") is None  # else reported above
            source = part.get("provider")
            if self._output and not own and unsigned and source is not None:
                # an answer's reasoning reads back as this format's: who produced it is gone (a part
                # no provider produced, a parsed completion's, has no producer to lose: no loss)
                why = f"sent as {field} text; reads back as {PROVIDER}'s"
                self._losses.add(at, f"thinking part from {source}", why, "metadata")
        for copy in as_list(bag.get("_also")) or ():
            if isinstance(copy, str) and copy in STRING_FIELDS and copy != field:
                self._add_string(str(copy), text, "copy")

    def _add_string(self, field: str, text: str, source: str) -> None:
        self._strings.setdefault(field, []).append(text)
        sources = self._sources.setdefault(field, [])
        if source not in sources:
            sources.append(source)

    def fields(self, at: Steps) -> dict[str, Any]:
        """The reasoning fields to put on the wire message."""
        written: dict[str, Any] = {field: "".join(texts) for field, texts in self._strings.items()}
        for field, sources in self._sources.items():
            if len(sources) > 1:
                why = f"OpenAI-compatible servers take one {field} string per message"
                self._losses.add(at, f"{len(sources)} reasoning parts joined into one {field}", why)
        if self._details:
            written[DETAILS] = self._details
        if self._blocks:
            written[BLOCKS] = self._blocks
        if self._reads_as_copy(written):
            why = "a reasoning string equal to the other reasoning reads back as a copy of it"
            self._losses.add(at, "separate reasoning part with the same text", why)
        return written

    def _reads_as_copy(self, written: dict[str, Any]) -> bool:
        """Whether a ``reasoning`` part of its own will decode as a mere copy (and vanish)."""
        if "copy" in self._sources.get("reasoning", ["copy"]) or "reasoning" not in written:
            return False
        if "reasoning_content" in written:
            return bool(written["reasoning"] == written["reasoning_content"])
        details = [as_dict(entry) or {} for entry in self._details]
        texts = (entry.get("summary" if entry.get("type") == "reasoning.summary" else "text") for entry in details)
        joined = "".join(text for text in texts if isinstance(text, str))
        return bool(details) and written["reasoning"] == joined


def block_entry(part: Thinking, bag: Mapping[str, Any], losses: LossRecorder, at: Steps) -> dict[str, Any]:
    """The ``thinking_blocks`` entry for ``part`` (``bag``: this codec's, when it read the part there)."""
    rest = wire_fields(bag)
    if SDK_INDEX in bag:
        rest = {"index": bag[SDK_INDEX], **rest}
    encrypted = part.get("encrypted")
    if part.get("redacted") and encrypted is not None:
        if part.get("text") or part.get("signature"):
            losses.add(at, "text or signature of redacted thinking", "redacted_thinking carries only data")
        return {**rest, "type": "redacted_thinking", "data": encrypted}
    if encrypted is not None:
        losses.add((*at, "encrypted"), "encrypted reasoning", "a thinking block carries no encrypted payload")
    entry = {**rest, "type": "thinking", "thinking": part.get("text", "")}
    if part.get("signature") is not None:
        entry["signature"] = part["signature"]
    return entry


def _foreign_entries(part: Thinking) -> list[dict[str, Any]]:
    """OpenRouter entries for reasoning from another provider (signature and payload kept)."""
    entry_format = FORMATS.get(part.get("provider") or "", "unknown")
    text: str = part.get("text", "")
    signature, encrypted = part.get("signature"), part.get("encrypted")
    entries: list[dict[str, Any]] = []
    if text or signature is not None or encrypted is None:
        entry: dict[str, Any] = {"type": "reasoning.text", "text": text, "format": entry_format}
        if signature is not None:
            entry["signature"] = signature
        entries.append(entry)
    if encrypted is not None:
        entries.append({"type": "reasoning.encrypted", "data": encrypted, "format": entry_format})
    return entries


def _own_detail(part: Thinking, bag: dict[str, Any], losses: LossRecorder, at: Steps) -> dict[str, Any]:
    detail = {key: value for key, value in wire_fields(bag).items() if key != "field"}
    kind = detail.get("type")
    text: str = part.get("text", "")
    encrypted, signature = part.get("encrypted"), part.get("signature")
    if kind == "reasoning.encrypted":
        if encrypted is not None:
            detail["data"] = encrypted
        if text:
            losses.add((*at, "text"), "reasoning text", "an encrypted reasoning entry carries no text")
    else:
        key = "summary" if kind == "reasoning.summary" else "text"
        if text or (key not in detail and key not in absent_keys(bag)):
            detail[key] = text
        if encrypted is not None:
            losses.add((*at, "encrypted"), "encrypted reasoning", f"a {kind} entry carries no encrypted data")
    if signature is not None:
        detail["signature"] = signature
    return detail


def _carry_nothing_else(part: Thinking, field: str, losses: LossRecorder, at: Steps) -> None:
    why = f"{field} is plain text"
    if part.get("signature") is not None:
        losses.add((*at, "signature"), "thinking signature", why)
    if part.get("encrypted") is not None:
        losses.add((*at, "encrypted"), "encrypted reasoning", why)


def encode_content_thinking(part: Thinking, losses: LossRecorder, at: Steps) -> dict[str, Any]:
    """A Mistral thinking part for ``content``."""
    bag = KIT.own(part.get("provider_metadata"))
    text: str = part.get("text", "")
    chunks = as_list(bag.pop("thinking", None))
    wire = {key: value for key, value in wire_fields(bag).items() if key != "field"}
    if chunks is None or chunk_text(chunks) != text:
        chunks = [{"type": "text", "text": text}]
    _carry_nothing_else(part, "a thinking content part", losses, at)
    return {**wire, "type": "thinking", "thinking": chunks}


def repeated_reasoning(reasoning_text: object, content: object, details: list[dict[str, Any]]) -> bool:
    """Whether a stream chunk's ``reasoning`` only repeats its other reasoning (OpenRouter,
    vLLM send the same text as ``reasoning`` beside ``reasoning_content`` or the details)."""
    if not isinstance(reasoning_text, str) or not reasoning_text:
        return False
    if reasoning_text == content:
        return True
    texts = (fragment.get("summary" if fragment.get("type") == "reasoning.summary" else "text") for fragment in details)
    return bool(details) and reasoning_text == "".join(text for text in texts if isinstance(text, str))
