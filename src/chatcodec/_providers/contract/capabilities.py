"""What a provider's wire can carry, as data: its ``capabilities.py`` (``CAPABILITIES``).

pydantic-ai's ``ModelProfile`` is the anchor: what a model or format can hold is a record
that shared code reads, instead of a keyword at each call site or an assumption in a
shared test. The shared history rules (:mod:`chatcodec._providers.history.turns`) read the turn
traits; the conformance laws and strict mode read the rest, so no shared code assumes a
``tool_choice``, a ``developer`` role or a cache marker of every provider.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from chatcodec._public_label import shown_as

ToolChoiceKind = Literal["auto", "none", "required", "tool"]
"""The canonical tool-choice kinds (:class:`~chatcodec.ToolChoice` ``type``)."""

MediaKind = Literal["image", "audio", "video", "document"]
"""The canonical media parts."""

SystemPlacement = Literal["messages", "top_level", "top_level_and_turns"]
"""Where a format keeps system instructions: as turns in the message list (OpenAI Chat,
Responses input), only as one top-level prompt (Gemini ``systemInstruction``, Bedrock
``system``), or top level and, on the models that take them, as turns (Anthropic)."""

CitationPlace = Literal["request", "response", "stream"]
"""Where a format can carry a text's url citations: in a request's history, in an answer's
body, in a stream."""

ReasoningKind = Literal["effort", "budget", "adaptive", "disabled"]
"""How a format configures reasoning: an effort word, a token budget, adaptive thinking,
or switching it off."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Capabilities:
    """One wire format's capabilities (see the module docstring)."""

    display_name: str
    """How loss texts and errors name the format (``"OpenAI Chat"``)."""
    tool_choice: frozenset[ToolChoiceKind]
    """The tool-choice kinds it can write; empty when it has no tool choice."""
    system: SystemPlacement
    """Where it keeps system instructions."""
    developer_role: bool
    """It has a ``developer`` role distinct from ``system`` (else one is sent as system, reported)."""
    freeform_calls: bool
    """It has freeform (custom) tool calls, so it sends a ``tool_use`` of ``kind: custom`` as
    one; else such a call goes, with its results
    (:func:`chatcodec._providers.history.turns.without_unsent_calls`; a response's or a
    stream's by :mod:`chatcodec._providers.kit.freeform_calls`)."""
    results_follow_calls: bool
    """Tool results must come right after their call (:mod:`chatcodec._providers.history.turns`)."""
    media: frozenset[MediaKind]
    """The media parts a user turn can carry."""
    tool_result_media: frozenset[MediaKind]
    """The media parts a tool result can carry."""
    reasoning: frozenset[ReasoningKind]
    """How it configures reasoning; empty when it cannot."""
    signed_thinking: bool
    """It replays thinking with a provider signature (Claude, Gemini) or encrypted payload."""
    cache_markers: bool
    """It has explicit cache breakpoints (``cache_control`` or an equivalent)."""
    multiple_choices: bool
    """A request can ask for several answers (``n`` > 1)."""
    call_ids: bool
    """Tool calls carry ids on the wire (else ids are invented and matched by order or name)."""
    strict_reading: bool
    """``strict=True`` can be honoured: the codec has what strict mode reads (a published
    field set, ``known_fields.json``, with its value rules, or a ``structure`` role). A
    codec without it refuses ``strict=True`` with a
    :class:`~chatcodec.CodecNotAvailableError` rather than reading leniently unasked."""
    empty_system: bool = True
    """Its writer takes an empty system prompt as it stands (a top-level ``system: []``:
    Anthropic, Bedrock); else a system or developer message with no parts is left out,
    unreported, as an empty prompt is no prompt
    (:func:`chatcodec._providers.history.turns.history_for`): sent as a message it is refused
    (OpenAI: "Invalid 'messages[0].content': empty array. Expected an array with minimum
    length 1"), is an empty turn (Ollama), or (Gemini, after the first turn) a ``Content`` of
    no parts, refused ("contents.parts must not be empty")."""
    logprobs: bool = False
    """Its answers carry token log probabilities (a choice's ``logprobs``), written by its
    response and stream writers; else a choice's (or a stream's finish event's) are
    reported where it is written, by :class:`~chatcodec._providers.contract.provider_codec.ProviderCodec`
    (:func:`chatcodec._providers.kit.logprob_settings.report_choice_logprobs`,
    :class:`chatcodec._providers.kit.logprob_streams.WithoutLogprobs`), so no writer of a
    format without them has to remember to."""
    logprob_settings: bool = False
    """Its requests can ask for token log probabilities (the canonical ``logprobs`` and
    ``top_logprobs``), written by its request writer; else they are reported once the
    writer is done, by ``ProviderCodec.write_request``
    (:func:`chatcodec._providers.kit.logprob_settings.report_logprob_settings`)."""
    tool_definitions: bool = True
    """Its requests carry tool definitions (the canonical ``tools``). A stored framework
    history (LangChain's, the AI SDK's) holds the calls and results but not the tools the
    model was shown: a request's ``tools`` is reported, and the laws about definitions'
    names are not generated for it."""
    sampling_settings: frozenset[str] = frozenset({"temperature", "top_p"})
    """The canonical sampling settings it has a field for, of those the laws carry through a
    wire (``temperature``, ``top_p``): MCP sampling has no ``top_p``, a stored history has
    neither. A setting not here is reported as lost, and the laws that carry one take only these."""
    citations: frozenset[CitationPlace] = frozenset()
    """Where it carries a text part's ``citations`` (:class:`~chatcodec.UrlCitation`), written
    by its own writers there; elsewhere they are reported, by
    :class:`~chatcodec._providers.contract.provider_codec.ProviderCodec`
    (:mod:`chatcodec._providers.kit.citations`), so no writer of a format without them has to
    remember to."""
    fitted_tool_names: bool = True
    """An API checks its tool names, so a blank or rejected name is fitted and reported.
    False: a stored history's names are any string (no API reads them), carried as they stand."""
    object_arguments: bool = False
    """Its calls carry their arguments as a JSON object (Anthropic's ``input``, Gemini's
    ``args``, Bedrock's ``toolUse.input``, Ollama's ``arguments``), not as the text the model
    wrote: the text canonical data holds is chatcodec's spelling of the object, so a chat
    template is given the object to spell as the model's template does (``chatcodec.render``)."""
    harness_roles: Mapping[str, str] = field(default_factory=lambda: {})
    """Roles a client harness sends on this wire that its reader refuses, each with the
    canonical role a rendering for training reads it as, reported (Claude Code's ``ctx`` and
    ``msg`` turns on Anthropic's: client text in the user's place)."""


shown_as("chatcodec.contract", Capabilities)
