"""A system or user message of text parts with a cache marker on some, or a task or a tool result
with a document (OpenAI's ``file`` part of a ``data:`` URL), into Responses (issue 107): the first
parts of a shape (their fields, their markers, a document's URL head, which texts are empty) are
read and written by the reader's ``decode_parts`` and the writer's ``encode_parts`` and tried with
their texts changed; later parts of that shape, in the request and the next, are those parts with
their own texts in their places and the same losses. Each body is written as the canonical path
writes it: the output, the losses and the warnings."""

from __future__ import annotations

import copy
import json
import warnings
from typing import Any, Literal, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import chatcodec
from chatcodec._direct import openai_chat_to_openai_responses
from chatcodec._direct.table import canonical_only, direct_path
from chatcodec._losses import LossRecorder

_TARGET = "openai-responses"
_EPHEMERAL = {"type": "ephemeral"}


def _outcome(body: dict[str, Any], on_loss: Literal["ignore", "warn"]) -> str:
    losses: list[Any] = []
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        output = chatcodec.convert_request(
            copy.deepcopy(body), source="openai-chat", target=_TARGET, on_loss=on_loss, losses=losses
        )
    said = [(warning.category.__name__, str(warning.message)) for warning in shown]
    return json.dumps([output, [repr(loss) for loss in losses], said], default=repr)


def _equal_to_canonical(body: dict[str, Any]) -> None:
    convert = direct_path("openai-chat", _TARGET)
    assert convert is not None
    assert convert(copy.deepcopy(body), LossRecorder(), chatcodec.get_codec(_TARGET)) is not None  # taken
    on_losses: tuple[Literal["ignore", "warn"], ...] = ("ignore", "warn")
    for on_loss in on_losses:
        direct = _outcome(body, on_loss)
        with canonical_only():
            assert direct == _outcome(body, on_loss), on_loss


def _marked(text: str, marker: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"type": "text", "text": text, "cache_control": _EPHEMERAL if marker is None else marker}


def _body(system: list[dict[str, Any]], *users: list[dict[str, Any]]) -> dict[str, Any]:
    messages: list[dict[str, Any]] = [{"role": "system", "content": system}, {"role": "user", "content": "Go."}]
    for step, user in enumerate(users):
        messages.append({"role": "assistant", "content": f"Step {step}."})
        messages.append({"role": "user", "content": user})
    return {"model": "gpt-5.1", "messages": messages, "max_completion_tokens": 1000}


_PLAIN = {"type": "text", "text": "Today's task is next."}
_CASES: dict[str, dict[str, Any]] = {
    "a marked prompt, then plain": _body([_marked("You fix bugs."), _PLAIN]),
    "user messages of the prompt's shape": _body(
        [_marked("You fix bugs."), _PLAIN], [_marked("Look."), _PLAIN], [_marked("Again."), _PLAIN]
    ),
    "the marker last, then first": _body([_PLAIN, _marked("a")], [_marked("b"), _PLAIN], [_PLAIN, _marked("c")]),
    "fields in another order": _body(
        [_marked("a")], [{"cache_control": _EPHEMERAL, "text": "b", "type": "text"}], [_marked("c")]
    ),
}


def _counted_reads(monkeypatch: pytest.MonkeyPatch) -> tuple[dict[Any, Any], list[str]]:
    """The path's memory of part shapes, emptied, and the first text of every content list its
    reader's ``decode_parts`` is asked to read from now on."""
    items: dict[Any, Any] = {}
    monkeypatch.setattr(openai_chat_to_openai_responses, "_TEXT_ITEMS", items)
    read: list[str] = []
    reading = openai_chat_to_openai_responses.decode_parts

    def counted(content: Any, **options: Any) -> Any:
        read.append(content[0]["text"])
        return reading(content, **options)

    monkeypatch.setattr(openai_chat_to_openai_responses, "decode_parts", counted)
    return items, read


@pytest.mark.parametrize("case", sorted(_CASES))
def test_marked_parts_equal_to_canonical(case: str) -> None:
    _equal_to_canonical(_CASES[case])


def test_a_shape_of_marked_parts_is_written_from_its_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    # the parts of the first message of each shape read once; later ones, in this request and
    # the next, not at all; the memory keeps none of the caller's texts
    items, read = _counted_reads(monkeypatch)
    body = _body([_marked("You fix bugs."), _PLAIN], [_marked("Look."), _PLAIN], [_marked("Now.")])
    convert = direct_path("openai-chat", _TARGET)
    assert convert is not None
    for _ in range(2):
        recorder = LossRecorder()
        assert convert(copy.deepcopy(body), recorder, chatcodec.get_codec(_TARGET)) is not None
        spelled = [loss.path for loss in recorder.losses if loss.kind == "spelling"]  # each marker's, at its part
        assert spelled == ["$.messages[0].content[0]", "$.messages[3].content[0]", "$.messages[5].content[0]"]
        _equal_to_canonical(body)
    assert read == ["You fix bugs.", "Now."]
    assert len(items) == 2
    kept = b"".join(text for text, _ in items.values())
    assert b"fix bugs" not in kept
    assert b"Look" not in kept


def test_the_proved_parts_are_the_callers_to_change() -> None:
    body = _body([_marked("You fix bugs."), _PLAIN])
    first = chatcodec.convert_request(copy.deepcopy(body), source="openai-chat", target=_TARGET, on_loss="ignore")
    second = chatcodec.convert_request(copy.deepcopy(body), source="openai-chat", target=_TARGET, on_loss="ignore")
    assert second == first
    second["input"][0]["content"][0]["prompt_cache_breakpoint"]["mode"] = "changed"
    again = chatcodec.convert_request(copy.deepcopy(body), source="openai-chat", target=_TARGET, on_loss="ignore")
    assert again == first


def test_other_parts_have_no_shape() -> None:
    shape = getattr(openai_chat_to_openai_responses, "_parts_shape")  # noqa: B009 - the module's own key
    plain = getattr(openai_chat_to_openai_responses, "_TEXTS_ALONE")  # noqa: B009 - the module's own answer
    assert shape([_PLAIN]) is plain  # plain parts: the writer's encode_parts of them as they are
    assert shape([_PLAIN, _marked("a")]) not in (None, plain)
    assert shape([_marked("a"), {"type": "image_url", "image_url": {"url": "https://x/y.png"}}]) is None
    assert shape([_marked("a", {"type": "ephemeral", "ttl": 3600})]) is None  # a marker value beyond a text
    assert shape([_marked("a")]) == shape([_marked("b")]) != shape([_marked("")])


def test_a_writer_that_changes_the_texts_gets_no_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    # a writer whose parts are not the texts as given fails the trial: each message is read and written
    items: dict[Any, Any] = {}
    monkeypatch.setattr(openai_chat_to_openai_responses, "_TEXT_ITEMS", items)
    writer = openai_chat_to_openai_responses.encode_parts

    def shouting(parts: list[Any], *rest: Any) -> list[dict[str, Any]]:
        return [{**part, "text": part["text"].upper()} for part in writer(parts, *rest)]

    monkeypatch.setattr(openai_chat_to_openai_responses, "encode_parts", shouting)
    convert = direct_path("openai-chat", _TARGET)
    assert convert is not None
    body = _body([_marked("You fix bugs.")], [_marked("Look.")], [_marked("Now.")])
    written = convert(body, LossRecorder(), chatcodec.get_codec(_TARGET))
    assert written is not None
    texts = [item["content"][0]["text"] for item in written["input"] if isinstance(item.get("content"), list)]
    assert texts == ["YOU FIX BUGS.", "LOOK.", "NOW."]
    assert list(items.values()) == [None]


def _pdf(data: str = "JVBERi0xLjQK", name: str | None = "spec.pdf", head: str = "data:application/pdf;base64") -> Any:
    file: dict[str, Any] = {"file_data": f"{head},{data}"}
    if name is not None:
        file["filename"] = name
    return {"type": "file", "file": file}


def _documents(*documents: dict[str, Any]) -> dict[str, Any]:
    """A task with the first document, then a step a tool reads back each of the others."""
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You read documents."},
        {"role": "user", "content": [{"type": "text", "text": "Read the spec."}, documents[0]]},
    ]
    for step, document in enumerate(documents[1:]):
        call = {"id": f"call_{step}", "type": "function", "function": {"name": "read", "arguments": "{}"}}
        messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        content = [{"type": "text", "text": f"Contents of report {step}:"}, document]
        messages.append({"role": "tool", "tool_call_id": call["id"], "content": content})
    messages.append({"role": "user", "content": "Summarize them."})
    return {"model": "gpt-5.1", "messages": messages, "max_completion_tokens": 1000}


_DOCUMENT_CASES: dict[str, dict[str, Any]] = {
    "a task and results of one shape": _documents(_pdf(), _pdf("QUJD", "report.pdf"), _pdf("REVG", "other.pdf")),
    "no file name (none invented)": _documents(_pdf(name=None), _pdf("QUJD", name=None), _pdf(name="a.pdf")),
    "an empty file name": _documents(_pdf(name=""), _pdf("QUJD", name=""), _pdf("QUJD", name="b")),
    "data that is not ASCII (a URL source)": _documents(_pdf(), _pdf("QUJ\u00e9"), _pdf("QUJD")),
    "another media type": _documents(_pdf(), _pdf(head="data:text/plain;base64"), _pdf(head="data:text/plain;base64")),
    "a head the reader does not split": _documents(
        _pdf(head="data:application/pdf"), _pdf(head="data:application/pdf;x=y;base64"), _pdf()
    ),
    "a URL with no comma": _documents(
        {"type": "file", "file": {"file_data": "data:application/pdf;base64", "filename": "a.pdf"}}, _pdf()
    ),
    "a web URL": _documents({"type": "file", "file": {"file_data": "https://x/a.pdf", "filename": "a.pdf"}}, _pdf()),
    "a file by id": _documents({"type": "file", "file": {"file_id": "file-abc"}}, _pdf()),
    "a marked document": _documents({**_pdf(), "cache_control": _EPHEMERAL}, _pdf(), _pdf()),
    "a document beside a marked text": _documents(_pdf(), _pdf(), _pdf()),
}
_PNG = "data:image/png;base64,iVBORw0KGgo"
_DOCUMENT_CASES["screenshots in results"] = _documents(
    _pdf(),
    {"type": "image_url", "image_url": {"url": _PNG + "AAAA"}},
    {"type": "image_url", "image_url": {"url": _PNG + "BBBB"}},
    {"type": "image_url", "image_url": {"url": _PNG + "CCCC", "detail": "high"}},
    {"type": "image_url", "image_url": {"url": "data:image/jpeg;base64,/9j/4AAQ"}},
)
_DOCUMENT_CASES["images of other URLs"] = _documents(
    {"type": "image_url", "image_url": {"url": _PNG}},
    {"type": "image_url", "image_url": {"url": "file:///tmp/a,b.png"}},
    {"type": "image_url", "image_url": {"url": "file:///tmp/a,c.png"}},
    {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}},
    {"type": "image_url", "image_url": {"url": "https://example.com/a,b.png"}},
    {"type": "image_url", "image_url": {"url": "ms://file-abc,def"}},
    {"type": "image_url", "image_url": {"url": "ms://file-abc,deg"}},
    {"type": "image_url", "image_url": {"url": _PNG + "\u00e9"}},
    {"type": "image_url", "image_url": {"url": _PNG}, "cache_control": _EPHEMERAL},
)
_DOCUMENT_CASES["a document beside a marked text"]["messages"][1]["content"][0] = _marked("Read the spec.")


@pytest.mark.parametrize("case", sorted(_DOCUMENT_CASES))
def test_documents_equal_to_canonical(case: str) -> None:
    for _ in range(2):  # read and proved, then written from the proof
        _equal_to_canonical(_DOCUMENT_CASES[case])


def test_a_shape_of_documents_is_written_from_its_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    # the task's parts and one result's read once; the others, in this request and the next, not at
    # all; the memory keeps none of the caller's data or file names
    items, read = _counted_reads(monkeypatch)
    body = _documents(_pdf("U0VDUkVU", "secret.pdf"), _pdf("QUJD", "report.pdf"), _pdf("REVG", "other.pdf"))
    convert = direct_path("openai-chat", _TARGET)
    assert convert is not None
    for _ in range(2):
        written = convert(copy.deepcopy(body), LossRecorder(), chatcodec.get_codec(_TARGET))
        assert written is not None
        files = [part for item in written["input"] for part in _parts(item) if part.get("type") == "input_file"]
        assert [(part["file_data"][-4:], part["filename"]) for part in files] == [
            ("UkVU", "secret.pdf"),
            ("QUJD", "report.pdf"),
            ("REVG", "other.pdf"),
        ]
        _equal_to_canonical(body)
    assert read == ["Read the spec."]  # the results' parts are of the task's shape
    assert len(items) == 1
    kept = b"".join(text for text, _ in items.values())
    assert b"U0VDUkVU" not in kept
    assert b"secret" not in kept


def _parts(item: dict[str, Any]) -> list[dict[str, Any]]:
    """An input item's parts: a message's content, a function call output's output."""
    parts: Any = item.get("content", item.get("output"))
    return cast("list[dict[str, Any]]", parts) if isinstance(parts, list) else []


def test_documents_of_other_heads_have_other_shapes() -> None:
    shape = getattr(openai_chat_to_openai_responses, "_parts_shape")  # noqa: B009 - the module's own key
    assert shape([_PLAIN, _pdf()]) == shape([_PLAIN, _pdf("QUJD", "other.pdf")]) is not None
    assert shape([_PLAIN, _pdf()]) != shape([_PLAIN, _pdf(head="data:text/plain;base64")])
    assert shape([_PLAIN, _pdf()]) != shape([_PLAIN, _pdf(name=None)]) != shape([_PLAIN, _pdf(name="")])
    assert shape([_PLAIN, _pdf()]) != shape([_PLAIN, _pdf("QUJ\u00e9")])  # not ASCII: no split
    assert shape([_pdf(head="data:" + "x" * 200)]) is None  # a head past the bound: read every time
    assert shape([{"type": "file", "file": {"file_id": "file-abc"}}]) is None
    assert shape([{**_pdf(), "cache_control": _EPHEMERAL}]) is None
    image = {"type": "image_url", "image_url": {"url": _PNG + "AAAA"}}
    assert shape([image]) == shape([{"type": "image_url", "image_url": {"url": _PNG + "BBBB"}}]) is not None
    assert shape([image]) != shape([{"type": "image_url", "image_url": {"url": _PNG + "AAAA", "detail": "low"}}])
    assert shape([{"type": "image_url", "image_url": "https://x/a.png"}]) is None  # litellm's bare URL
    assert shape([{"type": "image_url", "image_url": {"url": "https://x/a,b.png"}}]) is None  # an address: no key
    assert shape([_pdf(head="https://x/a")]) is None


def test_screenshots_of_a_shape_are_written_from_its_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    # a browser agent's results, a screenshot each: the first read, the others not; no image data kept
    items, read = _counted_reads(monkeypatch)
    shots = [{"type": "image_url", "image_url": {"url": f"{_PNG}{data}"}} for data in ("QUFB", "QkJC", "Q0ND")]
    body = _documents(_pdf(), *shots)
    _equal_to_canonical(body)
    assert read == ["Read the spec.", "Contents of report 0:"]  # the task's shape, then the results'
    assert len(items) == 2
    assert not any(data in text for data in (b"QUFB", b"QkJC", b"Q0ND") for text, _ in items.values())


_HEADS = (
    "data:application/pdf;base64",
    "data:image/png;base64",
    "data:text/plain;base64",
    "data:application/pdf",
    "data:;base64",
    "data:image/png;x=y;base64",
    "file:///tmp/a",
    "ms://file-abc",
    "https://example.com/a",
)


def _url(head: str, comma: str, rest: str) -> str:
    return f"{head}{comma}{rest}"


def _text_part(text: str) -> dict[str, Any]:
    return {"type": "text", "text": text}


def _file_part(url: str, name: str | None) -> dict[str, Any]:
    return {"type": "file", "file": {"file_data": url, **({} if name is None else {"filename": name})}}


def _image_part(url: str, detail: str | None) -> dict[str, Any]:
    return {"type": "image_url", "image_url": {"url": url, **({} if detail is None else {"detail": detail})}}


_URLS = st.builds(
    _url,
    st.sampled_from(_HEADS),
    st.sampled_from([",", ""]),
    st.sampled_from(["", "QUJD", "REVG", "\u00e9", ",x"]),
)
_PART = st.one_of(
    st.builds(_text_part, st.sampled_from(["a", "b", "Look."])),
    st.builds(_marked, st.sampled_from(["a", "b"])),
    st.builds(_file_part, _URLS, st.sampled_from([None, "", "a.pdf", "b.txt"])),
    st.builds(_image_part, _URLS, st.sampled_from([None, "low", "auto"])),
)


@settings(max_examples=60, deadline=None)
@given(tasks=st.lists(st.lists(_PART, min_size=1, max_size=3), min_size=2, max_size=4))
def test_parts_of_any_shape_convert_as_the_canonical_path_converts_them(tasks: list[list[dict[str, Any]]]) -> None:
    """Generated parts of texts, marked texts, documents and images of data URLs and others, as a
    task and tool results, in two requests (the second written from the proofs the first made):
    the direct path's outcome is the canonical path's, or the body is handed back whole."""
    body = _documents(*[{"type": "text", "text": "placeholder"}] * len(tasks))
    body["messages"][1]["content"] = tasks[0]
    results = [message for message in body["messages"] if message["role"] == "tool"]
    for message, parts in zip(results, tasks[1:], strict=True):
        message["content"] = parts
    for _ in range(2):
        converted = _outcome(body, "ignore")
        with canonical_only():
            assert converted == _outcome(body, "ignore")


def test_a_result_of_parts_none_carried_is_the_empty_text() -> None:
    # every part dropped (a document of no data URL, kept as the reader's opaque part): "" as the
    # writer's encode_result writes it, not the empty list of parts (found by the generated parts)
    body = _documents(_pdf(), _pdf())
    body["messages"][3]["content"] = [{"type": "file", "file": {"file_data": "data:application/pdf;base64"}}]
    _equal_to_canonical(body)
    written = chatcodec.convert_request(body, source="openai-chat", target=_TARGET, on_loss="ignore")
    assert written["input"][3] == {"type": "function_call_output", "call_id": "call_0", "output": ""}
