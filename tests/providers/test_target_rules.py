"""Each target rule (API version or model family) is applied on the public API,
over every provider it applies to, and reported as a ``rule`` loss naming the rule, its
scope and the option that changes it; a default value goes without a report."""

from __future__ import annotations

from typing import Any

import pytest

import chatcodec
from chatcodec._losses import LossRecorder
from chatcodec._providers.contract.context import EncodeContext
from chatcodec._providers.contract.target_rules import ProviderRules, RuleCall, TargetRule, apply_target_rules
from chatcodec._registry import get_codec, rules_for

OLD = {"api_version": "2023-06-01"}
NEW = {"api_version": "2026-10-21"}  # over the 2023-06-01 an Anthropic body with such blocks shows


def _encode(
    provider: str, options: dict[str, Any] | None = None, **fields: Any
) -> tuple[dict[str, Any], list[chatcodec.Loss]]:
    fields.setdefault("messages", [{"role": "user", "content": "q"}])
    fields.setdefault("max_tokens", 10)
    losses: list[chatcodec.Loss] = []
    request = chatcodec.validate_model(chatcodec.ChatRequest, fields)
    body = chatcodec.encode_request(provider, request, on_loss="ignore", losses=losses, options=options)
    return body, losses


def _rule_losses(losses: list[chatcodec.Loss]) -> list[str]:
    return [loss.why.partition("rule ")[2].partition(" ")[0] for loss in losses if loss.kind == "rule"]


# --- Anthropic 2026-10-21 ---------------------------------------------------------------


def test_sampling_removed_under_2026_10_21_the_default_version() -> None:
    body, losses = _encode("anthropic", model="claude-sonnet-4-0", temperature=0.2, top_p=0.5, top_k=5)
    assert not {"temperature", "top_p", "top_k"} & body.keys()
    assert _rule_losses(losses) == ["anthropic.sampling_removed"] * 3
    assert all("2026-10-21" in loss.why and 'api_version="2023-06-01"' in loss.why for loss in losses)


def test_sampling_removed_reports_no_default_value() -> None:
    body, losses = _encode("anthropic", model="claude-sonnet-4-0", temperature=1.0)
    assert "temperature" not in body
    assert losses == []


def test_sampling_kept_under_2023_06_01_for_older_models() -> None:
    body, losses = _encode("anthropic", OLD, model="claude-sonnet-4-0", temperature=0.2, top_k=5)
    assert (body["temperature"], body["top_k"]) == (0.2, 5)
    assert losses == []


def test_api_version_is_never_written_into_the_body() -> None:
    body, _ = _encode("anthropic", OLD, model="claude-sonnet-4-0")
    assert not any("version" in key for key in body)


def test_an_unknown_api_version_is_refused() -> None:
    with pytest.raises(chatcodec.ChatcodecError, match="known: 2023-06-01, 2026-10-21"):
        _encode("anthropic", {"api_version": "2024-01-01"}, model="claude-sonnet-4-0")


def _document(text: str) -> dict[str, Any]:
    return {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": text}}


def test_assistant_document_moves_to_the_preceding_user_turn() -> None:
    anthropic_body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 10,
        "messages": [
            {"role": "user", "content": "read this"},
            {"role": "assistant", "content": [_document("doc"), {"type": "text", "text": "done"}]},
            {"role": "user", "content": "and?"},
        ],
    }
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        anthropic_body, source="anthropic", target="anthropic", on_loss="ignore", losses=losses, options=NEW
    )
    assert body["messages"][0]["content"] == [{"type": "text", "text": "read this"}, _document("doc")]
    assert body["messages"][1]["content"] == [{"type": "text", "text": "done"}]
    assert _rule_losses(losses) == ["anthropic.assistant_document"]
    kept = chatcodec.convert_request(anthropic_body, source="anthropic", target="anthropic")
    assert kept == anthropic_body  # read from Anthropic, it keeps the version it was written for


def test_user_text_citations_are_stripped_also_inside_search_results() -> None:
    citation = {
        "type": "char_location",
        "cited_text": "x",
        "document_index": 0,
        "start_char_index": 0,
        "end_char_index": 1,
    }
    text = {"type": "text", "text": "q", "citations": [citation]}
    search_result = {"type": "search_result", "source": "s", "title": "t", "content": [text]}
    anthropic_body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 10,
        "messages": [{"role": "user", "content": [text, search_result]}],
    }
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(
        anthropic_body, source="anthropic", target="anthropic", on_loss="ignore", losses=losses, options=NEW
    )
    sent = body["messages"][0]["content"]
    assert "citations" not in sent[0]
    assert "citations" not in sent[1]["content"][0]
    assert _rule_losses(losses) == ["anthropic.user_text_citations"] * 2
    assert anthropic_body["messages"][0]["content"][1]["content"][0]["citations"] == [citation]  # input untouched


# --- Claude model families: Anthropic (2023-06-01) and Bedrock ----------------------------

CLAUDE_TARGETS = [("anthropic", OLD, ("temperature",)), ("bedrock-converse", None, ("inferenceConfig", "temperature"))]


def _dig(body: dict[str, Any], keys: tuple[str, ...]) -> object:
    value: Any = body
    for key in keys:
        value = value.get(key) if isinstance(value, dict) else None
    return value


@pytest.mark.parametrize(("provider", "options", "where"), CLAUDE_TARGETS)
@pytest.mark.parametrize("model", ["claude-opus-4-7", "claude-sonnet-5", "us.anthropic.claude-fable-5-v1:0"])
def test_temperature_deprecated_on_opus_4_7_sonnet_5_fable_5(
    provider: str, options: dict[str, str] | None, where: tuple[str, ...], model: str
) -> None:
    body, losses = _encode(provider, options, model=model, temperature=0.3)
    assert _dig(body, where) is None
    assert _rule_losses(losses) == [f"{provider}.temperature_deprecated"]


@pytest.mark.parametrize(("provider", "options", "where"), CLAUDE_TARGETS)
def test_temperature_kept_on_older_claude_and_unknown_models(
    provider: str, options: dict[str, str] | None, where: tuple[str, ...]
) -> None:
    for model in ("claude-opus-4-1", "claude-3-7-sonnet-20250219", "my-fine-tune", None):
        body, losses = _encode(provider, options, model=model, temperature=0.3)
        assert _dig(body, where) == 0.3, model
        assert _rule_losses(losses) == []


@pytest.mark.parametrize(("provider", "options", "where"), CLAUDE_TARGETS)
def test_temperature_with_top_p_on_claude_4_5_keeps_temperature(
    provider: str, options: dict[str, str] | None, where: tuple[str, ...]
) -> None:
    body, losses = _encode(provider, options, model="claude-sonnet-4-5-20250929", temperature=0.3, top_p=0.5)
    assert _dig(body, where) == 0.3
    top_p = (*where[:-1], "top_p" if provider == "anthropic" else "topP")
    assert _dig(body, top_p) is None
    assert _rule_losses(losses) == [f"{provider}.temperature_with_top_p"]


def _with_late_system() -> list[dict[str, Any]]:
    return [
        {"role": "system", "content": "first"},
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": "a"},
        {"role": "system", "content": "later"},
        {"role": "user", "content": "q2"},
    ]


def _with_system_after_user() -> list[dict[str, Any]]:
    return [
        {"role": "system", "content": "first"},
        {"role": "user", "content": "q"},
        {"role": "system", "content": "later"},
        {"role": "assistant", "content": "a"},
        {"role": "user", "content": "q2"},
    ]


@pytest.mark.parametrize("provider", ["anthropic", "bedrock-converse"])
def test_mid_conversation_system_folded_except_opus_4_8_on_the_claude_api(provider: str) -> None:
    body, losses = _encode(provider, model="claude-sonnet-4-5", messages=_with_late_system())
    assert [message["role"] for message in body["messages"]] == ["user", "assistant", "user"]
    assert "later" in str(body["system"])
    assert _rule_losses(losses) == [f"{provider}.mid_conversation_system"]
    body, losses = _encode(provider, model="claude-opus-4-8", messages=_with_system_after_user())
    expected = ["user", "system", "assistant", "user"] if provider == "anthropic" else ["user", "assistant", "user"]
    assert [message["role"] for message in body["messages"]] == expected


def test_skip_rules_turns_a_rule_off() -> None:
    options = {"skip_rules": ["mid_conversation_system"]}
    body, losses = _encode("anthropic", options, model="claude-sonnet-4-5", messages=_with_late_system())
    assert [message["role"] for message in body["messages"]] == ["user", "assistant", "system", "user"]
    assert _rule_losses(losses) == []


def test_skip_rules_as_one_string_names_one_rule_exactly() -> None:
    """A string was read as a container of its substrings: ``"mid"`` skipped nothing by
    luck, and any rule name inside a longer string was skipped."""
    body, _ = _encode(
        "anthropic", {"skip_rules": "mid_conversation_system"}, model="claude-sonnet-4-5", messages=_with_late_system()
    )
    assert [message["role"] for message in body["messages"]] == ["user", "assistant", "system", "user"]
    joined = {"skip_rules": "mid_conversation_system,sampling_removed"}
    _, losses = _encode("anthropic", joined, model="claude-sonnet-4-5", messages=_with_late_system())
    assert _rule_losses(losses) != []


def test_skip_rules_star_is_the_storage_mode_no_rule_applies() -> None:
    body, losses = _encode("anthropic", {"skip_rules": "*"}, model="claude-sonnet-4-5", messages=_with_late_system())
    assert [message["role"] for message in body["messages"]] == ["user", "assistant", "system", "user"]
    assert _rule_losses(losses) == []


# --- Gemini, OpenAI ---------------------------------------------------------------------


def test_gemini_thinking_level_and_budget_are_never_sent_together() -> None:
    reasoning = {"budget_tokens": 2048, "effort": "high"}
    body, losses = _encode("gemini", model="gemini-3-pro-preview", reasoning=reasoning)
    shown = {"includeThoughts": True}  # thinking on asks for its thoughts
    assert body["generationConfig"]["thinkingConfig"] == {"thinkingLevel": "HIGH", **shown}
    assert _rule_losses(losses) == ["gemini.thinking_level_or_budget"]
    body, _ = _encode("gemini", model="gemini-2.5-flash", reasoning=reasoning)
    assert body["generationConfig"]["thinkingConfig"] == {"thinkingBudget": 2048, **shown}
    body, losses = _encode("gemini", model="gemini-3-flash", reasoning={"adaptive": True, "effort": "low"})
    assert body["generationConfig"]["thinkingConfig"] == {"thinkingLevel": "LOW", **shown}
    assert _rule_losses(losses) == []  # a dynamic budget is Gemini's default


_TOOL = {"name": "f", "parameters": {"type": "object"}}


def test_openai_chat_function_tools_beside_reasoning_effort() -> None:
    body, losses = _encode("openai-chat", model="gpt-5.4", tools=[_TOOL], reasoning={"effort": "high"})
    assert "reasoning_effort" not in body
    assert _rule_losses(losses) == ["openai-chat.tools_with_reasoning_effort"]
    body, losses = _encode("openai-chat", model="gpt-5.6-mini", tools=[_TOOL])
    assert body["reasoning_effort"] == "none"
    assert _rule_losses(losses) == ["openai-chat.tools_with_reasoning_effort"]
    body, losses = _encode("openai-chat", model="gpt-5.1", tools=[_TOOL], reasoning={"effort": "high"})
    assert body["reasoning_effort"] == "high"
    assert _rule_losses(losses) == []


def test_responses_call_ids_longer_than_64_are_rewritten_the_same_for_call_and_output() -> None:
    call_id = "toolu_" + "x" * 89
    messages = [
        {"role": "user", "content": "q"},
        {"role": "assistant", "content": [{"type": "tool_use", "id": call_id, "name": "f", "input": {}}]},
        {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": call_id, "content": "r"}]},
    ]
    body, losses = _encode("openai-responses", model="gpt-5", messages=messages, max_tokens=64)
    sent = [item["call_id"] for item in body["input"] if "call_id" in item]
    assert len(sent) == 2
    assert sent[0] == sent[1]
    assert len(sent[0]) <= 64
    assert _rule_losses(losses) == ["openai-responses.call_id_length"]


def test_responses_effort_max_is_sent_as_max() -> None:
    body, losses = _encode(
        "openai-responses", model="gpt-5.6", reasoning={"effort": "max", "enabled": True}, max_tokens=64
    )
    assert body["reasoning"] == {"effort": "max"}
    assert losses == []


# --- required fields, kinds, the table ----------------------------------------------------


@pytest.mark.parametrize("target", ["openai-chat", "anthropic"])  # Responses: a stored prompt may name it
def test_a_missing_model_is_taken_from_options_else_reported(target: str) -> None:
    gemini_body = {"contents": [{"role": "user", "parts": [{"text": "q"}]}]}
    losses: list[chatcodec.Loss] = []
    body = chatcodec.convert_request(gemini_body, source="gemini", target=target, on_loss="ignore", losses=losses)
    assert "model" not in body
    assert ("$.model", "required") in [(loss.path, loss.kind) for loss in losses]
    losses.clear()
    options: Any = {"model": "m", "max_tokens": 5} if target == "anthropic" else {"model": "m"}
    body = chatcodec.convert_request(gemini_body, source="gemini", target=target, losses=losses, options=options)
    assert body["model"] == "m"
    assert losses == []


def test_on_loss_per_kind_raises_only_for_the_kinds_named() -> None:
    request = {
        "model": "claude-opus-4-7",
        "max_tokens": 5,
        "temperature": 0.5,
        "messages": [{"role": "user", "content": "q"}],
    }
    chatcodec.encode_request("anthropic", request, on_loss={"content": "error", "*": "ignore"})
    with pytest.raises(chatcodec.LossError, match="sampling_removed"):
        chatcodec.encode_request("anthropic", request, on_loss={"rule": "error", "*": "ignore"})
    with pytest.raises(ValueError, match="unknown kind"):
        chatcodec.encode_request("anthropic", request, on_loss={"contnet": "error"})  # pyright: ignore[reportArgumentType]


TABLES = [table for name in chatcodec.registered_providers() if (table := rules_for(name)) is not None]


@pytest.mark.parametrize("table", TABLES, ids=lambda table: table.provider)
def test_rule_table_is_complete_and_sourced(table: ProviderRules) -> None:
    """What the SDK types cannot check: every version, default and rule is data with a source."""
    assert table.default_version in table.api_versions
    assert table.version_source.startswith("https://")
    names = [rule.name for rule in table.rules]
    assert len(names) == len(set(names))
    for rule in table.rules:
        assert rule.source.startswith("https://")
        assert rule.summary
        assert rule.changed_by.split("=", 1)[0] in get_codec(table.provider).options, rule.changed_by
        assert rule.edit.__doc__, f"{rule.name}: its edit function says why"
        assert rule.versions is None or rule.versions <= set(table.api_versions)


def test_anthropic_default_version_is_what_the_pinned_sdk_sends() -> None:
    from anthropic import _constants  # pyright: ignore[reportPrivateUsage]

    table = rules_for("anthropic")
    assert table is not None
    assert table.default_version == _constants.ANTHROPIC_API_VERSION


def test_a_rule_looking_for_what_the_body_cannot_hold_is_not_run() -> None:
    """A writer that knows its body holds no document, citation or system turn
    passes ``holds=()`` and the rules looking for one are skipped (they walk every
    block); with ``holds`` unknown every rule in force runs."""
    table = rules_for("anthropic")
    assert table is not None
    looking = {rule.name: rule.looks_for for rule in table.rules if rule.looks_for is not None}
    assert looking == {
        "assistant_document": "document",
        "user_text_citations": "citations",
        "mid_conversation_system": "system turn",
        "system_turn_placement": "system turn",
    }

    def body() -> dict[str, Any]:
        document = {"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "d"}}
        return {
            "model": "claude-sonnet-4-5",
            "messages": [{"role": "user", "content": "q"}, {"role": "assistant", "content": [document]}],
        }

    def applied(holds: tuple[str, ...] | None) -> list[str]:
        losses = LossRecorder()
        apply_target_rules(body(), EncodeContext("anthropic", losses, rules=table), holds=holds)
        return _rule_losses(losses.losses)

    assert applied(None) == ["anthropic.assistant_document"]
    assert applied(("document",)) == ["anthropic.assistant_document"]
    assert applied(()) == []


def test_anthropic_max_tokens_is_a_required_field_of_the_rule_table() -> None:
    """Listed with the default sent; the option supplies it, else the model's output limit
    (Opus 4.6: "Max output: 128K tokens", its overview page) with a ``default`` loss."""
    table = rules_for("anthropic")
    assert table is not None
    assert [field.key for field in table.required] == ["model", "max_tokens"]
    assert "output limit" in str(table.required[1].default)
    request = {"model": "claude-opus-4-6", "messages": [{"role": "user", "content": "q"}], "stream": True}
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request("anthropic", request, on_loss="ignore", losses=losses)
    assert body["max_tokens"] == 128_000
    assert [(loss.path, loss.kind) for loss in losses] == [("$.max_tokens", "default")]
    losses.clear()
    body = chatcodec.encode_request("anthropic", request, losses=losses, options={"max_tokens": 321})
    assert body["max_tokens"] == 321
    assert losses == []
    openai = {"model": "claude-opus-4-6", "messages": [{"role": "user", "content": "q"}]}
    body = chatcodec.convert_request(openai, source="openai-chat", target="anthropic", options={"max_tokens": 77})
    assert body["max_tokens"] == 77


@pytest.mark.parametrize(("provider", "key"), [("anthropic", "output_config"), ("bedrock-converse", "outputConfig")])
@pytest.mark.parametrize("effort", ["xhigh", "max"])
def test_an_effort_above_high_is_sent_as_high_to_claude_before_4_6(provider: str, key: str, effort: str) -> None:
    """Opus 4.5 takes ``low``, ``medium`` and ``high`` ("max ... Opus 4.6 only", the effort
    page; Bedrock: "output_config.effort: Input should be 'low', 'medium' or 'high'"): a
    higher effort is sent as ``high``, a rule loss; Claude 4.6+ keeps it."""
    request = chatcodec.ChatRequest(
        model="claude-opus-4-5-20251101", max_tokens=100, messages=[], reasoning={"effort": effort}
    )
    losses: list[chatcodec.Loss] = []
    body = chatcodec.encode_request(provider, request, on_loss="ignore", losses=losses)
    assert body[key] == {"effort": "high"}
    assert [(loss.path, loss.kind) for loss in losses] == [(f"$.{key}.effort", "rule")]
    newer = request.model_copy(update={"model": "claude-opus-4-6"})
    assert chatcodec.encode_request(provider, newer, on_loss="error")[key] == {"effort": effort}


@pytest.mark.parametrize("table", TABLES, ids=lambda table: table.provider)
def test_the_reads_law_bodies_hold_every_key_a_built_in_rule_reads(table: ProviderRules) -> None:
    """The law that holds a rule naming its keys (``reads``) to leaving a body without them
    as it is (``testing/_laws/law_rule_reads.py``) runs each edit on the bodies it writes:
    each built-in rule's keys are in some of them, so taking them out changes the body."""
    from chatcodec.testing._laws import law_rule_reads
    from conformance.providers import PROVIDERS

    (entry,) = [entry for entry in PROVIDERS if entry.name == table.provider]
    models = (*entry.rule_models, law_rule_reads.NEUTRAL_MODEL)
    reading = {rule.name: rule.reads for rule in table.rules if rule.reads is not None}
    held = {
        name
        for _, body in law_rule_reads.written_bodies(table.provider, models)
        for name, reads in reading.items()
        if not reads.isdisjoint(body)
    }
    assert held == set(reading)


def test_a_rule_reading_a_key_the_body_holds_is_run() -> None:
    """The look at ``reads`` passes by a rule only when the body holds none of its keys."""
    body, losses = _encode("openai-responses", model="gpt-5", temperature=0.5)
    assert "temperature" not in body
    # max_tokens 10 is below the Responses minimum: the range rule reads max_output_tokens
    assert _rule_losses(losses) == ["openai-responses.sampling_with_reasoning", "openai-responses.sampling_range"]
    body, losses = _encode("anthropic", model="claude-sonnet-4-5", temperature=0.5)
    assert _rule_losses(losses) == ["anthropic.sampling_removed"]


def test_every_openai_compatible_servers_ranges_sit_where_the_range_rule_reads() -> None:
    """OpenAI Chat's range rule is passed by for a body holding no key of OpenAI's ranges:
    a named server's own ranges must sit on those keys, or a value only it bounds would go
    unclamped."""
    from chatcodec._providers.openai_chat.servers import SERVERS

    table = rules_for("openai-chat")
    assert table is not None
    (rule,) = [rule for rule in table.rules if rule.name == "sampling_range"]
    assert rule.reads is not None
    for server in SERVERS.values():
        for item in server.sampling_ranges or ():
            assert (item.at[0] if item.at else item.key) in rule.reads, (server.name, item.key)


def test_a_rule_reading_a_key_an_earlier_rule_wrote_runs_and_one_reading_none_of_the_body_is_passed_by() -> None:
    """The rules a body passes to are worked out once per set of keys it holds (the rules in
    force remember them); an edit may write a key a later rule reads, and that rule then
    runs, as it would looking at the edited body itself."""
    ran: list[str] = []

    def adds_top_p(call: RuleCall) -> None:
        ran.append("adds_top_p")
        call.body["top_p"] = 0.5

    def reads_top_p(call: RuleCall) -> None:
        ran.append("reads_top_p")

    def reads_seed(call: RuleCall) -> None:
        ran.append("reads_seed")

    table = ProviderRules(
        "test-rules",
        ("v1",),
        "v1",
        "test",
        (
            TargetRule("adds_top_p", "s", "src", adds_top_p, reads=frozenset({"temperature"})),
            TargetRule("reads_seed", "s", "src", reads_seed, reads=frozenset({"seed"})),
            TargetRule("reads_top_p", "s", "src", reads_top_p, reads=frozenset({"top_p"})),
        ),
    )

    def applied(body: dict[str, Any]) -> list[str]:
        ran.clear()
        apply_target_rules(body, EncodeContext("test-rules", LossRecorder(), rules=table))
        return list(ran)

    assert applied({"model": "m"}) == []
    assert applied({"model": "m", "temperature": 1.0}) == ["adds_top_p", "reads_top_p"]
    assert applied({"model": "m", "top_p": 1.0}) == ["reads_top_p"]
    assert applied({"model": "m", "seed": 1, "temperature": 1.0}) == ["adds_top_p", "reads_seed", "reads_top_p"]
    assert applied({"model": "m"}) == []


def test_a_rule_that_takes_a_key_out_passes_the_later_rules_reading_it_by() -> None:
    """The rules a body passes to run in order on the one body; an edit that takes out the key a
    later one of them reads passes that rule by (it looks at the body as edited), and a rule
    reading what the body never held is never asked, whether or not an edit changed the keys."""
    ran: list[str] = []

    def edit(name: str, drop: str | None = None) -> Any:
        def edited(call: RuleCall) -> None:
            ran.append(name)
            if drop is not None:
                call.body.pop(drop, None)

        return edited

    table = ProviderRules(
        "test-rules",
        ("v1",),
        "v1",
        "test",
        (
            TargetRule("first", "s", "src", edit("first"), reads=frozenset({"temperature"})),
            TargetRule("drops_top_p", "s", "src", edit("drops_top_p", "top_p"), reads=frozenset({"top_p"})),
            TargetRule("reads_seed", "s", "src", edit("reads_seed"), reads=frozenset({"seed"})),
            TargetRule("every_body", "s", "src", edit("every_body")),
            TargetRule("reads_top_p", "s", "src", edit("reads_top_p"), reads=frozenset({"top_p"})),
            TargetRule("reads_temperature", "s", "src", edit("reads_temperature"), reads=frozenset({"temperature"})),
        ),
    )

    def applied(body: dict[str, Any]) -> list[str]:
        ran.clear()
        apply_target_rules(body, EncodeContext("test-rules", LossRecorder(), rules=table))
        return list(ran)

    assert applied({"model": "m", "temperature": 1.0}) == ["first", "every_body", "reads_temperature"]
    assert applied({"model": "m", "temperature": 1.0, "top_p": 1.0}) == [
        "first",
        "drops_top_p",
        "every_body",
        "reads_temperature",
    ]
    assert applied({"model": "m", "top_p": 1.0, "seed": 1}) == ["drops_top_p", "reads_seed", "every_body"]
