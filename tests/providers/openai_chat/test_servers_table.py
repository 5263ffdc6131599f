"""The README's table of OpenAI-compatible servers is the one generated from their records."""

from __future__ import annotations

from pathlib import Path

from chatcodec.providers.openai_chat.servers import SERVERS
from chatcodec.providers.openai_chat.servers.table import servers_table

README = Path(__file__).resolve().parents[3] / "README.md"


def test_the_readme_holds_the_generated_servers_table() -> None:
    table = servers_table()
    assert table in README.read_text(encoding="utf-8"), (
        "run: python -c 'from chatcodec.providers.openai_chat.servers.table import servers_table; "
        "print(servers_table())' and paste it into README.md"
    )


def test_the_table_has_a_row_per_server() -> None:
    rows = servers_table().splitlines()[2:]
    assert [row.split("`")[1] for row in rows] == list(SERVERS)
