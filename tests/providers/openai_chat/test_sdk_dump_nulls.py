"""An OpenAI SDK dump's ``null`` message fields are spelling: written back as they came to
OpenAI Chat (dropped without a report by every other format: the conformance law over
``spelling_twins``), and read by the plain-turn
branch (the same canonical data as the session without them, plus one marker each)."""

from __future__ import annotations

import chatcodec
from chatcodec._conversion import read_request_data
from chatcodec.testing._laws.built_in.openai_chat import sdk_dump_session, without_nulls


def test_sdk_dump_nulls_come_back_as_they_were_to_openai_chat() -> None:
    request = sdk_dump_session()
    losses: list[chatcodec.Loss] = []
    back = chatcodec.convert_request(request, source="openai-chat", target="openai-chat", losses=losses)
    assert back["messages"] == request["messages"]
    assert losses == []


def test_sdk_dump_nulls_read_as_the_plain_twin_plus_one_marker_per_message() -> None:
    read = read_request_data(sdk_dump_session(), "openai-chat")
    twin = read_request_data(without_nulls(sdk_dump_session()), "openai-chat")
    markers = [message.pop("provider_metadata", None) for message in read["messages"]]
    for message in read["messages"]:
        for part in message["content"] if isinstance(message["content"], list) else ():
            markers.append(part.pop("provider_metadata", None))
    assert read == twin
    spelled = [sorted(marker["openai-chat"]["_nulls"]) for marker in markers if marker is not None]
    assert spelled == [["name"], ["annotations", "audio", "function_call", "refusal"], ["name"], ["name"]]


def test_a_null_under_an_undocumented_key_is_still_data_reported_elsewhere() -> None:
    request = sdk_dump_session()
    request["messages"][2]["x_trace"] = None
    losses: list[chatcodec.Loss] = []
    chatcodec.convert_request(request, source="openai-chat", target="anthropic", on_loss="ignore", losses=losses)
    assert [loss.what for loss in losses] == ["openai-chat data ['x_trace']"]
    back = chatcodec.convert_request(request, source="openai-chat", target="openai-chat")
    assert back["messages"][2]["x_trace"] is None


def test_a_conversions_reading_keeps_the_nulls_for_its_own_writer() -> None:
    """Only OpenAI Chat's own writer reads the markers: a conversion's reading keeps them in
    its record (``Reading.own``, whatever writer follows), so the data another writer gets
    is the plain twin's (a marker bag a message was a tenth of the conversion); put in
    place, they give the reading with no record, and canonical output carries them."""
    from chatcodec._providers.contract.context import Reading

    noted = Reading()
    read = read_request_data(sdk_dump_session(), "openai-chat", noted=noted)
    assert read == read_request_data(without_nulls(sdk_dump_session()), "openai-chat")
    noted.put_own()
    assert read == read_request_data(sdk_dump_session(), "openai-chat")
    canonical = chatcodec.convert_request(sdk_dump_session(), source="openai-chat", target="canonical")
    bags = [message["provider_metadata"] for message in canonical["messages"] if message.get("provider_metadata")]
    assert sorted(sorted(bag["openai-chat"]["_nulls"]) for bag in bags) == [
        ["annotations", "audio", "function_call", "refusal"],
        ["name"],
        ["name"],
    ]


def test_every_other_format_writes_the_dump_as_it_writes_its_plain_twin() -> None:
    for target in ("anthropic", "openai-responses", "gemini", "bedrock-converse", "ollama", "bedrock-nova"):
        dumped: list[chatcodec.Loss] = []
        plain: list[chatcodec.Loss] = []
        written = chatcodec.convert_request(
            sdk_dump_session(), source="openai-chat", target=target, on_loss="ignore", losses=dumped
        )
        twin = chatcodec.convert_request(
            without_nulls(sdk_dump_session()), source="openai-chat", target=target, on_loss="ignore", losses=plain
        )
        assert written == twin, target
        assert [(loss.path, loss.what) for loss in dumped] == [(loss.path, loss.what) for loss in plain], target


def _servers_dump(session: dict[str, object], **nulls: None) -> dict[str, object]:
    """``session`` with each assistant turn as the OpenAI SDK dumps a compatible server's answer:
    vLLM's ``"reasoning_content": null`` (and ``"reasoning": null``), OpenRouter's ``"reasoning": null``."""
    messages = session["messages"]
    assert isinstance(messages, list)
    for message in messages:
        if message["role"] == "assistant":
            message.update(nulls)
    return session


SERVERS = {
    "vllm": {"reasoning_content": None},
    "vllm, newer": {"reasoning_content": None, "reasoning": None},
    "openrouter": {"reasoning": None},
}


def test_a_servers_null_reasoning_fields_are_spelling_in_every_format() -> None:
    """An agent on vLLM or OpenRouter sends back ``"reasoning_content": null`` / ``"reasoning": null``
    on every turn: nothing, so written back as it came to OpenAI Chat and written by every other
    format as the turn without it, with no report (each was reported as lost ``openai-chat data``
    on every turn, and sent the request to the canonical path)."""
    for server, nulls in SERVERS.items():
        request = _servers_dump(sdk_dump_session(), **nulls)
        losses: list[chatcodec.Loss] = []
        back = chatcodec.convert_request(request, source="openai-chat", target="openai-chat", losses=losses)
        assert back["messages"] == request["messages"], server
        assert losses == []
        for target in ("anthropic", "openai-responses", "gemini", "bedrock-converse", "ollama"):
            dumped: list[chatcodec.Loss] = []
            plain: list[chatcodec.Loss] = []
            written = chatcodec.convert_request(
                request, source="openai-chat", target=target, losses=dumped, on_loss="ignore"
            )
            twin = chatcodec.convert_request(
                sdk_dump_session(), source="openai-chat", target=target, losses=plain, on_loss="ignore"
            )
            assert written == twin, (server, target)
            assert [(loss.path, loss.what) for loss in dumped] == [(loss.path, loss.what) for loss in plain]


def test_a_reasoning_text_beside_the_servers_nulls_is_still_read_as_reasoning() -> None:
    request = _servers_dump(sdk_dump_session(), reasoning_content=None)
    turn = next(message for message in request["messages"] if message["role"] == "assistant")
    turn["reasoning"] = "I read the file first."
    read = chatcodec.decode_request("openai-chat", request)
    parts = next(message for message in read.messages if message.role == "assistant").parts
    assert [part.text for part in parts if part.type == "thinking"] == ["I read the file first."]


def test_a_loss_of_reasoning_names_the_field_that_held_it_not_a_null_beside_it() -> None:
    """A newer vLLM answer as the SDK dumps it holds ``"reasoning_content": null`` beside its text in
    ``reasoning``: the dropped thinking is reported at ``reasoning`` on the canonical path (it named
    the first reasoning key present, the null one) as on the direct path."""
    from chatcodec._direct.table import canonical_only

    answer = {"role": "assistant", "content": "Done.", "reasoning_content": None, "reasoning": "I looked."}
    request = {"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": [{"role": "user", "content": "Go."}, answer]}
    request["messages"].append({"role": "user", "content": "And?"})
    for canonical in (True, False):
        losses: list[chatcodec.Loss] = []
        if canonical:
            with canonical_only():
                chatcodec.convert_request(
                    request, source="openai-chat", target="anthropic", on_loss="ignore", losses=losses
                )
        else:
            chatcodec.convert_request(
                request, source="openai-chat", target="anthropic", on_loss="ignore", losses=losses
            )
        assert [loss.path for loss in losses] == ["$.messages[1].reasoning"], canonical
