"""The docs' table of Anthropic-compatible servers, generated from their records so it
cannot drift (``tests/test_docs_generated.py`` checks the docs hold it)."""

from __future__ import annotations

from chatcodec._providers.anthropic.servers import SERVERS, Server


def servers_table() -> str:
    """One row per server: how it is chosen, what it is not sent and why, and its reference."""
    lines = [
        "| server | chosen by | not sent | blocks and tools it takes | rules | reference |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    lines.extend(_row(server) for server in SERVERS.values())
    return "\n".join(lines)


def _row(server: Server) -> str:
    chosen = [f"`server={server.name}`", *(f"URL `{host}`" for host in server.hosts)]
    dropped = [f"`{refusal.field}`" for refusal in server.refuses]
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
    rules = [f"`{rule.name}`: {rule.summary}" for rule in server.rules] + list(server.notes)
    cells = (
        f"{server.title} (`{server.name}`)",
        "; ".join(chosen),
        "; ".join(dropped) or "-",
        f"{blocks}; {tools}",
        "; ".join(rules) or "-",
        server.docs,
    )
    return "| " + " | ".join(cells) + " |"
