"""``chatcodec convert``: move requests or responses between wire formats, at any scale.

A single JSON document is converted and pretty-printed (one given on one line stays on one
line, so a JSON line piped in appends to JSON lines). JSON lines (one payload per
line) stream through in constant memory and in input order, on ``--workers`` processes:
every line that cannot be converted goes to a rejects file with its line number, the
error (with its JSON path) and the line verbatim, so nothing is lost or silently
skipped; ``--keep-lines`` also writes a placeholder line for it (``null``, or
``{NAME: value}`` passed through from the row by ``--id-field NAME``), so output line N
is the N-th payload of the input. ``--id-field NAME`` names the row's id: it is not
payload, so it is converted into no loss and a converted row carries it as its first key.
Losses go to standard error with the line, kind and JSON
path (``--quiet``: counts by kind); ``--strict`` turns a content or rule loss into a reject,
``--strict-all`` any loss. A progress bar is drawn on standard error when it is a terminal.

The exit code is the number of rejected payloads (63 for 63 or more), or a
``sysexits`` code when the run itself failed: see :mod:`chatcodec.cli._exit_codes`.
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import sys
import textwrap
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager, nullcontext
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

from chatcodec._errors import CodecNotAvailableError, PayloadError, ProviderLookupError
from chatcodec._extras import MissingExtraError
from chatcodec._losses import LOSS_KINDS
from chatcodec._registry import CANONICAL, FRAMEWORK_FORMATS, PROVIDER_NAMES, get_codec, is_available
from chatcodec.batch._convert import convert_lines, convert_payload, envelope_column_clash, iter_line_batches
from chatcodec.batch._convert_records import BatchResult, ConvertOptions
from chatcodec.batch._json_dump import dump_json
from chatcodec.cli import _exit_codes as exit_codes
from chatcodec.cli import _presets as presets
from chatcodec.cli import _session_files as session_files
from chatcodec.cli import _session_folders as session_folders
from chatcodec.cli import _trace_rows as trace_rows
from chatcodec.cli import _training_options as training_options
from chatcodec.cli._convert_arguments import EXIT_CODES_HELP, REJECTS_SUFFIX, add_convert_arguments
from chatcodec.cli._dataset_options import (
    STRICT_KINDS,
    add_dataset_options,
    analyst_sink,
    column_types,
    envelope_sink,
    layout_error,
    row_field_clash,
    with_storage,
)
from chatcodec.cli._documents import InputFile, is_stdin, open_input
from chatcodec.cli._message_list import one_conversation
from chatcodec.cli._pending_output import PendingOutput
from chatcodec.cli._progress import ProgressBar, progress_mode
from chatcodec.cli._run_report import RejectsFile, RunReport, report_losses
from chatcodec.cli._signals import ending_cleanly

if TYPE_CHECKING:
    from concurrent.futures.process import BrokenProcessPool

_BUILT_IN_FORMATS = frozenset((CANONICAL, *PROVIDER_NAMES, *FRAMEWORK_FORMATS))
"""The formats whose codec is chatcodec's: any other name is checked loadable before the input is read."""

BatchT = TypeVar("BatchT")
"""A batch of input: JSON lines, or Parquet rows."""


def is_parquet(path: Path | None, named: str | None) -> bool:
    """Whether a file is Parquet: as ``--in-format``/``--out-format`` names it, else by
    its ``.parquet`` extension."""
    if named is not None:
        return named == "parquet"
    return path is not None and path.suffix == ".parquet"


def add_convert_command(commands: Any) -> None:
    """Register ``convert`` on the CLI's sub-command parser."""
    convert = commands.add_parser(
        "convert",
        help="convert requests or responses between wire formats",
        description="Convert a JSON payload, or JSONL with one payload per line (in order, in constant memory).",
        epilog=f"{presets.dialects_help()}\n\n{textwrap.fill(EXIT_CODES_HELP, 100)}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_convert_arguments(convert)
    presets.add_layout_arguments(convert)
    add_dataset_options(convert)
    convert.set_defaults(run=run_convert, parser=convert)


def _check_options(arguments: argparse.Namespace, target: str) -> None:
    """A misspelt ``--option`` is refused before the first row (it would fail every row)."""
    if not arguments.encoder_options:
        return
    from chatcodec._codec_options import checked_options
    from chatcodec._errors import OptionError
    from chatcodec._row_dialects.dialects import TRAINING_DIALECTS, WRITTEN_FROM, read_format

    if target in TRAINING_DIALECTS:  # a dialect's rows are written from its body format, which takes the options
        target = WRITTEN_FROM if read_format(target) == "canonical" else read_format(target)
    try:
        checked_options(target, dict(arguments.encoder_options))
    except OptionError as error:
        arguments.parser.error(f"--option: {error}")


def run_convert(arguments: argparse.Namespace, out: TextIO) -> int:
    """Convert every payload of the input file; returns the exit code. SIGTERM and SIGHUP
    stop it as Ctrl-C does, nothing left under a temporary name (:mod:`._signals`)."""
    with ending_cleanly():
        return _run_convert(arguments, out)


def _run_convert(arguments: argparse.Namespace, out: TextIO) -> int:
    path: Path = arguments.file
    if arguments.source is None:
        from chatcodec.cli._source_format import source_format

        arguments.source = source_format(session_folders.first_file(path) if path.is_dir() else path)
        if arguments.source is None:
            arguments.parser.error(
                "--from FORMAT is needed: the input's format could not be told from its first document"
            )
        print(f"{path}: read as {arguments.source} (give --from to choose another format)", file=sys.stderr)
    options = _convert_options(arguments)
    refused = _refused_before_reading(arguments, options)
    if refused is not None:
        return refused
    if is_parquet(path, arguments.in_format):
        return _convert_parquet(arguments, options, out)
    if path.is_dir():  # a folder of session files, each a row, a subagent's linked to its parent
        return session_folders.convert_folder(arguments, options, lambda body: _write_body(arguments, body, out))
    with ExitStack() as stack:
        try:
            source = stack.enter_context(open_input(path))
        except OSError as error:
            print(f"chatcodec: cannot read {path}: {error.strerror or error}", file=sys.stderr)
            return exit_codes.NO_INPUT
        return _convert_input(arguments, options, source, out)


def _convert_options(arguments: argparse.Namespace) -> ConvertOptions:
    """The run's options from its arguments (the preset's rows resolved), or the parser's
    usage error for arguments that do not go together."""
    parser: argparse.ArgumentParser = arguments.parser
    try:
        rows = presets.resolve(arguments)
    except ValueError as error:
        parser.error(str(error))
    _check_options(arguments, rows.target)
    limits = training_options.template_limits(arguments, parser)
    options = ConvertOptions(
        rows.source,
        rows.target,
        "response" if rows.kind == "response" else "request",
        arguments.strict or arguments.strict_all,
        tuple(arguments.encoder_options),
        extra_fields=tuple(arguments.extra_fields),
        strict_kinds=LOSS_KINDS if arguments.strict_all else STRICT_KINDS,
        keep_lines=arguments.keep_lines,
        id_field=arguments.id_field,
        columns=tuple(arguments.columns),
        envelope=rows.envelope,
        out_envelope=rows.out_envelope,
        model=arguments.model,
        dialect_layout=_dialect_layout(arguments.dialect_config, parser),
        id_from_line=arguments.id_from_line,
        template=training_options.template(arguments.template, rows.target, parser, limits),
        tokenizer=training_options.tokenizer(arguments, rows.source, rows.target, parser),
        train_on=training_options.train_on(arguments, rows.target, parser),
        template_limits=limits,
    )
    return with_storage(options, storage=arguments.storage)


def _refused_before_reading(arguments: argparse.Namespace, options: ConvertOptions) -> int | None:
    """The exit code of a run refused before its input is read (an unknown format, an
    output that cannot be written), or the parser's usage error; ``None`` to go on."""
    try:
        for name in (options.source, options.target):  # refused once, not on every line
            if name not in presets.TRAINING_DIALECTS and (not is_available(name) or name not in _BUILT_IN_FORMATS):
                get_codec(name)  # raises, naming what there is (or the installed codec's distribution)
    except ProviderLookupError as error:
        print(f"chatcodec convert: error: {error}", file=sys.stderr)
        return exit_codes.UNAVAILABLE if isinstance(error, CodecNotAvailableError) else exit_codes.USAGE
    if is_parquet(arguments.out, arguments.out_format) and arguments.out is None:
        arguments.parser.error("Parquet output needs --out PATH")
    if session_files.reads_session(options.source) and _tabular_output(arguments):  # was JSON text in a .parquet
        arguments.parser.error(session_files.TABLES_REFUSED)
    clash = (
        layout_error(arguments)
        or envelope_column_clash(options)
        or (row_field_clash(options, arguments.layout) if _tabular_output(arguments) else None)
    )
    if clash is not None:
        arguments.parser.error(clash)
    unwritable = _unwritable(arguments)
    if unwritable is not None:  # before the input is read, not after a whole run converted it
        print(f"chatcodec convert: error: {unwritable}", file=sys.stderr)
        return exit_codes.IO_ERROR
    return None


def _convert_input(arguments: argparse.Namespace, options: ConvertOptions, source: InputFile, out: TextIO) -> int:
    """Convert JSON lines, or one document (a table of one row for a tabular output)."""
    skipped = trace_rows.SkippedSpans()
    try:
        return _convert_source(arguments, options, source, out, skipped)
    finally:
        skipped.tell()


def _convert_source(
    arguments: argparse.Namespace,
    options: ConvertOptions,
    source: InputFile,
    out: TextIO,
    skipped: trace_rows.SkippedSpans,
) -> int:
    """:func:`_convert_input`'s work, a trace's spans of no model call counted in ``skipped``."""
    if session_files.reads_session(options.source):  # a harness's session: the whole file is one conversation
        try:
            whole = source.document if source.lines is None else session_files.session_document(source.lines)
        except PayloadError as error:
            print(f"{arguments.file}: {error}", file=sys.stderr)
            return 1
        subagents = session_files.subagent_documents(whole or b"[]", options.source, options.target)
        return _convert_document(arguments, options, whole or b"", out, subagents)
    if source.lines is not None:
        lines = source.lines if options.source != trace_rows.FORMAT else trace_rows.span_lines(source.lines, skipped)
        if source.indexed:  # a JSON array's items: numbered by index in every message
            lines, conversation = one_conversation(lines, options, arguments.file)
            if conversation is not None:  # a bare message list: one conversation
                return _convert_document(arguments, *conversation, out)
            options = replace(options, numbered="index")
        return _convert_lines(arguments, options, lines, source.size, out)
    rows = _document_rows(source.document or b"", options)
    if rows is None and options.source == trace_rows.FORMAT:  # an OTLP export: a row per model call
        spans = trace_rows.span_rows(source.document or b"", skipped)
        rows = None if spans is None else (options, spans)
    if rows is not None:  # one document holding a batch's rows (Gemini's inlined results)
        return _convert_lines(arguments, rows[0], iter(rows[1]), source.size, out)
    if _tabular_output(arguments):
        return _convert_lines(arguments, options, iter([source.document or b""]), source.size, out)
    return _convert_document(arguments, options, source.document or b"", out)


def _document_rows(text: bytes, options: ConvertOptions) -> tuple[ConvertOptions, list[bytes]] | None:
    """The rows of a batch results document (:mod:`chatcodec.batch._batch_documents`) as
    JSON lines, with the options reading each; ``None`` for any other document."""
    if options.envelope is None:
        return None
    from chatcodec._errors import ChatcodecError
    from chatcodec._payloads import parse_json
    from chatcodec.batch import _batch_documents as batch_documents

    if not batch_documents.reads_documents(options.envelope):
        return None
    try:
        found = batch_documents.document_rows(parse_json(text), options.envelope)
    except ChatcodecError:  # not JSON: the document's own conversion says so
        return None
    if found is None:
        return None
    spec, rows = found
    return replace(options, envelope=spec), [dump_json(row) + b"\n" for row in rows]


def _unwritable(arguments: argparse.Namespace) -> str | None:
    """Why an output file cannot be written where it is asked for (its folder missing or
    not writable, or a folder in its place); ``--layout analyst`` makes its folder."""
    outputs = [("--losses-file", arguments.losses_file)]
    if arguments.rejects is not None or arguments.out is not None:  # not the default in the current folder
        outputs.insert(0, ("--rejects", _rejects_path(arguments)))  # (created at a first reject, if ever)
    if arguments.layout != "analyst":
        outputs.insert(0, ("--out", arguments.out))
    for option, target in outputs:
        if target is None:
            continue
        folder = target.parent
        if target.is_dir():
            return f"{option} {target} is a folder, not a file"
        if not folder.is_dir():
            return f"{option} {target}: the folder {folder} does not exist"
        if not os.access(folder, os.W_OK):
            return f"{option} {target}: the folder {folder} is not writable"
    return None


def _dialect_layout(path: Path | None, parser: argparse.ArgumentParser) -> str | None:
    """``--dialect-config``'s text, read once here rather than by every worker."""
    if path is None:
        return None
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        parser.error(f"cannot read --dialect-config {path}: {error.strerror or error}")


def _convert_parquet(arguments: argparse.Namespace, options: ConvertOptions, out: TextIO) -> int:
    """Convert the rows of a Parquet file (:mod:`chatcodec.datasets._parquet_files`)."""
    path: Path = arguments.file
    try:
        from chatcodec.datasets._parquet_files import convert_rows, iter_row_batches

        size = path.stat().st_size
        batches = iter_row_batches(path, options.kind, options.source, options.id_field, columns=options.columns)
        first = list(itertools.islice(batches, 1))  # a file Arrow cannot read fails here, before any output
    except MissingExtraError as error:
        print(f"chatcodec convert: error: {error}", file=sys.stderr)
        return exit_codes.UNAVAILABLE
    except OSError as error:
        print(f"chatcodec: cannot read {path}: {error.strerror or error}", file=sys.stderr)
        return exit_codes.NO_INPUT
    except ValueError as error:  # pyarrow's ArrowInvalid is one: not Parquet, or the wrong kind
        print(f"chatcodec: cannot read {path} as Parquet: {error}", file=sys.stderr)
        return exit_codes.NO_INPUT
    return _convert_batches(arguments, options, itertools.chain(first, batches), convert_rows, size=size, out=out)


def _convert_document(
    arguments: argparse.Namespace,
    options: ConvertOptions,
    text: bytes,
    out: TextIO,
    subagents: Sequence[tuple[bytes, dict[str, str]]] = (),
) -> int:
    """One document converted and written; ``subagents``: a session's subagents' conversations,
    each a row after it with its ``parent`` link (:func:`._session_files.subagent_documents`)."""
    path: Path = arguments.file
    outcome = convert_payload(text, options)
    if outcome.converted is None:
        print(f"{path}: {outcome.error}", file=sys.stderr)
        return 1
    report_losses(path, outcome.losses, sys.stderr.write, quiet=arguments.quiet)
    one_line = b"\n" not in text.strip()  # a JSON line stays one (head -1 x.jsonl | convert - >> out.jsonl)
    body = dump_json(outcome.converted, None if arguments.compact or one_line else 2) + b"\n"
    agents = [(Path(f"{path} (subagent {link.get('agent', '')})"), events, link) for events, link in subagents]
    rows = session_files.linked_rows(agents, options, quiet=arguments.quiet)
    return 1 if rows is None else _write_body(arguments, body + rows, out)


def _write_body(arguments: argparse.Namespace, body: bytes, out: TextIO) -> int:
    """A conversion read whole, written to ``--out`` (or standard output)."""
    if arguments.out is not None:  # the input was read whole: writing over it is safe
        with PendingOutput(arguments.out) as pending:
            Path(pending.path or arguments.out).write_bytes(body)
            pending.commit()
        return exit_codes.OK
    with _output(None, out) as write:
        write(body)
    return exit_codes.OK


def _convert_lines(
    arguments: argparse.Namespace, options: ConvertOptions, lines: Iterable[bytes], size: int | None, out: TextIO
) -> int:
    path: Path = arguments.file
    first, lines = _first_content(lines)
    if first.strip().startswith(_SSE_FIELDS):  # a stream's events: written as the target's stream
        from chatcodec.cli._convert_stream import convert_event_stream

        return convert_event_stream(arguments, options, lines, _byte_writer(out))
    other = _text_format(first)
    if other is not None:  # every line would be a reject: say what the file is instead
        print(
            f"{path}: this is {other}, not JSON or JSON lines; convert takes request or response bodies",
            file=sys.stderr,
        )
        return 1
    batches = iter_line_batches(lines, first=0 if options.numbered == "index" else 1)
    return _convert_batches(arguments, options, batches, convert_lines, size=size, out=out)


def _convert_batches(
    arguments: argparse.Namespace,
    options: ConvertOptions,
    batches: Iterable[BatchT],
    convert: Callable[[BatchT, ConvertOptions], BatchResult],
    *,
    size: int | None,
    out: TextIO,
) -> int:
    path: Path = arguments.file
    rejects_path = _rejects_path(arguments)
    clash = _clash(path, arguments.out, rejects_path)
    if clash:
        print(f"chatcodec convert: error: {clash}", file=sys.stderr)
        return exit_codes.USAGE
    report = _run_report(arguments, rejects_path, size, options)
    # under temporary names until complete: an interrupted or failed run leaves no partial output or rejects
    with (
        PendingOutput(arguments.out, folder=arguments.layout == "analyst") as pending,
        report.rejects,
        report.losses_output or nullcontext(),
    ):
        try:
            with _sink(arguments, options, out, pending.path) as write:
                for result in _converted(batches, options, arguments.workers, convert):
                    write(result)
                    report.record(result)
        except _broken_pool() as error:  # evaluated only when an exception comes through
            report.progress.print(f"chatcodec: a worker process died ({error}); was it out of memory?")
            return exit_codes.SOFTWARE
        except _column_type_error() as error:
            report.progress.print(f"chatcodec convert: {arguments.out}: {error}")
            return exit_codes.IO_ERROR
        finally:
            report.close()
        pending.commit()
        report.rejects.commit()
        if report.losses_output is not None:
            report.losses_output.commit()
    return report.summarize()


def _run_report(
    arguments: argparse.Namespace, rejects_path: Path, size: int | None, options: ConvertOptions
) -> RunReport:
    """The run's report: its progress line, rejects file and loss summary, as the arguments ask
    (the losses file, like the rejects, under a temporary name until the run completes)."""
    losses_path: Path | None = arguments.losses_file
    losses, losses_file = None, None
    if losses_path is not None:
        losses = PendingOutput(losses_path)
        losses_file = (losses.path or losses_path).open("w", encoding="utf-8")
    return RunReport(
        arguments.file,
        ProgressBar(sys.stderr, size, mode=progress_mode(arguments.progress, quiet=arguments.quiet)),
        RejectsFile(rejects_path),
        quiet=arguments.quiet,
        all_losses=arguments.all_losses,
        losses_file=losses_file,
        losses_output=losses,
        numbered=options.numbered,
    )


def _converted(
    batches: Iterable[BatchT],
    options: ConvertOptions,
    workers: int,
    convert: Callable[[BatchT, ConvertOptions], BatchResult],
) -> Iterator[BatchResult]:
    """The batches converted in input order: here with one worker, else on a pool
    (:mod:`chatcodec.batch._parallel`, imported only then: multiprocessing and its pool cost
    ~20 ms of a one-worker run's start)."""
    if workers > 1:
        from chatcodec.batch._parallel import convert_batches

        return convert_batches(batches, options, workers, convert=convert)
    return (convert(batch, options) for batch in batches)


@contextmanager
def _sink(
    arguments: argparse.Namespace, options: ConvertOptions, out: TextIO, path: Path | None
) -> Generator[Callable[[BatchResult], object]]:
    """Where each batch's result goes: JSON lines (``path``, ``--out``'s temporary name, or
    ``out``), or a Parquet file (or the analyst's folder) at ``path``."""
    if not _tabular_output(arguments):
        with _output(path, out) as write:
            yield lambda result: write(result.output)
        return
    from chatcodec.datasets._parquet_sink import ParquetSink

    assert path is not None  # a tabular output needs --out (refused before reading otherwise)
    sink = (
        analyst_sink(path, options)
        if arguments.layout == "analyst"
        else envelope_sink(path, options)
        if options.out_envelope is not None
        else ParquetSink(
            path,
            options,
            column_types(arguments.file if is_parquet(arguments.file, arguments.in_format) else None, options),
        )
    )
    try:
        yield sink.write
    finally:
        sink.close()


def _tabular_output(arguments: argparse.Namespace) -> bool:
    """Whether the output is tables (a Parquet file, or the analyst's view), not JSON lines."""
    return arguments.layout == "analyst" or is_parquet(arguments.out, arguments.out_format)


def _broken_pool() -> type[BrokenProcessPool]:
    """What a pool raises when a worker dies; imported on the way out of a failed run,
    so a one-worker run never loads the pool."""
    from concurrent.futures.process import BrokenProcessPool

    return BrokenProcessPool


def _column_type_error() -> type[Exception]:
    """What a Parquet output raises for a row field of another type than its column's;
    imported on the way out of a failed run (it needs pyarrow)."""
    if not sys.modules.get("chatcodec.datasets._parquet_sink"):
        return _NeverRaisedError
    from chatcodec.datasets._parquet_sink import ColumnTypeError

    return ColumnTypeError


class _NeverRaisedError(Exception):
    """Raised by nothing: what ``except`` names when the module that raises is not loaded."""


def _first_content(lines: Iterable[bytes]) -> tuple[bytes, Iterator[bytes]]:
    """The first non-blank line, and every line again (that one included)."""
    iterator = iter(lines)
    seen: list[bytes] = []
    for line in iterator:
        seen.append(line)
        if line.strip():
            return line, itertools.chain(seen, iterator)
    return b"", iter(seen)


_SSE_FIELDS = (b"event:", b"data:", b"id:", b"retry:", b":")
_YAML_KEY = re.compile(rb"^(---\s*$|- |[A-Za-z_][\w.-]*:(\s|$))")


def _text_format(line: bytes) -> str | None:
    """What a first line that is not JSON shows the file to be: YAML (``key: value``, ``---``,
    ``- item``); a server-sent event stream's is converted as a stream (:mod:`._convert_stream`)."""
    text = line.strip()
    if not text or text[:1] in (b"{", b"["):
        return None
    if _YAML_KEY.match(text):
        return "YAML"
    return None


def _rejects_path(arguments: argparse.Namespace) -> Path:
    if arguments.rejects is not None:
        return Path(arguments.rejects)
    if arguments.out is not None:
        out: Path = arguments.out
        return out.with_name(out.stem + REJECTS_SUFFIX)
    source: Path = arguments.file
    return Path(("stdin" if is_stdin(source) else source.stem) + REJECTS_SUFFIX)


def _clash(source: Path, out: Path | None, rejects: Path) -> str | None:
    """Why the files cannot be used together (a line-by-line rewrite would eat its input)."""
    if out is not None and _same_file(out, source):
        return f"--out {out} is the input file: write elsewhere, then move it"
    if _same_file(rejects, source) or (out is not None and _same_file(rejects, out)):
        return f"the rejects file {rejects} is the input or the output"
    return None


def _same_file(first: Path, second: Path) -> bool:
    try:
        return os.path.samefile(first, second)
    except OSError:  # one of them does not exist yet
        return os.path.abspath(first) == os.path.abspath(second)


@contextmanager
def _output(path: Path | None, out: TextIO) -> Generator[Callable[[bytes], object]]:
    """The converted lines' destination as a bytes writer: ``--out``, or ``out``."""
    if path is not None:
        with path.open("wb") as target:
            yield target.write
        return
    yield _byte_writer(out)
    getattr(out, "buffer", out).flush()


def _byte_writer(out: TextIO) -> Callable[[bytes], object]:
    """Write bytes to a text stream: straight to its buffer when it has one."""
    buffer = getattr(out, "buffer", None)
    if buffer is None:
        return lambda data: out.write(data.decode("utf-8"))
    out.flush()  # anything already written as text goes first
    write: Callable[[bytes], object] = buffer.write
    return write
