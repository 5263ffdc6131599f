"""The blocks of a Claude agent's history beyond the closed front's that the Anthropic -> OpenAI
Chat direct pass (:mod:`.anthropic_to_openai_chat`) copies: an answer's ``citations`` (after a web
search, or on documents with citations enabled), a server tool's call and result
(``server_tool_use``, ``web_search_tool_result``: Claude Code's and the SDK's web search), and a
call's ``caller`` (the API's since 2026, on every ``tool_use`` it answers).

The front (:data:`~chatcodec._providers.anthropic.wire.COMMON_MESSAGES`) refuses them, so the
canonical path reads such a body by the wire shapes (``TextBlock``'s ``citations``, a list of
objects; ``OtherBlock``, a block kept whole), whose copy is made here: a text of its citations,
each a copy of its object, and a server block's copy. The reader's ``decode_parts`` reads them
(the citations a text part's bag, a server block an opaque part) and the Chat writer's
``encode_assistant_message`` drops them with its losses. Their values are checked as the front
checks a call's input (JSON objects), and a body where a call or a result names a server call's
id is handed back: the shared history rules drop such a call (:func:`unnamed`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chatcodec._providers.kit.provider_kit import forgotten_with_kits

if TYPE_CHECKING:
    from chatcodec._direct.general_turns import Found

SERVER_BLOCKS = frozenset(
    {"server_tool_use", "web_search_tool_result", "web_fetch_tool_result", "code_execution_tool_result"}
)
"""A server tool's call and its results, as the API answers them and clients replay them (the
SDK's ``ServerToolUseBlock``, ``WebSearchToolResultBlock``, ``WebFetchToolResultBlock``,
``CodeExecutionToolResultBlock``): kept whole by the reader, whatever fields they hold."""

KEPT_DEPTH = 200
"""How deep a copied value may nest here (levels, as ``deeper_than`` counts them): the canonical
path refuses canonical data nested past the reader's ``DEEPEST``, where a citation sits nine
levels down (a text part's bag) and a server block six (an opaque part): one nested deeper is
handed back, for the canonical path to refuse or read."""


def replayed_block(block: dict[str, Any], kind: str) -> dict[str, Any] | None:
    """An assistant's ``block`` of type ``kind`` (a string) the front refuses, copied as the
    wire shapes copy it: a text holding ``citations`` (a list of objects) and nothing else, a
    server block with its id (a call's ``id``, a result's ``tool_use_id``); None for any other."""
    if kind == "text":
        text = block.get("text")
        if len(block) != 3 or type(text) is not str or "citations" not in block:
            return None
        citations: Any = block["citations"]
        if citations is None:  # as the SDK dumps a text block
            return {"type": "text", "text": text, "citations": None}
        if citations.__class__ is not list:
            return None
        copied: list[dict[str, Any]] = []
        for citation in citations:
            if citation.__class__ is not dict:
                return None
            copied.append(dict(citation))
        return {"type": "text", "text": text, "citations": copied}
    if kind not in SERVER_BLOCKS:
        return None
    if type(block.get("id" if kind == "server_tool_use" else "tool_use_id")) is not str:
        return None
    return dict(block)


def called_by(block: dict[str, Any], call: dict[str, Any], beyond: list[dict[str, Any]] | None) -> bool:
    """Whether an assistant's ``tool_use`` ``block`` beyond its type, id, name and input holds the
    ``caller`` the API writes on every call since 2026 (``{"type": "direct"}``, or the code
    execution tool that made it) and nothing else, as clients replay the answer's blocks: a copy
    of it put on ``call`` (the call's copy), which is noted in ``beyond`` for its value to be
    checked (one of texts alone, as the API writes it, has nothing the check refuses: not noted);
    False for any other (or with no ``beyond``: a walk held to the front's copy)."""
    caller: Any = block.get("caller")
    if beyond is None or len(block) != 5 or caller.__class__ is not dict:
        return False
    call["caller"] = dict(caller)
    for key, value in caller.items():
        if type(key) is not str or type(value) is not str:
            beyond.append(call)
            break
    return True


def json_objects(block: dict[str, Any]) -> list[dict[str, Any]]:
    """The objects of a copied block (:func:`replayed_block`, :func:`called_by`) whose values the
    front's schema of a call's input checks (JSON values, no NaN, keys of text): a text's
    citations, a call's caller, a server block itself."""
    kind = block["type"]
    if kind == "text":
        citations: list[dict[str, Any]] | None = block["citations"]
        return citations or []
    return [block["caller"]] if kind == "tool_use" else [block]


def unnamed(turns: list[dict[str, Any]]) -> bool:
    """Whether no call or result of ``turns`` names the id of a server block (its ``call_id``,
    else its ``id``, as the shared history rules read a kept call's): those rules drop a kept
    call that a result answers (with its results), or one repeating a call of its turn
    (without a loss), which the canonical path does."""
    kept: set[str] = set()
    named: set[str] = set()
    for turn in turns:
        content = turn["content"]
        if type(content) is str:
            continue
        for block in content:
            kind = block["type"]
            if kind == "tool_use":
                named.add(block["id"])
            elif kind == "tool_result":
                named.add(block["tool_use_id"])
            elif kind in SERVER_BLOCKS:
                call_id = block.get("call_id")
                call_id = call_id if type(call_id) is str else block.get("id")
                if type(call_id) is str:
                    kept.add(call_id)
    return kept.isdisjoint(named)


CALLERS: dict[tuple[str, ...], Found] = forgotten_with_kits({})
"""What the OpenAI Chat writer reports of a call's ``caller`` (the reader's bag of it, below the
call's place), by the caller's keys: proved on the first call of the shape that the reader's
``decode_parts`` reads as the common call it is beside its caller, so a
later one is read as that call, its report repeated (the pass's ``_Writer.called``). The bag
holds the caller whole under its own key, so what is reported depends on its keys alone (no
value is null: a caller is an object), and on the writer kit's declarations (forgotten when a kit
is made). Bounded (a caller's keys are the client's to send: forgotten whole past
:data:`_MAX_KEPT`)."""
TEXTS: dict[tuple[str, ...], bool] = forgotten_with_kits({})
"""Whether a text block of ``null`` citations (the SDK's dump), as the reader reads it, is a
text the writer's plain turn writes (its spelling dropped), by the block's keys: asked once (the
pass's ``_Writer.cited``); the reading of a null is the same for any text."""
_MAX_KEPT = 64


def kept(memory: dict[tuple[str, ...], Any], shape: tuple[str, ...], verdict: Any) -> None:
    """``verdict`` kept in ``memory`` (:data:`CALLERS`, :data:`TEXTS`) for ``shape``, the memory
    forgotten whole when full."""
    if len(memory) >= _MAX_KEPT:
        memory.clear()
    memory[shape] = verdict
