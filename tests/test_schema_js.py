"""The JSON Schemas checked from JavaScript and TypeScript, as users of other languages use them:
ajv 8 in its default strict mode (draft 2020-12) compiles them without a warning
and gives the same verdicts as the models; json-schema-to-typescript's types compile under
``tsc --strict`` with a small program that builds a conversation, which chatcodec accepts.

The tools come from the npm registry at the versions ``js/package-lock.json`` pins;
``make test`` installs them (``npm ci``), and so does this module when they are missing.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chatcodec
from conformance.providers import PROVIDERS, STREAMING
from js_packages import JS, node_with_packages, run_in_js
from schema_agreement import (
    KINDS,
    canonical_objects,
    dump,
    duplicate_choice_indexes,
    model_accepts,
    mutated,
    rust_schema_accepts,
    schema_accepts,
)

ROOT = Path(__file__).resolve().parents[1]
SCHEMAS = ROOT / "schemas"
_run = run_in_js


@pytest.fixture(scope="module")
def node() -> str:
    """``node``, with js/'s packages installed from the lockfile."""
    return node_with_packages()


def ajv_verdicts(node: str, batch: list[tuple[chatcodec.SchemaKind, object]], tmp_path: Path) -> list[dict[str, Any]]:
    """ajv's verdict on each document, from one node process for the whole batch."""
    batch_file = tmp_path / "batch.json"
    batch_file.write_text(json.dumps([{"kind": kind, "document": document} for kind, document in batch]))
    result = _run([node, "validate.mjs", str(SCHEMAS), str(batch_file)])
    assert result.returncode == 0, result.stderr
    verdicts: list[dict[str, Any]] = json.loads(result.stdout)
    assert len(verdicts) == len(batch)
    return verdicts


def test_ajv_strict_compiles_every_schema_without_a_warning(node: str, tmp_path: Path) -> None:
    """validate.mjs fails on any ajv warning; one trivial document per kind compiles each schema."""
    batch: list[tuple[chatcodec.SchemaKind, object]] = [(kind, None) for kind in KINDS]
    assert [verdict["valid"] for verdict in ajv_verdicts(node, batch, tmp_path)] == [False] * len(KINDS)


def _collect_documents() -> list[tuple[chatcodec.SchemaKind, object, bool]]:
    """Valid dumps and one-mistake mutants of every kind, each with the models' verdict
    (``test_schema_agreement.py`` compares Python ``jsonschema``'s on its own examples)."""
    collected: list[tuple[chatcodec.SchemaKind, object, bool]] = []
    for kind in KINDS:
        _collector(kind, collected)()
    return collected


def _collector(kind: chatcodec.SchemaKind, collected: list[tuple[chatcodec.SchemaKind, object, bool]]) -> Any:
    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
    @given(value=canonical_objects(kind), data=st.data())
    def collect(value: Any, data: st.DataObject) -> None:
        document = dump(kind, value)
        _, mutant = data.draw(mutated(document))
        for candidate in (document, mutant):
            collected.append((kind, candidate, model_accepts(kind, candidate)))

    return collect


def test_ajv_gives_the_verdicts_of_the_models(node: str, tmp_path: Path) -> None:
    collected = _collect_documents()
    verdicts = ajv_verdicts(node, [(kind, document) for kind, document, _ in collected], tmp_path)
    disagreements = [
        (kind, document, by_model, verdict["errors"])
        for (kind, document, by_model), verdict in zip(collected, verdicts, strict=True)
        if verdict["valid"] != by_model and not duplicate_choice_indexes(kind, document)
    ]
    assert disagreements == []
    assert {by_model for _, _, by_model in collected} == {True, False}


_TRAIL_KEYWORDS = frozenset({"if", "then", "else", "anyOf", "oneOf", "allOf"})
"""ajv keywords that only say a subschema failed; the error beneath them is the mistake."""


_ONE_MISTAKE: list[tuple[object, str]] = [
    ([{}], "/0 must have required property 'role'"),
    ([{"role": "user", "content": [{"type": "text"}]}], "/0/content/0 must have required property 'text'"),
    ([{"role": "user", "content": [{"type": "hologram"}]}], "/0/content/0/type must be equal to one of the allowed"),
    (
        [{"role": "assistant", "content": [{"type": "tool_use", "id": "c"}]}],
        "/0/content/0 must have required property 'name'",
    ),
    (
        [{"role": "tool", "content": [{"type": "tool_result"}]}],
        "/0/content/0 must have required property 'tool_use_id'",
    ),
    ([{"role": "user", "content": "hi", "colour": "red"}], "/0 must NOT have additional properties"),
]


def test_one_mistake_one_ajv_error(node: str, tmp_path: Path) -> None:
    """The tag picks the branch: ajv reports the mistake once, not once per branch (the
    plain ``oneOf`` gave 26 to 42 errors for these); what remains is the ``then``/``anyOf``
    trail above it and, for ``content``, that it is not a string either."""
    verdicts = ajv_verdicts(node, [("messages", document) for document, _ in _ONE_MISTAKE], tmp_path)
    for (_, leaf), verdict in zip(_ONE_MISTAKE, verdicts, strict=True):
        leaves = [
            error
            for error in verdict["errors"]
            if not _is_trail(error) and not error.endswith("/content must be string")
        ]
        assert len(leaves) == 1, verdict["errors"]
        assert leaves[0].startswith(leaf)


def _is_trail(error: str) -> bool:
    return bool(re.search(r'must match ("then"|"else") schema|must match (a|exactly one) schema in', error))


@pytest.fixture(scope="module")
def typescript_output(node: str) -> str:
    """Types generated into js/generated/, compiled with conversation.ts under ``tsc --strict``,
    and the program's output."""
    generated = _run([node, "types.mjs", str(SCHEMAS), "generated"])
    assert generated.returncode == 0, generated.stderr
    compiled = _run([node, "node_modules/typescript/bin/tsc", "-p", "tsconfig.json"])
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    ran = _run([node, "build/conversation.js"])
    assert ran.returncode == 0, ran.stderr
    return ran.stdout


def test_typescript_program_builds_a_conversation_chatcodec_accepts(typescript_output: str) -> None:
    built = json.loads(typescript_output)
    messages = chatcodec.validate_messages(built["messages"])
    assert [message.role for message in messages] == ["system", "user", "assistant", "tool", "assistant"]
    assert [part.type for part in messages[1].parts] == ["text", "image", "video"]
    [cited] = messages[4].parts
    assert isinstance(cited, chatcodec.TextPart)
    assert [(c.url, cited.text[c.start_index : c.end_index]) for c in cited.citations] == [
        ("https://meteo.fr/paris", "(meteo.fr)")
    ]
    request = chatcodec.ChatRequest.model_validate(built["request"])
    assert request.tools[0].name == "get_weather"
    assert [call["name"] for call in built["calls"]] == ["get_weather"]
    assert model_accepts("messages", built["messages"])


def test_generated_types_have_readable_names(typescript_output: str) -> None:
    """Definition names become type names; no ``Type7`` or ``Content1`` in any module."""
    del typescript_output  # the fixture generated the files
    for kind in KINDS:
        module = (JS / "generated" / f"{kind}.ts").read_text()
        names = set(re.findall(r"^export (?:type|interface) (\w+)", module, re.M))
        assert not [name for name in names if re.search(r"\d$", name)], (kind, names)
        assert "ProviderMetadata" in names
    messages = (JS / "generated" / "messages.ts").read_text()
    names = set(re.findall(r"^export (?:type|interface) (\w+)", messages, re.M))
    expected = {"Messages", "UserMessage", "AssistantMessage", "ToolUsePart", "ToolResultPart", "ImagePart"}
    assert expected | {"UserContentPart", "AssistantContentPart"} <= names
    assert "content: string | UserContentPart[];" in messages


def test_schema_id_carries_the_schema_version() -> None:
    package_version = chatcodec_version()
    assert ".".join(package_version.split(".")[:2]) == chatcodec.SCHEMA_VERSION
    for kind in KINDS:
        assert (
            chatcodec.json_schema(kind)["$id"]
            == f"https://chatcodec.dev/schemas/{chatcodec.SCHEMA_VERSION}/{kind}.schema.json"
        )


def chatcodec_version() -> str:
    """The version in pyproject.toml (the source of truth for this checkout)."""
    match = re.search(r'^version = "([^"]+)"', (ROOT / "pyproject.toml").read_text(), re.M)
    assert match is not None
    return match.group(1)


def _recorded_canonical_documents() -> list[tuple[chatcodec.SchemaKind, object]]:
    """Every recorded request, response and stream of every provider in the conformance
    table, decoded and dumped as canonical JSON: real traffic, not generated."""
    documents: list[tuple[chatcodec.SchemaKind, object]] = []
    for provider in PROVIDERS:
        for name in provider.recorded["request"]:
            request = chatcodec.decode_request(provider.name, provider.load("request", name))
            documents.append(("request", request.model_dump(mode="json")))
            documents.append(("messages", [message.model_dump(mode="json") for message in request.messages]))
        for name in provider.recorded["response"]:
            response = chatcodec.decode_response(provider.name, provider.load("response", name))
            documents.append(("response", response.model_dump(mode="json")))
        for name in provider.recorded["stream"] if provider in STREAMING else ():  # a streamless codec reads none
            for event in chatcodec.decode_stream(provider.name, provider.stream_text(name)):
                documents.append(("stream-event", event.model_dump(mode="json")))
    return documents


def test_every_recording_decodes_to_json_every_validator_accepts(node: str, tmp_path: Path) -> None:
    documents = _recorded_canonical_documents()
    assert {kind for kind, _ in documents} == set(KINDS)
    refused_by_python = [(kind, document) for kind, document in documents if not schema_accepts(kind, document)]
    refused_by_rust = [(kind, document) for kind, document in documents if not rust_schema_accepts(kind, document)]
    verdicts = ajv_verdicts(node, documents, tmp_path)
    refused_by_ajv = [verdict["errors"] for verdict in verdicts if not verdict["valid"]]
    assert (refused_by_python, refused_by_rust, refused_by_ajv) == ([], [], [])


def test_generated_typescript_doc_comments_have_no_restructuredtext_markup(typescript_output: str) -> None:
    """Descriptions come from docstrings: ``code`` and :class:`~chatcodec.X` are written
    as Markdown (`code`, `X`) in the schemas, so the TypeScript doc comments read cleanly."""
    del typescript_output  # the fixture generated the files
    for kind in KINDS:
        module = (JS / "generated" / f"{kind}.ts").read_text()
        assert "``" not in module, kind
        assert not re.search(r":(class|attr|func|meth|mod|data|exc):`", module), kind
    messages = (JS / "generated" / "messages.ts").read_text()
    assert "(OpenAI `name`)" in messages


def test_a_mistake_in_a_nullable_field_is_one_error_beside_the_tag_trail(node: str, tmp_path: Path) -> None:
    """``str | None`` is one schema (``"type": ["string", "null"]``), not an ``anyOf`` that
    also said "must be null" and "must match a schema in anyOf"."""
    document = [{"role": "user", "content": "hi", "name": 5}]
    (verdict,) = ajv_verdicts(node, [("messages", document)], tmp_path)
    assert verdict["errors"] == ["/0/name must be string,null", '/0 must match "then" schema']
