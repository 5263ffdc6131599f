"""Every error chatcodec raises, under one base class.

    ChatcodecError
    ├── ValidationError        input broke a schema rule (also pydantic's ValidationError)
    ├── PayloadError           input is not JSON, or not the JSON shape expected (ValueError)
    │   ├── EnvelopeError          a batch row is not in its envelope (chatcodec.batch._envelopes)
    │   ├── TrainingRowError       a training row is not in its dialect (chatcodec._row_dialects.dialects)
    │   └── OptionError            an ``options=`` name the codec does not take (chatcodec.options)
    ├── StreamError            a stream is malformed or out of order (ValueError)
    ├── ToolArgumentsError     tool-call arguments are not valid JSON (ValueError)
    ├── ProviderLookupError    a provider name cannot be used (LookupError)
    │   ├── UnknownProviderError    the name is not a known wire format
    │   └── CodecNotAvailableError  the format is known but no codec is registered yet, or its
    │                               codec lacks what was asked (streams, strict reading)
    ├── LossError              an encode could not carry something and on_loss="error"
    │                          (in :mod:`chatcodec._losses`, beside the losses it lists)
    └── ProviderAPIError       the provider itself reported an error (in a body or stream)

Every error names the JSON path of the offending value (``$.messages[2].content[0]``)
and the rule it broke, so a caller can fix the input without a debugger.
"""

from __future__ import annotations

import reprlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, LiteralString, TypeGuard

import pydantic_core
from pydantic_core import ErrorDetails, InitErrorDetails, PydanticCustomError

from chatcodec._error_statuses import error_status, statuses_known
from chatcodec._narrow import as_dict, as_list
from chatcodec._public_label import shown_as

_NO_ROOT: object = object()


def json_path(location: Sequence[int | str]) -> str:
    """Render a pydantic ``loc`` tuple as a JSON path: ``("messages", 2, "role")`` ->
    ``$.messages[2].role``. A loop adding each step's remembered text to one string
    (:data:`_STEP_TEXTS`): a path is a few steps, and every loss a caller reads renders one
    (a join of a list cost more, and so did rendering each step again)."""
    text = "$"
    for step in location:
        text += _INDEX_TEXTS[step] if step.__class__ is int else _STEP_TEXTS[step]
    return text


def _step_text(step: int | str) -> str:
    """One step of a JSON path: ``[2]``, ``.role``, or ``['a b']`` for a key that is no identifier."""
    if isinstance(step, int):
        return f"[{step}]"
    return "." + step if step.isidentifier() else f"[{step!r}]"


class _StepTexts(dict[int | str, str]):
    """Step texts by step, each rendered (:func:`_step_text`) the first time it is asked: the
    field names and indices of the paths losses name recur in every conversion. Only an exact
    ``int`` or a ``str`` of at most :data:`_KEPT_NAME` characters is kept (a bool or another
    subclass equal to one would otherwise find its text); past :data:`_STEPS_KEPT` steps the
    memory is forgotten whole (docs/performance.md, Memories)."""

    __slots__ = ()

    def __missing__(self, step: int | str) -> str:
        text = _step_text(step)
        if step.__class__ is int or (type(step) is str and len(step) <= _KEPT_NAME):
            if len(self) >= _STEPS_KEPT:
                self.clear()
            self[step] = text
        return text


_STEPS_KEPT = 1024
"""How many step texts each memory keeps."""
_KEPT_NAME = 64
"""The longest key kept: a path may name a caller's own key (a schema's property), of any length."""
_INDEX_TEXTS = _StepTexts()
"""Each index's text (``[2]``): a memory apart from the names', so ``True`` never finds ``1``'s."""
_STEP_TEXTS = _StepTexts()
"""Each name's text (``.role``, ``['a b']``) and any other step's."""


class ChatcodecError(Exception):
    """Base class of every error chatcodec raises on purpose."""

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its message and attributes, not its constructor's arguments: an error
        that crosses to another process (a dataset worker's, Ray's, Spark's) comes back as
        it was. The default calls ``__init__`` again with the rendered message, which a
        subclass's ``__init__`` renders once more (``at $: at $.a: x``)."""
        return (_rebuilt, (type(self), self.args, self.__dict__))


def _rebuilt(kind: type[ChatcodecError], args: tuple[Any, ...], state: dict[str, Any]) -> ChatcodecError:
    """A pickled :class:`ChatcodecError` back: its message and attributes, no ``__init__``."""
    error = kind.__new__(kind)
    Exception.__init__(error, *args)
    error.__dict__.update(state)
    return error


class ValidationError(pydantic_core.ValidationError, ChatcodecError):
    """Input broke a rule of the canonical schema or of a provider's wire format.

    It *is* a pydantic ``ValidationError`` (``errors()``, ``error_count()`` work as
    usual); its message leads with the JSON path of each problem and the rule's name.
    """

    def __str__(self) -> str:
        lines = [f"{self.error_count()} validation error(s) for {self.title}"]
        for detail in self.errors(include_url=False):
            lines.append(f"  at {json_path(detail['loc'])}: {detail['msg']} [rule: {detail['type']}]")
        return "\n".join(lines)

    @property
    def paths(self) -> list[str]:
        """JSON path of every problem, in the order found."""
        return [json_path(detail["loc"]) for detail in self.errors(include_url=False)]


def as_chatcodec_error(
    error: pydantic_core.ValidationError,
    title: str | None = None,
    root: object = _NO_ROOT,
    prefix: Sequence[int | str] = (),
) -> ValidationError:
    """Re-raise a pydantic error as chatcodec's own, keeping every detail.

    Given the ``root`` input, locations are cleaned to real JSON paths: pydantic's
    union-branch labels (``user``, ``str``, ``list[...]``) are dropped, and so are the
    errors of branches the input plainly is not (the ``str`` branch of a list). ``prefix``
    is prepended to every location, for errors found inside a larger payload.
    """
    found: dict[tuple[int | str, ...], list[ErrorDetails]] = {}
    for detail in _relevant_details(error, root):
        location = (
            detail["loc"] if root is _NO_ROOT else _real_location(detail["loc"], root, detail["type"] == "missing")
        )
        found.setdefault((*prefix, *location), []).append(detail)
    details: list[InitErrorDetails] = []
    for location, at_place in found.items():
        for rule, message, value in _one_per_mistake(at_place):
            custom = PydanticCustomError(_literal(rule), _literal(_escape(message)))
            details.append({"type": custom, "loc": location, "input": value})
    built = ValidationError.from_exception_data(title or error.title, details)
    assert isinstance(built, ValidationError)
    return built


_TYPE_RULE = "_type"
"""How pydantic's rules for a value of the wrong JSON type end (``string_type``, ``list_type``)."""


def _one_per_mistake(details: list[ErrorDetails]) -> list[tuple[str, str, object]]:
    """The errors at one place, with the arms of a union collapsed: a value of the wrong
    type for a ``str | list`` field is one mistake ("a valid string or a valid list"), and
    a number given as a string one error (``float_type``, not also ``int_type``)."""
    wrong_type = [detail for detail in details if detail["type"].endswith(_TYPE_RULE)]
    rest = [(detail["type"], detail["msg"], detail["input"]) for detail in details if detail not in wrong_type]
    if len(wrong_type) < 2:
        return [(detail["type"], detail["msg"], detail["input"]) for detail in details]
    kinds = [detail for detail in wrong_type if detail["type"] != "int_type" or "float_type" not in _types(wrong_type)]
    wanted = " or ".join(dict.fromkeys(detail["msg"].removeprefix("Input should be ") for detail in kinds))
    return [(kinds[0]["type"], f"Input should be {wanted}", kinds[0]["input"]), *rest]


def _types(details: list[ErrorDetails]) -> set[str]:
    return {detail["type"] for detail in details}


def is_template(text: str) -> TypeGuard[LiteralString]:
    """Whether ``text`` may stand where pydantic asks for a literal template (to keep user
    data out of its ``{field}`` substitutions): it has no brace that is not escaped."""
    unescaped = text.replace("{{", "").replace("}}", "")
    return "{" not in unescaped and "}" not in unescaped


def _literal(text: str) -> LiteralString:
    """``text`` (a rule name, or a message whose braces :func:`_escape` doubled) as a template."""
    if not is_template(text):
        raise ValueError(f"not a template: {text!r}")  # a bug here, never the caller's data
    return text


def _escape(message: str) -> str:
    """``message`` as a pydantic message template: braces doubled, and a lone surrogate
    (valid in JSON text, quoted from the input: a tag ``"a\\ud800"``) written as its escape,
    which pydantic-core cannot take as UTF-8 (it raised UnicodeEncodeError)."""
    if not message.isascii():
        message = message.encode("utf-8", "backslashreplace").decode("utf-8")
    return message.replace("{", "{{").replace("}", "}}")


def _relevant_details(error: pydantic_core.ValidationError, root: object) -> list[ErrorDetails]:
    details = [_as_union_rule(detail) for detail in error.errors(include_url=False)]
    if root is _NO_ROOT or len(details) < 2:
        return details
    branch_points = [_other_branch_point(detail["loc"], root) for detail in details]
    kept_locations = [detail["loc"] for detail, point in zip(details, branch_points, strict=True) if point is None]
    relevant: list[ErrorDetails] = []
    for detail, point in zip(details, branch_points, strict=True):
        # Drop a wrong-branch error only when the right branch explains the same value.
        if point is None or not any(location[:point] == detail["loc"][:point] for location in kept_locations):
            relevant.append(detail)
    return relevant


TAG_RULE = "canonical_union_tag"
"""The error of a canonical tagged union that found no branch for its input
(``_base.TaggedOn``), which chatcodec's errors give as pydantic's own rule again."""


def _as_union_rule(detail: ErrorDetails) -> ErrorDetails:
    """pydantic's rule for a :data:`TAG_RULE` error: the input is not an object, has no
    tag, or a tag no branch has, shown by a short repr (``str(tag)`` can overflow)."""
    context = detail.get("ctx")
    if detail["type"] != TAG_RULE or context is None:
        return detail
    precise = detail.copy()
    mapping = as_dict(detail["input"])
    discriminator = context["discriminator"]
    if mapping is None:
        precise["type"] = "model_attributes_type"
        precise["msg"] = "Input should be a valid dictionary or object to extract fields from"
    elif context["field"] not in mapping:
        precise["type"] = "union_tag_not_found"
        precise["msg"] = f"Unable to extract tag using discriminator {discriminator}"
    else:
        shown = _tag_text(mapping[context["field"]])
        precise["type"] = "union_tag_invalid"
        expected = context["expected_tags"]
        precise["msg"] = (
            f"Input tag '{shown}' found using {discriminator} does not match any of the expected tags: {expected}"
        )
    return precise


def _tag_text(tag: object) -> str:
    """``str(tag)`` as pydantic writes it, shortened for a value no tag is (a list nested
    1,000 deep overflows ``str``; an int of 5,000 digits exceeds Python's limit)."""
    if isinstance(tag, str):
        return tag
    try:
        return reprlib.repr(tag)
    except ValueError:
        return f"<{type(tag).__name__}>"


_MISSING: object = object()


def _child(node: object, step: int | str) -> object:
    """The value at ``step`` inside ``node``, or ``_MISSING`` when the input has none."""
    mapping = as_dict(node)
    if mapping is not None:
        return mapping.get(step, _MISSING) if isinstance(step, str) else _MISSING
    items = as_list(node)
    if items is not None and isinstance(step, int) and 0 <= step < len(items):
        return items[step]
    return _MISSING


def _other_branch_point(location: tuple[int | str, ...], root: object) -> int | None:
    """Where the error enters a union branch whose JSON type the input is not, if it does."""
    node = root
    for position, step in enumerate(location):
        child = _child(node, step)
        if child is not _MISSING:
            node = child
        elif (
            (step == "str" and not isinstance(node, str))
            or (isinstance(step, str) and step.startswith("list[") and as_list(node) is None)
            or (isinstance(step, str) and step.startswith("dict[") and as_dict(node) is None)
        ):
            return position
    return None


def _is_tag_label(fields: dict[str, object], location: tuple[int | str, ...], position: int) -> bool:
    """Whether ``location[position]`` is a tagged union's label rather than a key.

    The step must equal the object's ``type`` or ``role``; when the object also has a
    key of that name (a text part's ``text``), the next step decides: a label is followed
    by a key of the object itself, a key by something inside its value.
    """
    step = location[position]
    if step not in (fields.get("type"), fields.get("role")):
        return False
    if not isinstance(step, str) or step not in fields:
        return True
    if position + 1 == len(location):
        return False
    following = location[position + 1]
    if following not in fields and position + 2 == len(location):
        # a field missing from the object itself (a tool call ``{type: function, function}``
        # without ``id``): a key of the value would follow its own key, the label is alone
        return _child(fields[step], following) is _MISSING
    return following in fields and _child(fields[step], following) is _MISSING


def _real_location(location: tuple[int | str, ...], root: object, missing: bool) -> tuple[int | str, ...]:
    """Keep the steps that exist in the input; drop pydantic's branch labels.

    A tagged union adds the tag's value (``user``, ``text``) as a step; it is recognized
    as the first step at an object whose ``role`` or ``type`` has that value, so a field
    named like its tag (the ``text`` of a text part) still counts.
    """
    node = root
    kept: list[int | str] = []
    last = len(location) - 1
    at_new_node = True
    for position, step in enumerate(location):
        fields = as_dict(node)
        if at_new_node and fields is not None and _is_tag_label(fields, location, position):
            at_new_node = False
            continue  # the tagged union's label for this object
        child = _child(node, step)
        if child is not _MISSING:
            node = child
            at_new_node = True
        elif not (missing and position == last and fields is not None and isinstance(step, str)):
            continue  # a union-branch label (``str``, ``list[...]``), not a place in the input
        kept.append(step)  # a step into the input, or the name of the missing field
    return tuple(kept)


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem found by a check written by hand (strict reading): where, which rule, what."""

    location: tuple[int | str, ...]
    rule: str
    message: str
    value: object
    nearest: str | None = None
    """For an unknown field or value: the known name nearest to it (the message's "did you mean")."""


def problems_error(title: str, problems: Sequence[Problem]) -> ValidationError:
    """One :class:`ValidationError` holding every problem, each once."""
    details: list[InitErrorDetails] = [
        {
            "type": PydanticCustomError(_literal(problem.rule), _literal(_escape(problem.message))),
            "loc": problem.location,
            "input": problem.value,
        }
        for problem in problems
    ]
    built = ValidationError.from_exception_data(title, details)
    assert isinstance(built, ValidationError)
    return built


def rule_error(title: str, location: Sequence[int | str], rule: str, message: str, value: object) -> ValidationError:
    """Build a one-problem :class:`ValidationError` for a rule checked by hand."""
    custom = PydanticCustomError(_literal(rule), _literal(_escape(message)))
    built = ValidationError.from_exception_data(title, [{"type": custom, "loc": tuple(location), "input": value}])
    assert isinstance(built, ValidationError)
    return built


class PayloadError(ChatcodecError, ValueError):
    """A payload is not JSON, or its top level is not the kind of value expected."""

    def __init__(self, message: str, path: str = "$") -> None:
        super().__init__(f"at {path}: {message}")
        self.path = path
        """JSON path of the problem."""


class OptionError(PayloadError):
    """An ``options=`` mapping names an option the codec does not take (a typo such as
    ``max_token``, or a wire field, which goes in ``extra_fields=``): it lists the codec's
    options and suggests the nearest (:mod:`chatcodec.options`)."""

    def __init__(self, message: str, *, name: str, valid: Sequence[str], path: str = "$.options") -> None:
        super().__init__(message, path)
        self.name: str = name
        """The option name refused."""
        self.valid: tuple[str, ...] = tuple(valid)
        """The names the codec takes, sorted."""
        self.rule: str = "known_option"
        """The rule broken, as data."""


class StreamError(ChatcodecError, ValueError):
    """A stream is malformed (bad SSE, bad JSON in an event) or its events are out of order."""

    def __init__(self, message: str, path: str = "$", event_index: int | None = None) -> None:
        where = f"event {event_index}, " if event_index is not None else ""
        super().__init__(f"at {where}{path}: {message}")
        self.path = path
        """JSON path of the problem inside the event."""
        self.event_index = event_index
        """Position of the offending event in the stream, counting from 0."""


class ToolArgumentsError(ChatcodecError, ValueError):
    """A tool call's argument text is not valid JSON, or not the JSON object keyword
    arguments need (raised only when it is parsed)."""

    def __init__(
        self, tool_use_id: str, name: str, arguments: str, reason: str, *, what: str = "are not valid JSON"
    ) -> None:
        super().__init__(f"arguments of tool call {tool_use_id!r} ({name}) {what}: {reason}")
        self.tool_use_id = tool_use_id
        """Id of the call."""
        self.name = name
        """Name of the tool called."""
        self.arguments = arguments
        """The argument text, unchanged."""


class ProviderLookupError(ChatcodecError, LookupError):
    """A provider name cannot be used."""


class UnknownProviderError(ProviderLookupError):
    """The name is not one of the wire formats chatcodec knows."""


class CodecNotAvailableError(ProviderLookupError):
    """The wire format is known, but no codec for it is registered (yet), or its codec
    lacks what was asked: a stream entry point on a codec without stream modules, or
    ``strict=True`` on one that cannot read strictly
    (:attr:`~chatcodec._providers.contract.capabilities.Capabilities.strict_reading`). The
    message names the codec and what it lacks."""


class ProviderAPIError(ChatcodecError):
    """The provider reported an error, in a response body or inside a stream."""

    def __init__(
        self,
        message: str,
        error_type: str | None = None,
        body: object = None,
        *,
        status_code: int | None = None,
        provider: str | None = None,
    ) -> None:
        super().__init__(f"{error_type}: {message}" if error_type else message)
        self.message = message
        """The provider's message, alone."""
        self.error_type = error_type
        """The provider's error type or code, when it gave one."""
        self.body = body
        """The error as the provider sent it."""
        self.provider = provider
        """The codec whose wire the error came in, when known: its own error types are read
        first (each codec's types are its own namespace)."""
        self.status_code: int | None = status_code if status_code is not None else _status_of(error_type, provider)
        """The HTTP status it came with, else the one its type stands for
        (:func:`chatcodec._error_statuses.error_status`, read from :attr:`provider`'s edge
        first, then every registered one, 500 for a type none of them names); None when
        neither is known (or no edge has been read: nothing has imported the registry yet)."""


def _status_of(error_type: str | None, provider: str | None) -> int | None:
    if error_type is None or not statuses_known():  # no edge read yet: the status is unknown
        return None
    return error_status(error_type, provider=provider)


shown_as("chatcodec.codec_kit", Problem, as_chatcodec_error, error_status, json_path, problems_error, rule_error)
shown_as(
    "chatcodec",
    ChatcodecError,
    ValidationError,
    PayloadError,
    OptionError,
    StreamError,
    ToolArgumentsError,
    ProviderLookupError,
    UnknownProviderError,
    CodecNotAvailableError,
    ProviderAPIError,
)
