"""What a row format's name says: the names ``--from``/``--to``, :class:`~chatcodec.BatchConverter`
and :class:`~chatcodec.datasets.ArrowConverter` take, read one way for all three.

A name is a body format (a registered codec, or ``canonical``), a batch envelope preset
(``openai-batch``; ``NAME:FORMAT`` fixes its body format: ``bedrock-batch:anthropic``) from
:data:`chatcodec.batch._envelopes.ENVELOPES`, whose rows say whether they hold requests or
responses, or a training dialect (:data:`chatcodec._row_dialects.dialects.TRAINING_DIALECTS`), a row
of its own. A custom envelope (``body=/pointer,id=/pointer``) is given beside a body format
(the CLI's ``--body-at``, the converters' ``envelope=``). :func:`resolve_row_formats` turns
the names into the fields of :class:`~chatcodec.batch._convert_records.ConvertOptions` and refuses,
with why, names that do not go together; each caller names its own arguments in the
messages (:class:`Labels`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from chatcodec._losses import LOSS_KINDS
from chatcodec._public_label import shown_as
from chatcodec._registry import CANONICAL, PROVIDER_NAMES, available_formats, get_codec
from chatcodec._row_dialects import dialects as training
from chatcodec.batch import _envelopes as envelopes
from chatcodec.batch._convert_records import ConvertOptions, PayloadKind


@dataclass(frozen=True, slots=True)
class Labels:
    """How a caller names the arguments a message speaks of."""

    source: str
    target: str
    envelope: str
    out_envelope: str
    kind: str


API_LABELS = Labels("source", "target", "envelope", "out_envelope", "kind")
"""The converters' keyword arguments."""


@dataclass(frozen=True, slots=True)
class RowFormats:
    """What the names say about rows: formats, envelopes, kind."""

    source: str
    """The body format read (an envelope's default when a row does not tell), or a dialect."""
    target: str
    """The body format written, or a dialect."""
    kind: PayloadKind
    """Requests or responses."""
    envelope: str | None
    """The input rows' envelope spec."""
    out_envelope: str | None
    """The output rows' envelope spec."""


def row_formats() -> dict[str, str]:
    """Every name a converter takes as its source or target, with what it is: ``"format"``
    (a wire format, or ``canonical``), ``"envelope"`` (a batch file's row, around a body
    in one of its formats; ``NAME:FORMAT`` fixes that format) or ``"dialect"`` (a training
    dataset's row). Codecs registered at run time are formats too."""
    names = dict.fromkeys((*PROVIDER_NAMES, *available_formats(), CANONICAL), "format")
    names.update(dict.fromkeys(envelopes.ENVELOPE_NAMES, "envelope"))
    names.update(dict.fromkeys(training.TRAINING_DIALECTS, "dialect"))
    return names


def resolve_row_formats(
    source: str,
    target: str,
    *,
    kind: PayloadKind | None = None,
    envelope: str | None = None,
    out_envelope: str | None = None,
    labels: Labels = API_LABELS,
    check_codecs: bool = True,
) -> RowFormats:
    """The formats and envelopes ``source`` and ``target`` name; ``envelope`` and
    ``out_envelope`` are envelopes given beside a body format. ``ValueError`` says what does
    not go together; an unknown body format (or one whose codec is not installed) is a
    :class:`~chatcodec.ProviderLookupError` unless ``check_codecs`` is off (the CLI
    refuses it itself, with its exit code)."""
    in_envelope, source_format, source_kind = _side(source, envelope, labels.envelope, labels.source, check_codecs)
    written_envelope, target_format, target_kind = _side(
        target, out_envelope, labels.out_envelope, labels.target, check_codecs
    )
    kinds: list[tuple[PayloadKind, str]] = [(kind, labels.kind)] if kind is not None else []
    kinds += [told for told in (source_kind, target_kind) if told is not None]
    if len({told for told, _ in kinds}) > 1:
        said = ", ".join(f"{where} ({told}s)" for told, where in kinds)
        raise ValueError(f"the row kinds disagree: {said}")
    rows = RowFormats(source_format, target_format, kinds[0][0] if kinds else "request", in_envelope, written_envelope)
    _refuse_mixtures(rows, kind, labels)
    return rows


def _side(
    name: str, layout: str | None, layout_label: str, label: str, check_codecs: bool
) -> tuple[str | None, str, tuple[PayloadKind, str] | None]:
    """One side's envelope spec, body format, and the row kind its envelope says (with
    where it says it)."""
    if name in training.TRAINING_DIALECTS:
        if layout is not None:
            raise ValueError(f"a training dialect ({name}) is a row of its own, not a body in an envelope")
        return None, name, None
    if not envelopes.is_envelope_spec(name) or name.startswith("body="):
        if check_codecs and name != CANONICAL:
            get_codec(name)  # an unknown name, or a codec not installed, says so here, not on every row
        if layout is not None:
            envelopes.envelope_named(layout)  # ValueError for a layout that is not one
        return layout, name, None
    if layout is not None:
        raise ValueError(f"{layout_label} is for a {label} body format, not an envelope preset")
    envelope, body_format = envelopes.envelope_named(name)
    return name, body_format or envelope.formats[0], (envelope.kind, f"{label} {name}")


def _refuse_mixtures(rows: RowFormats, kind: PayloadKind | None, labels: Labels) -> None:
    """``ValueError`` for formats, envelopes and kinds that do not go together."""
    dialects = [name for name in (rows.source, rows.target) if name in training.TRAINING_DIALECTS]
    if dialects and (rows.envelope is not None or rows.out_envelope is not None):
        raise ValueError(f"a training dialect ({dialects[0]}) is a row of its own, not a body in an envelope")
    if rows.source in training.WRITTEN_ONLY_DIALECTS:
        raise ValueError(
            f"{rows.source} is written, not read under its name: read an ATIF trajectory --from trajectory"
        )
    if rows.target in training.READ_ONLY_DIALECTS:
        harness = rows.target in (*training.SESSION_DIALECTS, "openhands")
        why = "a harness writes its own records" if harness else "an eval item is the eval's data"
        raise ValueError(f"{rows.target} is read, not written ({labels.source} {rows.target}): {why}")
    if dialects and kind == "response":
        raise ValueError(f"a training dialect ({dialects[0]}) holds conversations: {labels.kind} request")


def row_options(
    source: str,
    target: str,
    *,
    kind: PayloadKind | None = None,
    strict: bool = False,
    strict_kinds: tuple[str, ...] = LOSS_KINDS,
    options: Mapping[str, Any] | None = None,
    envelope: str | None = None,
    out_envelope: str | None = None,
    model: str | None = None,
    dialect_config: Mapping[str, Any] | None = None,
    template: str | None = None,
    tokenizer: str | None = None,
) -> ConvertOptions:
    """The conversion a converter applies to every row, from its keyword arguments: the
    names resolved (:func:`resolve_row_formats`), the encoder options, the dialect
    configuration and the template checked, so a mistake fails once, not on every row."""
    rows = resolve_row_formats(source, target, kind=kind, envelope=envelope, out_envelope=out_envelope)
    _check_template(rows, template, tokenizer)
    if options:
        from chatcodec._codec_options import checked_options

        checked_options(training.WRITTEN_FROM if rows.target in training.TRAINING_DIALECTS else rows.target, options)
    layout = None
    if dialect_config is not None:
        training.layout_from_config(dict(dialect_config))  # a configuration it cannot read fails here
        layout = json.dumps(dict(dialect_config))
    return ConvertOptions(
        rows.source,
        rows.target,
        rows.kind,
        strict,
        tuple((options or {}).items()),
        strict_kinds=strict_kinds,
        envelope=rows.envelope,
        out_envelope=rows.out_envelope,
        model=model,
        dialect_layout=layout,
        template=template,
        tokenizer=tokenizer,
    )


def _check_template(rows: RowFormats, template: str | None, tokenizer: str | None) -> None:
    """``ValueError`` for a template or tokenizer given where the rows use none, and for
    token rows (rollout, trajectory, ATIF with token metrics) without both
    (:func:`~chatcodec._row_dialects.dialects.token_options_problem`); a template that is no
    family and no Jinja is a :class:`~chatcodec.TemplateError`."""
    if template is not None:
        if rows.target not in training.TEMPLATE_DIALECTS:
            raise ValueError(f"template= writes {', '.join(training.TEMPLATE_DIALECTS)} rows, not {rows.target}")
        from chatcodec._training.families import resolve

        resolve(template)
    problem = training.token_options_problem(
        rows.source, rows.target, template=template is not None, tokenizer=tokenizer is not None
    )
    if problem == "unused":
        raise ValueError(
            f"tokenizer= renders rollout rows' tokens and trajectory rows' turns (target='rollout', "
            f"'trajectory' or 'atif'), not {rows.target} rows"
        )
    if problem == "missing":
        raise ValueError(
            f"{rows.target} rows hold the tokens a chat template renders: pass both template= (a family such as "
            "'qwen3', or a template's text) and tokenizer= (a tokenizer.json path or a model folder, read once per "
            "worker); or render a column of conversations to token columns with RenderConverter(template=..., "
            f"tokenizer=...). A {rows.target} converted to itself keeps its tokens without them"
        )


shown_as("chatcodec.datasets", row_formats)  # shown as chatcodec.datasets.row_formats (imported from there)
