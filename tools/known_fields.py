"""Generate ``src/chatcodec/_providers/<name>/known_fields.json`` from the official SDK types.

The SDKs (openai, anthropic, google-genai, botocore's bedrock-runtime service model) are
test-only dependencies of chatcodec, never runtime ones; their published field sets are
therefore copied into a committed JSON data file per provider (package data, shipped in
the wheel), which strict decoding (:mod:`chatcodec._strict.fields`) reads through the provider's
codec, ``ProviderCodec.field_sets()``. ``tests/test_known_fields.py`` regenerates the
text from the installed SDKs and fails when the committed file drifts.

It is the SDK's half of each provider's one wire description: the provider's ``wire.py``
shapes name the kinds below they stand for (``stands_for``), and
``tests/providers/test_wire_description.py`` checks every field a shape types against
them (and the edge's documented extensions), so a regeneration that drops or renames a
field the reader types fails there. A reader that needs a kind's own field list asks it
(``chatcodec._providers.kit.field_sets.sdk_fields``), never a copy.

Run: ``python tools/known_fields.py`` (writes every file) or ``--check`` (exit 1 on drift).

Each file holds ``source`` (the SDK and its version) and, for every closed object kind
reachable from a request, a response or a stream event:

- ``kinds[kind][field]``: the name of what the field's value holds (a kind, a union of
  kinds in ``unions``, or ``""`` for a scalar or a free-form value such as a tool's
  input, a JSON schema or metadata, which strict mode never looks inside);
- ``tags[kind][tag]``: the literal ``type``/``role`` values that tell union arms apart;
- ``unions[name]``: the arms (kinds) of a union a field holds, in the SDK's order;
- ``roots``: the kind (or union) of a whole request, response and stream event;
- ``required[kind]``: the fields an object of that kind must hold (a TypedDict's
  ``Required`` keys, botocore's ``required`` members);
- ``values[kind][field]``: what a scalar value may be: ``type`` (``string``, ``integer``,
  ``number``, ``boolean``) and ``nullable``; ``enum`` (the string literals of the SDK's
  ``Literal``, botocore's ``enum``); ``minimum``/``maximum`` (botocore's ``min``/``max``
  of a number; the SDK docstring's "between A and B" or "≥N"); ``min_length`` of a string
  (botocore's ``min``); ``pattern`` of a string (matched whole) and ``max_items`` of a
  list; a ``source`` and the provider's ``message`` on a rule the SDK does not carry
  (:data:`DOCUMENTED`, from the provider's docs);
- ``one_member``: botocore's union kinds, whose objects set exactly one member;
- ``one_of[kind]``: a proto ``oneof`` the SDK flattens (Gemini's part data, :data:`ONE_OF`):
  ``members`` of which an object sets exactly one, the provider's ``message``, its ``source``.
- ``counted[field]``: ``at_most`` how many objects of one request may set the field
  (:data:`COUNTED`: Anthropic's four ``cache_control`` breakpoints), the ``message``, its ``source``.

A value rule may also hold ``items`` (the rule of each item of a list: Responses' ``include``
from ``List[ResponseIncludable]``, botocore's ``stopSequences`` of ``NonEmptyString``),
``unique`` (a key each object of a list holds a different value of: Anthropic's tool
``name``), ``keys`` (rules of named keys of a free-form object: a tool's
``input_schema.type``) and ``above`` (a path, from the same object, to a number this one
must exceed: ``max_tokens`` over ``thinking.budget_tokens``).

A documented rule may say ``under`` (it holds only for objects in that list: Gemini's
``contents`` roles, not ``systemInstruction``'s) and ``any_case`` (an enum name in any
case, as proto3 JSON reads Gemini's).

Strict mode checks ``required`` and ``values`` on requests only (what a client sends):
an answer is read tolerantly, as a server adds values before an SDK types them. Gemini's
kinds have no generated rules, only documented ones without a ``type``: its REST API
takes proto3 JSON, where a number may come as a string and an enum by its number (or its
name in any case), so the SDK's Python types say less than the wire accepts.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import itertools
import json
import re
import sys
import types
import typing
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import typing_extensions

ROOT = Path(__file__).resolve().parent.parent
PROVIDERS_DIR = ROOT / "src" / "chatcodec" / "_providers"
TAG_FIELDS = ("type", "role")
_WRAPPERS = {
    typing.Annotated,
    typing.Required,
    typing.NotRequired,
    typing_extensions.Annotated,
    typing_extensions.Required,
    typing_extensions.NotRequired,
    typing_extensions.ReadOnly,
}


@dataclass
class Graph:
    """Kinds found so far, by name."""

    kinds: dict[str, dict[str, str]] = field(default_factory=dict)
    tags: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    unions: dict[str, tuple[str, ...]] = field(default_factory=dict)
    names: dict[Any, str] = field(default_factory=dict)
    """The kind name given to each class."""
    free: frozenset[tuple[str, str]] = frozenset()
    """``(kind, field)`` pairs whose values are free-form although the SDK types them."""
    required: dict[str, list[str]] = field(default_factory=dict)
    values: dict[str, dict[str, dict[str, Any]]] = field(default_factory=dict)
    one_member: set[str] = field(default_factory=set)
    value_rules: bool = True
    """Whether the value tables are derived (not for Gemini: see the module docstring)."""

    def target(self, owner: str, name: str, arms: Sequence[str]) -> str:
        """The name standing for ``arms``: one kind, or a union named after its place."""
        unique = tuple(dict.fromkeys(arms))
        if (owner, name) in self.free or not unique:
            return ""
        if len(unique) == 1:
            return unique[0]
        key = f"{owner}.{name}"
        self.unions[key] = unique
        return key


# --- Python types (openai, anthropic, google-genai) -------------------------------------


def _strip(annotation: Any) -> Any:
    """The annotation under its wrappers and type aliases (google-genai's Interactions types
    name their unions with ``TypeAliasType``: ``InteractionsInput``)."""
    while True:
        if isinstance(annotation, (typing_extensions.TypeAliasType, *_ALIAS_TYPES)):
            annotation = annotation.__value__
        elif typing.get_origin(annotation) in _WRAPPERS:
            annotation = typing.get_args(annotation)[0]
        else:
            return annotation


_ALIAS_TYPES: tuple[type, ...] = (typing.TypeAliasType,) if hasattr(typing, "TypeAliasType") else ()


def _alias(annotation: Any) -> str | None:
    """The wire name a Stainless ``PropertyInfo(alias=...)`` gives a TypedDict key."""
    if typing.get_origin(annotation) is typing.Annotated:
        for extra in typing.get_args(annotation)[1:]:
            alias = getattr(extra, "alias", None)
            if isinstance(alias, str):
                return alias
    for wrapped in typing.get_args(annotation)[:1]:
        if typing.get_origin(annotation) in _WRAPPERS:
            return _alias(wrapped)
    return None


def _is_object_type(value: Any) -> bool:
    from pydantic import BaseModel

    return isinstance(value, type) and (typing_extensions.is_typeddict(value) or issubclass(value, BaseModel))


def _object_arms(annotation: Any) -> list[Any]:
    """The object classes an annotation can hold (through lists and unions); a mapping or
    anything untyped holds none (free-form)."""
    annotation = _strip(annotation)
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        return [arm for item in typing.get_args(annotation) for arm in _object_arms(item)]
    if origin in (list, tuple, set, frozenset, Iterable, Sequence, typing.Iterable, typing.Sequence):
        return [arm for item in typing.get_args(annotation) for arm in _object_arms(item)]
    if origin is not None and isinstance(origin, type) and issubclass(origin, Mapping):
        return []
    return [annotation] if _is_object_type(annotation) and not _is_stand_in(annotation) else []


def _is_stand_in(kind: Any) -> bool:
    """google-genai's Interactions unions are open: a kind the SDK does not know parses as an
    ``Unknown*`` stand-in (``UnknownStep``), which is no kind of the API's."""
    return str(kind.__name__).startswith("Unknown") and str(kind.__module__).startswith("google.genai._gaos.")


def _literals(annotation: Any) -> tuple[str, ...]:
    annotation = _strip(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return tuple(value for item in typing.get_args(annotation) for value in _literals(item))
    if typing.get_origin(annotation) is typing.Literal:
        return tuple(str(value) for value in typing.get_args(annotation))
    return ()


def _fields(kind: Any, snake_too: bool) -> dict[str, Any]:
    """Wire name -> annotation for a TypedDict or pydantic class."""
    if typing_extensions.is_typeddict(kind):
        hints = typing_extensions.get_type_hints(kind, include_extras=True)
        return {(_alias(annotation) or _gaos_name(kind, name)): annotation for name, annotation in hints.items()}
    fields: dict[str, Any] = {}
    for name, info in kind.model_fields.items():
        fields[info.alias or name] = info.annotation
        if snake_too:
            fields[name] = info.annotation
    return fields


def _gaos_name(kind: Any, name: str) -> str:
    """The wire name of a key of google-genai's Interactions ``...Param`` TypedDicts: one that
    would shadow a pydantic attribute carries a trailing ``_`` (``schema_``), which the SDK's
    model of the same kind sends under its alias without it (``TextResponseFormat.schema_``,
    ``alias='schema'``)."""
    if name.endswith("_") and str(kind.__module__).startswith("google.genai._gaos."):
        return name[:-1]
    return name


def _is_any_object(kind: Any) -> bool:
    """google-genai's Interactions types stand for "any JSON object" (a function's ``result``)
    with a class of no fields, so a field holding one is free-form. (An empty class of the
    ``types`` module is an empty proto message, ``googleSearch: {}``: closed.)"""
    return str(kind.__module__).startswith("google.genai._gaos.") and not _fields(kind, False)


def add_python_kind(graph: Graph, kind: Any, snake_too: bool = False) -> str:
    """Add ``kind`` and every kind under it; returns its name."""
    if kind in graph.names:
        return graph.names[kind]
    name = _unique_name(graph, kind)
    graph.names[kind] = name
    graph.kinds[name] = {}
    fields = _fields(kind, snake_too)
    tags = {key: _literals(fields[key]) for key in TAG_FIELDS if key in fields and _literals(fields[key])}
    if tags:
        graph.tags[name] = tags
    for key, annotation in sorted(fields.items()):
        classes = _object_arms(annotation)
        if any(_is_any_object(arm) for arm in classes):
            classes = []
        arms = [add_python_kind(graph, arm, snake_too) for arm in classes]
        graph.kinds[name][key] = graph.target(name, key, arms)
    if graph.value_rules and typing_extensions.is_typeddict(kind):
        _add_python_values(graph, name, kind)
    return name


# --- value rules of a TypedDict (openai, anthropic) -------------------------------------

_SCALARS = {str: "string", bool: "boolean", int: "integer", float: "number"}
_BETWEEN = re.compile(r"\bbetween `?(-?\d+(?:\.\d+)?)`? and `?(-?\d+(?:\.\d+)?)`?", re.IGNORECASE)
_AT_LEAST = re.compile(r"≥\s*(\d[\d,]*)")


def _add_python_values(graph: Graph, name: str, kind: Any) -> None:
    hints = typing_extensions.get_type_hints(kind, include_extras=True)
    docs = _attribute_docs(kind)
    required: list[str] = []
    for key, annotation in hints.items():
        wire = _alias(annotation) or key
        if _is_required(annotation, bool(getattr(kind, "__total__", True))):
            required.append(wire)
        if wire in TAG_FIELDS or (name, wire) in graph.free:
            continue
        rule = _python_rule(annotation, docs.get(key, ""))
        if rule:
            graph.values.setdefault(name, {})[wire] = rule
    if required:
        graph.required[name] = sorted(required)


def _is_required(annotation: Any, total: bool) -> bool:
    while typing.get_origin(annotation) in _WRAPPERS:
        if typing.get_origin(annotation) in (typing.Required, typing_extensions.Required):
            return True
        if typing.get_origin(annotation) in (typing.NotRequired, typing_extensions.NotRequired):
            return False
        annotation = typing.get_args(annotation)[0]
    return total


def _scalar_arms(annotation: Any) -> list[Any]:
    annotation = _strip(annotation)
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return [arm for item in typing.get_args(annotation) for arm in _scalar_arms(item)]
    if isinstance(annotation, type) and issubclass(annotation, str):
        return [str]  # google-genai's open enums take any other string as ``UnrecognizedStr``
    return [annotation]


def _python_rule(annotation: Any, doc: str) -> dict[str, Any]:
    """The value rule of one field: its scalar type when it has one, the string literals
    when no plain ``str`` arm takes any string, the range its docstring states."""
    arms = _scalar_arms(annotation)
    nullable = type(None) in arms
    arms = [arm for arm in arms if arm is not type(None)]
    literal_strings = [
        value for arm in arms if typing.get_origin(arm) is typing.Literal for value in typing.get_args(arm)
    ]
    rule: dict[str, Any] = {}
    strings = [value for value in literal_strings if isinstance(value, str)]
    if strings and str not in arms:
        rule["enum"] = strings
    each = _literal_items(arms)
    if each:  # a list of literals (Responses' ``include``: ``List[ResponseIncludable]``)
        rule["items"] = {"type": "string", "enum": each}
    kinds = {_SCALARS.get(arm) for arm in arms if typing.get_origin(arm) is not typing.Literal}
    kinds |= {_SCALARS.get(type(value)) for value in literal_strings}
    if kinds == {"integer", "number"}:
        kinds = {"number"}
    if len(kinds) == 1 and None not in kinds:
        rule["type"] = kinds.pop()
        rule["nullable"] = nullable
        if rule["type"] in ("integer", "number"):
            rule.update(_doc_range(doc))
    return rule


def _literal_items(arms: list[Any]) -> list[str]:
    """The string literals a list arm's items are limited to (none when an item may be any string)."""
    for arm in arms:
        origin = typing.get_origin(arm)
        if origin in (list, tuple, Iterable, Sequence):
            items = [item for inner in typing.get_args(arm) for item in _scalar_arms(inner)]
            if str in items:
                return []
            values = [
                value for item in items if typing.get_origin(item) is typing.Literal for value in typing.get_args(item)
            ]
            if values and all(isinstance(value, str) for value in values):
                return values
    return []


def _doc_range(doc: str) -> dict[str, Any]:
    between = _BETWEEN.search(doc)
    if between:
        return {"minimum": _number(between.group(1)), "maximum": _number(between.group(2))}
    at_least = _AT_LEAST.search(doc)
    return {"minimum": _number(at_least.group(1).replace(",", ""))} if at_least else {}


def _number(text: str) -> int | float:
    value = float(text)
    return int(value) if value.is_integer() else value


def _attribute_docs(kind: Any) -> dict[str, str]:
    """The docstring under each field of a TypedDict and its bases (Stainless writes one
    under every field; Python keeps none of them, so they are read from the source)."""
    docs: dict[str, str] = {}
    for base in reversed(_typeddict_chain(kind)):
        docs.update(_class_docs(base.__module__, base.__name__))
    return docs


def _typeddict_chain(kind: Any) -> list[Any]:
    chain = [kind]
    for base in getattr(kind, "__orig_bases__", ()):
        if typing_extensions.is_typeddict(base):
            chain.extend(_typeddict_chain(base))
    return chain


def _class_docs(module: str, name: str) -> dict[str, str]:
    tree = _module_tree(module)
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == name:
            return _body_docs(node.body)
    return {}


def _body_docs(body: list[ast.stmt]) -> dict[str, str]:
    docs: dict[str, str] = {}
    for statement, following in itertools.pairwise(body):
        if (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            docs[statement.target.id] = following.value.value
    return docs


_TREES: dict[str, ast.Module] = {}


def _module_tree(module: str) -> ast.Module:
    if module not in _TREES:
        _TREES[module] = ast.parse(inspect.getsource(sys.modules[module]))
    return _TREES[module]


def _unique_name(graph: Graph, kind: Any) -> str:
    """The class name, qualified by its module when another class has it (the SDKs have
    several ``Choice`` and ``Reasoning`` classes)."""
    name = str(kind.__name__)
    if name not in graph.kinds:
        return name
    return f"{kind.__module__.rsplit('.', 1)[-1]}.{name}"


def add_python_root(graph: Graph, name: str, kinds: Sequence[Any], snake_too: bool = False) -> str:
    return graph.target("ROOT", name, [add_python_kind(graph, kind, snake_too) for kind in kinds])


# --- botocore service model (bedrock-runtime) -----------------------------------------


def add_shape(graph: Graph, shape: Any) -> str:
    """Add a botocore shape (structure or union) and every structure under it."""
    name = shape.name
    if name in graph.kinds:
        return name
    graph.kinds[name] = {}
    for key, member in sorted(shape.members.items()):
        location = member.serialization.get("location") if hasattr(member, "serialization") else None
        if location in ("uri", "header", "querystring"):
            continue  # not in the JSON body
        arms = [add_shape(graph, found) for found in _structures(member)]
        graph.kinds[name][key] = graph.target(name, key, arms)
        rule = _shape_rule(member) or _list_rule(member)
        if rule:
            graph.values.setdefault(name, {})[key] = rule
    required = sorted(key for key in getattr(shape, "required_members", ()) if key in graph.kinds[name])
    if required:
        graph.required[name] = required
    if shape.metadata.get("union"):
        graph.one_member.add(name)
    return name


_SHAPE_TYPES = {
    "string": "string",
    "integer": "integer",
    "long": "integer",
    "float": "number",
    "double": "number",
    "boolean": "boolean",
}


def _shape_rule(member: Any) -> dict[str, Any]:
    """A scalar member's type, enum and bounds (a JSON ``null`` is read as absent by the
    service's protocol, so every member is nullable)."""
    kind = _SHAPE_TYPES.get(member.type_name)
    if kind is None:
        return {}
    rule: dict[str, Any] = {"type": kind, "nullable": True}
    enum = getattr(member, "enum", None) or member.metadata.get("enum")
    if enum:
        rule["enum"] = list(enum)
    if kind in ("integer", "number"):
        rule.update(
            {
                bound: member.metadata[key]
                for key, bound in (("min", "minimum"), ("max", "maximum"))
                if key in member.metadata
            }
        )
    elif kind == "string" and member.metadata.get("min"):
        rule["min_length"] = member.metadata["min"]
    return rule


def _list_rule(member: Any) -> dict[str, Any]:
    """A list of scalars: the rule of each item (``stopSequences``: each a ``NonEmptyString``, min 1)."""
    if member.type_name != "list":
        return {}
    each = {key: value for key, value in _shape_rule(member.member).items() if key != "nullable"}
    return {"items": each} if set(each) - {"type"} else {}


def _structures(shape: Any) -> list[Any]:
    if shape.type_name == "list":
        return _structures(shape.member)
    if shape.type_name == "structure" and not getattr(shape, "is_document_type", False):
        return [shape]
    return []  # scalars, maps, documents: nothing closed inside


# --- the providers -------------------------------------------------------------------


def openai_chat() -> tuple[Graph, dict[str, str], str]:
    import openai
    from openai.types.chat import ChatCompletion, ChatCompletionChunk, completion_create_params

    graph = Graph()
    roots = {
        "request": add_python_root(
            graph,
            "request",
            [
                completion_create_params.CompletionCreateParamsNonStreaming,
                completion_create_params.CompletionCreateParamsStreaming,
            ],
        ),
        "response": add_python_root(graph, "response", [ChatCompletion]),
        "stream": add_python_root(graph, "stream", [ChatCompletionChunk]),
    }
    _take_answer_fields(graph, "ChatCompletionAssistantMessageParam", "ChatCompletionMessage")
    return graph, roots, f"openai {openai.__version__}"


def _take_answer_fields(graph: Graph, param: str, answer: str) -> None:
    """Let a request's assistant message hold what the SDK's answer message holds.

    OpenAI's function-calling guide appends ``completion.choices[0].message`` to
    ``messages`` as it is (https://platform.openai.com/docs/guides/function-calling); the
    SDK sends the fields the answer set (``annotations``, the ``audio`` transcript, ...)
    and the API takes them. A field both hold with other kinds holds either."""
    fields = graph.kinds[param]
    for key, target in graph.kinds[answer].items():
        mine = fields.get(key)
        if mine is None or not mine:
            fields[key] = target if mine is None else mine
        elif target and target != mine:
            fields[key] = graph.target(
                param, key, [*graph.unions.get(mine, (mine,)), *graph.unions.get(target, (target,))]
            )


def anthropic() -> tuple[Graph, dict[str, str], str]:
    import anthropic as sdk
    from anthropic.types import Message, RawMessageStreamEvent, message_create_params

    free = {("ToolParam", "input_schema"), ("ToolUseBlockParam", "input"), ("ServerToolUseBlockParam", "input")}
    graph = Graph(free=frozenset(free))
    roots = {
        "request": add_python_root(
            graph,
            "request",
            [message_create_params.MessageCreateParamsNonStreaming, message_create_params.MessageCreateParamsStreaming],
        ),
        "response": add_python_root(graph, "response", [Message]),
        "stream": add_python_root(graph, "stream", typing.get_args(_strip(RawMessageStreamEvent))),
    }
    return graph, roots, f"anthropic {sdk.__version__}"


def openai_responses() -> tuple[Graph, dict[str, str], str]:
    import openai
    from openai.types.responses import Response, ResponseStreamEvent, response_create_params

    graph = Graph()
    roots = {
        "request": add_python_root(
            graph,
            "request",
            [
                response_create_params.ResponseCreateParamsNonStreaming,
                response_create_params.ResponseCreateParamsStreaming,
            ],
        ),
        "response": add_python_root(graph, "response", [Response]),
        "stream": add_python_root(graph, "stream", typing.get_args(_strip(ResponseStreamEvent))),
    }
    return graph, roots, f"openai {openai.__version__}"


def gemini() -> tuple[Graph, dict[str, str], str]:
    from google import genai
    from google.genai import types as sdk

    free = {("FunctionDeclaration", "parameters"), ("FunctionDeclaration", "response"), ("Schema", "properties")}
    graph = Graph(free=frozenset(free), value_rules=False)
    # The REST request body has no SDK class (the SDK builds it from its own config object):
    # https://ai.google.dev/api/generate-content#request-body
    request_fields: dict[str, Any] = {
        "contents": list[sdk.Content],
        "systemInstruction": sdk.Content,
        "tools": list[sdk.Tool],
        "toolConfig": sdk.ToolConfig,
        "safetySettings": list[sdk.SafetySetting],
        "generationConfig": sdk.GenerationConfig,
        "cachedContent": str,
        # Top-level fields google-genai 3.4 writes from its config (``_GenerateContentConfig_to_mldev``
        # sets them on the request, not in ``generationConfig``); Gemini stores requests by
        # default since 2026-10-26 and tells users to send ``store: false``.
        "store": bool,
        "serviceTier": str,
        "continuationToken": str,
    }
    graph.kinds["GenerateContentRequest"] = {}
    for key, annotation in sorted(request_fields.items()):
        arms = [add_python_kind(graph, arm, snake_too=True) for arm in _object_arms(annotation)]
        target = graph.target("GenerateContentRequest", key, arms)
        # proto3 JSON takes both spellings of each field (https://protobuf.dev/programming-guides/json/#json-options)
        for spelled in dict.fromkeys((key, re.sub(r"(?<!^)(?=[A-Z])", "_", key).lower())):
            graph.kinds["GenerateContentRequest"][spelled] = target
    roots = {
        "request": "GenerateContentRequest",
        "response": add_python_root(graph, "response", [sdk.GenerateContentResponse], snake_too=True),
        "stream": add_python_root(graph, "stream", [sdk.GenerateContentResponse], snake_too=True),
    }
    return graph, roots, f"google-genai {genai.__version__}"


def gemini_interactions() -> tuple[Graph, dict[str, str], str]:
    from google import genai
    from google.genai._gaos.types import interactions as sdk

    free = {("FunctionParam", "parameters"), ("Function", "parameters")}
    graph = Graph(free=frozenset(free))
    roots = {
        "request": add_python_root(graph, "request", [sdk.CreateModelInteractionParam]),
        "response": add_python_root(graph, "response", [sdk.Interaction]),
        "stream": add_python_root(graph, "stream", _object_arms(sdk.InteractionSSEEvent)),
    }
    return graph, roots, f"google-genai {genai.__version__} (google.genai._gaos.types.interactions)"


def bedrock_converse() -> tuple[Graph, dict[str, str], str]:
    import botocore
    import botocore.session

    model = botocore.session.get_session().get_service_model("bedrock-runtime")
    graph = Graph()
    request = [add_shape(graph, model.shape_for(name)) for name in ("ConverseRequest", "ConverseStreamRequest")]
    roots = {
        "request": graph.target("ROOT", "request", request),
        "response": add_shape(graph, model.shape_for("ConverseResponse")),
        "stream": add_shape(graph, model.shape_for("ConverseStreamOutput")),
    }
    return graph, roots, f"botocore {botocore.__version__} (bedrock-runtime service model)"


GENERATORS: dict[str, Callable[[], tuple[Graph, dict[str, str], str]]] = {
    "openai_chat": openai_chat,
    "anthropic": anthropic,
    "openai_responses": openai_responses,
    "gemini": gemini,
    "bedrock_converse": bedrock_converse,
    "gemini_interactions": gemini_interactions,
}


# --- rules the SDK types do not carry ----------------------------------------------

_ANTHROPIC_TEXT = (
    "the API's 400 for an empty text block: 'messages: text content blocks must be non-empty' "
    "(https://platform.claude.com/docs/en/api/errors)"
)

_OPENAI_STOP = (
    'https://platform.openai.com/docs/api-reference/chat/create#chat-create-stop ("Up to 4 sequences where the'
    " API will stop generating further tokens\"; the SDK's CompletionCreateParams.stop says the same)"
)
_OPENAI_TOOLS = (
    'https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools ("A max of 128 functions are'
    " supported\", as the openai SDK 1.x's CompletionCreateParams.tools carried it; 3.x's docstring no longer says)"
)
_OPENAI_NAME = "[a-zA-Z0-9_-]{1,64}"
_OPENAI_NAME_RULE = "a function name is 1 to 64 characters, each a-z, A-Z, 0-9, an underscore or a dash"
_OPENAI_NAME_SOURCE = (
    'https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools-function-name ("Must be a-z,'
    " A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64\"; the SDK's"
    " FunctionDefinition.name and completion_create_params.Function.name say the same)"
)
_CHAT_FUNCTIONS = ("FunctionDefinition", "Function")
"""The function definitions of a Chat request: a tool's ``function``, and the deprecated
``functions`` list's entries."""
_OPENAI_N = (
    "https://platform.openai.com/docs/api-reference/chat/create (n: how many choices; the API's 400: "
    "\"Invalid 'n': integer below minimum value. Expected a value >= 1\", and above 128)"
)
_GEMINI_CONFIG = (
    "https://ai.google.dev/api/generate-content#generationconfig and "
    "https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/inference#generationconfig "
    "(temperature 0.0-2.0, topP 0.0-1.0, candidateCount at least 1)"
)
_GEMINI_ROLE = (
    "https://ai.google.dev/api/caching#Content (role: \"Must be either 'user' or 'model'\"; the API's 400: "
    '"Please use a valid role: user, model."); systemInstruction\'s role is not checked'
)
_GEMINI_ENUMS = (
    "google-genai 3.4 FunctionCallingConfigMode and ThinkingLevel (https://ai.google.dev/api/caching#Mode, "
    "https://ai.google.dev/gemini-api/docs/thinking#thinking-levels); proto3 JSON takes the name in any case "
    "(the docs' REST examples write \"low\") or the enum's number"
)
_GEMINI_PART = (
    "https://ai.google.dev/api/caching#Part (a Part's data is a oneof: exactly one of text, inlineData, "
    "functionCall, functionResponse, fileData, executableCode, codeExecutionResult; the API's 400: "
    "\"required oneof field 'data' must have one initialized field\")"
)
_ANTHROPIC_TOOL_NAME = (
    "https://platform.claude.com/docs/en/agents-and-tools/tool-use/implement-tool-use (a tool's name \"must"
    " match the regex ^[a-zA-Z0-9_-]{1,64}$\"; the API's 400 names the pattern)"
)
_ANTHROPIC_TOOL_NAMES = (
    "the API's 400 for two tools of one name: 'tools: Tool names must be unique.' "
    "(https://platform.claude.com/docs/en/api/errors)"
)
_ANTHROPIC_SCHEMA = (
    "anthropic 2.12 types/tool_param.py: InputSchemaTyped.type is Required[Literal['object']] "
    "(a custom tool's input_schema is an object schema)"
)
_ANTHROPIC_BUDGET = (
    'anthropic 2.12 ThinkingConfigEnabledParam.budget_tokens: "Must be ≥1024 and less than `max_tokens`"; '
    'the API\'s 400: "`max_tokens` must be greater than `thinking.budget_tokens`" '
    "(https://platform.claude.com/docs/en/build-with-claude/extended-thinking#max-tokens-and-context-window-size)"
)
_ANTHROPIC_BREAKPOINTS = (
    'https://platform.claude.com/docs/en/build-with-claude/prompt-caching ("up to 4 cache breakpoints"; tools,'
    " system and messages together, and the request's top-level cache_control takes one); the API's 400: "
    '"A maximum of 4 blocks with cache_control may be provided. Found 5."'
)
_GEMINI_SAFETY = (
    "google-genai 3.4 HarmCategory and HarmBlockThreshold (SafetySetting.category, .threshold; "
    "https://ai.google.dev/api/generate-content#safetysetting); proto3 JSON takes the name in any case "
    "or the enum's number"
)
_GEMINI_MODALITIES = (
    "google-genai 3.4 GenerationConfig.response_modalities: list[Modality] "
    "(https://ai.google.dev/api/generate-content#Modality)"
)
_GEMINI_MIME = (
    "the API's 400 for another type: \"GenerateContentRequest.generation_config.response_mime_type: allowed "
    'mimetypes are text/plain, application/json, application/xml, application/yaml and text/x.enum" '
    "(https://ai.google.dev/api/generate-content#FIELDS.response_mime_type; google-genai 3.4's "
    "GenerationConfig.response_mime_type is a str naming the first two)"
)
_GEMINI_MIME_TYPES = ["text/plain", "application/json", "application/xml", "application/yaml", "text/x.enum"]


def _genai_enum(name: str) -> list[str]:
    """The values of a google-genai enum (``HarmCategory``), read from the installed SDK."""
    from google.genai import types as sdk

    return [str(member.value) for member in getattr(sdk, name)]


def _gemini(camel: str, rule: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A Gemini rule under both spellings proto3 JSON takes (``topP`` and ``top_p``)."""
    snake = re.sub(r"(?<!^)(?=[A-Z])", "_", camel).lower()
    return {camel: rule, snake: rule}


_SAMPLING = ("MessageCreateParamsNonStreaming", "MessageCreateParamsStreaming")
_CHAT = ("CompletionCreateParamsNonStreaming", "CompletionCreateParamsStreaming")
_RESPONSES = ("ResponseCreateParamsNonStreaming", "ResponseCreateParamsStreaming")


def _ranges(package: str, kinds: Sequence[str], typed: bool = False) -> dict[str, dict[str, dict[str, Any]]]:
    """The sampling ranges of ``package``'s rules table (``SAMPLING_RANGES``, what its
    writer's ``sampling_range`` rule holds a request to) as value rules of ``kinds``: one
    list is the truth for what the writer sends and what strict reading refuses."""
    rules = importlib.import_module(f"chatcodec._providers.{package}.rules")
    found: dict[str, dict[str, Any]] = {}
    for item in rules.SAMPLING_RANGES:
        rule: dict[str, Any] = {"source": item.source}
        rule.update({"type": "number"} if typed else {})
        bounds: dict[str, Any] = {} if item.low is None else {"minimum": item.low}
        if item.high is not None:
            bounds["exclusive_maximum" if item.exclusive_high else "maximum"] = item.high
        rule.update({"values": bounds} if item.each else bounds)
        found.update(_gemini(item.key, rule) if package == "gemini" else {item.key: rule})
    return {kind: dict(found) for kind in kinds}


DOCUMENTED: dict[str, dict[str, dict[str, dict[str, Any]]]] = {
    "anthropic": {
        "TextBlockParam": {
            "text": {"min_length": 1, "message": "text content blocks must be non-empty", "source": _ANTHROPIC_TEXT}
        },
        "ToolParam": {
            "name": {
                "pattern": "[a-zA-Z0-9_-]{1,64}",
                "message": "a tool name is 1 to 64 characters, each a-z, A-Z, 0-9, an underscore or a dash",
                "source": _ANTHROPIC_TOOL_NAME,
            },
            "input_schema": {"keys": {"type": {"enum": ["object"], "source": _ANTHROPIC_SCHEMA}}},
        },
        **{
            kind: {
                **ranges,
                "tools": {"unique": "name", "message": "Tool names must be unique.", "source": _ANTHROPIC_TOOL_NAMES},
                "max_tokens": {
                    "above": ["thinking", "budget_tokens"],
                    "message": "`max_tokens` must be greater than `thinking.budget_tokens`",
                    "source": _ANTHROPIC_BUDGET,
                },
            }
            for kind, ranges in _ranges("anthropic", _SAMPLING, typed=True).items()
        },
    },
    "openai_chat": {
        **{
            kind: {
                **ranges,
                "n": {"minimum": 1, "maximum": 128, "source": _OPENAI_N},
                "stop": {"max_items": 4, "source": _OPENAI_STOP},
                "tools": {"max_items": 128, "source": _OPENAI_TOOLS},
            }
            for kind, ranges in _ranges("openai_chat", _CHAT).items()
        },
        **{
            kind: {"name": {"pattern": _OPENAI_NAME, "message": _OPENAI_NAME_RULE, "source": _OPENAI_NAME_SOURCE}}
            for kind in _CHAT_FUNCTIONS
        },
    },
    "openai_responses": _ranges("openai_responses", _RESPONSES),
    "gemini": {
        "GenerationConfig": {
            **_ranges("gemini", ("GenerationConfig",))["GenerationConfig"],
            **_gemini("candidateCount", {"minimum": 1, "source": _GEMINI_CONFIG}),
            **_gemini("responseMimeType", {"enum": _GEMINI_MIME_TYPES, "source": _GEMINI_MIME}),
            **_gemini(
                "responseModalities",
                {"items": {"enum": _genai_enum("Modality"), "any_case": True}, "source": _GEMINI_MODALITIES},
            ),
        },
        "SafetySetting": {
            "category": {"enum": _genai_enum("HarmCategory"), "any_case": True, "source": _GEMINI_SAFETY},
            "threshold": {"enum": _genai_enum("HarmBlockThreshold"), "any_case": True, "source": _GEMINI_SAFETY},
        },
        "Content": {"role": {"enum": ["user", "model"], "under": "contents", "source": _GEMINI_ROLE}},
        "FunctionCallingConfig": {
            "mode": {
                "enum": ["MODE_UNSPECIFIED", "AUTO", "ANY", "NONE", "VALIDATED"],
                "any_case": True,
                "source": _GEMINI_ENUMS,
            }
        },
        "ThinkingConfig": _gemini(
            "thinkingLevel",
            {
                "enum": ["THINKING_LEVEL_UNSPECIFIED", "MINIMAL", "LOW", "MEDIUM", "HIGH", "XHIGH"],
                "any_case": True,
                "source": _GEMINI_ENUMS,
            },
        ),
    },
}
"""Value rules a provider documents (or states in its refusal) that its SDK's types do not
carry, by provider, kind and field, each with its source; merged over the generated rules."""

_GEMINI_DATA = (
    "text",
    "inlineData",
    "functionCall",
    "functionResponse",
    "fileData",
    "executableCode",
    "codeExecutionResult",
)

ONE_OF: dict[str, dict[str, dict[str, Any]]] = {
    "gemini": {
        "Part": {
            "members": sorted({*_GEMINI_DATA, *(re.sub(r"(?<!^)(?=[A-Z])", "_", key).lower() for key in _GEMINI_DATA)}),
            "message": "required oneof field 'data' must have one initialized field",
            "source": _GEMINI_PART,
        }
    },
}
"""Proto ``oneof`` groups the SDK's types flatten into optional fields, by provider and
kind: an object sets exactly one of ``members``."""

COUNTED: dict[str, dict[str, dict[str, Any]]] = {
    "anthropic": {
        "cache_control": {
            "at_most": 4,
            "message": "A maximum of {most} blocks with cache_control may be provided. Found {found}.",
            "source": _ANTHROPIC_BREAKPOINTS,
        }
    },
}
"""Fields of which one request may set at most ``at_most`` (counted over its closed places:
tools, system, messages and the request itself), by provider."""


def _with_documented(
    package: str, values: dict[str, dict[str, dict[str, Any]]]
) -> dict[str, dict[str, dict[str, Any]]]:
    merged = {kind: dict(fields) for kind, fields in values.items()}
    for kind, fields in DOCUMENTED.get(package, {}).items():
        for key, rule in fields.items():
            merged.setdefault(kind, {})[key] = {**merged.get(kind, {}).get(key, {}), **rule}
    return merged


# --- writing -------------------------------------------------------------------------


def render(package: str) -> str:
    """The ``known_fields.json`` text of ``package``: pretty-printed with sorted keys, so a
    regeneration after an SDK upgrade diffs as the fields it added or removed."""
    graph, roots, source = GENERATORS[package]()
    document = {
        "$comment": (
            "Generated by tools/known_fields.py from the installed SDK; do not edit by hand "
            "(tests/test_known_fields.py fails when this drifts from the SDK). Read by "
            "chatcodec._strict through ProviderCodec.field_sets(); the tables are described in the generator."
        ),
        "source": source,
        "roots": roots,
        "kinds": graph.kinds,
        "tags": {kind: {key: list(values) for key, values in tags.items()} for kind, tags in graph.tags.items()},
        "unions": {key: list(arms) for key, arms in graph.unions.items()},
        "required": graph.required,
        "values": _with_documented(package, graph.values),
        "one_member": sorted(graph.one_member),
        **({"one_of": ONE_OF[package]} if package in ONE_OF else {}),
        **({"counted": COUNTED[package]} if package in COUNTED else {}),
    }
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def data_path(package: str) -> Path:
    return PROVIDERS_DIR / package / "known_fields.json"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when a committed file differs")
    arguments = parser.parse_args(argv)
    stale = 0
    for package in GENERATORS:
        text, path = render(package), data_path(package)
        if arguments.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                print(f"{path} is out of date: run python tools/known_fields.py", file=sys.stderr)
                stale += 1
        else:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
