"""The docs' table of OpenAI-compatible servers, generated from their records so it
cannot drift (``tests/test_docs_generated.py`` checks the docs hold it)."""

from __future__ import annotations

from chatcodec._providers.openai_chat.servers import SERVERS, Server


def servers_table() -> str:
    """One row per server: how it is chosen, what it gets and why, and its reference."""
    lines = [
        "| server | chosen by | reasoning sent back | `reasoning_effort` | not sent, or moved | rules | reference |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    lines.extend(_row(server) for server in SERVERS.values())
    return "\n".join(lines)


def _row(server: Server) -> str:
    chosen = [f"`server={server.name}`"]
    chosen += [f"host `{host}`" for host in server.hosts]
    chosen += [f"model `{_escaped(pattern)}`" for pattern in server.models]
    reasoning = f"`{server.reasoning_field}`" if server.reasoning_field else "none"
    efforts = "any (the model's names)" if server.efforts is None else ", ".join(server.efforts)
    changes = [
        f"`{refusal.field}` -> `{refusal.instead}`" if refusal.instead else f"`{refusal.field}`"
        for refusal in server.refuses
    ]
    if server.fields is not None:
        changes.insert(0, "fields it does not list")
    if server.parts != frozenset({"text", "image_url", "input_audio", "file"}):
        changes.append("parts other than " + ", ".join(f"`{part}`" for part in sorted(server.parts)))
    for row in server.model_parts:
        taken = ", ".join(f"`{part}`" for part in sorted(row.parts))
        changes.append(f"model `{_escaped(row.pattern)}`: parts other than {taken} ({row.source})")
    if not server.signatures:
        changes.append("Gemini signatures")
    rules = [f"`{rule.name}`: {rule.summary}" for rule in server.rules]
    if server.sampling_ranges is not None:  # None: OpenAI's ranges, the table's own
        ranges = ", ".join(f"`{item.key}` {item.shown()}" for item in server.sampling_ranges)
        rules.insert(0, f"`sampling_range`: {ranges or 'none documented, none clamped'}")
    cells = (
        f"{server.title} (`{server.name}`)",
        "; ".join(chosen),
        reasoning,
        efforts,
        "; ".join(changes),
        "; ".join(rules) or "-",
        server.docs,
    )
    return "| " + " | ".join(cells) + " |"


def _escaped(text: str) -> str:
    """A cell's text with its ``|`` escaped (a model pattern's alternatives)."""
    return text.replace("|", "\\|")
