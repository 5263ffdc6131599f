"""Gemini's OpenAI-compatible endpoint (``https://generativelanguage.googleapis.com/v1beta/openai/``).

- Thought signatures: a function call's signature comes as
  ``tool_calls[].extra_content.google.thought_signature`` and must go back there; in the
  current turn the first call of each step must carry one, or Gemini 3 answers 400
  "Function call is missing a thought_signature in functionCall parts"
  (https://ai.google.dev/gemini-api/docs/thought-signatures). A history from another
  format has none: the option ``missing_signature="skip"`` sends Google's documented
  sentinel ``skip_thought_signature_validator``; by default the call is sent unsigned
  and reported, as the ``gemini`` format does.
- ``reasoning_effort`` maps to Gemini's thinking levels; Gemini's own settings ride in an
  ``extra_body`` field of the body (``{"extra_body": {"google": {"thinking_config": ...}}}``)
  (https://ai.google.dev/gemini-api/docs/openai#thinking).
- It takes no reasoning text back (the signature carries the thinking).
"""

from __future__ import annotations

import re

from chatcodec._providers.families.google.single_types import single_types
from chatcodec._providers.openai_chat.servers import kinds
from chatcodec._providers.openai_chat.servers.server import Server, ServerCall, ServerRule
from chatcodec._providers.openai_chat.servers.turns import current_steps
from chatcodec.codec_kit import as_dict, as_list
from chatcodec.contract import Extension, SamplingRange

DOCS = "https://ai.google.dev/gemini-api/docs/openai"
SIGNATURES = "https://ai.google.dev/gemini-api/docs/thought-signatures"
SKIP_SENTINEL = "skip_thought_signature_validator"
"""Google's documented value that skips the signature check (the ``gemini`` format's too)."""

_NOT_VALIDATING = re.compile(r"(^|/)gemini-[12](\.|-)")


def _signature_on_first_call(call: ServerCall) -> None:
    """Gemini 3 wants a signature on the first call of each step of the current turn."""
    if call.model is not None and _NOT_VALIDATING.search(call.model.lower()):
        return
    skip = call.options.get("missing_signature") == "skip"
    for index, message in current_steps(call.body):
        first = as_dict((as_list(message.get("tool_calls")) or [None])[0])
        if first is None or _signature(first) is not None:
            continue
        at = ("messages", index, "tool_calls", 0)
        if skip:
            extra = dict(as_dict(first.get("extra_content")) or {})
            extra["google"] = {**(as_dict(extra.get("google")) or {}), "thought_signature": SKIP_SENTINEL}
            first["extra_content"] = extra
            call.report(at, "thought signature", f"none to send: sent {SKIP_SENTINEL!r} ({SIGNATURES})")
        else:
            why = (
                "none to send: Gemini 3 refuses the request; "
                f"options={{'missing_signature': 'skip'}} sends {SKIP_SENTINEL!r} ({SIGNATURES})"
            )
            call.report(at, "thought signature", why)


def _signature(tool_call: dict[str, object]) -> object:
    google = as_dict((as_dict(tool_call.get("extra_content")) or {}).get("google"))
    return None if google is None else google.get("thought_signature")


def _single_types(call: ServerCall) -> None:
    """A tool's ``parameters`` and a ``json_schema`` format's ``schema`` become Gemini's
    ``Schema`` on this endpoint, whose ``type`` is one name: a ``type`` list is written
    with ``nullable``/``anyOf``, whatever format the request came from (copies: the
    caller's own schema objects are not changed)."""
    tools = as_list(call.body.get("tools")) or []
    for index, tool in enumerate(tools):
        function = as_dict((as_dict(tool) or {}).get("function"))
        at = ("tools", index, "function", "parameters")
        if function is not None and (parameters := _rewritten(call, function.get("parameters"), at)) is not None:
            tools[index] = {**tool, "function": {**function, "parameters": parameters}}
    response_format = as_dict(call.body.get("response_format"))
    json_schema = as_dict((response_format or {}).get("json_schema"))
    where = ("response_format", "json_schema", "schema")
    if json_schema is not None and (schema := _rewritten(call, json_schema.get("schema"), where)) is not None:
        call.body["response_format"] = {**(response_format or {}), "json_schema": {**json_schema, "schema": schema}}


def _rewritten(call: ServerCall, schema: object, at: tuple[str | int, ...]) -> object:
    """``schema`` with single types, reported, or None when it has no type list."""
    rewritten, changes = single_types(schema, at)
    for change in changes:
        call.report(change.at, change.what, f"written with nullable/anyOf ({SCHEMA})")
    return rewritten if changes else None


SCHEMA = "https://ai.google.dev/api/caching#Schema"

_RANGES = (
    "https://ai.google.dev/api/generate-content#generationconfig (temperature: [0.0, 2.0]; topP; the "
    "penalties have no documented range) through https://ai.google.dev/gemini-api/docs/openai"
)

SERVER = Server(
    "gemini",
    "Gemini (OpenAI compatibility)",
    DOCS,
    hosts=("generativelanguage.googleapis.com",),
    models=(r"gemini-[\w.-]+",),
    extensions=(
        *(Extension(kinds.PROVIDER, kind, ("extra_body",), DOCS + "#extra-body") for kind in kinds.REQUESTS),
        *(Extension(kinds.PROVIDER, kind, ("extra_content",), SIGNATURES) for kind in kinds.TOOL_CALLS),
    ),
    reasoning_source=SIGNATURES + " (the signature carries the thinking)",
    efforts=("none", "minimal", "low", "medium", "high"),
    efforts_source=DOCS + "#thinking",
    parts=frozenset({"text", "image_url", "input_audio"}),
    parts_source=DOCS + "#image-understanding",
    signatures=True,
    rules=(
        ServerRule(
            "signature_on_first_call",
            "an unsigned first call of a current-turn step is reported, or signed with "
            f"`{SKIP_SENTINEL}` under `missing_signature='skip'` (not for gemini-1.x/2.x)",
            SIGNATURES,
            _signature_on_first_call,
        ),
        ServerRule(
            "single_types",
            "a JSON Schema `type` list in a tool's parameters or a `json_schema` format is written "
            "with `nullable`/`anyOf` (Gemini's Schema takes one type name)",
            SCHEMA,
            _single_types,
        ),
    ),
    semconv_name="gcp.gemini",
    sampling_ranges=(SamplingRange("temperature", 0.0, 2.0, _RANGES), SamplingRange("top_p", 0.0, 1.0, _RANGES)),
)
"""Gemini's OpenAI-compatible endpoint."""
