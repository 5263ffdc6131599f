"""url_citation annotations between OpenAI Chat and Responses answers (issue 61).

Both APIs document the same citation: Chat Completions as ``message.annotations[]``
(openai 3.54 ``types/chat/chat_completion_message.py``: ``Annotation`` of ``type:
"url_citation"`` holding ``AnnotationURLCitation{end_index, start_index, title, url}``,
indices into the message's ``content``), Responses as ``output_text.annotations[]``
(``types/responses/response_output_text.py``: ``AnnotationURLCitation{end_index,
start_index, title, type, url}``, indices into that part's ``text``). The bodies here are
built from those SDK types and every written body is validated by them; a recorded
Responses answer (``tests/fixtures/openai-responses/response/web_search_call_url_citation.json``)
is the other source.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from openai.types.chat import ChatCompletion, ChatCompletionMessage
from openai.types.chat.chat_completion import Choice
from openai.types.chat.chat_completion_message import Annotation, AnnotationURLCitation
from openai.types.responses import Response, ResponseOutputMessage, ResponseOutputText
from openai.types.responses.response_output_text import AnnotationFileCitation
from openai.types.responses.response_output_text import AnnotationURLCitation as OutputURLCitation

import chatcodec
from chatcodec import Loss
from providers.openai_responses.responses_support import load_json

CHAT, RESPONSES = "openai-chat", "openai-responses"
FIXTURES = Path(__file__).parents[1] / "fixtures"
TEXT = "Mount Columbia is 3,747 m high (britannica.com). It is in the Rockies (peakbagger.com)."


def _span(text: str, cited: str) -> tuple[int, int]:
    start = text.index(cited)
    return start, start + len(cited)


def chat_completion() -> dict[str, Any]:
    """A Chat answer with two url citations, from the SDK's own types."""
    first, second = _span(TEXT, "(britannica.com)"), _span(TEXT, "(peakbagger.com)")
    annotations = [
        Annotation(
            type="url_citation",
            url_citation=AnnotationURLCitation(
                start_index=first[0], end_index=first[1], title="B", url="https://b.com"
            ),
        ),
        Annotation(
            type="url_citation",
            url_citation=AnnotationURLCitation(
                start_index=second[0], end_index=second[1], title="P", url="https://p.com"
            ),
        ),
    ]
    message = ChatCompletionMessage(role="assistant", content=TEXT, refusal=None, annotations=annotations)
    completion = ChatCompletion(
        id="chatcmpl-1",
        object="chat.completion",
        created=1,
        model="gpt-4o-search-preview",
        choices=[Choice(index=0, finish_reason="stop", message=message)],
    )
    return completion.model_dump(mode="json", exclude_unset=True)


def convert(body: dict[str, Any], source: str, target: str) -> tuple[dict[str, Any], list[Loss]]:
    losses: list[Loss] = []
    out = chatcodec.convert_response(body, source=source, target=target, on_loss="ignore", losses=losses)
    return out, losses


def cited_losses(losses: list[Loss]) -> list[Loss]:
    return [loss for loss in losses if "citation" in loss.what or "annotation" in loss.what]


def cited_spans(text: str, citations: list[tuple[int, int, str, str]]) -> list[tuple[str, str, str]]:
    """What each citation points at in ``text``, with its url and title."""
    return [(text[start:end], url, title) for start, end, url, title in citations]


def chat_citations(body: dict[str, Any]) -> tuple[str, list[tuple[int, int, str, str]]]:
    message = ChatCompletion.model_validate(body).choices[0].message
    assert message.content is not None
    found = [
        (a.url_citation.start_index, a.url_citation.end_index, a.url_citation.url, a.url_citation.title)
        for a in message.annotations or []
    ]
    return message.content, found


def responses_citations(body: dict[str, Any]) -> list[tuple[str, list[tuple[int, int, str, str]]]]:
    """Each ``output_text`` of a Responses answer with its url citations (SDK-validated)."""
    found: list[tuple[str, list[tuple[int, int, str, str]]]] = []
    for item in Response.model_validate(body).output:
        if isinstance(item, ResponseOutputMessage):
            for part in item.content:
                if isinstance(part, ResponseOutputText):
                    cites = [
                        (a.start_index, a.end_index, a.url, a.title)
                        for a in part.annotations
                        if isinstance(a, OutputURLCitation)
                    ]
                    found.append((part.text, cites))
    return found


def test_chat_citations_reach_responses_and_come_back() -> None:
    body = chat_completion()
    text, expected = chat_citations(body)
    responses, losses = convert(body, CHAT, RESPONSES)
    assert cited_losses(losses) == []
    [(written_text, written)] = responses_citations(responses)
    assert (written_text, written) == (text, expected)
    back, losses = convert(responses, RESPONSES, CHAT)
    assert cited_losses(losses) == []
    assert chat_citations(back) == (text, expected)


def test_recorded_responses_citation_reaches_chat() -> None:
    recorded = load_json("response", "web_search_call_url_citation")
    [(text, expected)] = responses_citations(recorded)
    chat, losses = convert(recorded, RESPONSES, CHAT)
    assert cited_losses(losses) == []
    assert chat_citations(chat) == (text, expected)
    assert cited_spans(text, expected)[0][0].startswith("([toureiffel.paris]")


def test_same_format_round_trips_stay_exact() -> None:
    """The same body, and the annotations byte for byte (keys in their order), including a
    recording re-serialised with sorted keys (the Responses cassette) and a
    citation whose keys come in another order than the writer's. (The writers give a body's
    and a message's own keys in their order, as they did before citations.)"""
    body = chat_completion()
    assert convert(body, CHAT, CHAT) == (body, [])
    reordered = copy.deepcopy(body)
    for annotation in reordered["choices"][0]["message"]["annotations"]:
        annotation["url_citation"] = dict(reversed(annotation["url_citation"].items()))
    for given in (body, reordered):
        again = convert(given, CHAT, CHAT)[0]
        assert again == given
        written = again["choices"][0]["message"]["annotations"]
        assert json.dumps(written) == json.dumps(given["choices"][0]["message"]["annotations"])
    recorded = load_json("response", "web_search_call_url_citation")
    again = convert(recorded, RESPONSES, RESPONSES)[0]
    assert again == recorded
    written = again["output"][1]["content"][0]["annotations"]
    assert json.dumps(written) == json.dumps(recorded["output"][1]["content"][0]["annotations"])
    assert next(iter(recorded["output"][1]["content"][0]["annotations"][0])) == "end_index"  # sorted keys


def test_texts_joined_into_one_chat_content_keep_their_spans() -> None:
    """Two output_text parts are one Chat content string: the second's citations move by the
    first's length, so each still points at the same characters."""
    recorded = load_json("response", "web_search_call_url_citation")
    message = recorded["output"][1]
    second = copy.deepcopy(message["content"][0])
    second["text"] = " Gustave Eiffel's company built it (wikipedia.org)."
    start, end = _span(second["text"], "(wikipedia.org)")
    second["annotations"] = [
        OutputURLCitation(
            type="url_citation", start_index=start, end_index=end, title="Eiffel Tower", url="https://en.wikipedia.org"
        ).model_dump(mode="json")
    ]
    message["content"].append(second)
    parts = responses_citations(recorded)
    chat, _ = convert(recorded, RESPONSES, CHAT)
    text, written = chat_citations(chat)
    assert text == "".join(part_text for part_text, _ in parts)
    assert cited_spans(text, written) == [span for part_text, cites in parts for span in cited_spans(part_text, cites)]


def test_an_annotation_other_than_a_url_citation_stays_whole_and_is_reported() -> None:
    """A file citation (SDK ``AnnotationFileCitation``) has no canonical field: the whole list
    stays in the part's bag, back as it came to Responses and reported for Chat."""
    recorded = load_json("response", "web_search_call_url_citation")
    part = recorded["output"][1]["content"][0]
    part["annotations"].append(
        AnnotationFileCitation(type="file_citation", file_id="file-1", filename="a.pdf", index=3).model_dump(
            mode="json"
        )
    )
    assert convert(recorded, RESPONSES, RESPONSES)[0] == recorded
    chat, losses = convert(recorded, RESPONSES, CHAT)
    assert ChatCompletion.model_validate(chat).choices[0].message.annotations is None
    assert [loss.path for loss in losses if "annotations" in loss.what] == ["$.choices[0].message.content[1]"]


def test_a_request_history_citation_is_reported_for_chat() -> None:
    """A Responses input may replay an answer's ``output_text`` with its annotations; a Chat
    request's assistant message has no annotations (``ChatCompletionAssistantMessageParam``)."""
    recorded = load_json("response", "web_search_call_url_citation")
    answer = recorded["output"][1]
    request = {"model": "gpt-5", "input": [{"role": "user", "content": "When?"}, answer]}
    assert chatcodec.convert_request(request, source=RESPONSES, target=RESPONSES)["input"][1] == answer
    losses: list[Loss] = []
    chatcodec.convert_request(request, source=RESPONSES, target=CHAT, on_loss="ignore", losses=losses)
    assert [(loss.path, loss.kind) for loss in cited_losses(losses)] == [("$.input[1].content[0].citations", "content")]


def test_a_streamed_answers_citations_reach_chat_and_come_back_to_responses() -> None:
    """A recorded Responses stream with ``response.output_text.annotation.added``
    (``tests/fixtures/openai-responses/stream/web_search_annotation_added.sse``): the finished
    item's annotations are the text's citations, on its end event; accumulated, the text
    holds them as the non-streamed answer does; written back as a Responses stream its
    finished parts carry them as they came; an OpenAI Chat stream carries them on its finish
    chunk's ``delta.annotations``."""
    recorded = (FIXTURES / "openai-responses" / "stream" / "web_search_annotation_added.sse").read_text()
    done = next(line for line in recorded.splitlines() if '"response.content_part.done"' in line)
    part = json.loads(done.removeprefix("data: "))["part"]
    text = chatcodec.accumulate_stream(RESPONSES, recorded).choices[0].message.content[-1]
    assert isinstance(text, chatcodec.TextPart)
    assert [(c.start_index, c.end_index, c.url, c.title) for c in text.citations] == [
        (a["start_index"], a["end_index"], a["url"], a["title"]) for a in part["annotations"]
    ]
    written = b"".join(chatcodec.convert_stream(recorded, source=RESPONSES, target=RESPONSES, on_loss="error"))
    line = next(line for line in written.decode().splitlines() if '"response.content_part.done"' in line)
    rewritten = json.loads(line.removeprefix("data: "))
    assert json.dumps(rewritten["part"]["annotations"]) == json.dumps(part["annotations"])
    losses: list[Loss] = []
    chat = b"".join(chatcodec.convert_stream(recorded, source=RESPONSES, target=CHAT, on_loss="ignore", losses=losses))
    assert cited_losses(losses) == []
    chunks = [json.loads(line[6:]) for line in chat.decode().splitlines() if line.startswith("data: {")]
    accumulated = chatcodec.accumulate_stream(CHAT, chunks).choices[0].message.content[-1]
    assert isinstance(accumulated, chatcodec.TextPart)
    assert accumulated.citations == text.citations  # on the finish chunk's delta, as OpenAI streams them
