"""The table of OpenAI-compatible servers the docs show (``make docs`` writes it,
``tests/test_docs_generated.py`` checks it)."""

from __future__ import annotations

from chatcodec._providers.openai_chat.servers import SERVERS
from chatcodec._providers.openai_chat.servers.table import servers_table


def test_the_table_has_a_row_per_server() -> None:
    rows = servers_table().splitlines()[2:]
    assert [row.split("`")[1] for row in rows] == list(SERVERS)
