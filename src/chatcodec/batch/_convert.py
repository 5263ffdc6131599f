"""Converting many payloads at once: the pure work behind ``chatcodec convert`` and
:class:`~chatcodec.BatchConverter`.

Nothing here does I/O or keeps state between calls, so a batch can run in this process
or in a worker process, and the result (already-serialized output plus rejects) goes
back to whoever writes it. A payload that cannot be converted is never dropped: it
becomes an :class:`Outcome` with an error, or a :class:`Reject` that keeps the line
verbatim.
"""

from __future__ import annotations

import base64
import functools
import json
from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any

from chatcodec._api import convert_request, convert_response
from chatcodec._conversion import common_json, read_request_data, trace_source, write_request_data
from chatcodec._detect import mismatch
from chatcodec._errors import ChatcodecError
from chatcodec._extras import MissingExtraError
from chatcodec._losses import Loss, LossRecorder
from chatcodec._narrow import as_dict, as_list
from chatcodec._payloads import load_object, load_value
from chatcodec._registry import FRAMEWORK_FORMATS
from chatcodec._row_dialects import dialects as training
from chatcodec._row_dialects.atif_writer import to_atif
from chatcodec._row_dialects.layout import ConversationLayout as Layout
from chatcodec._row_dialects.sessions import read_session
from chatcodec.batch import _envelopes as envelopes
from chatcodec.batch import _training_pairs as preference
from chatcodec.batch._convert_records import (
    BatchResult,
    ConvertOptions,
    LineBatch,
    Outcome,
    RawLine,
    Reject,
    RowNumbering,
)
from chatcodec.batch._json_dump import dump_json


def _unexpected(error: Exception) -> Outcome:
    """A payload's outcome for an error chatcodec did not expect; a missing extra is raised
    instead (no payload's fault: every one would fail, and its message says what to install)."""
    if isinstance(error, MissingExtraError):
        raise error
    return Outcome(None, f"internal error, please report it: {type(error).__name__}: {error}")


def convert_payload(payload: object, options: ConvertOptions, line: int | None = None) -> Outcome:
    """Convert one payload (a dict, or JSON text or bytes); never raises for bad input.

    An error chatcodec raises on purpose says where the input is wrong; anything else
    is a bug in chatcodec, reported in the outcome rather than stopping a whole batch.
    ``line`` is the payload's line number, the id ``options.id_from_line`` gives a row.
    """
    if options.source in training.TRAINING_DIALECTS or options.target in training.TRAINING_DIALECTS:
        if options.columns:  # a dataset's own columns carried beside the row, as for any row
            return _with_row_fields(payload, options)
        return _training_row(payload, options)
    if options.envelope is not None or options.out_envelope is not None:
        return _enveloped(payload, options, line)
    if options.id_field is not None or options.columns:
        return _with_row_fields(payload, options)
    losses: list[Loss] = []
    body: dict[str, Any] | None = None
    try:
        if options.kind == "request" and isinstance(payload, str | bytes | bytearray):
            body = common_json(payload, options.source)  # parsed and validated once, in Rust, for the reader
        if body is None:
            body = load_object(history_row(payload, options), f"{options.source} {options.kind}")
        # a batch row given as its body's format says so first; then the body's own marks
        # (tolerant decoders would "convert" a body in another format)
        wrong_format = envelopes.mistaken_message(body, options.source, options.kind)
        if wrong_format is None:
            wrong_format = training.conversation_column_message(body, options.source) or mismatch(options.source, body)
        if wrong_format is not None:
            return Outcome(None, training.with_dialect_hint(wrong_format, body))
        converted = _converted_body(body, options, losses)
    except ChatcodecError as error:
        if body is None:
            return Outcome(None, str(error))
        return Outcome(None, _kind_hint(body, options) or training.with_dialect_hint(str(error), body))
    except Exception as error:  # one bad payload must not stop a whole dataset
        return _unexpected(error)
    return _settled(converted, losses, options)


def _kind_hint(body: dict[str, Any], options: ConvertOptions) -> str | None:
    """For a body refused as a request that reads as the source format's response (an answer
    given without ``--kind response``, the usual first mistake), the refusal saying so; asked
    only once the body was refused."""
    if options.kind != "request":
        return None
    try:
        convert_response(body, source=options.source, target=options.source, on_loss="ignore")
    except (ChatcodecError, TypeError, ValueError, KeyError):  # not a response either: the first refusal stands
        return None
    return (
        f"this is the {options.source} format's response, not a request: convert it with --kind response "
        "(the default kind is request)"
    )


def history_row(payload: object, options: ConvertOptions) -> object:
    """A framework history stored as its bare message list (a LangGraph checkpoint's
    ``messages`` channel: ``messages_to_dict`` or ``dumpd`` output, one a line or an item
    of a JSON array) as the ``{"messages": [...]}`` history its reader takes; any other
    payload as it is."""
    if options.source not in FRAMEWORK_FORMATS or options.kind != "request":
        return payload
    value = as_list(load_value(payload))
    return payload if value is None else {"messages": value}


def _converted_body(body: dict[str, Any], options: ConvertOptions, losses: list[Loss]) -> dict[str, Any]:
    """``body`` converted from ``options.source`` to ``options.target``, its losses into ``losses``."""
    if options.kind == "response":
        return convert_response(body, source=options.source, target=options.target, on_loss="ignore", losses=losses)
    settings: Any = dict(options.encoder_options)  # names from the command line: the codec checks them
    if options.model is None:
        return convert_request(
            body,
            source=options.source,
            target=options.target,
            on_loss="ignore",
            losses=losses,
            options=settings,
            extra_fields=dict(options.extra_fields),
        )
    return _written(read_request_data(body, options.source, target=options.target), options, losses, body)


def _written(
    canonical: dict[str, Any], options: ConvertOptions, losses: list[Loss], body: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Canonical request data written in ``options.target``, its losses into ``losses``, as
    :func:`~chatcodec.convert_request` writes it. The model is set on the canonical data
    between the reader and the writer: each format keeps it elsewhere (a body field,
    Bedrock's modelId, Gemini's URL)."""
    if options.model is not None:
        canonical = {**canonical, "model": options.model}
    recorder = LossRecorder()
    if body is not None:  # losses named in the body read, not in the canonical messages
        trace_source(recorder, body, options.source, canonical)
    converted = write_request_data(
        canonical, options.target, recorder, dict(options.encoder_options), dict(options.extra_fields)
    )
    recorder.settle("ignore", losses)
    return converted


def _with_row_fields(payload: object, options: ConvertOptions) -> Outcome:
    """Convert a row whose ``id_field`` and ``columns`` are the row's, not payload: they
    are taken out before the conversion (so they are no unknown field, no loss, and no
    reason for ``--strict-all`` to reject the row) and written back as the output's first
    keys."""
    try:
        body = load_object(payload, f"{options.source} {options.kind}")
    except ChatcodecError as error:
        return Outcome(None, str(error))
    names = options.row_fields
    outcome = convert_payload(
        {key: value for key, value in body.items() if key not in names}, replace(options, id_field=None, columns=())
    )
    carried = {name: body[name] for name in names if name in body}
    if outcome.converted is None or not carried:
        return outcome
    return replace(outcome, converted={**carried, **outcome.converted})


def _enveloped(payload: object, options: ConvertOptions, line: int | None = None) -> Outcome:
    """Convert a row whose body sits in a batch envelope and/or goes into one
    (:mod:`chatcodec.batch._envelopes`): the body is converted as a bare payload, then
    written in the target's envelope with the row's id."""
    losses: list[Loss] = []
    try:
        row = load_object(payload, f"{options.envelope or options.source} {options.kind}")
        row, carried = _columns_out(row, options)
        opened: envelopes.OpenedRow | None = None
        row_id: object = None
        source, target_format = options.source, options.target
        if options.envelope is not None:
            envelope, body_format = envelopes.envelope_named(options.envelope)
            opened = envelopes.open_row(row, envelope, body_format)
            if opened.id is None and options.id_from_line and line is not None:
                opened = replace(opened, id=f"{'line' if options.numbered == 'line' else 'item'}-{line}")
            body, source = opened.body, opened.body_format or options.source
        elif options.id_field is not None and options.id_field in row:
            row_id = row[options.id_field]
            body = {key: value for key, value in row.items() if key != options.id_field}
        else:
            body = row
        target = envelopes.envelope_named(options.out_envelope) if options.out_envelope is not None else None
        if opened is not None:
            if target == (opened.envelope, None):
                target_format = source  # the same envelope: each row keeps its body's format
            body = envelopes.body_leaving(opened, None if target is None else target[0])
        bare = _bare_options(options, source, target_format)  # strict settled once, below
        outcome = convert_payload(body, bare)
        if outcome.converted is None:
            return outcome
        kept = list(outcome.losses)
        if target is not None:
            kept = envelopes.excused(outcome.losses, target[0], target_format)
            written = envelopes.close_row(
                opened, outcome.converted, target[0], target_format, row_id=row_id, losses=losses
            )
        else:
            written = _bare_with_id(outcome.converted, opened, options.id_field, losses)
    except ChatcodecError as error:
        return Outcome(None, str(error))
    if carried:  # after a bare body's id, before everything else
        first = (
            {}
            if target is not None or options.id_field not in written
            else {options.id_field: written[options.id_field]}
        )
        written = {**first, **carried, **written}
    return _settled(written, [*kept, *losses], options)


def envelope_column_clash(options: ConvertOptions) -> str | None:
    """Why ``columns`` cannot be carried beside these envelopes' rows: one is a field an
    envelope places (``custom_id``, ``body``), which the envelope reads or writes itself."""
    for spec in (options.envelope, options.out_envelope):
        if spec is None or not options.columns:
            continue
        envelope, _ = envelopes.envelope_named(spec)
        placed = {steps[0] for steps in (envelopes.split_pointer(pointer) for pointer, _ in envelope.layout) if steps}
        for name in options.columns:
            if name in placed and name != options.id_field:
                return (
                    f"--column {name} is a field of {envelope.name} rows, which the envelope reads or writes "
                    "itself: name a dataset column of your own"
                )
    return None


def _columns_out(row: dict[str, Any], options: ConvertOptions) -> tuple[dict[str, Any], dict[str, Any]]:
    """``row`` without the dataset's own ``columns`` (top-level fields beside the envelope),
    and those columns, to write back beside the converted row."""
    names = [name for name in options.columns if name != options.id_field and name in row]
    if not names:
        return row, {}
    clash = envelope_column_clash(options)
    if clash is not None:
        raise envelopes.EnvelopeError(clash, f"$.{clash.split()[1]}", "envelope_column")
    return {key: value for key, value in row.items() if key not in names}, {name: row[name] for name in names}


def _training_row(payload: object, options: ConvertOptions) -> Outcome:
    """Convert a training dataset row (:mod:`chatcodec._row_dialects.dialects`): a conversation
    dialect's row to or from a body format or another dialect, a pair to another pair."""
    source, target = options.source, options.target
    layout = training.SHAREGPT
    losses: list[Loss] = []
    try:
        if options.dialect_layout is not None:
            layout = training.layout_from_config(load_object(options.dialect_layout, "the dialect configuration"))
        if source in training.SESSION_DIALECTS:  # a whole session file: one conversation, in its harness's wire
            session = read_session(payload, source)
            losses += session.losses
            read = training.ReadConversation(session.body)
            return _settled(_written_conversation(read, session.format, options, layout, losses), losses, options)
        row = load_object(payload, f"{source} row")
        respelled, respelling = training.in_dialect_names(row, source)  # read in the dialect's names, so written so
        if respelling:
            row = dict(respelled)
            losses += respelling
        if source in training.PAIR_DIALECTS or target in training.PAIR_DIALECTS:
            written = _pair_row(row, options, layout, losses)
        else:
            written = _conversation_row(row, options, layout, losses)
        if source == target:
            written = {**row, **written}  # the same dialect: its other columns kept, in place
        elif source in training.TRAINING_DIALECTS:
            losses += training.column_losses(row, source, target, layout)
    except ChatcodecError as error:
        return Outcome(None, str(error))
    except Exception as error:  # one bad row must not stop a whole dataset
        return _unexpected(error)
    return _settled(written, losses, options)


def _conversation_row(
    row: dict[str, Any], options: ConvertOptions, layout: training.ConversationLayout, losses: list[Loss]
) -> dict[str, Any]:
    source, read, body_format = options.source, training.ReadConversation(row), options.source
    if source in training.CONVERSATION_DIALECTS:
        read = training.read_conversation(row, source, layout)
        body_format = training.read_format(source)
        if source != options.target:  # what reading made up, which the same dialect leaves out again
            losses += read.notes
    return _written_conversation(read, body_format, options, layout, losses)


def _written_conversation(
    read: training.ReadConversation, body_format: str, options: ConvertOptions, layout: Layout, losses: list[Loss]
) -> dict[str, Any]:
    """A conversation read (a body in ``body_format``) written as the target: a body, or a dialect's row."""
    source, target = options.source, options.target
    if target == "atif":  # Harbor's trajectory from a trajectory row: rendered, or an hf-chat row and its own turns
        row_target = "trajectory" if options.tokenizer is not None else "hf-chat"
        thinking = (("reasoning_field", "reasoning_content"), *options.encoder_options)  # ATIF's reasoning_content
        row_options = replace(options, target=row_target, encoder_options=thinking)
        row = _written_conversation(read, body_format, row_options, layout, losses)
        return to_atif(row, row.get("turns") or (read.tokens or {}).get("turns") or [], losses)
    if target not in training.CONVERSATION_DIALECTS:
        converted = _converted_body(read.body, replace(options, source=body_format), losses)
        losses[:] = _without_model_required(losses)  # a training row names none: its body is a training row too
        return converted
    if target == "rollout" and (options.template is not None or source != target):
        return _rollout_row(read, body_format, options, losses)
    if target == "trajectory" and (options.template is not None or source != target):
        return _trajectory_row(read, body_format, options, losses)
    if options.template is not None:
        return _template_row(read.body, body_format, options, losses)
    converted = _converted_body(read.body, replace(options, source=body_format, target=training.WRITTEN_FROM), losses)
    losses[:] = _without_model_required(losses)
    same = source == target
    return training.write_conversation(
        converted,
        target,
        read.layout or layout if same else layout,
        prompt_length=read.prompt_length if same else None,
        input_length=read.input_length if same else None,
        object_arguments=read.object_arguments if same else True,
        nested_calls=read.nested_calls if same else (),
        losses=losses,
    )


def _template_row(
    body: dict[str, Any], body_format: str, options: ConvertOptions, losses: list[Loss]
) -> dict[str, Any]:
    """A row in the named template's shapes (:mod:`chatcodec._training.rows`), read as a
    canonical request; an ``hf-chat`` row whole, a ``trl-prompt-completion`` row split after
    its last user message."""
    from chatcodec._training.reading import read_input
    from chatcodec._training.rows import template_row
    from chatcodec.contract import LossRecorder

    if options.target not in training.TEMPLATE_DIALECTS:
        raise training.TrainingRowError(
            f"--template writes {', '.join(training.TEMPLATE_DIALECTS)} rows, not {options.target}",
            rule="training_template",
        )
    read = LossRecorder()  # a harness's roles (Claude Code's ctx, msg) read as render reads them
    request = read_input(body, body_format, read).request
    row, shaped_losses = template_row(
        request, options.template or "", payload=body, source=body_format, limits=options.template_limits
    )
    losses += [*read.losses, *shaped_losses]
    if options.target == "hf-chat":
        return row
    split = training.completion_start(row["messages"])
    written = {"prompt": row["messages"][:split], "completion": row["messages"][split:]}
    return {**written, **({"tools": row["tools"]} if "tools" in row else {})}


def _rollout_row(
    read: training.ReadConversation, body_format: str, options: ConvertOptions, losses: list[Loss]
) -> dict[str, Any]:
    """A rollout row rendered by ``--template`` with ``--tokenizer``
    (:mod:`chatcodec._training.rollouts`); a rollout read again keeps its own tokens where
    the template renders the same ids."""
    from chatcodec._training.rollouts import rollout_row

    if options.template is None or options.tokenizer is None:
        raise training.TrainingRowError(
            "rollout rows hold the tokens a template renders: name the template and the tokenizer "
            "(--template NAME --tokenizer tokenizer.json)",
            rule="training_rollout",
        )
    own = read.tokens if options.source == "rollout" else None
    row, rendered_losses = rollout_row(
        read.body,
        body_format,
        options.template,
        options.tokenizer,
        own_tokens=own,
        train_on=options.train_on,
        limits=options.template_limits,
    )
    losses += rendered_losses
    return row


def _trajectory_row(
    read: training.ReadConversation, body_format: str, options: ConvertOptions, losses: list[Loss]
) -> dict[str, Any]:
    """A trajectory row, its turns rendered by ``--template`` with ``--tokenizer``
    (:mod:`chatcodec._training.trajectories`); a trajectory read again keeps its own turns
    where the template renders the same ids."""
    from chatcodec._training.trajectories import trajectory_row

    if options.template is None or options.tokenizer is None:
        raise training.TrainingRowError(
            "trajectory rows hold the turns a template renders: name the template and the tokenizer "
            "(--template NAME --tokenizer tokenizer.json)",
            rule="training_trajectory",
        )
    own = (read.tokens or {}).get("turns") if options.source == "trajectory" else None
    row, rendered_losses = trajectory_row(
        read.body, body_format, options.template, options.tokenizer, own_turns=own, limits=options.template_limits
    )
    losses += rendered_losses
    return row


def _pair_row(
    row: dict[str, Any], options: ConvertOptions, layout: training.ConversationLayout, losses: list[Loss]
) -> dict[str, Any]:
    source, target = options.source, options.target
    if source not in training.PAIR_DIALECTS or target not in training.PAIR_DIALECTS:
        pairs = ", ".join(training.PAIR_DIALECTS)
        raise training.TrainingRowError(
            f"a preference pair converts only between pair dialects ({pairs}), not {source} to {target}",
            rule="training_pair",
        )
    pair = preference.read_pair(row, source, layout)
    part_options = replace(options, source=training.read_format(source), target=preference.pair_part_format(target))
    prompt = _converted_body(pair.prompt, part_options, losses)
    if source == target:
        prompt = preference.with_empty_fields(pair.prompt, prompt)
    chosen, rejected = (
        _converted_body({"messages": side}, part_options, losses)["messages"] for side in (pair.chosen, pair.rejected)
    )
    losses[:] = _without_model_required(losses)
    converted = preference.PreferencePair(prompt, chosen, rejected, implicit=pair.implicit and source == target)
    return preference.write_pair(converted, target, losses, layout)


def _without_model_required(losses: list[Loss]) -> list[Loss]:
    """A training row names no model (the fine-tuning job does): the writer's "model
    required", an API's rule for a request it is sent, is no loss of the row's."""
    return [loss for loss in losses if not (loss.kind == "required" and loss.path == "$.model")]


def _bare_options(options: ConvertOptions, source: str, target: str) -> ConvertOptions:
    """The options converting an envelope's body, made once per run and format pair
    (``dataclasses.replace`` cost as much as opening the envelope)."""
    try:
        return _bare_options_cached(options, source, target)
    except TypeError:  # an encoder option's value is a list or an object: not hashable
        return _bare_options_cached.__wrapped__(options, source, target)


@functools.lru_cache(maxsize=64)
def _bare_options_cached(options: ConvertOptions, source: str, target: str) -> ConvertOptions:
    return replace(
        options, source=source, target=target, envelope=None, out_envelope=None, id_field=None, columns=(), strict=False
    )


def _bare_with_id(
    converted: dict[str, Any], opened: envelopes.OpenedRow | None, id_field: str | None, losses: list[Loss]
) -> dict[str, Any]:
    """A body taken out of its envelope: the row's id under ``id_field`` (first), or a loss;
    every other field of the envelope a loss."""
    if opened is None:
        return converted
    extras = list(opened.extras)
    id_pointer = opened.envelope.pointer_of(envelopes.ID_SLOT)
    if opened.id is not None and id_pointer is not None:
        if id_field is not None:
            converted = {id_field: opened.id, **converted}
        else:
            extras.insert(0, (id_pointer, opened.id))
    for pointer, _ in extras:
        losses.append(
            Loss(
                envelopes.pointer_path(pointer),
                f"{opened.envelope.name} field",
                "a bare body has no place for it (--id-field keeps the id)",
                "metadata",
            )
        )
    return converted


def _settled(converted: dict[str, Any], losses: list[Loss], options: ConvertOptions) -> Outcome:
    refused = [loss for loss in losses if loss.kind in options.strict_kinds] if options.strict else []
    if refused:
        listed = "\n".join(f"  {loss}" for loss in refused)
        return Outcome(None, f"not converted under strict: {len(refused)} loss(es):\n{listed}", tuple(losses))
    return Outcome(converted, None, tuple(losses))


def reject_record(
    line: int, error: str, text: bytes, losses: Iterable[Loss] = (), numbered: RowNumbering = "line"
) -> bytes:
    """One rejects-file line: ``{"line", "error", "losses"?, "text" | "text_base64"}``
    (``"index"`` in place of ``"line"`` for an item of a JSON array).

    ``text`` is the input line verbatim (without its terminator); a line that is not
    UTF-8 is kept byte for byte as ``text_base64`` instead.
    """
    record: dict[str, object] = {numbered: line, "error": error}
    listed = [str(loss) for loss in losses]
    if listed:
        record["losses"] = listed
    try:
        record["text"] = text.decode("utf-8")
    except UnicodeDecodeError:
        record["text_base64"] = base64.b64encode(text).decode("ascii")
    return dump_json(record) + b"\n"


def iter_line_batches(
    lines: Iterable[bytes], max_lines: int = 128, max_bytes: int = 1 << 21, *, first: int = 1
) -> Iterator[LineBatch]:
    """Group the lines of a binary JSONL stream into batches, lazily.

    A batch closes at ``max_lines`` non-blank lines or ``max_bytes`` of input, whichever
    comes first, so memory stays bounded whatever the line lengths; a single line
    longer than ``max_bytes`` is a batch of its own. Blank lines are skipped but counted.
    ``first``: the first line's number (0 for the items of a JSON array, by index).
    """
    batch = LineBatch()
    for number, line in enumerate(lines, start=first):
        if batch.lines and batch.size + len(line) > max_bytes:
            yield batch
            batch = LineBatch()
        batch.size += len(line)
        if line and not line.isspace():  # blank: no copy made to tell (``strip`` made one)
            batch.lines.append(RawLine(number, _without_terminator(line)))
        if len(batch.lines) >= max_lines or batch.size >= max_bytes:
            yield batch
            batch = LineBatch()
    if batch.size:
        yield batch


def placeholder(text: bytes, id_field: str | None, columns: tuple[str, ...] = ()) -> bytes:
    """The output line standing for a rejected line: ``{id_field: value}`` (with the
    ``columns`` it holds after it) when the line is a JSON object holding ``id_field``,
    else ``null``."""
    if id_field is not None:
        try:
            row: object = json.loads(text)
        except (ValueError, RecursionError):
            row = None
        fields = as_dict(row)
        if fields is not None and id_field in fields:
            kept = {name: fields[name] for name in (id_field, *columns) if name in fields}
            return dump_json(kept) + b"\n"
    return b"null\n"


def _without_terminator(line: bytes) -> bytes:
    if line.endswith(b"\r\n"):
        return line[:-2]
    if line.endswith(b"\n"):
        return line[:-1]
    return line


def convert_lines(batch: LineBatch, options: ConvertOptions, indent: int | None = None) -> BatchResult:
    """Convert every line of ``batch``; the work one worker does per batch."""
    result = BatchResult(size=batch.size)
    pieces: list[bytes] = []
    for line in batch.lines:
        outcome = convert_payload(line.text, options, line.number)
        if outcome.converted is None:
            error = outcome.error or "not converted"
            result.rejects.append(
                Reject(
                    line.number, error, reject_record(line.number, error, line.text, outcome.losses, options.numbered)
                )
            )
            if options.keep_lines:
                result.placeholders.append(result.converted + len(result.placeholders))
                pieces.append(placeholder(line.text, options.id_field, options.columns))
            continue
        pieces += (dump_json(outcome.converted, indent), b"\n")  # joined once: no copy of each line
        result.converted += 1
        if outcome.losses:
            result.losses.extend((line.number, loss) for loss in outcome.losses)
    result.output = b"".join(pieces)
    return result
