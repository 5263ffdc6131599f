"""The direct paths against their oracle, the canonical path (CONTRIBUTING.md, "Direct paths").

Every request of ``tools/differential.py``'s corpus whose pair has a direct path (the
fixtures, the bench's agent sessions, the acceptance sessions) is converted with the direct
paths on and with them off (:func:`chatcodec._direct.table.canonical_only`): the output as
JSON (key order included), the losses (kind, place, text), the warnings and the error's
type and text must be equal, under ``ignore`` and under ``warn``. A Hypothesis run mutates
the acceptance sessions into shapes a direct path admits and shapes it hands back. And a
direct path must take the sessions it was written for: one that always hands back passes
the differential and does nothing.
"""

from __future__ import annotations

import copy
import gzip
import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chatcodec
from chatcodec._conversion import common_json
from chatcodec._direct.table import DIRECT_PATHS, canonical_only, direct_path
from chatcodec._losses import LossRecorder
from chatcodec._providers.openai_responses.carried_reasoning import PREFIX as SEALED
from direct_outcomes import outcome

ROOT = Path(__file__).resolve().parents[1]
SESSIONS = ROOT / "tests" / "fixtures" / "perf-sessions"
PAIRS = sorted(DIRECT_PATHS)


def _differential() -> ModuleType:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    spec = importlib.util.spec_from_file_location("differential", ROOT / "tools" / "differential.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _corpus() -> list[tuple[str, str, dict[str, Any]]]:
    sources = {source for source, _ in PAIRS}
    return [case for case in _differential()._requests() if case[1] in sources]


CORPUS = _corpus()


def _taken_from_responses(body: dict[str, Any]) -> LossRecorder:
    """The losses of ``body`` (a Responses request with ``instructions``) written by the
    responses -> openai-chat direct path, which must take it (not hand it back), the
    instructions its leading system message."""
    convert = direct_path("openai-responses", "openai-chat")
    assert convert is not None
    recorder = LossRecorder()
    written = convert(copy.deepcopy(body), recorder, chatcodec.get_codec("openai-chat"))
    assert written is not None
    assert written["messages"][0] == {"role": "system", "content": body["instructions"]}
    return recorder


def _equal_to_canonical(body: dict[str, Any], source: str, target: str) -> None:
    for on_loss in ("ignore", "warn"):
        direct = outcome(body, source, target, on_loss)
        with canonical_only():
            canonical = outcome(body, source, target, on_loss)
        assert direct == canonical, on_loss


_CORPUS_CASES = [
    pytest.param(body, source, target, id=f"{source}->{target}-{name}")
    for source, target in PAIRS
    for name, format_name, body in CORPUS
    if format_name == source
]
"""Each pair with every corpus request of its source (a request of another format is no case of it)."""


@pytest.mark.parametrize(("body", "source", "target"), _CORPUS_CASES)
def test_corpus_equal_to_canonical(body: dict[str, Any], source: str, target: str) -> None:
    _equal_to_canonical(body, source, target)


def _acceptance(stem: str) -> list[dict[str, Any]]:
    found = sorted(SESSIONS.glob(f"{stem}-*.json.gz"))
    assert found, f"no acceptance session {stem} in {SESSIONS}"
    return [json.load(gzip.open(path, "rt")) for path in found]


_STEMS = {
    ("openai-chat", "anthropic"): ("oc-anthropic-real", "oc-anthropic-nulls", "oc-anthropic-imgs"),
    ("anthropic", "openai-chat"): ("an-oc-real",),
    ("openai-responses", "openai-chat"): ("resp-oc-real",),
    ("openai-chat", "openai-responses"): ("oc-responses-real", "oc-responses-imgs", "oc-anthropic-nulls"),
}


@pytest.mark.parametrize(("source", "target"), PAIRS)
def test_direct_path_takes_its_sessions(source: str, target: str) -> None:
    convert = direct_path(source, target)
    assert convert is not None
    bodies = [body for stem in _STEMS[source, target] for body in _acceptance(stem)]
    writer = chatcodec.get_codec(target)
    for body in bodies:
        assert convert(copy.deepcopy(body), LossRecorder(), writer) is not None
        _equal_to_canonical(body, source, target)


@pytest.mark.parametrize(("source", "target"), [pair for pair in PAIRS if pair[0] == "openai-chat"])
@pytest.mark.parametrize("shapes", ["all", "text-part tool results", "cache markers", "SDK-dump nulls"])
@pytest.mark.parametrize("steps", [3, 12, 50])
def test_direct_path_takes_the_agent_sessions_shapes(source: str, target: str, shapes: str, steps: int) -> None:
    """The bench's OpenAI-SDK agent session (issue 92's compact-arguments shape is it): a system
    prompt of text parts with a gateway's cache marker, tool results of text parts, a rolling
    cache marker on the last message (a tool message at 50 steps, a user message with an SDK
    dump's ``"name": null`` at 3 and 12, issue 99). Taken by the direct path, written as the
    canonical path writes it."""
    _differential()  # the bench on the path
    from bench import agent_workloads

    wanted = agent_workloads.OPENAI_SHAPES if shapes == "all" else (shapes,)
    body = agent_workloads.openai_session(steps, wanted, seed=7)
    convert = direct_path(source, target)
    assert convert is not None
    assert convert(copy.deepcopy(body), LossRecorder(), chatcodec.get_codec(target)) is not None
    _equal_to_canonical(body, source, target)


_FEATURES_TAKEN = [
    "signed thinking",
    "system marker",
    "tool image",
    "parallel calls",
    "long results",
    "errors",
    "SDK nulls",
    "client dialects",
]
"""``bench/feature_shapes.py``'s features each direct path takes, alone and together (issue 107)."""


@pytest.mark.parametrize(
    ("source", "target"),
    [("openai-chat", "anthropic"), ("openai-chat", "openai-responses"), ("anthropic", "openai-chat")],
)
@pytest.mark.parametrize("features", [*([feature] for feature in _FEATURES_TAKEN), _FEATURES_TAKEN])
@pytest.mark.parametrize("steps", [3, 40])
def test_direct_path_takes_the_feature_shapes(source: str, target: str, features: list[str], steps: int) -> None:
    """The coding agent of issue 107 with each feature alone and all of them together (litellm's
    signed ``thinking_blocks`` on every turn, a cache marker on a system part, an image in a tool
    result, parallel calls, long results, failed results, the SDK's nulls): taken by the direct path, not handed to
    the canonical path, and written as the canonical path writes it."""
    _differential()  # the bench on the path
    from bench import feature_shapes

    body = feature_shapes.body(source, target, steps, features)
    convert = direct_path(source, target)
    assert convert is not None
    assert convert(copy.deepcopy(body), LossRecorder(), chatcodec.get_codec(target)) is not None
    _equal_to_canonical(body, source, target)


def _thinking_variant(body: dict[str, Any], variant: str) -> dict[str, Any]:
    """``body`` (the feature shapes' agent, litellm's ``thinking_blocks`` on each turn) with each
    turn's thinking changed as ``variant`` says."""
    changed = copy.deepcopy(body)
    signed = [message for message in changed["messages"] if "thinking_blocks" in message]
    if variant in _EMPTY_SIGNATURE:  # one turn's block with an empty signature: dropped, reported
        signed[_EMPTY_SIGNATURE[variant]]["thinking_blocks"][0]["signature"] = ""
    for message in signed:
        blocks = message["thinking_blocks"]
        if variant == "two blocks":
            blocks.append({"type": "thinking", "thinking": " And then the tests.", "signature": "c2lnbmVk"})
            message["reasoning_content"] += " And then the tests."
        elif variant == "no reasoning_content":
            del message["reasoning_content"]
        elif variant == "other reasoning_content":
            message["reasoning_content"] = "Something else."
        elif variant == "redacted":
            blocks.append({"type": "redacted_thinking", "data": "ZW5jcnlwdGVk"})
        elif variant == "unsigned":
            blocks[0]["signature"] = None
        elif variant == "text and calls":
            message["content"] = "I will look."
    if variant == "another model":
        changed["model"] = "claude-opus-5-5"
    return changed


_EMPTY_SIGNATURE = {"empty signature first": 0, "empty signature later": 3}
"""The variants with one block's signature empty, by the signed turn that holds it: the first (no
verdict proved on it) or one after a verdict was proved on the turns before."""
_TAKEN_VARIANTS = {
    "two blocks": True,
    "text and calls": True,
    "another model": True,
    "empty signature first": True,
    "empty signature later": True,
    "redacted": True,
}


@pytest.mark.parametrize(("source", "target"), [("openai-chat", "anthropic"), ("openai-chat", "openai-responses")])
@pytest.mark.parametrize(
    "variant",
    [
        "two blocks",
        "text and calls",
        "another model",
        "no reasoning_content",
        "other reasoning_content",
        "redacted",
        "unsigned",
        "empty signature first",
        "empty signature later",
    ],
)
def test_signed_thinking_variants_equal_to_canonical(source: str, target: str, variant: str) -> None:
    """Turns with litellm's ``thinking_blocks`` beyond the generator's one signed block and its
    ``reasoning_content`` copy: two blocks, a text beside the calls, a model that verifies only its
    own signatures, a block with an empty signature on the first signed turn or after turns that
    proved the request's verdict (OpenAI Chat -> Anthropic writes a turn as it came once one did)
    and a redacted block beside a signed one are taken; a turn without the copy or with another
    text there, an unsigned block are handed back. Either way the outcome is the canonical path's (losses placed
    in the input as it places them)."""
    _differential()  # the bench on the path
    from bench import feature_shapes

    body = _thinking_variant(feature_shapes.body(source, target, 6, feature_shapes.FEATURES), variant)
    convert = direct_path(source, target)
    assert convert is not None
    taken = convert(copy.deepcopy(body), LossRecorder(), chatcodec.get_codec(target)) is not None
    assert taken == _TAKEN_VARIANTS.get(variant, False)
    _equal_to_canonical(body, source, target)


@pytest.mark.parametrize(("source", "target"), [pair for pair in PAIRS if pair[0] == "openai-chat"])
@pytest.mark.parametrize("seed", [29, 902])
def test_direct_path_takes_the_marked_agent_session(source: str, target: str, seed: int) -> None:
    """``bench/other_shapes.py``'s marked agent session (issue 99's held-out shape: reasoning on
    every assistant turn, parallel calls, long tool outputs, screenshots in user messages, SDK
    dump nulls, the gateway's marker on the last user message: on the message with seed 29, on
    its text part with 902). Taken by the direct path, written as the canonical path writes it."""
    _differential()  # the bench on the path
    from bench import other_shapes

    body = other_shapes.marked_agent_session(12, seed)
    last = body["messages"][-1]
    marked = "cache_control" in last if seed == 29 else "cache_control" in last["content"][-1]
    assert last["role"] == "user"
    assert marked
    assert any(message.get("reasoning_content") for message in body["messages"])
    assert any(part.get("type") == "image_url" for message in body["messages"] for part in _parts(message))
    convert = direct_path(source, target)
    assert convert is not None
    assert convert(copy.deepcopy(body), LossRecorder(), chatcodec.get_codec(target)) is not None
    _equal_to_canonical(body, source, target)


def _parts(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message.get("content")
    return content if isinstance(content, list) else []


_MARKER = {"type": "ephemeral"}

_MARKED_USERS = (
    {"role": "user", "content": "go on", "cache_control": _MARKER},
    {"role": "user", "content": "go on", "name": None, "cache_control": _MARKER},
    {"role": "user", "content": [{"type": "text", "text": "a", "cache_control": _MARKER}]},
    {"role": "user", "content": [{"type": "text", "text": "a", "cache_control": _MARKER}], "cache_control": _MARKER},
    {
        "role": "user",
        "content": [{"type": "text", "text": "a"}, {"type": "image_url", "image_url": {"url": "https://x.test/a.png"}}],
        "cache_control": _MARKER,
    },
    {
        "role": "user",
        "content": [{"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}],
        "name": None,
        "cache_control": _MARKER,
    },
)
"""User messages with a gateway's cache marker, on the message or on a text part (what agents
on the OpenAI SDK send through litellm or OpenRouter on their last message)."""


@pytest.mark.parametrize(("source", "target"), [pair for pair in PAIRS if pair[0] == "openai-chat"])
@pytest.mark.parametrize("marked", _MARKED_USERS)
@pytest.mark.parametrize("after", ["results", "user"])
def test_marked_user_messages_taken_and_equal(source: str, target: str, marked: dict[str, Any], after: str) -> None:
    """A marked user message, alone or joining the tool results before it (Anthropic: one
    user turn), first or last: taken by the direct path and written as the canonical path writes it."""
    call = {"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    head: list[dict[str, Any]] = [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call_1", "content": "out"},
    ]
    if after == "user":
        head.append({"role": "assistant", "content": "done"})
    body = {"model": "gpt-5", "max_tokens": 100, "messages": [*head, copy.deepcopy(marked)]}
    for sent in (body, {**body, "messages": [copy.deepcopy(marked), *head[1:4], copy.deepcopy(marked)]}):
        convert = direct_path(source, target)
        assert convert is not None
        assert convert(copy.deepcopy(sent), LossRecorder(), chatcodec.get_codec(target)) is not None
        _equal_to_canonical(sent, source, target)


_MARKED_SYSTEMS = (
    [{"type": "text", "text": "be brief"}],
    [{"type": "text", "text": "be brief", "cache_control": _MARKER}],
    [{"type": "text", "text": "be brief"}, {"type": "text", "text": "cite files", "cache_control": _MARKER}],
    [{"type": "text", "text": f"rule {n}", "cache_control": _MARKER} for n in range(5)],
)
"""System prompts of text parts, a gateway's cache marker on none, one or each (five: past
Anthropic's four breakpoints, so the writer's limit drops the first)."""


@pytest.mark.parametrize(("source", "target"), [pair for pair in PAIRS if pair[0] == "openai-chat"])
@pytest.mark.parametrize("parts", _MARKED_SYSTEMS)
@pytest.mark.parametrize("on_message", [False, True])
def test_system_parts_taken_and_equal(source: str, target: str, parts: list[dict[str, Any]], on_message: bool) -> None:
    """A system prompt of text parts, marked on a part or on the message too, ahead of a marked
    user message: taken by the direct path and written as the canonical path writes it (the
    markers' spelling reported, the breakpoints counted in prompt order)."""
    system: dict[str, Any] = {"role": "system", "content": copy.deepcopy(parts)}
    if on_message:
        system["cache_control"] = _MARKER
    user = {"role": "user", "content": [{"type": "text", "text": "go", "cache_control": _MARKER}]}
    body = {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": [system, user]}
    convert = direct_path(source, target)
    assert convert is not None
    assert convert(copy.deepcopy(body), LossRecorder(), chatcodec.get_codec(target)) is not None
    _equal_to_canonical(body, source, target)


_IMAGE_URLS = (
    "data:image/png;base64,iVBORw0KGgo=",
    "data:image/png;base64,not base64!",
    "data:image/svg+xml;utf8,<svg/>",
    "data:;base64,AAAA",
    "data:image/png;name=x.png;base64,AAAA",
    "DATA:image/png;base64,AAAA",
    "file:///tmp/screen.png",
    "https://example.com/screen.png",
)
"""Image URLs a data URL's check and a URL's rules tell apart (a direct path may read a
``data:`` URL without splitting it, where its target writes either source the same)."""


@pytest.mark.parametrize(("source", "target"), [pair for pair in PAIRS if pair[0] == "openai-chat"])
@pytest.mark.parametrize("url", _IMAGE_URLS)
@pytest.mark.parametrize("detail", [{}, {"detail": "low"}])
def test_image_urls_equal_to_canonical(source: str, target: str, url: str, detail: dict[str, str]) -> None:
    image = {"type": "image_url", "image_url": {"url": url, **detail}}
    for content in ([{"type": "text", "text": "look"}, image], [image, image]):
        body = {"model": "gpt-5", "messages": [{"role": "user", "content": content}]}
        _equal_to_canonical(body, source, target)


@pytest.mark.parametrize(("source", "target"), [pair for pair in PAIRS if pair[0] == "openai-chat"])
@pytest.mark.parametrize("url", _IMAGE_URLS)
@pytest.mark.parametrize("extra", [{}, {"name": None}])
def test_tool_result_images_taken_and_equal(source: str, target: str, url: str, extra: dict[str, Any]) -> None:
    """A tool message of text and image parts (a screenshot tool's), with an SDK dump's null
    name or without, a marked text among them or not: taken by the direct path (its parts
    read and written by the reader's and writer's part rules) and written as the canonical
    path writes it, every image URL's losses included."""
    image = {"type": "image_url", "image_url": {"url": url}}
    marked = {"type": "text", "text": "marked", "cache_control": _MARKER}
    call = {"id": "call_1", "type": "function", "function": {"name": "screenshot", "arguments": "{}"}}
    for content in ([{"type": "text", "text": "Screenshot:"}, image], [image, marked], [image, image]):
        body = {
            "model": "claude-sonnet-4-5",
            "max_tokens": 100,
            "messages": [
                {"role": "user", "content": "look"},
                {"role": "assistant", "content": None, "tool_calls": [call]},
                {"role": "tool", "tool_call_id": "call_1", "content": copy.deepcopy(content), **extra},
                {"role": "user", "content": "and?"},
            ],
        }
        convert = direct_path(source, target)
        assert convert is not None
        assert convert(copy.deepcopy(body), LossRecorder(), chatcodec.get_codec(target)) is not None
        _equal_to_canonical(body, source, target)


@pytest.mark.parametrize(("source", "target"), [pair for pair in PAIRS if pair[0] == "openai-chat"])
def test_json_fronts_copy_equal_to_canonical(source: str, target: str) -> None:
    """``chatcodec convert`` reads each line with the request's JSON front (``common_json``) and
    converts that copy, whose messages the direct path takes as validated: every corpus body
    the front takes converts, from its copy, as the canonical path converts the body."""
    taken = 0
    for name, format_name, body in CORPUS:
        copied = common_json(json.dumps(body), source) if format_name == source else None
        if copied is None:  # not the source's, or beyond the common shapes: read as a dict, above
            continue
        taken += 1
        losses: list[Any] = []
        output = chatcodec.convert_request(copied, source=source, target=target, on_loss="ignore", losses=losses)
        direct = json.dumps([output, [repr(loss) for loss in losses]], default=repr)
        with canonical_only():
            canonical = outcome(body, source, target, "ignore")
        assert json.dumps(json.loads(canonical)[:2], default=repr) == direct, name
    assert taken


def test_canonical_only_turns_them_off() -> None:
    with canonical_only():
        assert all(direct_path(source, target) is None for source, target in PAIRS)
    assert all(direct_path(source, target) is not None for source, target in PAIRS)


# --- mutated sessions --------------------------------------------------------------------

_BASE = _acceptance("oc-anthropic-real")

_VALUES = st.sampled_from(["", " ", "\n", "text", None, 0, [], {}, "a.b", "{}", '{"a":1,"a":2}', "1e400", "[1]"])


def _mutation(message_count: int) -> st.SearchStrategy[tuple[str, int, Any]]:
    kinds = st.sampled_from(
        [
            "content",
            "reasoning_content",
            "name",
            "cache_control",
            "role",
            "drop",
            "cut",
            "parts",
            "arguments",
            "call_id",
            "unknown",
            "user_after_calls",
            "top",
            "text_parts",
            "citations",
            "server_tools",
            "no_calls",
            "audio",
        ]
    )
    return st.tuples(kinds, st.integers(0, max(message_count - 1, 0)), _VALUES)


def _apply(body: dict[str, Any], mutation: tuple[str, int, Any]) -> None:  # noqa: C901, PLR0912 - one case a kind
    kind, index, value = mutation
    messages: list[dict[str, Any]] = body["messages"]
    if not messages:
        return
    message = messages[index % len(messages)]
    calls = message.get("tool_calls") or []
    match kind:
        case "content" | "reasoning_content" | "name" | "role":
            message[kind] = value if kind != "role" else (value if isinstance(value, str) and value else "developer")
        case "cache_control":
            message["cache_control"] = {"type": "ephemeral"}
        case "drop" if message:
            message.pop(sorted(message)[index % len(message)], None)
        case "cut":
            del messages[index % len(messages) + 1 :]
        case "parts":
            message["content"] = [
                {"type": "text", "text": value if isinstance(value, str) else "x"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}},
            ]
        case "arguments" if calls:
            calls[0]["function"]["arguments"] = value if isinstance(value, str) else json.dumps(value)
        case "call_id" if calls:
            calls[0]["id"] = value if isinstance(value, str) else "call.1"
        case "unknown":
            message["x_unknown"] = value
        case "user_after_calls":
            messages.insert(index % len(messages) + 1, {"role": "user", "content": "go on"})
        case "top":
            body[("temperature", "stream", "n", "top_k", "metadata")[index % 5]] = value
        case "text_parts":  # a system prompt's or a tool result's parts, a gateway's cache marker or an odd one
            part = {"type": "text", "text": value if isinstance(value, str) else "x"}
            if index % 3:
                part["cache_control"] = {"type": "ephemeral"} if index % 3 == 1 else {"type": "ephemeral", "ttl": value}
            message["content"] = [part]
        case "no_calls":  # clients that always send the list (on a turn of text: a client's dialect)
            message["tool_calls"] = []
        case "audio":  # OpenAI's input_audio, alone or beside a text (a user's: a client's dialect)
            audio = {"type": "input_audio", "input_audio": {"data": "UklGRg==", "format": value or "wav"}}
            message["content"] = [audio] if index % 2 else [{"type": "text", "text": "hear"}, audio]
        case _:
            pass


def _apply_anthropic(body: dict[str, Any], mutation: tuple[str, int, Any]) -> None:
    """An Anthropic session's mutation: shapes the direct path admits and shapes it hands back."""
    kind, index, value = mutation
    messages: list[dict[str, Any]] = body["messages"]
    if not messages:
        return
    message = messages[index % len(messages)]
    blocks: list[Any] = message["content"] if isinstance(message["content"], list) else []
    match kind:
        case "content":
            message["content"] = value if isinstance(value, str | list) else "text"
        case "role":
            message["role"] = value if isinstance(value, str) and value else "system"
        case "cut":
            del messages[index % len(messages) + 1 :]
        case "parts":
            source = {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}
            blocks.append({"type": "image", "source": source})
        case "user_after_calls":
            messages.insert(index % len(messages) + 1, {"role": "user", "content": "go on"})
        case "top":
            key = ("temperature", "stream", "system", "top_k", "metadata")[index % 5]
            body[key] = [{"type": "text", "text": "x"}] if key == "system" and value == [] else value
        case "unknown" if not blocks:
            message["x_unknown"] = value
        case "citations" | "server_tools" if message["role"] == "assistant" and blocks:
            _replayed_blocks(blocks, kind, index, value)
        case _ if blocks:
            _mutate_block(blocks, blocks[index % len(blocks)], kind, value)
        case _:
            pass


def _replayed_blocks(blocks: list[Any], kind: str, index: int, value: Any) -> None:
    """An assistant's blocks as Claude answers after a web search: a text's citations (or the
    SDK's null), or the server's search and its results before its blocks (now and then under a
    call's id, which the history rules drop)."""
    if kind == "citations":
        cited = {"type": "web_search_result_location", "url": "https://a.b", "title": value, "cited_text": "x"}
        texts = [block for block in blocks if block.get("type") == "text"]
        text = texts[index % len(texts)] if texts else {"type": "text", "text": "x"}
        text["citations"] = None if index % 4 == 3 else [cited] * (index % 3)
        if not texts:
            blocks.append(text)
        return
    calls = [block["id"] for block in blocks if block.get("type") == "tool_use"]
    call_id = calls[0] if calls and index % 5 == 4 else f"srvtoolu_{index}"
    search = {"type": "server_tool_use", "id": call_id, "name": "web_search", "input": {"query": value}}
    found = {"type": "web_search_tool_result", "tool_use_id": call_id, "content": [], "caller": {"type": "direct"}}
    blocks[index % (len(blocks) + 1) : index % (len(blocks) + 1)] = [search, found][: 1 + index % 2]


def _mutate_block(blocks: list[Any], block: dict[str, Any], kind: str, value: Any) -> None:
    kinds = {"reasoning_content": "thinking", "name": "tool_use", "arguments": "tool_use", "text": "text"}
    if kinds.get(kind, block["type"]) != block["type"]:
        return
    match kind:
        case "reasoning_content":
            block.pop("signature", None) if value is None else block.update(thinking=value)
        case "name":
            block["name"] = value if isinstance(value, str) else "a.b"
        case "arguments":
            block["input"] = value if isinstance(value, dict) else {"a": value}
        case "cache_control":
            block["cache_control"] = {"type": "ephemeral"}
        case "drop":
            blocks.remove(block)
        case "call_id" if block["type"] in ("tool_use", "tool_result"):
            key = "id" if block["type"] == "tool_use" else "tool_use_id"
            block[key] = value if isinstance(value, str) else "call.1"
        case "unknown":
            block["x_unknown"] = value
        case _ if block["type"] == "tool_result":
            block["is_error"] = value is None
        case _ if block["type"] == "thinking":
            blocks[blocks.index(block)] = {"type": "redacted_thinking", "data": "abc"}
        case _ if block["type"] == "text":
            block["text"] = value


# --- mutated Responses sessions ------------------------------------------------------------

_RESPONSES_BASE = _acceptance("resp-oc-real")

_RESPONSES_KINDS = [
    "reasoning_first",
    "custom_call",
    "content",
    "role",
    "drop",
    "cut",
    "parts",
    "arguments",
    "call_id",
    "name",
    "unknown",
    "user_after_calls",
    "assistant_after_calls",
    "reasoning",
    "typed",
    "system_parts",
    "output_parts",
    "swap",
    "instructions",
    "output_message",
    "replayed_call",
    "listed_output",
    "hosted",
    "reference",
    "top",
]


def _responses_mutation(item_count: int) -> st.SearchStrategy[tuple[str, int, Any]]:
    return st.tuples(st.sampled_from(_RESPONSES_KINDS), st.integers(0, max(item_count - 1, 0)), _VALUES)


def _apply_responses(body: dict[str, Any], mutation: tuple[str, int, Any]) -> None:  # noqa: C901, PLR0912 - one case a kind
    kind, index, value = mutation
    items: list[dict[str, Any]] = body["input"]
    if not items:
        return
    at = index % len(items)
    item = items[at]
    text = value if isinstance(value, str) else "x"
    match kind:
        case "content" if "role" in item:
            item["content"] = value
        case "role" if "role" in item:
            item["role"] = value if isinstance(value, str) and value else "developer"
        case "drop" if item:
            item.pop(sorted(item)[index % len(item)], None)
        case "cut":
            del items[at + 1 :]
        case "parts" if "role" in item:  # an image with its detail, or without (the reader's marker)
            image = {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo="}
            item["content"] = [
                {"type": "input_text", "text": text},
                {**image, "detail": "auto"} if index % 2 else image,
            ]
        case "custom_call" if item.get("type") == "function_call":  # a freeform call (Codex's apply_patch)
            item["type"] = "custom_tool_call"
            item["input"] = item.pop("arguments")
            if index % 3 == 1:  # replayed with its id and status
                item.update(id=f"ctc_{at}", status="completed")
            for later in items[at + 1 :] if index % 2 else ():  # its outputs as custom outputs
                if later.get("call_id") == item["call_id"] and later.get("type") == "function_call_output":
                    later["type"] = "custom_tool_call_output"
        case "arguments" if item.get("type") == "function_call":
            item["arguments"] = text
        case "call_id" if "call_id" in item:
            item["call_id"] = text
        case "name" if item.get("type") == "function_call":
            item["name"] = text
        case "unknown":
            item["x_unknown"] = value
        case "user_after_calls":
            items.insert(at + 1, {"role": "user", "content": "go on"})
        case "assistant_after_calls":
            items.insert(at + 1, {"role": "assistant", "content": text})
        case "reasoning" | "reasoning_first":
            if kind == "reasoning_first":  # where a turn starts: where the model's reasoning goes
                at = _turn_starts(items)[index % len(_turn_starts(items))] if _turn_starts(items) else at
            summary = [{"type": "summary_text", "text": text}] if index % 2 else []
            reasoning: dict[str, Any] = {"type": "reasoning", "id": f"rs_{at}", "summary": summary}
            if index % 3:  # OpenAI's encrypted content, or one chatcodec sealed calls' bags in
                reasoning["encrypted_content"] = ("gAAAAB" if index % 5 else SEALED) + text
            if index % 7 == 0:
                reasoning["status"] = "completed"
            if index % 4 == 3:  # its reasoning texts, as a model's output is replayed
                reasoning["content"] = [{"type": "reasoning_text", "text": text}] if index % 8 == 3 else []
            items.insert(at, reasoning)
        case "system_parts" if "role" in item:  # a system prompt marked for the cache, as agents send it
            item["content"] = [{"type": "input_text", "text": text, "prompt_cache_breakpoint": {"mode": "explicit"}}]
        case "typed" if "role" in item:
            item["type"] = "message"
        case "output_parts" if item.get("type") == "function_call_output":  # texts, a screenshot's image, a file
            image = {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo="}
            item["output"] = [
                [{"type": "input_text", "text": text}],
                [{"type": "input_text", "text": text}, {**image, "detail": "low"}],
                [image],
                [{"type": "input_file", "filename": "a.pdf", "file_data": "data:application/pdf;base64,JVBERi0="}],
            ][index % 4]
        case "swap" if at + 1 < len(items):
            items[at], items[at + 1] = items[at + 1], items[at]
        case "instructions":
            body["instructions"] = value
        case "output_message" if item.get("role") == "assistant":  # as the Agents SDK replays a model's text
            kept = item["content"] if isinstance(item["content"], str) else text
            parts: list[Any] = [{"type": "output_text", "text": kept, "annotations": []}]
            if index % 5 == 4:  # as the API answers a request that asked for no tokens (the Agents SDK replays it)
                parts[0]["logprobs"] = []
            if index % 4 == 1:
                parts.append({"type": "refusal", "refusal": text})
            elif index % 4 == 2:
                parts[0]["annotations"] = [{"type": "url_citation", "url": "https://a.b", "title": "t"}]
            items[at] = {"type": "message", "role": "assistant", "id": f"msg_{at}", "content": parts}
            if index % 3:
                items[at]["status"] = "completed"
        case "replayed_call" if item.get("type") == "function_call":  # its id and status, as the SDK replays it
            item.update(id=f"fc_{at}", status="completed") if index % 2 else item.update(id=f"fc_{at}")
        case "listed_output" if item.get("type") == "function_call_output":  # as the API lists input items
            item.update(id=f"fco_{at}", status="completed") if index % 2 else item.update(id=value)
        case "hosted":  # a hosted tool's call where the model made it (a web search, a local shell)
            items.insert(at, _hosted(index, at, items))
        case "reference":  # a stored item referenced, or a local shell call's output (the caller's)
            kept = {"type": "item_reference", "id": text}
            items.insert(at, kept if index % 2 else {"type": "local_shell_call_output", "id": text, "output": text})
        case "top":
            body[("temperature", "store", "include", "top_logprobs", "metadata")[index % 5]] = value
        case _:
            pass


def _hosted(index: int, at: int, items: list[dict[str, Any]]) -> dict[str, Any]:
    """A web search call, or a local shell call (Codex's), at ``at`` in ``items``; now and
    then its id a later call's (the history rules drop both, or the repeat)."""
    call_id = f"call_{at}"
    if index % 5 == 4:
        call_id = next((item["call_id"] for item in items[at:] if isinstance(item.get("call_id"), str)), call_id)
    if index % 3 == 2:
        action = {"type": "exec", "command": ["ls"], "env": {}}
        return {
            "type": "local_shell_call",
            "id": f"lsh_{at}",
            "call_id": call_id,
            "status": "completed",
            "action": action,
        }
    return {"type": "web_search_call", "id": call_id, "status": "completed", "action": {"type": "search"}}


def _turn_starts(items: list[dict[str, Any]]) -> list[int]:
    """Where each assistant turn of ``items`` starts (its text, or its first call)."""
    starts: list[int] = []
    for position, item in enumerate(items):
        before = items[position - 1] if position else {}
        if item.get("role") == "assistant" or (
            item.get("type") == "function_call"
            and before.get("type") != "function_call"
            and before.get("role") != "assistant"
        ):
            starts.append(position)
    return starts


_APPLY = {
    ("openai-chat", "anthropic"): _apply,
    ("anthropic", "openai-chat"): _apply_anthropic,
    ("openai-responses", "openai-chat"): _apply_responses,
    ("openai-chat", "openai-responses"): _apply,
}
_BASES = {
    ("openai-chat", "anthropic"): _BASE,
    ("openai-chat", "openai-responses"): _acceptance("oc-responses-real"),
    ("anthropic", "openai-chat"): _acceptance("an-oc-real"),
    ("openai-responses", "openai-chat"): _RESPONSES_BASE,
}


@st.composite
def _mutated(draw: st.DrawFn, pair: tuple[str, str]) -> dict[str, Any]:
    body = copy.deepcopy(_BASES[pair][0])
    if pair[0] == "openai-responses":  # items, and their own mutations
        mutations = st.lists(_responses_mutation(len(body["input"])), max_size=3)
    else:
        mutations = st.lists(_mutation(len(body["messages"])), max_size=3)
    for mutation in draw(mutations):
        _APPLY[pair](body, mutation)
    return body


@pytest.mark.parametrize(("source", "target"), PAIRS)
@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_mutated_sessions_equal_to_canonical(data: st.DataObject, source: str, target: str) -> None:
    _equal_to_canonical(data.draw(_mutated((source, target))), source, target)


@pytest.mark.parametrize("entries", [0, 1, 3])
def test_reasoning_before_every_turn_taken_and_equal(entries: int) -> None:
    """The Responses session with a reasoning item (``entries`` summary texts, every other one
    encrypted) before each assistant turn, as the Agents SDK replays them: taken by the direct
    path, and equal to the canonical path (each summary a dropped thinking part, reported)."""
    body = copy.deepcopy(_RESPONSES_BASE[0])
    items: list[dict[str, Any]] = body["input"]
    for count, at in enumerate(reversed(_turn_starts(items))):
        reasoning: dict[str, Any] = {
            "type": "reasoning",
            "id": f"rs_{at}",
            "summary": [{"type": "summary_text", "text": f"step {at}.{entry}"} for entry in range(entries)],
        }
        if count % 2:
            reasoning["encrypted_content"] = f"gAAAAB{at}"
        items.insert(at, reasoning)
    convert = direct_path("openai-responses", "openai-chat")
    assert convert is not None
    recorder = LossRecorder()
    assert convert(copy.deepcopy(body), recorder, chatcodec.get_codec("openai-chat")) is not None
    assert len(recorder.losses) == max(entries, 1) * len(_turn_starts(items))
    _equal_to_canonical(body, "openai-responses", "openai-chat")


@pytest.mark.parametrize("instructions", ["You are a helpful agent.", ""])
def test_instructions_taken_and_equal(instructions: str) -> None:
    """The Responses session with a top-level ``instructions``, as the Agents SDK sends its
    agent's: taken by the direct path (every message one index further), and equal to the
    canonical path, losses at their places included (a reasoning item's, at its turn)."""
    body = copy.deepcopy(_RESPONSES_BASE[0])
    body["instructions"] = instructions
    items: list[dict[str, Any]] = body["input"]
    at = _turn_starts(items)[-1]
    items.insert(at, {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "plan"}]})
    convert = direct_path("openai-responses", "openai-chat")
    assert convert is not None
    recorder = LossRecorder()
    written = convert(copy.deepcopy(body), recorder, chatcodec.get_codec("openai-chat"))
    assert written is not None
    assert written["messages"][0] == {"role": "system", "content": instructions}
    assert len(recorder.losses) == 1
    _equal_to_canonical(body, "openai-responses", "openai-chat")


def test_agents_sdk_body_taken_and_equal() -> None:
    """The body the OpenAI Agents SDK sends a Responses server (``tests/agents_sdk_responses_run.py``:
    its ``instructions``, the model's typed ``message`` items and calls with their ``id``
    and ``status`` replayed): taken by the direct path, and equal to the canonical path
    (each replayed item's id and status a loss at its place)."""
    from agents_sdk_responses_run import sent_body  # the agents SDK is a dev dependency: missing, this fails

    body = sent_body()
    assert body["instructions"]
    assert any(item.get("type") == "message" and item.get("id") for item in body["input"])
    recorder = _taken_from_responses(body)
    assert [loss.path for loss in recorder.losses if loss.kind == "metadata"] == [
        f"$.input[{at}]" + (".content[0]" if item["type"] == "message" else "")
        for at, item in enumerate(body["input"])
        if "id" in item
    ]
    _equal_to_canonical(body, "openai-responses", "openai-chat")


@pytest.mark.parametrize("seed", [29, 901, 902, 5])
@pytest.mark.parametrize("closing", ["none", "text", "text without status", "refusal"])
def test_agents_sdk_session_taken_and_equal(seed: int, closing: str) -> None:
    """The bench's session as the Agents SDK sends it (``bench/other_shapes.py``'s
    ``AGENTS_SDK``, 10 steps: instructions, typed ``message`` items of ``output_text`` and
    calls with their ``id`` and ``status``), closed by the model's answer replayed as a typed
    message of its own (one text, with or without its ``status``, or a text and a refusal):
    taken by the direct path, one loss per replayed item's id and status, and equal to the
    canonical path (outputs and every loss: kind, place and text)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from bench import other_shapes

    body = other_shapes._body(other_shapes.AGENTS_SDK, 10, seed, "openai-responses", "openai-chat")
    items: list[dict[str, Any]] = body["input"]
    if closing != "none":
        parts: list[dict[str, Any]] = [{"type": "output_text", "text": "Done.", "annotations": []}]
        if closing == "refusal":
            parts.append({"type": "refusal", "refusal": "Not that."})
        answer = {"type": "message", "role": "assistant", "id": "msg_end", "content": parts, "status": "completed"}
        if closing == "text without status":
            del answer["status"]
        items.append(answer)
    recorder = _taken_from_responses(body)
    assert len([loss for loss in recorder.losses if loss.kind == "metadata"]) == sum("id" in item for item in items)
    _equal_to_canonical(body, "openai-responses", "openai-chat")


@pytest.mark.parametrize(("source", "target"), [pair for pair in PAIRS if pair[0] == "openai-chat"])
@pytest.mark.parametrize("kind", ["litellm client", "openrouter reasoning"])
@pytest.mark.parametrize("steps", [3, 10])
def test_direct_path_takes_the_held_out_sessions(source: str, target: str, kind: str, steps: int) -> None:
    """``bench/held_out.py``'s OpenAI Chat agents (issue 107): litellm's own ``Message.model_dump()``
    sent back (``"provider_specific_fields": null``, signed ``thinking_blocks``), tool messages
    carrying the tool's ``name``; OpenRouter's answers sent back whole (``reasoning`` and
    ``reasoning_details``, ``"content": ""`` beside the calls, a call's ``index``). Taken by the
    direct path, written as the canonical path writes it (its losses at the same places)."""
    _differential()  # the bench on the path
    from bench import held_out

    body = held_out.BUILDERS[kind](steps)
    convert = direct_path(source, target)
    assert convert is not None
    assert convert(copy.deepcopy(body), LossRecorder(), chatcodec.get_codec(target)) is not None
    _equal_to_canonical(body, source, target)


@pytest.mark.parametrize("steps", [3, 10])
def test_direct_path_takes_the_claude_code_session(steps: int) -> None:
    """``bench/held_out.py``'s Claude Code request (issue 107): a cache marker on the last text
    block of the last user turn, which follows the results' turn without joining it (the
    reader marks it apart). Taken by the direct path, written as the canonical path writes it."""
    from bench import held_out

    body = held_out.claude_code(steps)
    convert = direct_path("anthropic", "openai-chat")
    assert convert is not None
    assert convert(copy.deepcopy(body), LossRecorder(), chatcodec.get_codec("openai-chat")) is not None
    _equal_to_canonical(body, "anthropic", "openai-chat")


_CALLED: list[dict[str, Any]] = [
    {"role": "user", "content": "Look."},
    {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "read", "input": {}}]},
    {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}]},
]
_MARKED = {"type": "text", "text": "Go on.", "cache_control": {"type": "ephemeral"}}


@pytest.mark.parametrize(
    ("after", "taken"),
    [
        ([{"role": "user", "content": [_MARKED]}], True),
        ([{"role": "user", "content": [{"type": "text", "text": "a"}, _MARKED]}], True),
        ([{"role": "user", "content": [{"type": "text", "text": "a"}]}, {"role": "user", "content": [_MARKED]}], True),
        ([{"role": "user", "content": "Go on."}], False),
        ([{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "again"}]}], False),
    ],
)
def test_user_turns_after_results_equal_to_canonical(after: list[dict[str, Any]], taken: bool) -> None:
    body: dict[str, Any] = {"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": [*_CALLED, *after]}
    convert = direct_path("anthropic", "openai-chat")
    assert convert is not None
    written = convert(copy.deepcopy(body), LossRecorder(), chatcodec.get_codec("openai-chat"))
    assert (written is not None) is taken
    _equal_to_canonical(body, "anthropic", "openai-chat")
