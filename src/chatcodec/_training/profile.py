"""What a chat template expects of its input, read from the template by rendering probes.

A template is code; what it reads is only known by running it. Each fact a render needs
(where the user's text goes, the key reasoning goes under and whether earlier turns keep
it, whether call arguments are taken as the model's JSON text or only as an object, what
ends an assistant turn, whether re-rendering a longer conversation keeps the text of a
shorter one) is found by rendering small probe conversations through the template itself
and looking for the probe's marker in the text. Reading the facts, not guessing them from a
model name, is what lets an unknown template be used safely, or refused with a clear error.

A known family's profile is stored as data (``families.py``) and checked against this
reading of its template in the tests, so the data can never drift from the template.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from chatcodec._public_label import shown_as
from chatcodec._training import jinja
from chatcodec._training.errors import TemplateError
from chatcodec._training.template_limits import BOUND_RULES, DEFAULT_LIMITS, TemplateLimits

ContentShape = Literal["text", "parts"]
"""How a template takes a user or system message's content: one string, or a list of parts."""
ArgumentsShape = Literal["text", "object"]
"""How a template takes a call's arguments: the model's JSON text written as it is, or only an
object it serializes itself (``tojson``), which may not be the text the model sampled."""
EarlierReasoning = Literal["kept", "after_last_user", "dropped", "none"]
"""What becomes of an assistant turn's reasoning once more turns follow it."""
Refusal = Literal["content_beside_thinking_in_calls", "one_call_per_turn"]
"""An input a template refuses with ``raise_exception`` or leaves out (gpt-oss: text beside
reasoning in a calling turn; Llama 3.1 refuses a second call in a turn, gpt-oss writes only the
first)."""


@dataclass(frozen=True, slots=True)
class TemplateProfile:
    """The facts of one chat template that decide the shape of its input."""

    content: ContentShape
    """User and system content as one string (``text``) or a list of parts (``parts``)."""
    turn_end: str
    """The text ending an assistant turn the model samples (``<|im_end|>``); the last
    trained token of a turn. Empty where the template writes nothing after an answer
    (GLM-4.5: the model ends its turn with the next role's token, the next message's start)."""
    generation_prompt: str = ""
    """What ``add_generation_prompt`` adds after the conversation (``<|im_start|>assistant\n``;
    ``<think>\n`` at its end where the prompt opens the reasoning for the model)."""
    reasoning_key: str | None = None
    """The message key the template reads reasoning under (``reasoning_content``,
    ``thinking``), or None when it renders none."""
    earlier_reasoning: EarlierReasoning = "none"
    """Whether an earlier turn's reasoning is rendered once more turns follow."""
    arguments: ArgumentsShape | None = None
    """How a call's arguments are taken, or None when the template renders no calls."""
    tool_results: bool = False
    """Whether a tool message's content is rendered."""
    images: bool = False
    """Whether an image part renders (as the template's placeholder)."""
    tools: bool = False
    """Whether tool definitions passed as ``tools`` are rendered."""
    generation_tags: bool = False
    """Whether ``{% generation %}`` marks what the model samples."""
    prefix_stable: bool = False
    """Whether rendering a longer conversation keeps, at each answer's start and end, the
    shorter one's text (and the generation prompt before the answer) as its prefix: where it
    does not, an earlier turn is shown to training differently from how the model saw it.
    (Between two results of parallel calls no ChatML template is: it closes the turn after
    the last result it has.)"""
    refusals: tuple[Refusal, ...] = ()
    """Inputs the template refuses (:data:`Refusal`)."""
    variables: Mapping[str, Any] = field(default_factory=dict[str, Any])
    """Names the template reads besides the conversation (``bos_token``), with the values
    the family's tokenizer gives them."""

    def as_data(self) -> dict[str, Any]:
        """The profile as JSON data (the families' table stores this)."""
        return {
            "content": self.content,
            "turn_end": self.turn_end,
            "generation_prompt": self.generation_prompt,
            "reasoning_key": self.reasoning_key,
            "earlier_reasoning": self.earlier_reasoning,
            "arguments": self.arguments,
            "tool_results": self.tool_results,
            "images": self.images,
            "tools": self.tools,
            "generation_tags": self.generation_tags,
            "prefix_stable": self.prefix_stable,
            "refusals": list(self.refusals),
            "variables": dict(self.variables),
        }


_QUESTION = "Probe question q7x"
_ANSWER = "Probe answer a9z"
_REASONING = "Probe reasoning r5q"
_EARLIER_REASONING = "Probe earlier reasoning e2k"
_RESULT = "Probe result t3w"
_TOOL = "probe_tool_n4v"
_SECOND_TOOL = "probe_other_b7c"
_ARGUMENTS_TEXT = '{"probe_arg":  "v1m"}'  # two spaces: only a template writing the text as it is keeps them
_IMAGE = {"type": "image"}
_TOOL_DEFINITION = {
    "type": "function",
    "function": {
        "name": "probe_definition_d8s",
        "description": "A probe tool.",
        "parameters": {"type": "object", "properties": {"probe_arg": {"type": "string"}}, "required": ["probe_arg"]},
    },
}


def _call(arguments: object, index: int = 0) -> dict[str, Any]:
    return {"id": f"call_probe_{index}", "type": "function", "function": {"name": _TOOL, "arguments": arguments}}


def _result(index: int = 0) -> dict[str, Any]:
    return {"role": "tool", "tool_call_id": f"call_probe_{index}", "name": _TOOL, "content": _RESULT}


class _Prober:
    """Renders probes through one template, a refusal or failure read as "not taken" (the
    first failure kept, so an error saying nothing was found can say why)."""

    def __init__(self, template: str, variables: Mapping[str, Any], limits: TemplateLimits = DEFAULT_LIMITS) -> None:
        self.template = template
        self.variables = variables
        self.limits = limits
        self.failure: TemplateError | None = None

    def failed(self, error: TemplateError) -> None:
        if error.rule in BOUND_RULES:
            raise error
        if self.failure is None and error.refusal is None:
            self.failure = error

    def because(self) -> str:
        """`` (the first probe failed: ...)`` where one did, for an error's text."""
        return "" if self.failure is None else f" (the first probe failed: {self.failure})"

    def text(
        self,
        messages: Sequence[Mapping[str, Any]],
        *,
        add_generation_prompt: bool = False,
        tools: Sequence[Mapping[str, Any]] | None = None,
    ) -> str | None:
        try:
            return jinja.run(
                self.template,
                messages,
                tools=tools,
                add_generation_prompt=add_generation_prompt,
                variables=self.variables,
                limits=self.limits,
            )[0]
        except TemplateError as error:
            self.failed(error)
            return None

    def refuses(self, messages: Sequence[Mapping[str, Any]]) -> bool:
        try:
            jinja.run(self.template, messages, variables=self.variables, limits=self.limits)
        except TemplateError as error:
            self.failed(error)
            return error.refusal is not None
        return False

    def shows(self, marker: str, messages: Sequence[Mapping[str, Any]], **options: Any) -> bool:
        text = self.text(messages, **options)
        return text is not None and marker in text


def read_profile(
    template: str, *, variables: Mapping[str, Any] | None = None, limits: TemplateLimits = DEFAULT_LIMITS
) -> TemplateProfile:
    """The :class:`TemplateProfile` of ``template`` (a chat template's Jinja text), read by
    rendering probe conversations through it, each run within ``limits``.

    Raises :class:`TemplateError` when the template is not Jinja, or when no probe finds
    where a user's text or an assistant's answer goes: a template chatcodec cannot shape
    input for is refused, never rendered into a silent drop.
    """
    jinja.compiled(template)
    probe = _Prober(template, variables or {}, limits)
    user: dict[str, Any] = {"role": "user", "content": _QUESTION}
    content = _content_shape(probe)
    if content == "parts":
        user = {"role": "user", "content": [{"type": "text", "text": _QUESTION}]}
    reasoning_key = _reasoning_key(probe, user)
    turn_end, generation_prompt = _turn_end(probe, user, reasoning_key)
    arguments, tool_results = _calls(probe, user)
    profile = TemplateProfile(
        content=content,
        turn_end=turn_end,
        generation_prompt=generation_prompt,
        reasoning_key=reasoning_key,
        earlier_reasoning=_earlier_reasoning(probe, user, reasoning_key, arguments),
        arguments=arguments,
        tool_results=tool_results,
        images=content == "parts" and _renders_images(probe),
        tools=probe.shows("probe_definition_d8s", [user], tools=[_TOOL_DEFINITION]),
        generation_tags=jinja.has_generation_tags(template),
        refusals=_refusals(probe, user, reasoning_key, arguments),
        variables=dict(variables or {}),
    )
    return replace(profile, prefix_stable=prefix_stable(template, profile, limits))


def generation_prompt_given(
    template: str, *, parts: bool, variables: Mapping[str, Any], limits: TemplateLimits = DEFAULT_LIMITS
) -> str | None:
    """What ``add_generation_prompt`` writes given the caller's ``variables`` (Qwen3.5's
    ``enable_thinking=False`` closes the reasoning in the prompt): a stored profile's was read
    without them. ``parts``: the template reads content as parts. None where a probe fails."""
    probe = _Prober(template, variables, limits)
    text: object = [{"type": "text", "text": _QUESTION}] if parts else _QUESTION
    user = {"role": "user", "content": text}
    asked, prompt = probe.text([user]), probe.text([user], add_generation_prompt=True)
    if asked is None or prompt is None or not prompt.startswith(asked):
        return None
    return prompt[len(asked) :]


def _content_shape(probe: _Prober) -> ContentShape:
    takes_text = probe.shows(_QUESTION, [{"role": "user", "content": _QUESTION}])
    parts = probe.text([{"role": "user", "content": [{"type": "text", "text": _QUESTION}]}])
    # a template writing a list as Python's repr ("[{'type': 'text', ...}]", Llama 3.1) takes no parts
    takes_parts = parts is not None and _QUESTION in parts and "'type'" not in parts and '"type"' not in parts
    if takes_parts and (not takes_text or _renders_images(probe)):
        return "parts"
    if takes_text:
        return "text"
    raise TemplateError(
        "the chat template renders no user text, as a string or as text parts: chatcodec cannot tell "
        f"where a conversation goes in it{probe.because()}"
    )


def _renders_images(probe: _Prober) -> bool:
    text = probe.text([{"role": "user", "content": [{"type": "text", "text": _QUESTION}]}])
    with_image = probe.text([{"role": "user", "content": [{"type": "text", "text": _QUESTION}, _IMAGE]}])
    return text is not None and with_image is not None and with_image != text


def _turn_end(probe: _Prober, user: Mapping[str, Any], reasoning_key: str | None) -> tuple[str, str]:
    """The text after an answer (its end of turn) and what the generation prompt adds."""
    asked = probe.text([user])
    prompt = probe.text([user], add_generation_prompt=True)
    answer: dict[str, Any] = {"role": "assistant", "content": _ANSWER}
    if reasoning_key is not None:
        answer[reasoning_key] = _REASONING
    answered = probe.text([user, answer])
    if asked is None or prompt is None or answered is None or _ANSWER not in answered:
        raise TemplateError(f"the chat template renders no assistant answer after a user question{probe.because()}")
    if not prompt.startswith(asked):
        raise TemplateError("the chat template's generation prompt changes the conversation before it")
    return answered[answered.rindex(_ANSWER) + len(_ANSWER) :].rstrip(), prompt[len(asked) :]


def _reasoning_key(probe: _Prober, user: Mapping[str, Any]) -> str | None:
    for key in ("reasoning_content", "thinking", "reasoning"):
        if probe.shows(_REASONING, [user, {"role": "assistant", "content": _ANSWER, key: _REASONING}]):
            return key
    return None


def _calls(probe: _Prober, user: Mapping[str, Any]) -> tuple[ArgumentsShape | None, bool]:
    def turn(arguments: object) -> list[Mapping[str, Any]]:
        return [user, {"role": "assistant", "content": "", "tool_calls": [_call(arguments)]}, _result()]

    as_text = probe.text(turn(_ARGUMENTS_TEXT))
    if as_text is not None and _TOOL in as_text and _ARGUMENTS_TEXT in as_text:
        return "text", _RESULT in as_text
    as_object = probe.text(turn({"probe_arg": "v1m"}))
    if as_object is not None and _TOOL in as_object and "probe_arg" in as_object and "v1m" in as_object:
        return "object", _RESULT in as_object
    return None, False


def _earlier_reasoning(
    probe: _Prober, user: Mapping[str, Any], key: str | None, arguments: ArgumentsShape | None
) -> EarlierReasoning:
    if key is None:
        return "none"
    turns = [
        user,
        {"role": "assistant", "content": "Earlier answer", key: _EARLIER_REASONING},
        user,
        {"role": "assistant", "content": _ANSWER, key: _REASONING},
    ]
    if probe.shows(_EARLIER_REASONING, turns):
        return "kept"
    if arguments is not None:
        call_arguments: object = _ARGUMENTS_TEXT if arguments == "text" else {"probe_arg": "v1m"}
        loop = [
            user,
            {"role": "assistant", "content": "", key: _EARLIER_REASONING, "tool_calls": [_call(call_arguments)]},
            _result(),
            {"role": "assistant", "content": _ANSWER, key: _REASONING},
        ]
        if probe.shows(_EARLIER_REASONING, loop):
            return "after_last_user"
    return "dropped"


def _refusals(
    probe: _Prober, user: Mapping[str, Any], key: str | None, arguments: ArgumentsShape | None
) -> tuple[Refusal, ...]:
    if arguments is None:
        return ()
    call_arguments: object = _ARGUMENTS_TEXT if arguments == "text" else {"probe_arg": "v1m"}
    refusals: list[Refusal] = []
    if key is not None:
        beside = {"role": "assistant", "content": _ANSWER, key: _REASONING, "tool_calls": [_call(call_arguments)]}
        if probe.refuses([user, beside, _result()]):
            refusals.append("content_beside_thinking_in_calls")
    second = {**_call(call_arguments, 1), "function": {"name": _SECOND_TOOL, "arguments": call_arguments}}
    two = [user, {"role": "assistant", "content": "", "tool_calls": [_call(call_arguments), second]}, _result()]
    two.append({**_result(1), "name": _SECOND_TOOL})
    if probe.refuses(two) or not probe.shows(_SECOND_TOOL, two):
        refusals.append("one_call_per_turn")  # refused (Llama 3.1) or the second left out (gpt-oss)
    return tuple(refusals)


def probe_conversation(profile: TemplateProfile) -> list[dict[str, Any]]:
    """An agent conversation in ``profile``'s shapes (reasoning, a call, its result, an
    answer, a second question and answer), for the prefix check and the laws."""

    def content(text: str) -> object:
        return text if profile.content == "text" else [{"type": "text", "text": text}]

    def answer(text: str, reasoning: str, **more: Any) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": text, **more}
        if profile.reasoning_key is not None:
            message[profile.reasoning_key] = reasoning
        return message

    messages: list[dict[str, Any]] = [{"role": "user", "content": content(_QUESTION)}]
    if profile.arguments is not None:
        arguments: object = _ARGUMENTS_TEXT if profile.arguments == "text" else {"probe_arg": "v1m"}
        messages += [answer("", "First reasoning", tool_calls=[_call(arguments)]), _result()]
    messages += [
        answer(_ANSWER, _REASONING),
        {"role": "user", "content": content("Second question")},
        answer("Second answer", "Second reasoning"),
    ]
    return messages


def prefix_stable(template: str, profile: TemplateProfile, limits: TemplateLimits = DEFAULT_LIMITS) -> bool:
    """Whether, on :func:`probe_conversation`, every shorter conversation's render and the
    generation prompt before each answer are a prefix of the whole conversation's render."""
    probe = _Prober(template, profile.variables, limits)
    messages = probe_conversation(profile)
    whole = probe.text(messages)
    if whole is None:
        return False
    for end in range(1, len(messages)):
        if messages[end]["role"] != "assistant" and messages[end - 1]["role"] != "assistant":
            continue
        shorter = probe.text(messages[:end])
        if shorter is None or not whole.startswith(shorter):
            return False
        if messages[end]["role"] == "assistant":
            prompt = probe.text(messages[:end], add_generation_prompt=True)
            if prompt is None or not whole.startswith(prompt):
                return False
    return True


shown_as("chatcodec", TemplateProfile)
