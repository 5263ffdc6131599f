"""The docs' table of Anthropic-compatible servers, generated from their records so it
cannot drift (``tests/test_docs_generated.py`` checks the docs hold it)."""

from __future__ import annotations

from chatcodec._providers.anthropic.servers import SERVERS, Server
from chatcodec._providers.anthropic.servers.server import CACHE_MARKED


def servers_table() -> str:
    """One row per server: how it is chosen, what it is not sent and why, and its reference."""
    lines = [
        "| server | chosen by | not sent | what it takes | rules | reference |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    lines.extend(_row(server) for server in SERVERS.values())
    return "\n".join(lines)


def _row(server: Server) -> str:
    chosen = [f"`server={server.name}`", *(f"URL `{host}`" for host in server.hosts)]
    refused = [refusal.field for refusal in server.refuses]
    markers = {f"{place}.cache_control" for place in CACHE_MARKED}
    if markers <= set(refused):  # every breakpoint: one entry, not seven
        refused = [field for field in refused if field not in markers] + ["cache_control"]
    dropped = [f"`{field}`" if field != "cache_control" else "`cache_control` breakpoints" for field in refused]
    if server.fields is not None:
        dropped.insert(0, "fields it does not list")
    blocks = (
        "any blocks" if server.blocks is None else "blocks " + ", ".join(f"`{kind}`" for kind in sorted(server.blocks))
    )
    tools = (
        "any tools"
        if server.tool_types is None
        else ", ".join(f"`{kind}`" for kind in sorted(server.tool_types)) + " tools"
    )
    takes = [blocks, tools, *_acted(server)]
    rules = [f"`{rule.name}`: {rule.summary}" for rule in server.rules] + list(server.notes)
    if server.sampling_ranges is not None:
        ranges = ", ".join(f"`{item.key}` {item.shown()}" for item in server.sampling_ranges)
        rules.insert(0, f"`sampling_range`: {ranges or 'none documented, none clamped'}")
    cells = (
        f"{server.title} (`{server.name}`)",
        "; ".join(chosen),
        "; ".join(dropped) or "-",
        "; ".join(takes),
        "; ".join(rules) or "-",
        server.docs,
    )
    return "| " + " | ".join(cells) + " |"


def _acted(server: Server) -> list[str]:
    """The ``tool_choice`` and ``thinking`` types and image sources it is limited to."""
    limits = (
        ("`tool_choice`", server.tool_choices),
        ("`thinking`", server.thinking_types),
        ("images by", server.image_sources),
    )
    return [
        f"{what} " + ", ".join(f"`{kind}`" for kind in sorted(kinds)) if kinds else f"{what} ignored"
        for what, kinds in limits
        if kinds is not None
    ]
