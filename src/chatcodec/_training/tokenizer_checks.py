"""What a rendering must be for a tokenizer to give the ids the model saw: markers read whole, text encodable.

A tokenizer must read the template's own markers as the single tokens the model knows.

A template writes its turn markers (``<|im_start|>``, ``<|eot_id|>``, DeepSeek's between
full-width bars) and reasoning delimiters (``<think>``) as text; the model's tokenizer reads
each as one special token. A tokenizer of another vocabulary (Qwen2.5's, which has no ``<think>``, with Qwen3's
template; a Qwen tokenizer with Llama's template) reads them as pieces (``<``, ``think``, ``>``):
the ids are the ids of other text, a model trained on them learns the wrong thing, and nothing
fails. So every marker the template itself writes into a rendering is encoded alone first, and a
marker that is not one id refuses the render, naming the marker and the tokenizer.

And the text must be Unicode a tokenizer can encode: a lone surrogate (``"\\ud800"``, which JSON
allows and no UTF-8 holds) makes the ``tokenizers`` library raise its own ``TypeError``, and
tiktoken replace it with U+FFFD, ids of other text. It is refused at its path first.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from functools import lru_cache
from typing import Final

from chatcodec import AnyMessage
from chatcodec._errors import json_path
from chatcodec._narrow import as_dict, as_list
from chatcodec._training import families
from chatcodec._training.errors import TemplateError
from chatcodec._training.tokens import Encode, vocabulary_size

_MARKER: Final = re.compile(r"<\|[^|<>\s]{1,40}\|>|<\uff5c[^\uff5c<>\s]{1,40}\uff5c>|</?think>")
"""A special token's spelling in a template: ``<|...|>`` (ChatML, Llama 3, gpt-oss, GLM),
the same between full-width bars, U+FF5C (DeepSeek's), and the ``<think>`` delimiters."""
KEPT_TEMPLATES: Final = 64
"""How many templates' markers :func:`template_markers` keeps (as many as ``jinja.compiled`` keeps compiled)."""


def tokenizer_name(tokenizer: object) -> str:
    """How an error names ``tokenizer``: its path, or its class and the name it was loaded by."""
    if isinstance(tokenizer, str | os.PathLike):
        return os.fspath(tokenizer)
    loaded_from = getattr(tokenizer, "name_or_path", None) or getattr(tokenizer, "name", None)
    kind = type(tokenizer).__name__
    named = f"{kind} {loaded_from!r}" if isinstance(loaded_from, str) and loaded_from else kind
    size = vocabulary_size(tokenizer)
    return named if size is None else f"{named} (a vocabulary of {size:,})"


def check_markers(encode: Encode, tokenizer: object, template: str, text: str, family: str | None = None) -> None:
    """Refuse a ``tokenizer`` (as the caller gave it: named as :func:`tokenizer_name` names it,
    on a refusal only) that splits a marker ``template`` wrote into the rendered ``text``, or
    (for a ``family`` chatcodec knows) reads a marker as a sibling vocabulary's id: Qwen3.6's
    vocabulary holds every Qwen3 marker as one token, at other ids, so only the ids tell
    (``families.json``: ``other_vocabularies``). Each marker is encoded once."""
    encoded: dict[str, list[int]] = {}

    def ids_of(marker: str) -> list[int]:
        ids = encoded.get(marker)
        if ids is None:
            ids = encoded[marker] = encode(marker)
        return ids

    _check_vocabulary(ids_of, tokenizer, text, family)
    for marker in sorted(found for found in template_markers(template) if found in text):
        ids = ids_of(marker)
        if len(ids) != 1:
            raise TemplateError(
                f"the tokenizer {tokenizer_name(tokenizer)} reads the template's marker {marker!r} as {len(ids)} "
                f"tokens {ids}, not the one special token the model knows: it is another model's vocabulary (a "
                "Qwen2.5 tokenizer with Qwen3's template?); pass the tokenizer of the template's model",
                path="$.tokenizer",
                rule="single_token_marker",
            )


@lru_cache(maxsize=KEPT_TEMPLATES)
def template_markers(template: str) -> frozenset[str]:
    """The markers ``template`` writes (:data:`_MARKER`), read from its text once a process
    (a render checks them against its tokenizer each time; the search costs more than the check)."""
    return frozenset(_MARKER.findall(template))


def _check_vocabulary(encode: Encode, tokenizer: object, text: str, family: str | None) -> None:
    if family is None:
        return
    for other in families.families()[family].get("other_vocabularies", []):
        marker, known = other["marker"], int(other["id"])
        if marker in text and encode(marker) == [known]:
            raise TemplateError(
                f"the tokenizer {tokenizer_name(tokenizer)} reads {marker!r} as {known}, as {other['vocabulary']} "
                f"vocabulary does, not {family}'s: its ids are another model's; pass template={other['template']!r} "
                f"or the tokenizer of {family}'s model",
                path="$.tokenizer",
                rule="template_vocabulary",
            )


_SURROGATE: Final = re.compile("[\ud800-\udfff]")


def check_encodable(text: str, messages: Sequence[AnyMessage]) -> None:
    """Refuse a rendering holding a lone surrogate, at the first canonical value holding one
    (an ASCII text, which Python knows without a look, holds none)."""
    if text.isascii() or _SURROGATE.search(text) is None:
        return
    steps = next(_surrogate_places([message.model_dump() for message in messages]), ())
    raise TemplateError(
        "the text holds a lone surrogate (a UTF-16 half, which no UTF-8 text holds): no tokenizer encodes it "
        "as the model would have seen it; replace or drop it",
        path=json_path(("messages", *steps)),
        rule="encodable_text",
    )


def _surrogate_places(value: object) -> Iterator[tuple[int | str, ...]]:
    """The routes to the strings in ``value`` holding a lone surrogate, walked without recursion."""
    stack: list[tuple[object, tuple[int | str, ...]]] = [(value, ())]
    while stack:
        node, steps = stack.pop()
        if isinstance(node, str):
            if _SURROGATE.search(node) is not None:
                yield steps
        elif (entries := as_dict(node)) is not None:
            stack.extend((child, (*steps, key)) for key, child in reversed(entries.items()))
        elif (items := as_list(node)) is not None:
            stack.extend((child, (*steps, index)) for index, child in reversed(list(enumerate(items))))
