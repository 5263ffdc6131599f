"""Every shipped law module, imported so that each registers its laws (in this order)."""

from __future__ import annotations

import importlib

LAW_MODULES = (
    "law_recordings",
    "law_finish_reasons",
    "law_losses",
    "law_edges",
    "law_server_facts",
    "law_silent_changes",
    "law_tool_names",
    "law_rule_reads",
    "law_refusals",
    "law_cyclic_payloads",
    "law_mutated_inputs",
    "law_columnar",
    "law_accumulate",
    "law_streamed",
    "law_stream_metadata",
    "law_cross_streams",
)


def import_every_law() -> None:
    """Import each law module (once): importing one registers its laws."""
    for module in LAW_MODULES:
        importlib.import_module(f"chatcodec.testing._laws.{module}")
