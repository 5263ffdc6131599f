"""The AI SDK formats' content forms and media names, against the Vercel AI SDK itself
(``js/ai_sdk_check.mjs``: ``modelMessageSchema``, ``safeValidateUIMessages`` and
``convertToModelMessages`` of the ``ai`` package js/package-lock.json pins).

Issue 65's follow-ups: a string message content and a list of one text part are two
canonical forms that a ``UIMessage`` (parts only) and a system ``ModelMessage`` (a string
only) spell alike; each comes back as it was, or the change is reported. A UI image file
part's ``filename`` reaches the ``ModelMessage`` file part that ``convertToModelMessages``
gives it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import chatcodec
from chatcodec.contract import LossRecorder
from js_packages import node_with_packages, run_in_js

FORMS: list[Any] = ["", "x", [], [{"type": "text", "text": ""}], [{"type": "text", "text": "x"}]]


def _verdicts(batch: list[tuple[str, Any]], tmp_path: Path) -> list[dict[str, Any]]:
    """The AI SDK's verdict on each message list, from one node process."""
    batch_file = tmp_path / "batch.json"
    batch_file.write_text(json.dumps([{"kind": kind, "messages": messages} for kind, messages in batch]))
    result = run_in_js([node_with_packages(), "ai_sdk_check.mjs", str(batch_file)])
    assert result.returncode == 0, result.stderr
    verdicts: list[dict[str, Any]] = json.loads(result.stdout)
    return verdicts


def _there_and_back(fmt: str, request: dict[str, Any]) -> tuple[dict[str, Any], chatcodec.ChatRequest, list[str]]:
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request(fmt, request, on_loss="ignore", losses=losses)
    return body, chatcodec.decode_request(fmt, body), [f"{loss.path} {loss.what} ({loss.kind})" for loss in losses]


def _content(request: chatcodec.ChatRequest) -> Any:
    """The first message's content, without the pure-spelling ``_state`` marker (checked here)."""
    content = request.model_dump(mode="json", exclude_none=True)["messages"][0]["content"]
    if isinstance(content, str):
        return content
    for part in content:
        assert part.pop("provider_metadata", None) in (None, {"ai-sdk-ui": {"_state": "done"}})
    return content


UI_FORMS = [
    (role, form) for role in ("system", "user", "assistant") for form in FORMS if form != [] or role == "assistant"
]
"""Each form in each role, but the empty system and user messages the AI SDK refuses (next test)."""


@pytest.mark.parametrize(("role", "content"), UI_FORMS, ids=repr)
def test_each_content_form_comes_back_from_ui_messages_as_it_was(role: str, content: Any, tmp_path: Path) -> None:
    """A string and a list of one text part are both one UI text part: the string form is the
    plain part (what ``useChat`` stores for a typed message), the list form the part with the
    ``state`` a streamed part is stored with; each reads back as it was, without a report,
    and the AI SDK takes both."""
    body, back, losses = _there_and_back("ai-sdk-ui", {"messages": [{"role": role, "content": content}]})
    assert losses == []
    assert _content(back) == content
    assert chatcodec.encode_request("ai-sdk-ui", back) == body
    verdicts = _verdicts([("ui", body["messages"])], tmp_path)
    assert [verdict["errors"] for verdict in verdicts] == [[]]


@pytest.mark.parametrize("role", ["system", "user"])
def test_an_empty_message_is_not_written_as_a_ui_message_the_ai_sdk_refuses(role: str, tmp_path: Path) -> None:
    """``safeValidateUIMessages`` refuses a system or user ``UIMessage`` of no parts (found by
    the check above): such a message of no content is left out, and that is reported at its
    content; an empty assistant message is written, as the AI SDK takes it."""
    request: dict[str, Any] = {"messages": [{"role": "user", "content": "hi"}, {"role": role, "content": []}]}
    body, back, losses = _there_and_back("ai-sdk-ui", request)
    assert losses == [f"$.messages[1].content empty {role} message (content)"]
    assert [message.content for message in back.messages] == ["hi"]
    assert [verdict["errors"] for verdict in _verdicts([("ui", body["messages"])], tmp_path)] == [[]]


@pytest.mark.parametrize(
    ("answer", "written"),
    [
        ("Done.", {"type": "text", "text": "Done."}),
        ([{"type": "text", "text": "Done."}], {"type": "text", "text": "Done.", "state": "done"}),
    ],
    ids=["string", "list"],
)
def test_an_answer_after_a_tool_keeps_its_form_in_the_loop(answer: Any, written: dict[str, Any]) -> None:
    """The last assistant turn of a loop, folded into the assistant ``UIMessage`` after a
    ``step-start``, reads back in the form it had."""
    request: dict[str, Any] = {
        "messages": [
            {"role": "user", "content": "q"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "c", "name": "f", "arguments": "{}"}]},
            {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "c", "content": "ok"}]},
            {"role": "assistant", "content": answer},
        ]
    }
    body, back, losses = _there_and_back("ai-sdk-ui", request)
    assert losses == []
    assert body["messages"][1]["parts"][1:] == [{"type": "step-start"}, written]
    assert back.model_dump(mode="json", exclude_none=True)["messages"][3]["content"] == (
        answer
        if isinstance(answer, str)
        else [{**answer[0], "provider_metadata": {"ai-sdk-ui": {"_state": "done", "_steps": 1}}}]
    )
    assert chatcodec.encode_request("ai-sdk-ui", back) == body


def test_a_stored_ui_message_id_comes_back_and_a_made_up_one_is_no_data() -> None:
    """A ``UIMessage`` requires an ``id``: the one made up for a message without one reads
    back as none (writing it again gives it again); a stored one rides in the bag."""
    _, made, _ = _there_and_back("ai-sdk-ui", {"messages": [{"role": "user", "content": "hi"}]})
    assert made.messages[0].provider_metadata is None
    stored = {"messages": [{"id": "msg_Ab3", "role": "user", "parts": [{"type": "text", "text": "hi"}]}]}
    read = chatcodec.decode_request("ai-sdk-ui", stored)
    assert read.messages[0].provider_metadata == {"ai-sdk-ui": {"id": "msg_Ab3"}}
    assert chatcodec.encode_request("ai-sdk-ui", read) == stored


@pytest.mark.parametrize("content", FORMS, ids=repr)
def test_a_system_model_message_is_one_string_and_says_when_a_list_became_one(content: Any, tmp_path: Path) -> None:
    """A system ``ModelMessage``'s ``content`` is a string (``modelMessageSchema``): the string
    form comes back exactly; a list of at most one text part is written as its text, reported
    as a spelling change, since it reads back as the string."""
    body, back, losses = _there_and_back("ai-sdk-model", {"messages": [{"role": "system", "content": content}]})
    text = content if isinstance(content, str) else "".join(part["text"] for part in content)
    assert body["messages"] == [{"role": "system", "content": text}]
    assert _content(back) == text
    assert losses == ([] if isinstance(content, str) else ["$.messages[0].content content list (spelling)"])
    assert [verdict["errors"] for verdict in _verdicts([("model", body["messages"])], tmp_path)] == [[]]


def test_a_ui_image_file_keeps_its_filename_as_the_ai_sdk_converts_it(tmp_path: Path) -> None:
    """``convertToModelMessages`` turns a UI image file part into a ``ModelMessage`` file part
    with its ``filename``; chatcodec's ai-sdk-ui -> ai-sdk-model gives the same part, with no
    report, and the way back gives the UI part that was read."""
    image = {"type": "file", "mediaType": "image/png", "url": "https://x.test/a.png", "filename": "a.png"}
    ui = [{"id": "u1", "role": "user", "parts": [{"type": "text", "text": "see"}, image]}]
    losses: list[chatcodec.Loss] = []
    model = chatcodec.convert_request(
        {"messages": ui}, source="ai-sdk-ui", target="ai-sdk-model", on_loss="ignore", losses=losses
    )
    [verdict] = _verdicts([("ui", ui)], tmp_path)
    assert verdict["valid"], verdict["errors"]
    converted = verdict["converted"][0]["content"][-1]
    assert converted["filename"] == "a.png"
    written = model["messages"][0]["content"][-1]
    assert written == {key: converted[key] for key in ("type", "data", "mediaType", "filename")}
    assert [loss.what for loss in losses] == ["ai-sdk-ui data ['id']"]  # the stored id: a ModelMessage has none
    back = chatcodec.convert_request(model, source="ai-sdk-model", target="ai-sdk-ui", on_loss="error")
    assert back["messages"][0]["parts"][-1] == image


@pytest.mark.parametrize("content", [form for form in FORMS if form != []], ids=repr)
def test_the_single_hop_law_reads_a_framework_formats_markers_as_spelling(content: Any) -> None:
    """``check-codec``'s single-hop law compares a request with its read-back without the
    codecs' bags (each written only by its own decoder): a framework format's bag too, so the
    list form's ``_state`` and a loop's ``_steps`` and ``_cont`` markers are spelling, as a
    provider's are (a deeper random run than check-codec's found the ``_state`` one)."""
    from chatcodec.testing._laws.derived_entry import derived_entry

    hop = derived_entry("ai-sdk-ui").single_hop
    request = chatcodec.ChatRequest.model_validate(
        {
            "messages": [
                {"role": "user", "content": content},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "c", "name": "f", "arguments": "{}"}]},
                {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "c", "content": "ok"}]},
                {"role": "assistant", "content": content},
            ]
        }
    )
    _, back, losses = _there_and_back("ai-sdk-ui", request.model_dump(mode="json", exclude_none=True))
    assert losses == []
    assert back != request  # the markers are there
    assert hop.decoded(back) == hop.original(request)


@pytest.mark.parametrize("fmt", ["ai-sdk-ui", "ai-sdk-model"])
def test_a_text_source_that_leaves_its_media_type_to_the_default_is_written_as_text_plain(
    fmt: str, tmp_path: Path
) -> None:
    """Canonical data may leave a text source's ``media_type`` out (the model's default is
    ``text/plain``): the AI SDK writers read it with ``source["media_type"]`` and raised a
    KeyError (found by the single-hop law at 100 derandomized examples, issue 78's law facts).
    Written as ``text/plain``, as the model reads it, with nothing to report, and the AI SDK
    takes what is written (``js/ai_sdk_check.mjs``)."""
    request = {
        "model": "m",
        "messages": [{"role": "user", "content": [{"type": "document", "source": {"type": "text", "text": "hi"}}]}],
    }
    losses = LossRecorder()
    body = chatcodec.get_codec(fmt).write_request(request, losses)
    assert losses.losses == []
    (message,) = body["messages"]
    (part,) = message["parts"] if fmt == "ai-sdk-ui" else message["content"]
    assert part["mediaType"] == "text/plain"
    assert (part["url"] if fmt == "ai-sdk-ui" else part["data"]).endswith("aGk=")
    kind_name = "ui" if fmt == "ai-sdk-ui" else "model"
    assert [verdict["errors"] for verdict in _verdicts([(kind_name, body["messages"])], tmp_path)] == [[]]
