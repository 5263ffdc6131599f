"""Other renderers of the same template, as references ``check-render`` compares against.

PrimeIntellect's ``renderers`` writes each model family's format by hand (token ids, sampled
masks); chatcodec runs the model's own Jinja template. Where both exist for a family, they
should give the same text and train the same characters; where they do not, one of them (or
the template) is wrong, and the first differing span says where.

``renderers`` needs a tokenizer, and the tokenizers of most families are not on the package
index. A :class:`CharTokenizer` stands in: one id per character and one per special token a
renderer asks for, so its ids decode back to the exact text and each token's characters are
known. Text and masks are compared by character; ids need the model's real tokenizer. The
reference is an optional extra (``renderers``); without it, ``check-render`` checks chatcodec
against itself (determinism, the prefix property the profile states) and says so.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from chatcodec._extras import install_hint
from chatcodec._training.render import SampledSpan

_CHARACTER_BASE = 1_000_000

RENDERERS_FAMILIES: Mapping[str, tuple[str, str]] = {
    "qwen3": ("Qwen3RendererConfig", "Qwen/Qwen3-8B"),
    "qwen3.5": ("Qwen35RendererConfig", "Qwen/Qwen3.5-9B"),
    "qwen3.6": ("Qwen36RendererConfig", "Qwen/Qwen3.6-27B"),
    "llama3.1": ("Llama3RendererConfig", "meta-llama/Llama-3.1-8B-Instruct"),
    "llama3.2": ("Llama3RendererConfig", "meta-llama/Llama-3.2-3B-Instruct"),
    "deepseek-v3": ("DeepSeekV3RendererConfig", "deepseek-ai/DeepSeek-V3"),
    "glm-4.5": ("GLM45RendererConfig", "zai-org/GLM-4.5"),
    "nemotron-3": ("Nemotron3RendererConfig", "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16"),
    "gpt-oss": ("GptOssRendererConfig", "openai/gpt-oss-20b"),
}
"""The families ``renderers`` 0.1 writes, each with its config class and a model name it maps."""


class CharTokenizer:
    """A reversible tokenizer: each character one id, each special token a renderer names one id."""

    def __init__(self, name: str, specials: Sequence[str] = (), eos_token: str | None = None) -> None:
        self.name_or_path = name
        self.unk_token_id: int | None = None
        self._specials: dict[str, int] = {}
        for special in specials:
            self.convert_tokens_to_ids(special)
        self.eos_token_id: int | None = None if eos_token is None else self.convert_tokens_to_ids(eos_token)

    def convert_tokens_to_ids(self, tokens: str | Sequence[str]) -> Any:
        if not isinstance(tokens, str):
            return [self.convert_tokens_to_ids(token) for token in tokens]
        return self._specials.setdefault(tokens, len(self._specials))

    def encode(self, text: str, *_: object, **__: object) -> list[int]:
        ids: list[int] = []
        position = 0
        ordered = sorted(self._specials, key=len, reverse=True)
        while position < len(text):
            special = next((token for token in ordered if text.startswith(token, position)), None)
            if special is not None:
                ids.append(self._specials[special])
                position += len(special)
            else:
                ids.append(_CHARACTER_BASE + ord(text[position]))
                position += 1
        return ids

    def piece(self, token: int) -> str:
        """The text of one id."""
        if token >= _CHARACTER_BASE:
            return chr(token - _CHARACTER_BASE)
        return next(special for special, known in self._specials.items() if known == token)

    def decode(self, token_ids: Any, *_: object, **__: object) -> str:
        return "".join(self.piece(int(token)) for token in token_ids)


@dataclass(frozen=True, slots=True)
class ReferenceRendering:
    """A reference's rendering: its text and the character spans it would train."""

    text: str
    sampled: tuple[SampledSpan, ...]
    prefix_stable: bool | None
    """What the reference declares of its own prefix stability (None: it says nothing)."""


Reference = Callable[[Sequence[Mapping[str, Any]], Sequence[Mapping[str, Any]] | None], ReferenceRendering]


def renderers_available() -> bool:
    return importlib.util.find_spec("renderers") is not None


def renderers_reference(family: str, specials: Sequence[str], eos_token: str) -> Reference | str:
    """``renderers``' renderer of ``family`` behind a :class:`CharTokenizer`, or why there is
    none: not installed, no such family, or it cannot be built here (gpt-oss's harmony
    encoding downloads its vocabulary)."""
    if family not in RENDERERS_FAMILIES:
        return "no renderer of this template's family"
    if not renderers_available():
        return f"not installed ({install_hint('renderers')})"
    package: Any = importlib.import_module("renderers")  # untyped: read through Any
    configs: Any = importlib.import_module("renderers.configs")
    config_name, model = RENDERERS_FAMILIES[family]
    tokenizer = CharTokenizer(model, specials, eos_token)
    try:
        renderer: Any = package.create_renderer(tokenizer, getattr(configs, config_name)())
    except Exception as error:  # a reference that cannot be built here is left out, and said so
        first = (str(error).splitlines() or [""])[0][:120]
        return f"its {family} renderer cannot be built here ({type(error).__name__}: {first})"

    def render(messages: Sequence[Mapping[str, Any]], tools: Sequence[Mapping[str, Any]] | None) -> ReferenceRendering:
        rendered: Any = renderer.render([_as_renderers_message(message) for message in messages], tools=tools or None)
        return _with_character_spans(tokenizer, list(rendered.token_ids), rendered, renderer.is_prefix_stable)

    return render


def _as_renderers_message(message: Mapping[str, Any]) -> dict[str, Any]:
    """A template message in ``renderers``' shapes: its reasoning under ``reasoning_content``."""
    written = dict(message)
    if "thinking" in written:
        written["reasoning_content"] = written.pop("thinking")
    return written


def _with_character_spans(
    tokenizer: CharTokenizer, ids: list[int], rendered: Any, stable: object
) -> ReferenceRendering:
    starts: list[int] = []
    position = 0
    for token in ids:
        starts.append(position)
        position += len(tokenizer.piece(token))
    text = tokenizer.decode(ids)
    spans: list[SampledSpan] = []
    sampled: list[bool] = list(rendered.sampled_mask)
    indices: list[int] = list(rendered.message_indices)
    index = 0
    while index < len(ids):
        if not sampled[index]:
            index += 1
            continue
        first = index
        while index < len(ids) and sampled[index] and indices[index] == indices[first]:
            index += 1
        end = starts[index] if index < len(ids) else len(text)
        spans.append(SampledSpan(indices[first], starts[first], end))
    return ReferenceRendering(text, tuple(spans), stable if isinstance(stable, bool) else None)
