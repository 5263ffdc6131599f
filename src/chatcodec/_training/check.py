"""``chatcodec check-render``: one seeded corpus through every installed reference of a template.

A rendering is only trusted when independent renderers agree on it. This renders a corpus
of canonical conversations (a question and answer, reasoning, a call and its result,
parallel calls, several turns, an image, a system prompt) made from a seed, so a run can be
repeated, through the template (chatcodec's shaping, the template's own Jinja) and through
each reference installed (:mod:`.references`), and reports the first differing span of each
disagreement: the text, the trained characters, the ids (with a tokenizer: the ids of the
pieces against the ids of the whole text), the prefix property the profile states against
what the renderings show, and determinism.
"""

from __future__ import annotations

import json
import os
import random
import re
from dataclasses import dataclass
from typing import Any

from chatcodec import ChatRequest, ToolDefinition
from chatcodec._training import families, image_tokens, jinja, references, tokens
from chatcodec._training.errors import TemplateError
from chatcodec._training.render import Rendering, render
from chatcodec._training.shaping import Shaper
from chatcodec._training.template_limits import BOUND_RULES, DEFAULT_LIMITS, TemplateLimits
from chatcodec.contract import LossRecorder

_WORDS = ("river", "lamp", "seven", "blue", "orbit", "maple", "quartz", "north", "echo", "delta", "ember", "tide")
_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
SHAPES = ("answer", "reasoning", "call", "parallel-calls", "turns", "image", "system")
"""The corpus' conversation shapes, in the order they cycle."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One disagreement: which conversation, which reference, about what, and where."""

    conversation: int
    shape: str
    reference: str
    aspect: str
    """``text``, ``mask``, ``ids``, ``prefix``, ``determinism`` or ``error``."""
    detail: str

    def __str__(self) -> str:
        return f"#{self.conversation} ({self.shape}) against {self.reference}, {self.aspect}: {self.detail}"


@dataclass(frozen=True, slots=True)
class RenderCheck:
    """What ``check-render`` compared and found."""

    template: str
    conversations: int
    references: tuple[str, ...]
    """The references compared against (``chatcodec`` itself is always one: determinism and
    the stated prefix property)."""
    unavailable: tuple[str, ...]
    """References that could not be run here, each with why."""
    findings: tuple[Finding, ...]


def corpus(seed: int, count: int) -> list[tuple[str, ChatRequest]]:
    """``count`` canonical conversations made from ``seed``, cycling through :data:`SHAPES`."""
    chooser = random.Random(seed)
    made: list[tuple[str, ChatRequest]] = []
    for index in range(count):
        shape = SHAPES[index % len(SHAPES)]
        made.append((shape, _conversation(shape, chooser)))
    return made


def _phrase(chooser: random.Random, words: int = 4) -> str:
    return " ".join(chooser.choice(_WORDS) for _ in range(words)).capitalize() + "."


def _call(chooser: random.Random, number: int) -> dict[str, Any]:
    arguments = json.dumps({"query": chooser.choice(_WORDS), "limit": chooser.randint(1, 9)})
    return {"type": "tool_use", "id": f"call_{number}", "name": "search", "arguments": arguments}


def _conversation(shape: str, chooser: random.Random) -> ChatRequest:
    user = {"role": "user", "content": _phrase(chooser, 6)}
    thinking = {"type": "thinking", "text": _phrase(chooser, 8)}
    answer = {"type": "text", "text": _phrase(chooser, 5)}
    messages: list[dict[str, Any]]
    if shape == "answer":
        messages = [user, {"role": "assistant", "content": [answer]}]
    elif shape == "reasoning":
        messages = [user, {"role": "assistant", "content": [thinking, answer]}]
    elif shape in ("call", "parallel-calls"):
        calls = [_call(chooser, number) for number in range(1 if shape == "call" else 2)]
        results = [{"type": "tool_result", "tool_use_id": call["id"], "content": _phrase(chooser, 3)} for call in calls]
        messages = [
            user,
            {"role": "assistant", "content": [thinking, *calls]},
            {"role": "tool", "content": results},
            {"role": "assistant", "content": [{"type": "thinking", "text": _phrase(chooser, 6)}, answer]},
        ]
    elif shape == "turns":
        messages = [
            user,
            {"role": "assistant", "content": [thinking, {"type": "text", "text": _phrase(chooser)}]},
            {"role": "user", "content": _phrase(chooser, 5)},
            {"role": "assistant", "content": [{"type": "thinking", "text": _phrase(chooser, 6)}, answer]},
        ]
    elif shape == "image":
        image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": _PNG}}
        messages = [
            {"role": "user", "content": [{"type": "text", "text": _phrase(chooser, 5)}, image]},
            {"role": "assistant", "content": [answer]},
        ]
    else:
        messages = [
            {"role": "system", "content": _phrase(chooser, 7)},
            user,
            {"role": "assistant", "content": [answer]},
        ]
    tools = [
        ToolDefinition(
            name="search",
            description="Search the index.",
            parameters={
                "type": "object",
                "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
                "required": ["query"],
            },
        )
    ]
    return ChatRequest.model_validate({"messages": messages, "tools": [tool.model_dump() for tool in tools]})


def check_render(
    template: str | os.PathLike[str],
    *,
    count: int = 28,
    seed: int = 0,
    tokenizer: object = None,
    template_limits: TemplateLimits = DEFAULT_LIMITS,
) -> RenderCheck:
    """Render the seeded corpus through ``template`` and every installed reference; see the
    module docstring for what is compared. Each run of the template is within ``template_limits``;
    a run stopped at them stops the check (every conversation would spend them again)."""
    chosen = families.resolve(template, limits=template_limits)
    findings: list[Finding] = []
    unavailable: list[str] = []
    reference = _renderers_for(chosen, unavailable)
    compared = ["chatcodec", *(["renderers"] if reference is not None else [])]
    for number, (shape, request) in enumerate(corpus(seed, count)):
        try:
            rendering = render(
                request, template=chosen.text, tokenizer=tokenizer, on_loss="ignore", template_limits=template_limits
            )
        except TemplateError as error:
            if error.rule in BOUND_RULES:
                raise
            findings.append(Finding(number, shape, "chatcodec", "error", f"{type(error).__name__}: {error}"))
            continue
        except Exception as error:  # a template refusing a corpus conversation is a finding, not a crash
            findings.append(Finding(number, shape, "chatcodec", "error", f"{type(error).__name__}: {error}"))
            continue
        again = render(
            request, template=chosen.text, tokenizer=tokenizer, on_loss="ignore", template_limits=template_limits
        )
        if again != rendering:
            findings.append(Finding(number, shape, "chatcodec", "determinism", "two renders differ"))
        findings += _prefix_findings(number, shape, chosen, request, template_limits)
        if tokenizer is not None:
            findings += _ids_findings(number, shape, rendering, tokenizer)
        if reference is not None:
            findings += _reference_findings(
                number, shape=shape, chosen=chosen, request=request, rendering=rendering, reference=reference
            )
    return RenderCheck(
        os.fspath(template) if chosen.family is None else chosen.family,
        count,
        tuple(compared),
        tuple(unavailable),
        tuple(findings),
    )


def _renderers_for(chosen: families.Template, unavailable: list[str]) -> references.Reference | None:
    variables = [value for value in chosen.profile.variables.values() if isinstance(value, str)]
    specials = sorted({*_special_tokens(chosen.text), *variables})
    reference = references.renderers_reference(
        chosen.family or "", specials, chosen.profile.turn_end or "<|endoftext|>"
    )
    if isinstance(reference, str):
        unavailable.append(f"renderers: {reference}")
        return None
    return reference


_SPECIAL = re.compile(
    "<[|\uff5c][^<>|\uff5c\\s]{1,40}[|\uff5c]>|</?(?:think|tool_call|tool_response|arg_key|arg_value)>"
)
"""Text that reads as a special token: ``<|im_start|>``, DeepSeek's full-width bars, ``<think>``."""


def _special_tokens(template: str) -> list[str]:
    """The special tokens a template writes, for the character tokenizer to keep whole."""
    return _SPECIAL.findall(template)


def _shaped(chosen: families.Template, request: ChatRequest) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    shaper = Shaper(chosen.profile, LossRecorder())
    messages, _ = shaper.messages(request.messages)
    return messages, shaper.tools(request.tools)


def _prefix_findings(
    number: int, shape: str, chosen: families.Template, request: ChatRequest, limits: TemplateLimits
) -> list[Finding]:
    if not chosen.profile.prefix_stable:
        return []
    messages, tools = _shaped(chosen, request)
    variables = dict(chosen.profile.variables)
    whole = jinja.run(chosen.text, messages, tools=tools, variables=variables, limits=limits)[0]
    for end in range(1, len(messages)):
        if messages[end]["role"] != "assistant" and messages[end - 1]["role"] != "assistant":
            continue  # the property is about answers: where one starts and where it ends
        try:
            shorter = jinja.run(chosen.text, messages[:end], tools=tools, variables=variables, limits=limits)[0]
        except TemplateError as error:  # a start the template refuses alone (a system prompt with tools, no question)
            if error.rule in BOUND_RULES:
                raise
            continue
        if not whole.startswith(shorter):
            at = _first_difference(shorter, whole)
            return [
                Finding(
                    number,
                    shape,
                    "chatcodec",
                    "prefix",
                    f"the profile says prefix-stable, but {end} message(s) render otherwise than the whole's start: "
                    + _spans_at(shorter, whole, at),
                )
            ]
    return []


def _ids_findings(number: int, shape: str, rendering: Rendering, tokenizer: object) -> list[Finding]:
    """Render's ids against the whole text's tokenization, its images' placeholders repeated
    as render repeats them (:mod:`.image_tokens`: the engine's ids, not the text's)."""
    encode = tokens.encoder(tokenizer)
    whole = encode(rendering.text)
    if rendering.images:
        unmarked, owners = [False] * len(whole), [0] * len(whole)
        images = list[image_tokens.ImageTokens | None](rendering.images)
        family = rendering.template_family
        whole = image_tokens.expanded(encode, family, images, ids=whole, trainable=unmarked, owners=owners)[0]
    if rendering.token_ids == whole:
        return []
    pieces = rendering.token_ids or []
    at = next(
        (index for index, (a, b) in enumerate(zip(pieces, whole, strict=False)) if a != b), min(len(pieces), len(whole))
    )
    return [
        Finding(
            number,
            shape,
            "the whole text's tokenization",
            "ids",
            f"token {at}: {pieces[at : at + 4]} (tokenized by piece) against {whole[at : at + 4]}",
        )
    ]


def _reference_findings(
    number: int,
    *,
    shape: str,
    chosen: families.Template,
    request: ChatRequest,
    rendering: Rendering,
    reference: references.Reference,
) -> list[Finding]:
    messages, tools = _shaped(chosen, request)
    try:
        other = reference(messages, tools)
    except Exception as error:  # the reference refusing what the template renders is a finding
        return [Finding(number, shape, "renderers", "error", f"{type(error).__name__}: {error}")]
    found: list[Finding] = []
    if other.text != rendering.text:
        at = _first_difference(rendering.text, other.text)
        found.append(Finding(number, shape, "renderers", "text", _spans_at(rendering.text, other.text, at)))
        return found
    ours = {(span.start, span.end) for span in rendering.sampled}
    theirs = {(span.start, span.end) for span in other.sampled}
    if ours != theirs:
        differing = sorted(ours ^ theirs)[0]
        side = "chatcodec" if differing in ours else "renderers"
        found.append(
            Finding(
                number,
                shape,
                "renderers",
                "mask",
                f"only {side} trains {rendering.text[differing[0] : differing[1]]!r} "
                f"(characters {differing[0]}-{differing[1]})",
            )
        )
    if other.prefix_stable is not None and other.prefix_stable != chosen.profile.prefix_stable and number == 0:
        found.append(
            Finding(
                number,
                shape,
                "renderers",
                "prefix",
                f"renderers declares is_prefix_stable={other.prefix_stable}, "
                f"the template's profile {chosen.profile.prefix_stable}",
            )
        )
    return found


def _first_difference(first: str, second: str) -> int:
    for index, (a, b) in enumerate(zip(first, second, strict=False)):
        if a != b:
            return index
    return min(len(first), len(second))


def _spans_at(ours: str, theirs: str, at: int) -> str:
    start = max(0, at - 20)
    return f"at character {at}: {ours[start : at + 40]!r} against {theirs[start : at + 40]!r}"


def report(check: RenderCheck) -> str:
    """The check as the command prints it."""
    lines = [
        f"check-render {check.template}: {check.conversations} conversations, compared with "
        + ", ".join(check.references)
    ]
    lines += [f"  not compared: {why}" for why in check.unavailable]
    if not check.findings and len(check.references) == 1:
        lines.append("  no reference compared: chatcodec agrees with itself (determinism, the prefix property)")
    elif not check.findings:
        lines.append("  no disagreement")
    shown: set[tuple[str, str, str]] = set()
    for finding in check.findings:
        key = (finding.shape, finding.reference, finding.aspect)
        if key in shown:
            continue  # the first of each kind: the rest repeat it
        shown.add(key)
        lines.append(f"  {finding}")
    if len(shown) < len(check.findings):
        lines.append(f"  ({len(check.findings)} findings in all; the first of each shape, reference and aspect shown)")
    return "\n".join(lines)
