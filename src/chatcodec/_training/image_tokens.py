"""Each image's placeholder expanded to the tokens the engine runs on, with its grid and span.

A Qwen-VL template writes one ``<|image_pad|>`` an image; the engine's processor repeats it once
per merged patch of the resized image (:mod:`.image_grids`), so the prompt the model ran on is
longer than the template's text tokenized. The text stays the template's (a processor takes it
with the images and expands it itself); the ids, their marks and each image's place among them
are the engine's. Where the count cannot be told (a family whose processor rule chatcodec does
not hold, an image whose size neither its bytes nor the caller give, one the processor refuses),
the placeholder stays one token and a loss at the image part's path says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final, cast

from chatcodec import ImagePart
from chatcodec._compat import source_from_url
from chatcodec._training import image_grids, image_sizes
from chatcodec._training.errors import TemplateError
from chatcodec._training.tokens import Encode
from chatcodec.codec_kit import json_path
from chatcodec.contract import LossRecorder, Steps

ImageSizes = Mapping[str, tuple[int, int]]
"""Sizes a caller gives, ``(width, height)`` by the image's URL or file id: the images whose
bytes the rendering does not hold (a URL chatcodec does not fetch)."""

UNTOLD: Final = "image tokens"
"""What a loss names where an image's token count cannot be told."""


@dataclass(frozen=True, slots=True)
class ImageTokens:
    """One image of a rendering as the engine takes it: its size, its grid and its tokens."""

    message: int
    """Index of the canonical message holding the image."""
    path: str
    """The image part's path in the canonical messages (``$.messages[2].content[1]``)."""
    size: tuple[int, int]
    """The image's ``(width, height)`` in pixels, read from its bytes or given by the caller."""
    grid: tuple[int, int, int]
    """Its patches as the processor's ``image_grid_thw`` row: ``(t, h, w)``."""
    start: int | None = None
    """Where its placeholder tokens start in the rendering's ids (None without a tokenizer)."""
    end: int | None = None
    """Where they end (exclusive): ``end - start`` is the grid's patches over ``merge_size**2``."""


def planned(
    family: str | None,
    images: Sequence[tuple[Steps, ImagePart]],
    sizes: ImageSizes | None,
    recorder: LossRecorder,
    *,
    tokenized: bool,
) -> list[ImageTokens | None]:
    """Each shaped image's size and grid, in the order the template writes them; None for an
    image whose count cannot be told, a loss at its path where the rendering is ``tokenized``
    (a text alone is what the engine takes, and loses nothing)."""
    rule = image_grids.image_rule(family)
    found: list[ImageTokens | None] = []
    for path, part in images:
        why, told = _told(rule, part, sizes)
        if told is None:
            if tokenized:
                recorder.add(path, UNTOLD, why, "content")
            found.append(None)
        else:
            found.append(ImageTokens(message=int(path[1]), path=json_path(path), size=told[0], grid=told[1]))
    return found


_NO_RULE = (
    "chatcodec holds no image processor rule for this template: the engine writes this image as more tokens "
    "than the one placeholder in the ids"
)


def _told(
    rule: image_grids.ImageRule | None, part: ImagePart, sizes: ImageSizes | None
) -> tuple[str, tuple[tuple[int, int], tuple[int, int, int]] | None]:
    """The image's size and grid, or why they cannot be told."""
    if rule is None:
        return _NO_RULE, None
    why, size = _size(part, sizes)
    if size is None:
        return why, None
    try:
        return "", (size, image_grids.image_grid(rule, *size))
    except image_grids.RefusedSizeError as refused:
        return str(refused), None


def _size(part: ImagePart, sizes: ImageSizes | None) -> tuple[str, tuple[int, int] | None]:
    """The image's size and, where there is none, why."""
    source = part.source
    if source.type == "url" and source.url.startswith("data:"):
        split = source_from_url(source.url)
        if split["type"] == "base64":
            data, reference = str(split["data"]), None
        else:
            data, reference = None, source.url
    elif source.type == "base64":
        data, reference = source.data, None
    else:
        data, reference = None, source.url if source.type == "url" else source.file_id
    if reference is not None:
        given = (sizes or {}).get(reference)
        if given is None:
            return (
                "the image's bytes are not in the conversation (chatcodec fetches no URL): give its size in "
                "image_sizes, by its URL or file id",
                None,
            )
        return _checked(given, reference)
    assert data is not None
    read = image_sizes.base64_image_size(data)
    if read is None:
        return "the image's bytes are no PNG, JPEG, WebP or GIF whose header gives its size", None
    return "", read


def _checked(given: object, reference: str) -> tuple[str, tuple[int, int] | None]:
    sides: list[object] = list(cast("Sequence[object]", given)) if isinstance(given, tuple | list) else []
    if len(sides) == 2 and all(isinstance(side, int) and not isinstance(side, bool) and side > 0 for side in sides):
        width, height = cast("list[int]", sides)
        return "", (width, height)
    raise TemplateError(
        f"an image's size is (width, height), two positive integers, not {given!r}",
        path=f"$.image_sizes[{reference!r}]",
        rule="image_size",
    )


def holds_image(value: object) -> bool:
    """Whether canonical data (messages as dicts, a tool result's content) holds an image part."""
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            entries = cast("dict[str, object]", node)
            if entries.get("type") == "image":
                return True
            stack.extend(entries.values())
        elif isinstance(node, list | tuple):
            stack.extend(cast("Sequence[object]", node))
    return False


def known(images: list[ImageTokens | None]) -> tuple[ImageTokens, ...]:
    """The images whose count is known (the others are losses)."""
    return tuple(image for image in images if image is not None)


def expanded(
    encode: Encode,
    family: str | None,
    images: list[ImageTokens | None],
    *,
    ids: list[int],
    trainable: list[bool],
    owners: list[int],
) -> tuple[list[int], list[bool], list[int], tuple[ImageTokens, ...]]:
    """``ids`` with each image's placeholder repeated to its count, the trained flags and owners
    (one per id) repeated alike, and the images with their spans in the new ids. The ``n``-th
    placeholder id is the ``n``-th image the template wrote; a rendering holding another count
    of them (a text spelling the placeholder) is refused, since no image can then be placed."""
    rule = image_grids.image_rule(family)
    if not images or rule is None:
        return ids, trainable, owners, known(images)
    placeholder = encode(rule.placeholder)
    if len(placeholder) != 1:
        raise TemplateError(
            f"the tokenizer reads the image placeholder {rule.placeholder!r} as {len(placeholder)} tokens, not one",
            path="$.tokenizer",
            rule="single_token_marker",
        )
    (pad,) = placeholder
    places = [position for position, token in enumerate(ids) if token == pad]
    if len(places) != len(images):
        raise TemplateError(
            f"the rendering holds {len(places)} image placeholders for {len(images)} images: a text spelling "
            f"{rule.placeholder!r} cannot be told from an image",
            rule="image_placeholders",
        )
    new_ids: list[int] = []
    new_trainable: list[bool] = []
    new_owners: list[int] = []
    placed: list[ImageTokens] = []
    last = 0
    for position, image in zip(places, images, strict=True):
        count = 1 if image is None else image_grids.pad_count(rule, image.grid)
        new_ids += ids[last:position]
        new_trainable += trainable[last:position] + [trainable[position]] * count
        new_owners += owners[last:position] + [owners[position]] * count
        if image is not None:
            placed.append(replace(image, start=len(new_ids), end=len(new_ids) + count))
        new_ids += [pad] * count
        last = position + 1
    return (
        new_ids + ids[last:],
        new_trainable + trainable[last:],
        new_owners + owners[last:],
        tuple(placed),
    )
