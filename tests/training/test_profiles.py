"""Template profiles: the stored facts of each family are what its template shows, and an
unknown template is read for them or refused."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import chatcodec
from chatcodec import TemplateError, render, template_profile
from chatcodec._training import families
from chatcodec._training.profile import prefix_stable, read_profile


@pytest.mark.parametrize("family", families.family_names())
def test_each_stored_profile_is_what_its_template_shows(family: str) -> None:
    stored = families.stored_profile(family)
    text = families.template_text(family)
    assert read_profile(text, variables=dict(stored.variables)) == stored
    assert families.families()[family]["source"]
    assert families.families()[family]["licence"]


def test_the_profiles_say_what_the_templates_are_known_to_do() -> None:
    qwen3 = template_profile("qwen3")
    assert (qwen3.content, qwen3.reasoning_key, qwen3.arguments) == ("text", "reasoning_content", "text")
    assert qwen3.earlier_reasoning == "after_last_user"
    assert not qwen3.prefix_stable
    assert template_profile("qwen3-training").prefix_stable
    assert template_profile("qwen3-training").generation_tags
    assert template_profile("gpt-oss").refusals == ("content_beside_thinking_in_calls", "one_call_per_turn")
    assert template_profile("gpt-oss").reasoning_key == "thinking"
    assert template_profile("llama3.1").refusals == ("one_call_per_turn",)
    assert template_profile("qwen3.6").images
    assert template_profile("qwen3.6").content == "parts"
    assert template_profile("qwen3.6").generation_prompt.endswith("<think>\n")  # the prompt opens the reasoning
    assert template_profile("deepseek-v3").reasoning_key is None
    assert template_profile("glm-4.5").turn_end == ""


def test_a_template_given_as_text_is_its_family_or_read() -> None:
    assert template_profile(families.template_text("qwen3")) == template_profile("qwen3")
    chatml = (
        "{% for m in messages %}<|im_start|>{{ m.role }}\n{{ m.content }}<|im_end|>\n{% endfor %}"
        "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
    )
    profile = template_profile(chatml)
    assert (profile.content, profile.turn_end, profile.reasoning_key, profile.arguments) == (
        "text",
        "<|im_end|>",
        None,
        None,
    )
    assert profile.generation_prompt == "<|im_start|>assistant\n"
    assert profile.prefix_stable


@pytest.mark.parametrize(
    ("template", "message"),
    [
        ("qwen-3", "unknown chat template family 'qwen-3'"),
        ("{% for m in messages %}", "not valid Jinja"),
        ("{{ 'hello' }}", "renders no user text"),
        ("{% for m in messages %}{% if m.role == 'user' %}{{ m.content }}{% endif %}{% endfor %}", "no assistant"),
    ],
)
def test_a_template_chatcodec_cannot_shape_input_for_is_refused(template: str, message: str) -> None:
    with pytest.raises(TemplateError, match=message):
        template_profile(template)


def test_profiles_serialize_as_the_families_table_stores_them() -> None:
    stored = families.families()["qwen3"]["profile"]
    assert json.loads(json.dumps(template_profile("qwen3").as_data())) == stored


@pytest.mark.parametrize("family", ["qwen3", "qwen3-training", "llama3.1", "gpt-oss", "nemotron-3"])
def test_the_prefix_property_is_stated_not_assumed(family: str) -> None:
    profile = template_profile(family)
    assert prefix_stable(families.template_text(family), profile) is profile.prefix_stable


texts = st.text(alphabet=st.characters(categories=("L", "N", "Zs"), max_codepoint=0x2FF), min_size=1, max_size=20).map(
    lambda text: f"w{text}w"
)


@given(
    question=texts,
    reasoning=texts,
    answer=texts,
    result=texts,
    family=st.sampled_from(["qwen3", "qwen3.6", "llama3.1", "glm-4.5", "nemotron-3"]),
)
def test_every_canonical_part_is_rendered_or_reported(
    question: str, reasoning: str, answer: str, result: str, family: str
) -> None:
    conversation = [
        {"role": "user", "content": question},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "text": reasoning},
                {"type": "tool_use", "id": "c1", "name": "lookup", "arguments": '{"q": "x"}'},
            ],
        },
        {"role": "tool", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": result}]},
        {"role": "assistant", "content": [{"type": "thinking", "text": reasoning}, {"type": "text", "text": answer}]},
    ]
    losses: list[chatcodec.Loss] = []
    rendering = render(conversation, template=family, on_loss="ignore", losses=losses)
    reported = {loss.path for loss in losses}
    for path, text in [
        ("$.messages[0]", question),
        ("$.messages[1].content[0]", reasoning),
        ("$.messages[2].content[0]", result),
        ("$.messages[3].content[0]", reasoning),
        ("$.messages[3].content[1]", answer),
    ]:
        assert text.strip() in rendering.text or path in reported, (path, text)
    assert render(conversation, template=family, on_loss="ignore") == rendering
