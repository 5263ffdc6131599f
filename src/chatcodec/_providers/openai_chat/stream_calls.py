"""What an OpenAI Chat stream spreads over chunks that the non-streamed choice holds in one
place: a tool call's fragments (which continue a call, and what the call keeps), a custom
(freeform) tool call, gathered until it is complete, and the ``logprobs`` of each chunk:
a text chunk's are its text delta's tokens (:func:`text_tokens`), any other's are joined
into the choice's."""

from __future__ import annotations

from typing import Any

from chatcodec._providers.openai_chat import thought_signatures
from chatcodec._providers.openai_chat.logprobs import read_choice_logprobs
from chatcodec._providers.openai_chat.markers import PROVIDER
from chatcodec._providers.openai_chat.tool_calls import decode_tool_call
from chatcodec.codec_kit import as_dict, leftovers, mark_absent
from chatcodec.contract import PartBuilder


class CustomCall:
    """A custom (freeform) tool call being streamed: ``{"index", "id", "type": "custom",
    "custom": {"name", "input"}}``, then fragments of ``custom.input`` (the shape
    openai/openai-openapi#576 reports; the SDK's chunk types have no ``custom`` yet). It is
    no function call, so it is gathered and given whole when the next call begins or the
    choice finishes, as the same ``kind: custom`` part the non-streamed message has."""

    __slots__ = ("call", "id", "index", "inputs")

    def __init__(self, index: int, fragment: dict[str, Any]) -> None:
        self.index: int = index
        self.id: str = fragment["id"]
        self.call: dict[str, Any] = {key: value for key, value in fragment.items() if key != "index"}
        self.inputs: list[str] = []

    def part(self) -> dict[str, Any]:
        custom = {**(as_dict(self.call.get("custom")) or {}), "input": "".join(self.inputs)}
        return decode_tool_call({**self.call, "custom": custom})


def text_tokens(extras: dict[str, Any], delta: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The canonical tokens of a chunk's ``logprobs`` (in its choice's ``extras``) when the
    chunk has text (``delta.content``) and they are ``{"content": [...], "refusal": null}``
    as OpenAI spells them: the text delta's own tokens. None for any other (a refusal's
    tokens, ``logprobs.refusal``, stay as the chunk spelt them, joined for the finish, as
    the non-streamed choice keeps them; so do a server's own spelling and a chunk with no
    text)."""
    content = delta.get("content")
    if not isinstance(content, str) or not content or "logprobs" not in extras:
        return None
    return read_choice_logprobs(extras["logprobs"])


def continues_call(known: tuple[PartBuilder, str, str], fragment: dict[str, Any], function: dict[str, Any]) -> bool:
    """Whether a fragment for a started call's index, with more than ``index`` and
    ``function.arguments``, only continues it: its ``id`` and ``function.name`` absent,
    empty or the call's, its ``type`` text if given (a new id starts another call; a new
    name is an error)."""
    call_id, kind, name = fragment.get("id"), fragment.get("type"), function.get("name")
    return (
        (call_id is None or (type(call_id) is str and (not call_id or call_id == known[1])))
        and (kind is None or type(kind) is str)
        and (name is None or (type(name) is str and (not name or name == known[2])))
    )


def call_bag(fragment: dict[str, Any], function: dict[str, Any]) -> dict[str, dict[str, Any]] | None:
    """What a call's first fragment keeps beyond its index, id, type, name and arguments:
    Gemini's thought signature (``extra_content.google.thought_signature``) in the part's
    ``gemini`` bag, as a response's call keeps it (:mod:`.thought_signatures`)."""
    bag = leftovers(fragment, ("index", "id", "type", "function"))
    function_rest = leftovers(function, ("name", "arguments"))
    if function_rest:
        bag["function"] = function_rest
    mark_absent(bag, fragment, "type")
    signature = thought_signatures.take_signature(bag) if "extra_content" in bag else None
    metadata: dict[str, dict[str, Any]] = {PROVIDER: bag} if bag else {}
    if signature is not None:
        metadata[thought_signatures.GEMINI] = {thought_signatures.GEMINI_KEY: signature}
    return metadata or None
