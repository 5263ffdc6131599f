"""chatcodec's image token counts against transformers' own image processor, size by size.

An engine expands each image placeholder of a Qwen-VL prompt to one token per merged patch of
the resized image; chatcodec computes that count from the image's size and the family's numbers
in ``families.json`` (``_training/image_grids.py``). This tool builds a blank image of each size
below, runs transformers' ``Qwen2VLImageProcessorPil`` (the processor Qwen2.5-VL, Qwen3-VL,
Qwen3.5 and Qwen3.6 name in their ``preprocessor_config.json``; the PIL build needs no torch)
configured with each model's published numbers (held here, apart from chatcodec's data, so a
wrong copy in ``families.json`` is caught), takes its ``image_grid_thw``, and counts the pads
as the model's processor class writes them (``replace_image_token``); then it asks chatcodec
for the same and fails on any difference. The sizes include ones the bounds clamp: tiny (below
``min_pixels``), huge (above ``max_pixels``), an extreme aspect, and one the processor refuses.
It also writes files of each format PIL writes (PNG, JPEG, GIF, WebP's three kinds) and holds
chatcodec's header reader (``_training/image_sizes.py``) to PIL's ``Image.size`` on them, and
renders a conversation of such files for each family, each image's grid in the rendering held to
the processor's for the image PIL decodes from the same bytes.

transformers is not in the dev venv: ``make check-images`` makes ``.venv-images`` with it and
runs this file there. ``--golden`` prints the counts as the tests keep them
(``tests/training/test_images.py``: ``GOLDEN``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from chatcodec._training import image_grids, image_sizes  # noqa: E402

PUBLISHED: dict[str, dict[str, Any]] = {
    # Qwen/Qwen3.5-9B-Base and Qwen/Qwen3.6-27B preprocessor_config.json (the same numbers)
    "qwen3.5": {
        "size": {"shortest_edge": 65536, "longest_edge": 16777216},
        "patch_size": 16,
        "temporal_patch_size": 2,
        "merge_size": 2,
        "processor": "qwen3_vl.processing_qwen3_vl.Qwen3VLProcessor",
    },
    "qwen3.6": {
        "size": {"shortest_edge": 65536, "longest_edge": 16777216},
        "patch_size": 16,
        "temporal_patch_size": 2,
        "merge_size": 2,
        "processor": "qwen3_vl.processing_qwen3_vl.Qwen3VLProcessor",
    },
    # Qwen/Qwen3-VL-8B-Instruct preprocessor_config.json
    "qwen3-vl": {
        "size": {"shortest_edge": 65536, "longest_edge": 16777216},
        "patch_size": 16,
        "temporal_patch_size": 2,
        "merge_size": 2,
        "processor": "qwen3_vl.processing_qwen3_vl.Qwen3VLProcessor",
    },
    # Qwen/Qwen2.5-VL-7B-Instruct preprocessor_config.json (min_pixels, max_pixels: the size's two edges)
    "qwen2.5-vl": {
        "size": {"shortest_edge": 3136, "longest_edge": 12845056},
        "patch_size": 14,
        "temporal_patch_size": 2,
        "merge_size": 2,
        "processor": "qwen2_5_vl.processing_qwen2_5_vl.Qwen2_5_VLProcessor",
    },
}
"""Each family's image processor numbers as the model's repository publishes them."""

SIZES: tuple[tuple[int, int], ...] = (
    (1, 1),  # tiny: scaled up to min_pixels
    (28, 28),
    (200, 150),  # small: below min_pixels
    (640, 480),
    (1280, 720),  # a screenshot
    (1366, 768),
    (1296, 720),  # 1296 / 32 = 40.5: Python's round, half to even, gives 40
    (1920, 1080),
    (1440, 2560),  # a phone's screen, portrait
    (4800, 3600),  # huge: above max_pixels, scaled down
    (3000, 20),  # extreme aspect (150)
    (20, 3990),
    (6000, 30),  # the aspect bound itself (200)
    (5000, 20),  # past it (250): refused
)


def transformers_counts(family: str, size: tuple[int, int]) -> tuple[list[int], int] | str:
    """transformers' grid and pad count for an image of ``size`` (width, height), or why it refused."""
    from PIL import Image

    return transformers_image_counts(family, Image.new("RGB", size))


def transformers_image_counts(family: str, image: Any) -> tuple[list[int], int] | str:
    """transformers' grid and pad count for a PIL ``image``, or why it refused."""
    import importlib

    from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import Qwen2VLImageProcessorPil

    published = PUBLISHED[family]
    processor = Qwen2VLImageProcessorPil(
        size=dict(published["size"]),
        patch_size=published["patch_size"],
        temporal_patch_size=published["temporal_patch_size"],
        merge_size=published["merge_size"],
    )
    try:
        grid = processor(images=[image])["image_grid_thw"]
    except ValueError as error:
        return str(error)
    module, _, name = published["processor"].rpartition(".")
    processor_class = getattr(importlib.import_module(f"transformers.models.{module}"), name)
    written = processor_class.replace_image_token(
        SimpleNamespace(image_processor=processor, image_token="P"), {"image_grid_thw": grid}, 0
    )
    return [int(value) for value in grid[0]], len(written)


def chatcodec_counts(family: str, size: tuple[int, int]) -> tuple[list[int], int] | str:
    rule = image_grids.image_rule(family)
    assert rule is not None, family
    try:
        grid = image_grids.image_grid(rule, *size)
    except image_grids.RefusedSizeError as error:
        return str(error)
    return list(grid), image_grids.pad_count(rule, grid)


HEADERS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("PNG", "RGB", {}),
    ("JPEG", "RGB", {}),
    ("JPEG", "RGB", {"exif": b"Exif\x00\x00" + b"\x00" * 20000}),  # the frame header past a large segment
    ("GIF", "RGB", {}),
    ("WEBP", "RGB", {"lossless": False}),  # VP8
    ("WEBP", "RGB", {"lossless": True}),  # VP8L
    ("WEBP", "RGBA", {"lossless": False}),  # VP8X (alpha)
)
"""Image files PIL writes, whose size chatcodec's header reader must read as PIL does."""


def header_differences() -> int:
    """Files of every format and a few sizes, each read by chatcodec's header reader and by PIL."""
    import base64
    import io

    from PIL import Image

    failures = 0
    for kind, mode, options in HEADERS:
        for size in ((1, 1), (1280, 720), (333, 4001)):
            written = io.BytesIO()
            Image.new(mode, size).save(written, kind, **options)
            data = written.getvalue()
            ours = image_sizes.base64_image_size(base64.b64encode(data).decode())
            theirs = Image.open(io.BytesIO(data)).size
            agree = ours == theirs
            failures += not agree
            shown = f"{kind} {mode} {sorted(options)}"
            print(f"{'ok  ' if agree else 'FAIL'} header {shown} {size}: PIL {theirs}, chatcodec {ours}")
    return failures


def rendered_differences() -> int:
    """A conversation of real image files (PNG, JPEG, WebP, GIF, as PIL writes them) rendered by
    chatcodec for each family: each image's grid in ``Rendering.images`` against transformers'
    processor run on the image PIL decodes from the same bytes."""
    import base64
    import io

    from PIL import Image

    import chatcodec

    files = [("PNG", (1280, 720)), ("JPEG", (1920, 1080)), ("WEBP", (20, 3990)), ("GIF", (7, 9)), ("PNG", (4800, 3600))]
    encoded: list[bytes] = []
    for kind, size in files:
        written = io.BytesIO()
        Image.new("RGB", size).save(written, kind)
        encoded.append(written.getvalue())
    content: list[dict[str, Any]] = [{"type": "text", "text": "What do these show?"}]
    for (kind, _), data in zip(files, encoded, strict=True):
        url = f"data:image/{kind.lower()};base64,{base64.b64encode(data).decode()}"
        content.append({"type": "image_url", "image_url": {"url": url}})
    messages = [{"role": "user", "content": content}, {"role": "assistant", "content": "Blank pictures."}]
    failures = 0
    for family in PUBLISHED:
        rendering = chatcodec.render(messages, template=family, on_loss="error")
        ours = [list(image.grid) for image in rendering.images]
        theirs = []
        for data in encoded:
            counted = transformers_image_counts(family, Image.open(io.BytesIO(data)))
            theirs.append(counted if isinstance(counted, str) else counted[0])
        agree = ours == theirs
        failures += not agree
        print(f"{'ok  ' if agree else 'FAIL'} rendered {family}: transformers {theirs}, chatcodec {ours}")
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--golden", action="store_true", help="print the counts as the tests keep them")
    arguments = parser.parse_args()
    import transformers

    failures = header_differences() + rendered_differences()
    from chatcodec._training import families

    unchecked = [name for name in families.family_names() if image_grids.image_rule(name) and name not in PUBLISHED]
    for name in unchecked:
        print(f"FAIL {name}: an image rule in families.json with no published numbers here to check it against")
    failures += len(unchecked)
    golden: dict[str, list[tuple[tuple[int, int], tuple[int, int, int] | None, int | None]]] = {}
    for family in PUBLISHED:
        for size in SIZES:
            theirs, ours = transformers_counts(family, size), chatcodec_counts(family, size)
            agree = (isinstance(theirs, str) and isinstance(ours, str)) or theirs == ours
            failures += not agree
            shown = theirs if isinstance(theirs, str) else f"grid {theirs[0]}, {theirs[1]} pads"
            print(f"{'ok  ' if agree else 'FAIL'} {family} {size[0]}x{size[1]}: transformers {shown}; chatcodec {ours}")
            if isinstance(theirs, str):
                golden.setdefault(family, []).append((size, None, None))
            else:
                golden.setdefault(family, []).append((size, tuple(theirs[0]), theirs[1]))  # type: ignore[arg-type]
    if arguments.golden:
        print(f"# transformers {transformers.__version__}: python tools/check_images.py --golden")
        for family, rows in golden.items():
            print(f"{family!r}: {rows!r},")
    print(f"{failures} difference(s) from transformers {transformers.__version__}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
