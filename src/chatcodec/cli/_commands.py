"""The ``chatcodec`` command line: validate conversations, convert payloads (training rows through a chat
template too), check a template's rendering, export schemas.

Exit codes (all in :mod:`chatcodec.cli._exit_codes`): 0 success; ``validate``: 1 when any
conversation is invalid (every problem printed with its JSON path); ``convert``: the
number of payloads rejected, 1 to 63 (63 or more); 64 bad usage (argparse's own errors
included, instead of its usual 2), 66 the input is missing or unreadable, 69 an optional
extra or an installed codec not available, 70 an internal error, 74 an I/O error, 130
interrupted.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import textwrap
import warnings
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from chatcodec import _detect as detect
from chatcodec._errors import ChatcodecError, ValidationError
from chatcodec._extras import MissingExtraError
from chatcodec._narrow import as_dict, as_list
from chatcodec._public_label import shown_as
from chatcodec._registry import FRAMEWORK_FORMATS
from chatcodec._row_dialects.dialects import (
    CONVERSATION_DIALECTS,
    SESSION_DIALECTS,
    WRITTEN_FROM,
    conversation_column_message,
)
from chatcodec.batch._envelopes import ENVELOPE_NAMES
from chatcodec.batch._fine_tuning import is_fine_tuning_row
from chatcodec.cli import _exit_codes as exit_codes
from chatcodec.cli import _session_files as session_files
from chatcodec.cli import _trace_rows as trace_rows
from chatcodec.cli._check_codec import add_check_codec_command
from chatcodec.cli._check_render import add_check_render_command
from chatcodec.cli._convert import add_convert_command, is_parquet
from chatcodec.cli._convert_arguments import EXIT_CODES_HELP
from chatcodec.cli._documents import Document
from chatcodec.cli._format_names import add_formats_command, unknown_format
from chatcodec.cli._serve import add_serve_command
from chatcodec.cli._whole_states import holds_a_history, whole_state_format

if TYPE_CHECKING:  # the models load where `validate` and `schema` run, not for `convert`
    from chatcodec._model.messages import AnyMessage
    from chatcodec._schema import SchemaKind

SCHEMA_KINDS: tuple[SchemaKind, ...] = ("messages", "request", "response", "stream-event")
"""``schema --kind``'s choices: :data:`chatcodec._schema.SCHEMA_KINDS`, spelled here so the
parser is built without the schema module, which loads every model (``chatcodec convert``
starts without them; ``tests/test_cli_formats.py`` checks the two agree)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (bad usage exits 64 via ``SystemExit``)."""
    if argv is None:  # the process is the command's: a warning is one line, as its own messages are
        warnings.formatwarning = _one_line_warning
    parser = _parser()
    arguments = parser.parse_args(argv)
    arguments.as_program = argv is None  # the process is the command's (check-codec ends it itself)
    try:
        code: int = arguments.run(arguments, sys.stdout)
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, and keep Python from
        # complaining again when it flushes standard output at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return exit_codes.IO_ERROR
    except OSError as error:
        print(f"chatcodec: {error}", file=sys.stderr)
        return exit_codes.NO_INPUT if _is_input(error, arguments) else exit_codes.IO_ERROR
    except MissingExtraError as error:  # Parquet without pyarrow: what to install, in one line
        print(f"chatcodec: {error}", file=sys.stderr)
        return exit_codes.UNAVAILABLE
    except ChatcodecError as error:  # a whole file that is not JSON at all
        print(f"{getattr(arguments, 'file', 'chatcodec')}: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("chatcodec: interrupted", file=sys.stderr)
        return exit_codes.INTERRUPTED
    except Exception:  # a bug: exit 70, not Python's 1, which means "one payload rejected"
        import traceback

        traceback.print_exc()
        print("chatcodec: internal error; please report it with the traceback above", file=sys.stderr)
        return exit_codes.SOFTWARE
    return code


def _is_input(error: OSError, arguments: argparse.Namespace) -> bool:
    source: Path | None = getattr(arguments, "file", None)
    filename: object = error.filename
    return source is not None and isinstance(filename, str) and filename == os.fspath(source)


def _one_line_warning(
    message: Warning | str, category: type[Warning], filename: str, lineno: int, line: str | None = None
) -> str:
    """A warning as the command line prints it: one line, without Python's source location."""
    del category, filename, lineno, line
    return f"chatcodec: warning: {message}\n"


TRAINING_HELP = """\
training (the Python API: chatcodec.render, chatcodec.parse_completion; docs/training.md):
  convert FILE --from FORMAT --to rollout --template qwen3 --tokenizer tokenizer.json
        render each conversation through a chat template: token ids, the sampled mask
  convert FILE --from FORMAT --to hf-chat --template qwen3
        training rows in the template's own shapes (also trl-prompt-completion, ...)
  check-render TEMPLATE
        a template's rendering against a reference renderer (renderers), span by span"""
"""The training side of ``chatcodec --help``: which commands render and check, since none is
named for it (rendering is a ``convert`` target)."""


class _ArgumentParser(argparse.ArgumentParser):
    """argparse, exiting 64 (``EX_USAGE``) on bad usage rather than 2, for every sub-command,
    and saying what is wrong first, with where the usage is rather than all of it."""

    def error(self, message: str) -> NoReturn:
        self.exit(exit_codes.USAGE, f"{self.prog}: error: {message}\n(usage: {self.prog} --help)\n")


@functools.cache
def _parser() -> argparse.ArgumentParser:
    """The command line's parser, built once: it holds no state between ``parse_args``
    calls, and building it (~2 ms, mostly argparse's gettext lookups) dominated a program
    that calls :func:`main` many times (the fuzz harness, tests, an embedding tool)."""
    parser = _ArgumentParser(
        prog="chatcodec",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        epilog=f"{TRAINING_HELP}\n\n{textwrap.fill(EXIT_CODES_HELP, 79)}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_VersionAction)
    commands = parser.add_subparsers(required=True, metavar="COMMAND")
    _add_validate_command(commands)
    _add_schema_command(commands)
    add_convert_command(commands)
    add_serve_command(commands)
    add_check_codec_command(commands)
    add_check_render_command(commands)
    add_formats_command(commands)
    return parser


def _add_validate_command(commands: Any) -> None:
    """Register ``validate`` on the sub-command parser."""
    validate = commands.add_parser("validate", help="validate a conversation (JSON) or conversations (JSONL)")
    validate.add_argument(
        "file", type=Path, help="a JSON file (messages list, request or response body) or JSONL ('-': standard input)"
    )
    validate.add_argument(
        "--format",
        type=_validated_format,
        metavar="FORMAT",
        help="the input's wire format, framework history or batch envelope (default: told from the input, an "
        "envelope included; canonical and the accepted dialects when nothing tells); a framework history is its "
        "stored message list, or an object holding it under messages",
    )
    validate.add_argument(
        "--strict",
        action="store_true",
        help="refuse what the provider would refuse: unknown fields (with the nearest name), orphan or duplicate "
        "tool results, empty conversations, token limits under 1",
    )
    validate.add_argument(
        "--in-format",
        choices=("json", "parquet"),
        help="the file's format: json (a JSON document or JSON lines) or parquet, one payload per row (default: "
        "parquet for a .parquet file, else json)",
    )
    validate.add_argument(
        "--storage",
        action="store_true",
        help="the rows are for storage (training or archive files), not API requests: with --strict, a row that "
        "names no model is valid (a fine-tuning job names it), as convert --storage writes them",
    )
    shown = validate.add_mutually_exclusive_group()
    shown.add_argument("--pretty", action="store_true", help="print each conversation one line per message")
    shown.add_argument("--canonical", action="store_true", help="print the canonical JSON of each conversation")
    validate.set_defaults(run=_run_validate)


def _add_schema_command(commands: Any) -> None:
    """Register ``schema`` on the sub-command parser."""
    schema = commands.add_parser("schema", help="print or write the JSON Schemas of the canonical types")
    schema.add_argument("--kind", choices=SCHEMA_KINDS, default="messages", help="the schema to print")
    schema.add_argument("--out", type=Path, help="write every schema into this folder")
    schema.add_argument("--check", action="store_true", help="with --out: fail if the files differ from the code")
    schema.set_defaults(run=_run_schema)


def _validated_format(text: str) -> str:
    """``validate --format``'s value: a format with a codec (an installed one read only when
    named), a batch envelope or a conversation dialect."""
    from chatcodec._errors import ProviderLookupError
    from chatcodec._registry import is_available

    try:
        if text in ENVELOPE_NAMES or text in _VALIDATED_DIALECTS or is_available(text):
            return text
    except ProviderLookupError as error:  # two distributions declare the name
        raise argparse.ArgumentTypeError(str(error)) from None
    raise argparse.ArgumentTypeError(unknown_format(text, _VALIDATED_DIALECTS))


_VALIDATED_DIALECTS = (*CONVERSATION_DIALECTS, *SESSION_DIALECTS)
"""The training dialects ``validate --format`` reads: a row's, and a session file's."""


def _run_validate(arguments: argparse.Namespace, out: TextIO) -> int:
    from chatcodec.cli._documents import iter_documents
    from chatcodec.cli._file_format import FileFormat

    path: Path = arguments.file
    failures = 0
    conversations = 0
    documents = iter_documents(
        path, parquet=is_parquet(path, arguments.in_format), one_list=arguments.format in FRAMEWORK_FORMATS
    )
    if arguments.format in SESSION_DIALECTS:  # a harness's session: the whole file is one conversation
        documents = iter([session_files.session_file_document(path)])
    one_format = FileFormat() if arguments.format is None else None  # --format: every row is read as it
    skipped = trace_rows.SkippedSpans()
    for document in _batch_rows(documents, arguments.format, skipped):
        conversations += 1
        if one_format is not None and document.format is None and document.error is None:
            mixed = one_format.mismatch(document.data, document.label, _canonical_messages)
            if mixed is not None:
                print(f"{arguments.file}{document.label}: {mixed}", file=sys.stderr)
                failures += 1
                continue
        failures += not _validate_one(document, arguments, out)
    skipped.tell()
    if failures:
        print(f"{failures} of {conversations} conversation(s) invalid", file=sys.stderr)
    return 1 if failures else 0


def _validate_one(document: Document, arguments: argparse.Namespace, out: TextIO) -> bool:
    """Validate one document of the file and print what the arguments ask for it; whether it
    was valid (why not goes to stderr)."""
    import json

    from chatcodec._rendering import render_conversation
    from chatcodec._validation import dump_messages

    where = f"{arguments.file}{document.label}"
    for note in document.notes:
        print(f"{where}: {note}", file=sys.stderr)
    try:
        if document.error is not None:
            raise ChatcodecError(document.error)
        messages = _validate_document(
            document.data, arguments.format, strict=arguments.strict, written=document.format, storage=arguments.storage
        )
    except ChatcodecError as error:
        print(f"{where}: {_describe(error)}", file=sys.stderr)
        return False
    if arguments.pretty:
        print(f"# {where}: {_summary(messages)}", file=out)
        print(render_conversation(messages), file=out)
    elif arguments.canonical:
        print(json.dumps(dump_messages(messages), ensure_ascii=False), file=out)
    else:
        print(f"{where}: ok, {_summary(messages)}", file=out)
    return True


def _batch_rows(
    documents: Iterable[Document], format_name: str | None, skipped: trace_rows.SkippedSpans
) -> Iterator[Document]:
    """The documents, a batch results document's rows given one by one (Gemini's inlined
    results: :mod:`chatcodec.batch._batch_documents`), numbered from 1 as lines are; an OTLP
    export's model-call spans, each a document, for ``otel-genai`` or no format named
    (:mod:`._trace_rows`), and a trace's spans of no model call (an agent's, a tool's) left
    out, counted in ``skipped``."""
    from chatcodec.batch import _batch_documents as batch_documents

    traces = format_name in (trace_rows.FORMAT, None)
    for document in documents:
        found = None
        if document.label == "" and batch_documents.reads_documents(format_name):
            found = batch_documents.document_rows(document.data, format_name)
        if found is None and traces:
            spans = trace_rows.export_spans(document.data, skipped)
            if spans is not None:
                labelled = enumerate(spans, 1)
                yield from (
                    Document(f"{document.label}:span {n}", span, format=trace_rows.FORMAT) for n, span in labelled
                )
                continue
            if trace_rows.other_span(document.data):
                skipped.count += 1
                continue
        if found is None:
            yield document
            continue
        yield from (Document(f":{number}", row, format=found[0]) for number, row in enumerate(found[1], start=1))


def _validate_document(
    data: object, format_name: str | None, *, strict: bool = False, written: str | None = None, storage: bool = False
) -> list[AnyMessage]:
    """The messages of one document, read in ``format_name``, else in the format its file
    says it holds (``written``), else in the format it shows; a training row's or a batch
    row's messages are its conversation's or its body's; ``storage``: a row is no API
    request, so one that names no model is not refused for it."""
    if format_name in SESSION_DIALECTS:
        return session_files.session_messages(data, format_name, strict=strict)
    if format_name in CONVERSATION_DIALECTS:  # a training row: its messages, in shapes the dialect reader takes
        return _training_row_messages(data, format_name, strict=strict)
    if format_name is None and written in ENVELOPE_NAMES:  # a Parquet file of envelope rows names its envelope
        format_name, written = written, None
    data, format_name = _opened(data, format_name)
    fields = as_dict(data) or {}
    column = None if format_name is not None else conversation_column_message(fields, detect.detect(fields) or "chat")
    if column is not None:  # LMSYS-Chat-1M's rows looked like Responses requests: "ok, 0 messages"
        raise ChatcodecError(column)
    if format_name is not None:
        wrong = detect.mismatch(format_name, data)
        if wrong is not None:
            raise ChatcodecError(wrong.replace("--from", "--format"))
    chosen = (
        format_name or written or whole_state_format(fields) or trace_rows.span_format(fields) or detect.detect(data)
    )
    if chosen is not None and chosen != detect.CANONICAL:
        try:
            return _decoded_messages(chosen, data, strict=strict, storage=storage)
        except ValidationError as error:
            read = None if format_name is not None or written is not None else _history_or_none(fields)
            if read is not None:  # a framework's history object its markers took for a provider's body
                return read
            told = "is" if format_name is not None else "looks like"
            raise ChatcodecError(f"{told} {chosen}, invalid at {error.paths[0]}:\n{_describe(error)}") from None
    return _canonical_or_preferred(data, told=format_name is not None or written is not None, strict=strict)


def _training_row_messages(data: object, format_name: str, *, strict: bool) -> list[AnyMessage]:
    """A training row's conversation, read in the shapes its dialect reader takes."""
    from chatcodec._payloads import load_object
    from chatcodec._row_dialects import dialects as training

    body = training.read_conversation(load_object(data, format_name), format_name).body
    read_in = training.read_format(format_name)
    return _canonical_messages(body) if read_in == "canonical" else _decoded_messages(read_in, body, strict=strict)


def _canonical_or_preferred(data: object, *, told: bool, strict: bool) -> list[AnyMessage]:
    """A body no provider format claims, as canonical messages; one canonical refuses that
    no marker places and no format was ``told`` for, in the format detection prefers."""
    try:
        return _canonical_messages(data)
    except ValidationError as error:
        if not told and not detect.markers(data):
            read = _read_in_preferred_format(data, strict=strict)
            if read is not None:
                return read
            known = ", ".join(detect.known_formats())
            raise ChatcodecError(f"not in any format chatcodec knows ({known}; --format names one):\n{error}") from None
        raise


def _opened(data: object, format_name: str | None) -> tuple[object, str | None]:
    """A batch row's body and its format (:mod:`chatcodec.batch._envelopes`): read out of
    the envelope ``format_name`` names, or the one the row shows when none is named; a
    row in an envelope given as a bare body's format is an error, never "0 messages"."""
    from chatcodec._narrow import as_dict
    from chatcodec.batch import _envelopes as envelopes

    row = as_dict(data)
    if row is None:
        return data, format_name
    if format_name is not None and format_name in ENVELOPE_NAMES:
        envelope, _ = envelopes.envelope_named(format_name)
    else:
        found = envelopes.mistaken_envelope(row)
        if found is None:
            return data, format_name
        if format_name is not None:
            why = envelopes.mistaken_message(row, format_name, "request or response") or ""
            raise ChatcodecError(why.replace("--from", "--format"))
        envelope = found
    body = envelopes.open_row(row, envelope).body
    return body, envelope.formats[0] if len(envelope.formats) == 1 else None  # else told by the body


def _read_in_preferred_format(data: object, *, strict: bool) -> list[AnyMessage] | None:
    """The messages of a body no marker places and canonical refuses, read in the format
    detection prefers when several fit (the first known): a body whose marker shows that
    format is read by it, so one without (an extra dataset column beside user turns only,
    where a system turn would have been the marker) is read the same, not held to
    canonical's closed fields alone; ``None`` when that format refuses it too."""
    try:
        return _decoded_messages(detect.known_formats()[0], data, strict=strict)
    except ChatcodecError:
        return None


def _history_list(fields: dict[str, Any]) -> list[AnyMessage]:
    """A framework's history object (``{"messages": [...]}``, a LangGraph state, what the docs
    show for pydantic-ai and the AI SDK) that is no canonical request: its list, read in every
    shape ``validate_messages`` reads; the request's refusal when the list is none of them."""
    from chatcodec._model.request import ChatRequest
    from chatcodec._validation import validate_messages, validate_model

    listed = as_list(fields["messages"])
    if listed is not None:
        try:
            return validate_messages(listed)
        except ValidationError:
            pass
    return validate_model(ChatRequest, fields).messages  # raises: the request's own refusal


def _history_or_none(fields: dict[str, Any]) -> list[AnyMessage] | None:
    """:func:`_history_list` of ``fields`` when it holds a ``messages`` list it reads, else None;
    never for a body naming its ``model``, which is a provider's request its format refused
    (a history object names none), so --strict still refuses an invalid request."""
    if "messages" not in fields or "model" in fields:
        return None
    try:
        return _history_list(fields)
    except ValidationError:
        return None


def _canonical_messages(data: object) -> list[AnyMessage]:
    from chatcodec._model.request import ChatRequest
    from chatcodec._model.response import ChatResponse
    from chatcodec._narrow import as_dict
    from chatcodec._validation import validate_messages, validate_model

    fields = as_dict(data)
    if fields is not None and "messages" in fields:
        try:
            return validate_model(ChatRequest, fields).messages
        except ValidationError:
            return _history_list(fields)
    if fields is not None and ("choices" in fields or "message" in fields):
        return [choice.message for choice in validate_model(ChatResponse, fields).choices]
    return validate_messages(data)


def _decoded_messages(format_name: str, data: object, *, strict: bool, storage: bool = False) -> list[AnyMessage]:
    """A provider body's messages, as its codec decodes it (request or response);
    ``storage``: a request naming no model is a stored row, not refused for it."""
    from chatcodec._api import decode_request, decode_response
    from chatcodec._payloads import load_object

    if format_name in FRAMEWORK_FORMATS:
        return _history_messages(format_name, data, strict=strict)
    fields = load_object(data, f"{format_name} body")
    if _is_response(fields):
        return [choice.message for choice in decode_response(format_name, fields, strict=strict).choices]
    if strict and format_name == WRITTEN_FROM and is_fine_tuning_row(fields):
        return _fine_tuning_messages(format_name, fields, storage=storage)
    if strict and storage and "model" not in fields:
        return _fine_tuning_messages(format_name, fields, storage=True, weights=False)
    return decode_request(format_name, fields, strict=strict).messages


def _history_messages(format_name: str, data: object, *, strict: bool) -> list[AnyMessage]:
    """A framework history's messages: its stored list (what ``messages_to_dict`` and
    ``ModelMessagesTypeAdapter`` write), a history object (``{"messages": [...]}``), or a
    stored answer (a LangChain ``AIMessage``, a pydantic-ai ``ModelResponse``); ``strict``
    is refused as ``decode_request`` refuses it, for a format that cannot read strictly."""
    from chatcodec._api import decode_request, decode_response
    from chatcodec._codec_protocols import SupportsMessageDecoding
    from chatcodec._payloads import load_object
    from chatcodec._registry import get_codec
    from chatcodec._strict.check import refuse_unless_strict

    if strict:
        refuse_unless_strict(format_name)

    codec = get_codec(format_name)
    listed = as_list(data)
    if listed is not None and isinstance(codec, SupportsMessageDecoding):
        return codec.decode_messages(listed)
    fields = load_object(data, f"{format_name} history")
    if "messages" in fields or format_name == trace_rows.FORMAT:  # a span: its call's whole conversation
        return decode_request(format_name, fields).messages
    if holds_a_history(format_name, fields):  # a framework's whole state, or a body holding one
        return decode_request(format_name, fields).messages
    return [choice.message for choice in decode_response(format_name, fields).choices]


def _fine_tuning_messages(
    format_name: str, fields: dict[str, Any], *, storage: bool = False, weights: bool = True
) -> list[AnyMessage]:
    """A fine-tuning row's messages, read strictly: its weights by the fine-tuning format's
    rules (:mod:`chatcodec.batch._fine_tuning`), the rest by the API's, one error for all;
    ``storage``: a missing ``model`` is no problem (the job names it)."""
    from chatcodec._api import decode_request
    from chatcodec._errors import Problem, problems_error
    from chatcodec.batch._fine_tuning import without_weights

    checked, problems = without_weights(fields) if weights else (fields, [])
    try:
        decode_request(format_name, checked, strict=True)
    except ValidationError as error:
        found = [
            Problem(tuple(detail["loc"]), detail["type"], detail["msg"], detail["input"])
            for detail in error.errors(include_url=False)
            if not (storage and _missing_model(detail["loc"], detail["type"], detail["msg"]))
        ]
        if found or problems:
            raise problems_error(error.title, [*found, *problems]) from None
    if problems:
        raise problems_error(f"{format_name} request", problems)
    return decode_request(format_name, fields).messages


def _missing_model(location: object, rule: object, message: object) -> bool:
    """Whether a strict reading's problem is the request's missing ``model`` alone."""
    return not location and rule == "missing_field" and str(message).startswith("`model`: field required")


_RESPONSE_KEYS = ("choices", "candidates", "output", "stopReason")


def _is_response(fields: dict[str, Any]) -> bool:
    return any(key in fields for key in _RESPONSE_KEYS) or fields.get("type") in ("message", "error")


def _version() -> str:
    from chatcodec import __version__

    return __version__


class _VersionAction(argparse.Action):
    """``--version``, as argparse's ``action="version"`` prints it, with the version read
    (``importlib.metadata``, ~8 ms) only when asked for, not each time the parser is built."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS) -> None:
        super().__init__(
            option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="show program's version number and exit"
        )

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> NoReturn:
        sys.stdout.write(f"{parser.prog} {_version()}\n")
        parser.exit()


def _describe(error: ChatcodecError) -> str:
    if isinstance(error, ValidationError):
        return "\n".join(f"  {line}" if index else line for index, line in enumerate(str(error).splitlines()))
    return str(error)


def _summary(messages: list[AnyMessage]) -> str:
    from collections import Counter

    from chatcodec._model.messages import AssistantMessage

    roles = Counter(message.role for message in messages)
    calls = sum(len(message.tool_calls) for message in messages if isinstance(message, AssistantMessage))
    answered = {tool_use_id for message in messages if message.role == "tool" for tool_use_id in _ids(message)}
    called = {call.id for message in messages if isinstance(message, AssistantMessage) for call in message.tool_calls}
    by_role = ", ".join(f"{count} {role}" for role, count in roles.items())
    return f"{len(messages)} messages ({by_role}), {calls} tool calls, {len(called - answered)} unanswered"


def _ids(message: Any) -> list[str]:
    return list(message.tool_use_ids)


def _run_schema(arguments: argparse.Namespace, out: TextIO) -> int:
    from chatcodec._schema import render_schema, stale_schemas, write_schemas

    directory: Path | None = arguments.out
    if directory is None:
        kind: SchemaKind = arguments.kind
        out.write(render_schema(kind))
        return 0
    if arguments.check:
        stale = stale_schemas(directory)
        for path in stale:
            print(f"{path} is out of date: run `chatcodec schema --out {directory}`", file=sys.stderr)
        return 1 if stale else 0
    for path in write_schemas(directory):
        print(f"wrote {path}", file=out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

shown_as("chatcodec.cli", main)
