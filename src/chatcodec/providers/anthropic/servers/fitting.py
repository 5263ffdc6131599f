"""A written Messages body fitted to the Anthropic-compatible server it goes to: what the
server does not take is not sent, each change reported (a ``rule`` loss).

The writer writes one Anthropic body; this pass reads the chosen :class:`~.server.Server`
and edits the body, in this order:

- top-level fields: those the server documents (or every one when it lists none), less
  those it ignores or refuses;
- nested fields it ignores (``tools[].cache_control``, ``thinking.budget_tokens``);
- tools of a type it does not run (Anthropic's server tools), with ``tool_choice`` when no
  tool is left;
- message content blocks of a type it does not take (a message left with none gets one
  text block saying what was not sent: the API refuses an empty message);
- the server's own rules (:attr:`~.server.Server.rules`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from chatcodec._narrow import as_dict, as_list
from chatcodec.providers.anthropic.servers.server import Server, ServerCall

if TYPE_CHECKING:
    from chatcodec.losses import Steps

ALWAYS = frozenset({"model", "messages", "max_tokens"})
"""What every server needs, listed or not."""


def fit_request(body: dict[str, Any], call: ServerCall) -> None:
    """Edit ``body`` to what ``call.server`` takes (see the module docstring)."""
    _fit_fields(body, call)
    _fit_nested(body, call)
    _fit_tools(body, call)
    for index, message in enumerate(as_list(body.get("messages")) or ()):
        fields = as_dict(message)
        if fields is not None:
            _fit_blocks(fields, ("messages", index), call)
    for rule in call.server.rules:
        call.rule = rule.name
        rule.edit(call)


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
            call.report((key,), key, f"not sent: not a field it documents ({server.docs})")


def _fit_nested(body: dict[str, Any], call: ServerCall) -> None:
    call.rule = "fields"
    for refusal in call.server.refuses:
        if _top_level(refusal.field):
            continue
        for parent, key, at in list(places(body, refusal.field.split("."), ())):
            del parent[key]
            call.report(at, key, f"not sent: it ignores it ({refusal.source})")


def _top_level(field: str) -> bool:
    return "." not in field and "[" not in field


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


def _fit_blocks(message: dict[str, Any], at: Steps, call: ServerCall) -> None:
    blocks = call.server.blocks
    content = as_list(message.get("content"))
    if blocks is None or content is None:
        return
    call.rule = "blocks"
    kept: list[Any] = []
    dropped: list[str] = []
    for index, block in enumerate(content):
        kind = (as_dict(block) or {}).get("type")
        if not isinstance(kind, str) or kind in blocks:
            kept.append(block)
            continue
        dropped.append(kind)
        why = f"not sent: it takes {', '.join(sorted(blocks))} blocks ({call.server.blocks_source or call.server.docs})"
        call.report((*at, "content", index), f"{kind} block", why)
    if not dropped:
        return
    if not kept:
        kept.append({"type": "text", "text": f"[{', '.join(dict.fromkeys(dropped))} not sent]"})
        call.report((*at, "content"), "an emptied message", "sent with one text block naming what was not sent")
    message["content"] = kept


__all__ = ["ALWAYS", "Server", "fit_request", "places"]
