"""How many tokens an engine gives one image: a family's image processor rule, as data.

Qwen2-VL's processor (which Qwen2.5-VL, Qwen3-VL, Qwen3.5 and Qwen3.6 reuse with their own
numbers) resizes an image so each side is a multiple of ``patch_size * merge_size`` and its
area lies within ``[min_pixels, max_pixels]`` (``smart_resize`` in transformers'
``models/qwen2_vl/image_processing_qwen2_vl.py``), cuts it into patches (an image is one
temporal patch: its grid is ``(1, height / patch, width / patch)``), and the processor writes
one ``<|image_pad|>`` per ``merge_size**2`` patches (``replace_image_token`` in
``processing_qwen3_vl.py``). vLLM and SGLang run the same processor. The numbers are each
family's ``images`` entry in ``families.json``, copied from the model's published
``preprocessor_config.json`` with its source; ``tools/check_images.py`` holds the counts equal
to transformers' own processor's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from chatcodec._training import families


@dataclass(frozen=True, slots=True)
class ImageRule:
    """A family's image processor numbers (its ``preprocessor_config.json``)."""

    placeholder: str
    """The token the template writes once an image and the engine repeats (``<|image_pad|>``)."""
    patch_size: int
    merge_size: int
    min_pixels: int
    """The least area an image is resized to (``size.shortest_edge`` in the config)."""
    max_pixels: int
    """The largest area an image is resized to (``size.longest_edge`` in the config)."""
    max_aspect_ratio: float
    """The longest side over the shortest past which the processor refuses an image."""


def image_rule(family: str | None) -> ImageRule | None:
    """The image rule ``families.json`` stores for ``family``; None for a family with none
    (or a template chatcodec does not know)."""
    if family is None:
        return None
    entry: dict[str, Any] | None = families.families().get(family, {}).get("images")
    if entry is None:
        return None
    return ImageRule(
        placeholder=str(entry["placeholder"]),
        patch_size=int(entry["patch_size"]),
        merge_size=int(entry["merge_size"]),
        min_pixels=int(entry["min_pixels"]),
        max_pixels=int(entry["max_pixels"]),
        max_aspect_ratio=float(entry["max_aspect_ratio"]),
    )


class RefusedSizeError(ValueError):
    """An image size the processor refuses (its sides too far apart)."""


def resized(rule: ImageRule, width: int, height: int) -> tuple[int, int]:
    """``(width, height)`` the processor resizes an image of this size to (``smart_resize``):
    each side rounded to the nearest multiple of the factor, then the area scaled into
    ``[min_pixels, max_pixels]`` keeping the aspect. Python's ``round`` (half to even) is the
    processor's rounding."""
    if max(width, height) / min(width, height) > rule.max_aspect_ratio:
        raise RefusedSizeError(
            f"the image's sides ({width}x{height}) are more than {rule.max_aspect_ratio:g} times apart, "
            f"which the model's image processor refuses"
        )
    factor = rule.patch_size * rule.merge_size
    new_height = round(height / factor) * factor
    new_width = round(width / factor) * factor
    if new_height * new_width > rule.max_pixels:
        beta = math.sqrt(height * width / rule.max_pixels)
        new_height = max(factor, math.floor(height / beta / factor) * factor)
        new_width = max(factor, math.floor(width / beta / factor) * factor)
    elif new_height * new_width < rule.min_pixels:
        beta = math.sqrt(rule.min_pixels / (height * width))
        new_height = math.ceil(height * beta / factor) * factor
        new_width = math.ceil(width * beta / factor) * factor
    return new_width, new_height


def image_grid(rule: ImageRule, width: int, height: int) -> tuple[int, int, int]:
    """The image's grid in patches, ``(t, h, w)`` as the processor's ``image_grid_thw``."""
    new_width, new_height = resized(rule, width, height)
    return 1, new_height // rule.patch_size, new_width // rule.patch_size


def pad_count(rule: ImageRule, grid: tuple[int, int, int]) -> int:
    """How many placeholder tokens the engine writes for an image of ``grid``."""
    t, h, w = grid
    return t * h * w // (rule.merge_size * rule.merge_size)
