"""Every spelling marker a decoder writes is classified where its provider documents its
markers (``_providers/<name>/markers.py``): pure spelling, dropped by another provider
without a report, or carrying meaning, declared in the provider's kit and reported when
dropped. A new marker cannot slip in unclassified: decoding every
recorded request, response and stream finds the markers the decoders really write."""

from __future__ import annotations

import ast
import importlib
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

import chatcodec
from chatcodec._providers.kit.bags import is_marker
from chatcodec._providers.kit.provider_kit import meaningful_markers
from conformance.providers import PROVIDER

PROVIDER_NAMES = chatcodec.PROVIDER_NAMES
"""The built-in providers, one per folder: the law reads each folder's ``markers.py`` (a codec
registered at run time, such as the session's streamless twin of a folder, has none of its own)."""

_BAGS = ("provider_metadata", "provider_options", "choice_metadata")
_MEANINGFUL_SECTION = "Carry meaning"
_SOURCES = Path(chatcodec.__file__).parent / "_providers"
_NOT_MARKERS = {
    "_tool_result": "a block type's suffix (web_search_tool_result)",
    "_call": "an item type's suffix (computer_call)",
    "_start": "a stream event type's suffix (thinking_start)",
    "_no_": "the prefix of Responses' usage markers, documented one by one (_no_cached_tokens)",
}
"""String literals in provider code that look like markers and are not."""


@cache
def _docstring(provider: str) -> str:
    module = importlib.import_module(f"chatcodec._providers.{provider.replace('-', '_')}.markers")
    return module.__doc__ or ""


def _documented(text: str) -> set[str]:
    return set(re.findall(r"``(_[a-z][a-z_]*)``", text))


def _collect(value: object, provider: str, found: set[str]) -> None:
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, dict):
            for key in _BAGS:
                bags = item.get(key)
                if isinstance(bags, dict) and isinstance(bags.get(provider), dict):
                    found.update(marker for marker in bags[provider] if is_marker(marker))
            pending.extend(item.values())


@cache
def _written(provider: str) -> frozenset[str]:
    """The markers ``provider``'s decoders write on its recorded payloads."""
    source = PROVIDER[provider]
    found: set[str] = set()
    for name in source.recorded["request"]:
        _collect(chatcodec.decode_request(provider, source.load("request", name)).model_dump(), provider, found)
    for name in source.recorded["response"]:
        _collect(chatcodec.decode_response(provider, source.load("response", name)).model_dump(), provider, found)
    for name in source.recorded["stream"]:
        events = chatcodec.decode_stream(provider, source.stream_events(name))
        _collect([event.model_dump() for event in events], provider, found)
    return frozenset(found)


@pytest.mark.parametrize("provider", PROVIDER_NAMES)
def test_every_marker_written_is_documented(provider: str) -> None:
    undocumented = _written(provider) - _documented(_docstring(provider))
    assert not undocumented, f"classify these in _providers/{provider}/markers.py: {sorted(undocumented)}"


@pytest.mark.parametrize("provider", PROVIDER_NAMES)
def test_declared_meaningful_markers_are_the_documented_ones(provider: str) -> None:
    """The docstring's "Carry meaning" list and the kit's declaration say the same."""
    doc = _docstring(provider)
    assert _MEANINGFUL_SECTION in doc
    listed = doc.split(_MEANINGFUL_SECTION, 1)[1].split("\n\n")[1]  # the paragraph after the heading
    assert set(meaningful_markers(provider)) == _documented(listed)


def test_some_markers_are_found() -> None:
    """Not vacuous: the recordings make decoders write markers (a wire with no second
    spelling of anything, a new codec's, may write none: the law is over them all)."""
    assert sum(len(_written(provider)) >= 2 for provider in PROVIDER_NAMES) >= 2


def _slot_names(tree: ast.AST) -> set[int]:
    """The string constants of ``__slots__`` assignments (attribute names, not bag keys), by id."""
    names: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "__slots__" for target in node.targets
        ):
            names.update(id(item) for item in ast.walk(node.value) if isinstance(item, ast.Constant))
    return names


def _literals(provider: str) -> set[str]:
    found: set[str] = set()
    for source in (_SOURCES / provider.replace("-", "_")).glob("*.py"):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        slots = _slot_names(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and re.fullmatch(r"_[a-z][a-z_]*", node.value)
                and id(node) not in slots
            ):
                found.add(node.value)
    return found


@pytest.mark.parametrize("provider", PROVIDER_NAMES)
def test_every_marker_in_the_code_is_documented(provider: str) -> None:
    """The recordings do not make a decoder write every marker it can: the code's string
    literals that look like markers are all documented too (or known not to be one)."""
    undocumented = _literals(provider) - _documented(_docstring(provider)) - _NOT_MARKERS.keys()
    assert not undocumented, f"classify these in _providers/{provider}/markers.py: {sorted(undocumented)}"


def test_a_declaration_is_found_before_its_provider_is_imported() -> None:
    """A caller can write ``provider_options["openai-chat"]`` by hand and encode to
    Anthropic without the OpenAI Chat codec ever running: the kit loads it by name."""
    code = (
        "import sys, chatcodec\n"
        "request = chatcodec.ChatRequest(model='m', max_tokens=5, messages=[chatcodec.UserMessage(content='q')],\n"
        "    provider_options={'openai-chat': {'_cache': 'cache_control', '_stop': 'string'},\n"
        "                      'acme': {'_cache': 'cache_control'}})\n"
        "assert 'chatcodec._providers.openai_chat.markers' not in sys.modules\n"
        "losses = []\n"
        "chatcodec.encode_request('anthropic', request, on_loss='ignore', losses=losses)\n"
        "print([loss.what for loss in losses])\n"
    )
    printed = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert printed.strip() == """['openai-chat spelling _cache="cache_control"']"""


def test_a_declaration_is_found_without_the_registry_or_the_codec() -> None:
    """The kit sits below the registry, so a provider's declarations are
    found through the table its ``markers.py`` fills, importing that module by the folder
    naming rule, never the registry or the provider's codec; a name with no such module
    declares nothing."""
    code = (
        "import sys\n"
        "from chatcodec._providers.kit.provider_kit import meaningful_markers\n"
        "print(sorted(meaningful_markers('openai-chat')), dict(meaningful_markers('acme')),\n"
        "      dict(meaningful_markers('Not A Provider')), dict(meaningful_markers('kit')))\n"
        "loaded = ('chatcodec._registry', 'chatcodec._providers.openai_chat.request')\n"
        "print([module for module in loaded if module in sys.modules])\n"
    )
    printed = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert printed.splitlines() == ["['_cache'] {} {} {}", "[]"]
