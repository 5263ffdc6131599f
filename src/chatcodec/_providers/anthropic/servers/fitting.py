"""A written Messages body fitted to the Anthropic-compatible server it goes to: what the
server does not take is not sent, each change reported (a ``rule`` loss).

The writer writes one Anthropic body; this pass reads the chosen :class:`~.server.Server`
and edits the body, in this order:

- ``tool_choice`` and ``thinking`` as the nearest type the server acts on (:mod:`.choices`);
- top-level fields: those the server documents (or every one when it lists none), less
  those it ignores or refuses;
- nested fields it ignores (``tools[].cache_control``, ``thinking.budget_tokens``);
- tools of a type it does not run (Anthropic's server tools), with ``tool_choice`` when no
  tool is left;
- message content blocks of a type it does not take, and images of a source it does not
  take, in a ``tool_result`` too (a message left with none gets one text block saying
  what was not sent: the API refuses an empty message);
- the server's own rules (:attr:`~.server.Server.rules`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from chatcodec._providers.anthropic.servers.choices import fit_thinking, fit_tool_choice
from chatcodec._providers.anthropic.servers.server import Server, ServerCall
from chatcodec.codec_kit import as_dict, as_list

if TYPE_CHECKING:
    from chatcodec.contract import Steps

ALWAYS = frozenset({"model", "messages", "max_tokens"})
"""What every server needs, listed or not."""
BLOCK_FIELD = "messages[].content["
"""The start of a refusal of a block's field (``messages[].content[text].citations``): those
are dropped in the one walk over the blocks, not one walk each."""


def fit_request(body: dict[str, Any], call: ServerCall) -> None:
    """Edit ``body`` to what ``call.server`` takes (see the module docstring)."""
    fit_tool_choice(body, call)
    fit_thinking(body, call)
    _fit_fields(body, call)
    _fit_nested(body, call)
    _fit_tools(body, call)
    refused = block_refusals(call.server)
    if call.server.blocks is not None or refused or call.server.image_sources is not None:
        for index, message in enumerate(as_list(body.get("messages")) or ()):
            fields = as_dict(message)
            if fields is not None:
                _fit_blocks(fields, refused, index, call)
    call.apply(call.server.rules)


def _fit_fields(body: dict[str, Any], call: ServerCall) -> None:
    call.rule = "fields"
    server = call.server
    refused = {refusal.field: refusal for refusal in server.refuses if _top_level(refusal.field)}
    for key in [key for key in body if key not in ALWAYS]:
        refusal = refused.get(key)
        if refusal is not None:
            del body[key]
            call.report((key,), key, f"not sent: it ignores or refuses it ({refusal.source})")
        elif server.fields is not None and key not in server.fields:
            del body[key]
            call.report((key,), key, f"not sent: not a field it documents ({server.fields_source or server.docs})")


def _fit_nested(body: dict[str, Any], call: ServerCall) -> None:
    call.rule = "fields"
    for refusal in call.server.refuses:
        if _top_level(refusal.field) or refusal.field.startswith(BLOCK_FIELD):
            continue
        for parent, key, at in list(places(body, refusal.field.split("."), ())):
            del parent[key]
            call.report(at, key, f"not sent: it ignores it ({refusal.source})")


def _top_level(field: str) -> bool:
    return "." not in field and "[" not in field


@cache
def block_refusals(server: Server) -> Mapping[str, tuple[tuple[str, str], ...]]:
    """The block fields ``server`` ignores, by block type: ``{"text": (("citations", source),)}``."""
    found: dict[str, list[tuple[str, str]]] = {}
    for refusal in server.refuses:
        kind, _, key = refusal.field.removeprefix(BLOCK_FIELD).partition("].")
        if refusal.field.startswith(BLOCK_FIELD) and key and "." not in key:
            found.setdefault(kind, []).append((key, refusal.source))
    return {kind: tuple(keys) for kind, keys in found.items()}


def places(node: object, steps: Sequence[str], at: Steps) -> Iterator[tuple[dict[str, Any], str, Steps]]:
    """Each ``(object, key, path)`` a field path names in ``node`` (see
    :attr:`~.server.Server.refuses` for the path words)."""
    fields = as_dict(node)
    if fields is None or not steps:
        return
    name, bracket, kind = steps[0].partition("[")
    rest = steps[1:]
    if not bracket:
        if not rest and name in fields:
            yield fields, name, (*at, name)
        elif rest:
            yield from places(fields.get(name), rest, (*at, name))
        return
    kind = kind.removesuffix("]")
    for index, item in enumerate(as_list(fields.get(name)) or ()):
        item_fields = as_dict(item)
        if item_fields is not None and (not kind or item_fields.get("type") == kind):
            yield from places(item_fields, rest, (*at, name, index))


def _fit_tools(body: dict[str, Any], call: ServerCall) -> None:
    types = call.server.tool_types
    tools = as_list(body.get("tools"))
    if types is None or tools is None:
        return
    call.rule = "tool_types"
    kept: list[Any] = []
    for index, tool in enumerate(tools):
        kind = (as_dict(tool) or {}).get("type") or "custom"
        if kind in types:
            kept.append(tool)
        else:
            call.report(("tools", index), f"{kind} tool", f"not sent: it runs only {', '.join(sorted(types))} tools")
    if len(kept) == len(tools):
        return
    if kept:
        body["tools"] = kept
        return
    del body["tools"]
    if "tool_choice" in body:
        del body["tool_choice"]
        call.report(("tool_choice",), "tool_choice", "not sent: no tool it runs is left")


def _fit_blocks(
    message: dict[str, Any], refused: Mapping[str, tuple[tuple[str, str], ...]], position: int, call: ServerCall
) -> None:
    """One walk over a message's blocks (every block of every request: plain checks, and
    the list rebuilt only when a block goes): a block of a type the server does not take,
    or an image of a source it does not take, is not sent; a field it ignores on a block
    it takes is dropped."""
    server = call.server
    blocks, sources = server.blocks, server.image_sources
    items = as_list(message.get("content"))
    if items is None:
        return
    at: Steps = ("messages", position)
    dropped: list[tuple[int, str]] = []
    for index, item in enumerate(items):
        block = as_dict(item)
        kind = block.get("type") if block is not None else None
        if block is None or not isinstance(kind, str):
            continue
        if blocks is not None and kind not in blocks:
            why = f"it takes {', '.join(sorted(blocks))} blocks ({server.blocks_source or server.docs})"
            dropped.append((index, why))
        elif kind == "image" and sources is not None and _source(block) not in sources:
            dropped.append((index, f"it takes images by {', '.join(sorted(sources))} only ({server.docs})"))
        else:
            if kind in refused:
                for key, source in refused[kind]:
                    if key in block:
                        del block[key]
                        call.rule = "fields"
                        call.report((*at, "content", index, key), key, f"not sent: it ignores it ({source})")
            if kind == "tool_result" and sources is not None:
                _fit_result_images(block, (*at, "content", index), call)
    if dropped:
        _drop_blocks(message, items, dropped, at, call)


def _fit_result_images(block: dict[str, Any], at: Steps, call: ServerCall) -> None:
    """A ``tool_result``'s images of a source the server does not take are not sent
    (Ollama refuses a whole request for one: ``convertToolResultContent``); the content
    is a new list, the rest of it kept in order."""
    sources = call.server.image_sources or frozenset()
    content = as_list(block.get("content"))
    if not content:
        return
    kept = [item for item in content if (as_dict(item) or {}).get("type") != "image" or _source(item) in sources]
    if len(kept) == len(content):
        return
    call.rule = "blocks"
    why = f"not sent: it takes images by {', '.join(sorted(sources))} only ({call.server.docs})"
    for index, item in enumerate(content):
        if item not in kept:
            call.report((*at, "content", index), "image block", why)
    block["content"] = kept


def _source(block: dict[str, Any]) -> object:
    return (as_dict(block.get("source")) or {}).get("type")


def _drop_blocks(
    message: dict[str, Any], content: list[Any], dropped: list[tuple[int, str]], at: Steps, call: ServerCall
) -> None:
    call.rule = "blocks"
    kinds = [content[index]["type"] for index, _ in dropped]
    for (index, why), kind in zip(dropped, kinds, strict=True):
        call.report((*at, "content", index), f"{kind} block", f"not sent: {why}")
    gone = {index for index, _ in dropped}
    kept = [block for index, block in enumerate(content) if index not in gone]
    if not kept:
        kept.append({"type": "text", "text": f"[{', '.join(dict.fromkeys(kinds))} not sent]"})
        call.report((*at, "content"), "an emptied message", "sent with one text block naming what was not sent")
    message["content"] = kept


__all__ = ["ALWAYS", "Server", "block_refusals", "fit_request", "places"]
