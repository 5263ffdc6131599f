"""chatcodec.render: conversations through models' own chat templates, with ids and masks."""

from __future__ import annotations

import warnings
from typing import ClassVar

import pytest

import chatcodec
from chatcodec import TemplateError, render
from training.qwen3_tokenizer import qwen3_encoding, qwen_ranks_with_llama_markers

PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

WEATHER_TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "Current weather in a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
    },
}

# The golden conversation of the renderers project's corpus: a system prompt, a user question,
# a tool list, an answer with reasoning.
GOLDEN = {
    "model": "Qwen/Qwen3-8B",
    "messages": [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "What is the weather like in Paris today?"},
        {
            "role": "assistant",
            "content": "I can look that up: which unit do you prefer?",
            "reasoning_content": "The user wants the weather. I should ask about the unit first.",
        },
    ],
    "tools": [WEATHER_TOOL],
}

ANTHROPIC_SESSION = {
    "model": "claude-sonnet-4-5",
    "max_tokens": 1024,
    "system": "You are a browsing agent.",
    "tools": [
        {
            "name": "screenshot",
            "description": "Take a screenshot of the page.",
            "input_schema": {"type": "object", "properties": {"url": {"type": "string"}}, "required": ["url"]},
        }
    ],
    "messages": [
        {"role": "user", "content": "What does example.com show?"},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "I need to look at the page first.", "signature": "sig-1"},
                {"type": "tool_use", "id": "toolu_01", "name": "screenshot", "input": {"url": "https://example.com"}},
            ],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_01",
                    "content": [
                        {"type": "text", "text": "Page title: Example Domain"},
                        {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}},
                    ],
                }
            ],
        },
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "The title says Example Domain.", "signature": "sig-2"},
                {"type": "text", "text": "The page shows the Example Domain placeholder."},
            ],
        },
    ],
}


def quiet_render(*args: object, **kwargs: object) -> chatcodec.Rendering:
    losses: list[chatcodec.Loss] = []
    rendering = render(*args, on_loss="ignore", losses=losses, **kwargs)  # type: ignore[arg-type]
    assert rendering.losses == losses
    return rendering


def test_qwen3_golden_conversation_ids_match_the_tokenizer_and_template() -> None:
    encoding = qwen3_encoding()
    rendering = quiet_render(GOLDEN, template="qwen3", source="openai-chat", tokenizer=encoding)
    assert rendering.token_ids is not None
    assert rendering.trainable is not None
    # the completed turn: the whole text's ids, as apply_chat_template(tokenize=True) gives them
    assert rendering.token_ids == encoding.encode(rendering.text, allowed_special="all")
    assert rendering.token_ids[:3] == [151644, 8948, 198]  # <|im_start|>system\n, Qwen's own ids
    # the generation prompt: the conversation before the answer, rendered with the prompt
    prompt = quiet_render(
        {**GOLDEN, "messages": GOLDEN["messages"][:2]},
        template="qwen3",
        source="openai-chat",
        tokenizer=encoding,
        add_generation_prompt=True,
    )
    assert prompt.token_ids is not None
    assert prompt.trainable == [False] * len(prompt.token_ids)
    assert prompt.text.endswith("<|im_start|>assistant\n")
    first_trained = rendering.trainable.index(True)
    assert rendering.token_ids[:first_trained] == prompt.token_ids
    # the sampled tokens: <think> ... </think>, the answer, <|im_end|>; not the newline after it
    sampled = [token for token, trained in zip(rendering.token_ids, rendering.trainable, strict=True) if trained]
    assert sampled[0] == 151667  # <think>
    assert sampled[-1] == 151645  # <|im_end|>
    assert encoding.decode(sampled) == (
        "<think>\nThe user wants the weather. I should ask about the unit first.\n</think>\n\n"
        "I can look that up: which unit do you prefer?<|im_end|>"
    )
    assert rendering.trainable[-1] is False
    assert rendering.token_ids[-1] == 198
    assert rendering.message_indices is not None
    assert set(rendering.message_indices[:first_trained]) == {0, 1, 2}
    assert set(rendering.message_indices[first_trained:]) == {2}


def test_anthropic_agent_session_through_qwen3_keeps_the_result_and_answer_and_reports_the_image() -> None:
    losses: list[chatcodec.Loss] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rendering = render(ANTHROPIC_SESSION, template="qwen3", source="anthropic", losses=losses)
    text = rendering.text
    assert "<tool_response>\nPage title: Example Domain\n</tool_response>" in text
    assert "The page shows the Example Domain placeholder.<|im_end|>" in text
    assert "<think>\nThe title says Example Domain.\n</think>" in text
    assert "<think>\nI need to look at the page first.\n</think>" in text
    # Anthropic's input is an object: spelled as Qwen3's tojson spells one, as the model saw it (issue 97)
    assert '<tool_call>\n{"name": "screenshot", "arguments": {"url": "https://example.com"}}' in text
    assert "<|im_start|>system\nYou are a browsing agent." in text
    image = [loss for loss in losses if loss.what == "image part"]
    assert [loss.path for loss in image] == ["$.messages[2].content[0].content[1]"]  # the Anthropic body's own place
    assert "renders no images" in image[0].why
    assert {loss.what for loss in losses} == {"image part", "thinking signature"}
    (warning,) = caught  # one warning for the rendering, listing every loss
    assert isinstance(warning.message, chatcodec.LossWarning)
    assert warning.message.losses == losses
    last = rendering.sampled[-1]
    assert text[last.start : last.end].endswith("placeholder.<|im_end|>")


def test_llama_without_generation_tags_trains_every_answer_and_no_user_text() -> None:
    conversation = [
        {"role": "user", "content": "Name a colour."},
        {"role": "assistant", "content": "Blue."},
        {"role": "user", "content": "Another one?"},
        {"role": "assistant", "content": "Green."},
    ]
    rendering = quiet_render(
        conversation,
        template="llama3.1",
        tokenizer=qwen_ranks_with_llama_markers(),  # a vocabulary holding Llama's markers
        train_on="all_assistant_messages",
    )
    assert chatcodec.template_profile("llama3.1").generation_tags is False
    assert rendering.token_ids is not None
    assert rendering.trainable is not None
    assert rendering.message_indices is not None
    encoding = qwen_ranks_with_llama_markers()
    trained_by_message: dict[int, str] = {}
    for token, trained, message in zip(
        rendering.token_ids, rendering.trainable, rendering.message_indices, strict=True
    ):
        if trained:
            trained_by_message[message] = trained_by_message.get(message, "") + encoding.decode([token])
    assert trained_by_message == {1: "Blue.<|eot_id|>", 3: "Green.<|eot_id|>"}
    last_only = quiet_render(conversation, template="llama3.1", tokenizer=encoding)
    assert last_only.trainable is not None
    assert last_only.message_indices is not None
    assert {m for m, t in zip(last_only.message_indices, last_only.trainable, strict=True) if t} == {3}


def weather_loop(arguments: str) -> dict[str, object]:
    """An OpenAI Chat agent step: reasoning and a call, its result, reasoning and the answer."""
    call = {"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": arguments}}
    return {
        "model": "m",
        "messages": [
            {"role": "user", "content": "Weather in Paris?"},
            {"role": "assistant", "content": "", "reasoning_content": "Call the tool.", "tool_calls": [call]},
            {"role": "tool", "tool_call_id": "c1", "content": "18C"},
            {"role": "assistant", "content": "It is 18C.", "reasoning_content": "Answer now."},
        ],
        "tools": [WEATHER_TOOL],
    }


def test_generation_tags_and_prefix_spans_agree_where_the_template_is_prefix_stable() -> None:
    conversation = weather_loop('{"city":"Paris"}')
    tagged = quiet_render(
        conversation, template="qwen3-training", source="openai-chat", train_on="all_assistant_messages"
    )
    stock = quiet_render(conversation, template="qwen3", source="openai-chat", train_on="all_assistant_messages")
    assert chatcodec.template_profile("qwen3-training").generation_tags
    assert tagged.text == stock.text
    assert tagged.sampled == stock.sampled
    assert '{"name": "get_weather", "arguments": {"city":"Paris"}}' in stock.text  # the model's own text


def test_a_turn_the_template_rerenders_differently_cannot_be_trained_without_tags() -> None:
    conversation = weather_loop('{"city": "Paris"}')
    last = quiet_render(conversation, template="gpt-oss", source="openai-chat")
    span = last.sampled[-1]
    assert last.text[span.start : span.end] == (
        "<|channel|>analysis<|message|>Answer now.<|end|>"
        "<|start|>assistant<|channel|>final<|message|>It is 18C.<|return|>"
    )
    with pytest.raises(TemplateError) as raised:
        quiet_render(conversation, template="gpt-oss", source="openai-chat", train_on="all_assistant_messages")
    assert raised.value.path == "$.messages[1]"
    # gpt-oss drops the call turn's analysis once a final answer follows: reported, not silent
    assert any(loss.path == "$.messages[1].reasoning_content" and loss.what == "thinking part" for loss in last.losses)


def test_gpt_oss_refuses_text_beside_reasoning_in_a_calling_turn_so_the_text_is_reported() -> None:
    conversation = [
        {"role": "user", "content": "Weather?"},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "text": "Need the tool."},
                {"type": "text", "text": "Let me check."},
                {"type": "tool_use", "id": "c1", "name": "get_weather", "arguments": '{"city": "Paris"}'},
            ],
        },
    ]
    rendering = quiet_render(conversation, template="gpt-oss")
    assert "Let me check." not in rendering.text
    assert "Need the tool." in rendering.text
    assert [(loss.path, loss.what) for loss in rendering.losses] == [
        ("$.messages[1].content", "text beside reasoning in a calling turn")
    ]


def test_arguments_rewritten_by_a_template_taking_objects_are_reported() -> None:
    conversation = [
        {"role": "user", "content": "Weather?"},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "c1", "name": "get_weather", "arguments": '{"city":"Paris"}'}],
        },
    ]
    exact = quiet_render(conversation, template="qwen3")
    assert exact.losses == []
    rewritten = quiet_render(conversation, template="qwen3.6")
    assert [(loss.path, loss.kind) for loss in rewritten.losses] == [("$.messages[1].content[0].arguments", "spelling")]
    assert "<parameter=city>\nParis\n</parameter>" in rewritten.text


def test_a_mask_that_trains_nothing_is_an_error() -> None:
    with pytest.raises(TemplateError, match="no assistant message"):
        render([{"role": "user", "content": "hi"}], template="qwen3")
    prompt = render([{"role": "user", "content": "hi"}], template="qwen3", add_generation_prompt=True)
    assert prompt.sampled == ()
    assert prompt.text.endswith("<|im_start|>assistant\n")
    # a prompt after earlier answers trains none of them unless asked: the answer to come is the model's
    history = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "yo"},
        {"role": "user", "content": "?"},
    ]
    asked = render(history, template="llama3.1", add_generation_prompt=True, tokenizer=qwen_ranks_with_llama_markers())
    assert asked.trainable is not None
    assert not any(asked.trainable)
    every = render(
        history,
        template="llama3.1",
        add_generation_prompt=True,
        tokenizer=qwen_ranks_with_llama_markers(),
        train_on="all_assistant_messages",
    )
    assert every.trainable is not None
    assert any(every.trainable)
    with pytest.raises(ValueError, match="train_on"):
        render(
            [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}],
            template="qwen3",
            train_on="all",
        )  # type: ignore[arg-type]


def test_rendering_is_deterministic() -> None:
    first = quiet_render(ANTHROPIC_SESSION, template="qwen3.6", source="anthropic", tokenizer=qwen3_encoding())
    second = quiet_render(ANTHROPIC_SESSION, template="qwen3.6", source="anthropic", tokenizer=qwen3_encoding())
    assert first == second


def test_images_render_as_placeholders_where_the_template_shows_them() -> None:
    rendering = quiet_render(ANTHROPIC_SESSION, template="qwen3.6", source="anthropic")
    assert "<|vision_start|><|image_pad|><|vision_end|>" in rendering.text
    assert all(loss.what != "image part" for loss in rendering.losses)


def test_a_tokenizer_json_path_and_a_tokenizer_carrying_its_template(tmp_path: pytest.TempPathFactory) -> None:
    import tokenizers

    model = tokenizers.models.WordLevel({"[UNK]": 0, "hi": 1, "yo": 2, "user": 3, "assistant": 4}, unk_token="[UNK]")
    tokenizer = tokenizers.Tokenizer(model)
    tokenizer.pre_tokenizer = tokenizers.pre_tokenizers.Whitespace()
    tokenizer.add_special_tokens(["<|im_start|>", "<|im_end|>", "<think>", "</think>"])  # Qwen3's markers
    path = tmp_path / "tokenizer.json"  # type: ignore[operator]
    tokenizer.save(str(path))
    conversation = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]
    rendering = quiet_render(conversation, template="qwen3", tokenizer=str(path))
    assert rendering.token_ids == tokenizer.encode(rendering.text, add_special_tokens=False).ids
    assert rendering.token_ids[:3] == [5, 3, 1]  # <|im_start|> user hi: the file's own ids
    assert rendering.trainable is not None
    assert rendering.token_ids is not None
    trained = [token for token, flag in zip(rendering.token_ids, rendering.trainable, strict=True) if flag]
    assert trained[-1] == 6
    assert 2 in trained

    class CarriesTemplate:
        chat_template = "{% for m in messages %}<{{ m.role }}>{{ m.content }}</s>{% endfor %}"
        special_tokens_map: ClassVar[dict[str, str]] = {"eos_token": "</s>"}

        def encode(self, text: str, add_special_tokens: bool = False) -> list[int]:
            return [ord(character) for character in text]

    carried = quiet_render(conversation, tokenizer=CarriesTemplate())
    assert carried.text == "<user>hi</s><assistant>yo</s>"
    assert carried.template_family is None
    # a template without a generation prompt: the model writes its own role header
    assert carried.trainable == [False] * len("<user>hi</s>") + [True] * len("<assistant>yo</s>")


def test_a_template_failing_on_a_tool_without_a_field_names_that_tool() -> None:
    # gpt-oss writes every tool's description unguarded; OpenAI's tools may leave it out
    bare = {"type": "function", "function": {"name": "ping", "parameters": {"type": "object", "properties": {}}}}
    conversation = [{"role": "user", "content": "Weather?"}, {"role": "assistant", "content": "Sunny."}]
    with pytest.raises(TemplateError, match="no attribute 'description'") as raised:
        render(conversation, template="gpt-oss", tools=[WEATHER_TOOL, bare])
    assert raised.value.path == "$.tools[1].function.description"
    assert str(raised.value).startswith("at $.tools[1].function.description: ")
    # with every tool described it renders
    described = {"type": "function", "function": {**bare["function"], "description": "Answers pong."}}
    assert "Answers pong." in render(conversation, template="gpt-oss", tools=[WEATHER_TOOL, described]).text


@pytest.mark.parametrize("family", ["qwen3.5", "qwen3.6"])
def test_a_system_message_s_tokens_are_message_0s_where_the_template_refuses_it_alone(family: str) -> None:
    """Issue 108: Qwen3.5 and 3.6 refuse a conversation with no user message, so the system
    message's end was unknown and its tokens carried message 1's index; it ends where a user
    turn written after it begins."""
    from training.qwen3_tokenizer import qwen3_encoding

    encoding = qwen3_encoding()
    messages = [
        {"role": "system", "content": "Be brief."},
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "yo"},
    ]
    rendering = chatcodec.render(messages, template=family, tokenizer=encoding)
    owned: dict[int, list[int]] = {}
    for token, index in zip(rendering.token_ids, rendering.message_indices, strict=True):
        owned.setdefault(index, []).append(token)
    assert encoding.decode(owned[0]) == "<|im_start|>system\nBe brief.<|im_end|>\n"
    assert encoding.decode(owned[1]) == "<|im_start|>user\nhi<|im_end|>\n"
    assert sorted(owned) == [0, 1, 2]
