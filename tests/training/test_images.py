"""Images token-exact: each placeholder expanded to the count transformers' own processor gives.

The counts below are ``tools/check_images.py``'s (``make check-images``), which runs
transformers 5.24.0's ``Qwen2VLImageProcessorPil`` with each model's published
``preprocessor_config.json`` numbers and counts the pads as ``Qwen3VLProcessor`` writes them:
``python tools/check_images.py --golden`` printed them. A change to chatcodec's rule
(``_training/image_grids.py``) or its numbers (``families.json``) that moves a count fails here.
"""

from __future__ import annotations

import base64
import struct
import zlib
from typing import Any

import pytest

import chatcodec
from chatcodec import TemplateError, render, render_turns
from chatcodec._training import check, episode_run, families, image_grids, image_sizes
from training.qwen3_tokenizer import qwen3_encoding

# transformers 5.24.0: python tools/check_images.py --golden ((width, height), grid, pads; None: refused)
_QWEN3_5_VL = [
    ((1, 1), (1, 16, 16), 64),
    ((28, 28), (1, 16, 16), 64),
    ((200, 150), (1, 14, 20), 70),
    ((640, 480), (1, 30, 40), 300),
    ((1280, 720), (1, 44, 80), 880),
    ((1366, 768), (1, 48, 86), 1032),
    ((1296, 720), (1, 44, 80), 880),  # 40.5 and 22.5 patches of 32: half to even
    ((1920, 1080), (1, 68, 120), 2040),
    ((1440, 2560), (1, 160, 90), 3600),
    ((4800, 3600), (1, 220, 294), 16170),
    ((3000, 20), (1, 2, 188), 94),
    ((20, 3990), (1, 250, 2), 125),
    ((6000, 30), (1, 2, 376), 188),
    ((5000, 20), None, None),
]
_QWEN2_5_VL = [
    ((1, 1), (1, 4, 4), 4),
    ((28, 28), (1, 4, 4), 4),
    ((200, 150), (1, 10, 14), 35),
    ((640, 480), (1, 34, 46), 391),
    ((1280, 720), (1, 52, 92), 1196),
    ((1366, 768), (1, 54, 98), 1323),
    ((1296, 720), (1, 52, 92), 1196),
    ((1920, 1080), (1, 78, 138), 2691),
    ((1440, 2560), (1, 182, 102), 4641),
    ((4800, 3600), (1, 220, 294), 16170),
    ((3000, 20), (1, 2, 214), 107),
    ((20, 3990), (1, 284, 2), 142),
    ((6000, 30), (1, 2, 428), 214),
    ((5000, 20), None, None),
]
GOLDEN: dict[str, list[tuple[tuple[int, int], tuple[int, int, int] | None, int | None]]] = {
    "qwen3.5": _QWEN3_5_VL,
    "qwen3.6": _QWEN3_5_VL,
    "qwen3.5-training": _QWEN3_5_VL,  # the training templates: the same models, the same processor
    "qwen3.6-training": _QWEN3_5_VL,
    "qwen3-vl": _QWEN3_5_VL,
    "qwen2.5-vl": _QWEN2_5_VL,
}
PADS: dict[tuple[int, int], int] = {size: pads for size, _, pads in _QWEN3_5_VL if pads is not None}
PAD = qwen3_encoding().encode("<|image_pad|>", allowed_special="all")[0]


def png(width: int, height: int) -> bytes:
    """A PNG's signature and header chunk (all a size reader needs), then its end chunk."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IEND", b"")


def png_base64(width: int, height: int) -> str:
    return base64.b64encode(png(width, height)).decode()


def screenshot(width: int, height: int) -> dict[str, Any]:
    return {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": png_base64(width, height)}}


def browser_session(sizes: list[tuple[int, int]]) -> dict[str, Any]:
    """An Anthropic computer-use session: a question with a picture, then one screenshot a call."""
    first, *shots = sizes
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": [{"type": "text", "text": "What is on this page?"}, screenshot(*first)]}
    ]
    for number, size in enumerate(shots):
        call_id = f"toolu_{number}"
        messages += [
            {
                "role": "assistant",
                "content": [{"type": "tool_use", "id": call_id, "name": "screenshot", "input": {"step": number}}],
            },
            {
                "role": "user",
                "content": [
                    {
                        "type": "tool_result",
                        "tool_use_id": call_id,
                        "content": [{"type": "text", "text": f"shot {number}"}, screenshot(*size)],
                    }
                ],
            },
        ]
    messages.append({"role": "assistant", "content": [{"type": "text", "text": "A login form."}]})
    return {"model": "claude", "max_tokens": 64, "messages": messages}


GOLDEN_TEXT = [{"role": "user", "content": "Hi?"}, {"role": "assistant", "content": "Hello."}]
SIZES = [(1280, 720), (1, 1), (4800, 3600), (3000, 20), (1440, 2560), (20, 3990)]
"""A screenshot, and sizes the bounds clamp: tiny, huge, extreme aspects both ways, a portrait."""


@pytest.mark.parametrize("family", sorted(GOLDEN))
def test_the_counts_are_transformers_own_for_every_size(family: str) -> None:
    rule = image_grids.image_rule(family)
    assert rule is not None
    for (width, height), grid, pads in GOLDEN[family]:
        if grid is None:
            with pytest.raises(image_grids.RefusedSizeError, match="200 times"):
                image_grids.image_grid(rule, width, height)
            continue
        assert image_grids.image_grid(rule, width, height) == grid, (width, height)
        assert image_grids.pad_count(rule, grid) == pads, (width, height)


def test_every_family_whose_template_shows_images_has_a_rule_held_to_transformers() -> None:
    showing = {family for family in families.family_names() if families.stored_profile(family).images}
    assert showing == {family for family in families.family_names() if image_grids.image_rule(family) is not None}
    assert showing == set(GOLDEN)  # each rule's counts kept from check-images


def test_each_family_names_the_source_of_its_numbers() -> None:
    for family in GOLDEN:
        entry = families.families()[family]["images"]
        assert "preprocessor_config.json" in entry["source"]
        assert "transformers" in entry["source"]


@pytest.mark.parametrize("family", ["qwen3.5", "qwen3.6"])
def test_a_screenshot_session_holds_each_images_pads_as_transformers_counts_them(family: str) -> None:
    encoding = qwen3_encoding()
    losses: list[chatcodec.Loss] = []
    rendering = render(browser_session(SIZES), source="anthropic", template=family, tokenizer=encoding, losses=losses)
    assert not [loss for loss in losses if loss.what == "image tokens"]
    assert rendering.text.count("<|image_pad|>") == len(SIZES)  # the text is the template's: one a picture
    assert [image.size for image in rendering.images] == SIZES
    assert [image.grid for image in rendering.images] == [
        grid for size in SIZES for s, grid, _ in _QWEN3_5_VL if s == size
    ]
    ids = rendering.token_ids
    assert ids.count(PAD) == sum(PADS[size] for size in SIZES)
    for image in rendering.images:
        assert image.start is not None
        assert image.end is not None
        assert image.end - image.start == PADS[image.size]
        assert set(ids[image.start : image.end]) == {PAD}
        assert ids[image.start - 1] != PAD
        assert ids[image.end] != PAD
        assert True not in rendering.trainable[image.start : image.end]
        assert set(rendering.message_indices[image.start : image.end]) == {image.message}
    assert [image.path for image in rendering.images] == [
        "$.messages[0].content[1]",
        *(f"$.messages[{2 * number + 2}].content[0].content[1]" for number in range(len(SIZES) - 1)),
    ]
    # everything around the pictures is the template's text tokenized: the ids less the extra pads
    plain = render(browser_session([(1, 1)] * len(SIZES)), source="anthropic", template=family, tokenizer=encoding)
    squeeze = [token for index, token in enumerate(ids) if token != PAD or index == 0 or ids[index - 1] != PAD]
    assert squeeze == [
        token for index, token in enumerate(plain.token_ids) if token != PAD or plain.token_ids[index - 1] != PAD
    ]
    trained = [token for token, kept in zip(ids, rendering.trainable, strict=True) if kept]
    assert trained == [token for token, kept in zip(plain.token_ids, plain.trainable, strict=True) if kept]


def questions(sizes: list[tuple[int, int]]) -> list[dict[str, Any]]:
    """An OpenAI Chat conversation: a question with a picture and its answer, per size."""
    messages: list[dict[str, Any]] = []
    for number, size in enumerate(sizes):
        url = f"data:image/png;base64,{png_base64(*size)}"
        picture = {"type": "image_url", "image_url": {"url": url}}
        messages += [
            {"role": "user", "content": [{"type": "text", "text": f"And picture {number}?"}, picture]},
            {"role": "assistant", "content": f"Picture {number} shows a form."},
        ]
    return messages


@pytest.mark.parametrize("family", sorted(GOLDEN))
def test_every_family_with_a_rule_holds_transformers_count_for_each_picture(family: str) -> None:
    sizes = [(1280, 720), (1, 1), (4800, 3600), (3000, 20), (20, 3990)]
    counts = {size: pads for size, _, pads in GOLDEN[family] if pads is not None}
    rendering = render(questions(sizes), template=family, tokenizer=qwen3_encoding(), on_loss="error")
    assert [image.size for image in rendering.images] == sizes
    assert [(image.end or 0) - (image.start or 0) for image in rendering.images] == [counts[size] for size in sizes]
    assert rendering.token_ids.count(PAD) == sum(counts[size] for size in sizes)
    assert [image.message for image in rendering.images] == [0, 2, 4, 6, 8]


def test_an_unknown_templates_image_is_a_loss_at_its_part_and_one_placeholder() -> None:
    text = families.template_text("qwen3.6") + "\n"  # a template chatcodec does not know
    losses: list[chatcodec.Loss] = []
    rendering = render(
        browser_session([(1280, 720), (640, 480)]),
        source="anthropic",
        template=text,
        tokenizer=qwen3_encoding(),
        on_loss="ignore",
        losses=losses,
    )
    told = [loss for loss in losses if loss.what == "image tokens"]
    assert [loss.path for loss in told] == ["$.messages[0].content[1]", "$.messages[2].content[0].content[1]"]
    assert "no image processor rule" in told[0].why
    assert rendering.token_ids.count(PAD) == 2
    assert rendering.images == ()


def test_without_a_tokenizer_the_grids_are_given_and_nothing_is_lost() -> None:
    losses: list[chatcodec.Loss] = []
    rendering = render(browser_session([(1920, 1080)]), source="anthropic", template="qwen3.5", losses=losses)
    assert [(image.grid, image.start, image.end) for image in rendering.images] == [((1, 68, 120), None, None)]
    assert not [loss for loss in losses if loss.what == "image tokens"]


def url_question(url: str) -> list[dict[str, Any]]:
    return [
        {
            "role": "user",
            "content": [{"type": "text", "text": "and this?"}, {"type": "image_url", "image_url": {"url": url}}],
        },
        {"role": "assistant", "content": "A chart."},
    ]


def test_a_url_image_is_a_loss_unless_its_size_is_given() -> None:
    url = "https://example.com/chart.png"
    losses: list[chatcodec.Loss] = []
    rendering = render(
        url_question(url), template="qwen3.6", tokenizer=qwen3_encoding(), on_loss="ignore", losses=losses
    )
    told = [loss for loss in losses if loss.what == "image tokens"]
    assert [loss.path for loss in told] == ["$.messages[0].content[1]"]
    assert "image_sizes" in told[0].why
    assert rendering.token_ids.count(PAD) == 1
    sized = render(url_question(url), template="qwen3.6", tokenizer=qwen3_encoding(), image_sizes={url: (1280, 720)})
    assert sized.token_ids.count(PAD) == 880
    assert [(image.size, image.grid) for image in sized.images] == [((1280, 720), (1, 44, 80))]
    with pytest.raises(TemplateError, match="two positive integers") as refused:
        render(url_question(url), template="qwen3.6", tokenizer=qwen3_encoding(), image_sizes={url: (0, 720)})
    assert refused.value.path == f"$.image_sizes[{url!r}]"


def test_a_data_url_is_read_as_its_bytes() -> None:
    url = f"data:image/png;base64,{png_base64(640, 480)}"
    rendering = render(url_question(url), template="qwen3.5", tokenizer=qwen3_encoding())
    assert rendering.token_ids.count(PAD) == 300


def test_a_size_the_processor_refuses_is_a_loss_naming_the_bound() -> None:
    losses: list[chatcodec.Loss] = []
    rendering = render(
        browser_session([(5000, 20)]),
        source="anthropic",
        template="qwen3.6",
        tokenizer=qwen3_encoding(),
        on_loss="ignore",
        losses=losses,
    )
    told = [loss for loss in losses if loss.what == "image tokens"]
    assert len(told) == 1
    assert "more than 200 times apart" in told[0].why
    assert rendering.token_ids.count(PAD) == 1


def test_bytes_that_are_no_image_are_a_loss() -> None:
    session = browser_session([(10, 10)])
    session["messages"][0]["content"][1]["source"]["data"] = base64.b64encode(b"not an image at all").decode()
    losses: list[chatcodec.Loss] = []
    render(session, source="anthropic", template="qwen3.6", tokenizer=qwen3_encoding(), on_loss="ignore", losses=losses)
    assert [loss.why for loss in losses if loss.what == "image tokens"] == [
        "the image's bytes are no PNG, JPEG, WebP or GIF whose header gives its size"
    ]


def test_a_text_spelling_the_placeholder_is_refused() -> None:
    session = browser_session([(10, 10)])
    session["messages"][0]["content"][0]["text"] = "what is <|image_pad|>?"
    with pytest.raises(TemplateError, match="2 image placeholders for 1 images"):
        render(session, source="anthropic", template="qwen3.6", tokenizer=qwen3_encoding(), on_loss="ignore")


def test_render_turns_gives_each_prompt_its_images() -> None:
    sizes = [(1280, 720), (1, 1), (4800, 3600)]
    turns = render_turns(browser_session(sizes), source="anthropic", template="qwen3.6", tokenizer=qwen3_encoding())
    assert [len(turn.prompt_images) for turn in turns] == [1, 2, 3]
    for turn in turns:
        assert turn.prompt_ids.count(PAD) == sum(PADS[image.size] for image in turn.prompt_images)
        for image in turn.prompt_images:
            assert image.start is not None
            assert image.end is not None
            assert set(turn.prompt_ids[image.start : image.end]) == {PAD}
        assert PAD not in turn.completion_ids
    assert [image.size for image in turns[-1].prompt_images] == sizes
    # each turn's prompt is the one render gives the conversation before its answer
    whole = render(browser_session(sizes), source="anthropic", template="qwen3.6", tokenizer=qwen3_encoding())
    assert turns[-1].prompt_images == whole.images


def test_a_sample_gives_the_grids_of_its_images_in_order() -> None:
    sizes = [(1280, 720), (640, 480)]
    turns = render_turns(questions(sizes), template="qwen3-vl", tokenizer=qwen3_encoding())
    [sample] = chatcodec.trainer_samples(turns)  # Qwen3-VL's template is prefix-stable: one sample
    assert sample["image_grid_thw"] == [[1, 44, 80], [1, 30, 40]]
    sequence = sample["prompt_ids"] + sample["response_ids"]
    assert sequence.count(PAD) == 880 + 300
    assert [
        mask for token, mask in zip(sample["response_ids"], sample["response_mask"], strict=True) if token == PAD
    ] == [0] * 300  # the second picture lies between the turns: never trained
    [text_only] = chatcodec.trainer_samples(render_turns(GOLDEN_TEXT, template="qwen3-vl", tokenizer=qwen3_encoding()))
    assert "image_grid_thw" not in text_only


def jpeg(width: int, height: int, *, exif: int = 0) -> bytes:
    """A JPEG's start, an APP1 segment of ``exif`` bytes, fill bytes, then its frame header."""
    app1 = b"\xff\xe1" + struct.pack(">H", exif + 2) + b"\x00" * exif
    frame = b"\xff\xc0" + struct.pack(">HBHHB", 17, 8, height, width, 3) + b"\x00" * 9
    return b"\xff\xd8" + app1 + b"\xff\xff" + frame + b"\xff\xd9"


def webp(chunk: bytes, payload: bytes) -> bytes:
    body = b"WEBP" + chunk + struct.pack("<I", len(payload)) + payload
    return b"RIFF" + struct.pack("<I", len(body)) + body


def test_the_header_reader_reads_each_format() -> None:
    assert image_sizes.image_size(png(333, 4001)) == (333, 4001)
    assert image_sizes.image_size(b"GIF89a" + struct.pack("<HH", 640, 480) + b"\x00" * 4) == (640, 480)
    assert image_sizes.image_size(jpeg(1920, 1080)) == (1920, 1080)
    lossy = b"\x00\x00\x00\x9d\x01\x2a" + struct.pack("<HH", 1280, 720)
    assert image_sizes.image_size(webp(b"VP8 ", lossy)) == (1280, 720)
    bits = (1280 - 1) | ((720 - 1) << 14)
    assert image_sizes.image_size(webp(b"VP8L", b"\x2f" + struct.pack("<I", bits))) == (1280, 720)
    extended = b"\x10\x00\x00\x00" + (1279).to_bytes(3, "little") + (719).to_bytes(3, "little")
    assert image_sizes.image_size(webp(b"VP8X", extended)) == (1280, 720)


def test_a_jpeg_frame_header_past_the_base64_head_is_read_from_the_whole() -> None:
    data = base64.b64encode(jpeg(800, 600, exif=20_000)).decode()
    assert len(data) > 4096
    assert image_sizes.base64_image_size(data) == (800, 600)
    wrapped = "\n".join(data[start : start + 76] for start in range(0, len(data), 76))  # MIME lines
    assert image_sizes.base64_image_size(wrapped) == (800, 600)


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\x89PNG\r\n\x1a\n",  # cut short
        png(0, 10),  # no area
        b"\xff\xd8\xff\xe1\x00",  # a JPEG cut inside a segment
        b"\xff\xd8\x00\x00\x00\x00",  # a JPEG whose segments are no markers
        b"RIFF\x00\x00\x00\x00WEBPVP8 ",
        b"BM" + b"\x00" * 40,  # a bitmap: read by no engine's Qwen processor path here
    ],
)
def test_bytes_the_reader_cannot_read_give_no_size(data: bytes) -> None:
    assert image_sizes.image_size(data) is None


def test_base64_that_is_not_base64_gives_no_size() -> None:
    assert image_sizes.base64_image_size("%%%%") is None
    assert image_sizes.base64_image_size(base64.urlsafe_b64encode(png(3, 4)).decode()) == (3, 4)


def screenshot_episode(template: str) -> tuple[list[dict[str, Any]], chatcodec.SampledTurn]:
    """A question with a picture, a call for a screenshot, its result holding one: the first
    turn rendered, and the conversation with the result after it."""
    first = questions([(1280, 720)])[:1]
    call = {"id": "call_0", "type": "function", "function": {"name": "screenshot", "arguments": "{}"}}
    answer = {"role": "assistant", "content": "", "tool_calls": [call]}
    url = f"data:image/png;base64,{png_base64(640, 480)}"
    result = {
        "role": "tool",
        "tool_call_id": "call_0",
        "content": [{"type": "text", "text": "shot"}, {"type": "image_url", "image_url": {"url": url}}],
    }
    [turn] = render_turns([*first, answer], template=template, tokenizer=qwen3_encoding(), tools=[SCREENSHOT_TOOL])
    return [*first, answer, result], turn


SCREENSHOT_TOOL = {"type": "function", "function": {"name": "screenshot", "parameters": {"type": "object"}}}


def test_the_next_prompt_repeats_the_new_messages_images_as_render_does() -> None:
    conversation, turn = screenshot_episode("qwen3-vl")
    assert turn.prompt_ids.count(PAD) == 880
    found = chatcodec.next_prompt(
        turn, conversation, template="qwen3-vl", tokenizer=qwen3_encoding(), tools=[SCREENSHOT_TOOL]
    )
    assert found.prompt_break is None  # extended: the sampled ids kept
    assert found.prompt_ids[: len(turn.prompt_ids) + len(turn.completion_ids)] == turn.prompt_ids + turn.completion_ids
    assert found.prompt_ids.count(PAD) == 880 + 300
    whole = render(
        conversation,
        template="qwen3-vl",
        tokenizer=qwen3_encoding(),
        tools=[SCREENSHOT_TOOL],
        add_generation_prompt=True,
    )
    assert found.prompt_ids == whole.token_ids


def test_a_new_image_without_a_count_makes_the_next_prompt_fresh_and_says_why() -> None:
    conversation, turn = screenshot_episode("qwen3-vl")
    conversation[-1]["content"][1]["image_url"]["url"] = "https://example.com/shot.png"  # no size known
    losses: list[chatcodec.Loss] = []
    found = chatcodec.next_prompt(
        turn,
        conversation,
        template="qwen3-vl",
        tokenizer=qwen3_encoding(),
        tools=[SCREENSHOT_TOOL],
        on_loss="ignore",
        losses=losses,
    )
    assert found.prompt_break is not None
    assert "no token count" in found.prompt_break
    assert [loss.path for loss in losses if loss.what == "image tokens"] == ["$.messages[2].content[0].content[1]"]


def test_check_render_holds_the_ids_to_the_text_with_the_images_pads_repeated() -> None:
    found = check.check_render("qwen3-vl", tokenizer=qwen3_encoding(), count=len(check.SHAPES))
    assert "image" in check.SHAPES
    assert [finding for finding in found.findings if finding.aspect == "ids"] == []


@pytest.mark.parametrize(
    ("name", "family"), [("Qwen/Qwen2.5-VL-7B-Instruct", "qwen2.5-vl"), ("Qwen/Qwen3-VL-8B-Instruct", "qwen3-vl")]
)
def test_a_vision_model_s_name_suggests_its_family(name: str, family: str) -> None:
    assert families.suggestion(name) == family


def agent_with_pictures(unknown: bool) -> list[dict[str, Any]]:
    """A question with a picture, then three screenshot calls and results (one by URL when
    ``unknown``: no size given, a loss), and a last answer."""
    messages = questions([(1280, 720)])[:1]
    for number, size in enumerate([(640, 480), (4800, 3600), (20, 3990)]):
        call = {"id": f"call_{number}", "type": "function", "function": {"name": "screenshot", "arguments": "{}"}}
        url = (
            "https://example.com/shot.png" if unknown and number == 1 else f"data:image/png;base64,{png_base64(*size)}"
        )
        picture = {"type": "image_url", "image_url": {"url": url}}
        messages += [
            {"role": "assistant", "content": f"Step {number}.", "tool_calls": [call]},
            {"role": "tool", "tool_call_id": f"call_{number}", "content": [{"type": "text", "text": "shot"}, picture]},
        ]
    return [*messages, {"role": "assistant", "content": "Done."}]


@pytest.mark.parametrize("unknown", [False, True])
def test_one_run_turns_with_pictures_equal_the_turn_renders(monkeypatch: pytest.MonkeyPatch, unknown: bool) -> None:
    def turns_and_losses() -> tuple[list[chatcodec.SampledTurn], list[chatcodec.Loss]]:
        losses: list[chatcodec.Loss] = []
        found = render_turns(
            agent_with_pictures(unknown),
            template="qwen3-vl",
            tokenizer=qwen3_encoding(),
            tools=[SCREENSHOT_TOOL],
            on_loss="ignore",
            losses=losses,
        )
        return found, losses

    taken: list[bool] = []
    one_run = episode_run.one_run_turns

    def noted(*arguments: Any, **options: Any) -> Any:
        answer = one_run(*arguments, **options)
        taken.append(answer is not None)
        return answer

    monkeypatch.setattr(episode_run, "one_run_turns", noted)
    ran_once = turns_and_losses()
    assert taken == [True]  # Qwen3-VL is prefix-stable: one run gives every turn
    monkeypatch.setattr(episode_run, "one_run_turns", lambda *arguments, **options: None)
    by_renders = turns_and_losses()
    assert ran_once == by_renders
    turns, losses = ran_once
    assert [len(turn.prompt_images) for turn in turns] == ([1, 2, 2, 3] if unknown else [1, 2, 3, 4])
    assert [loss.path for loss in losses if loss.what == "image tokens"] == (
        ["$.messages[4].content[0].content[1]"] if unknown else []
    )
