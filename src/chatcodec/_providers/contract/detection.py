"""What a body of a format can hold, for :mod:`chatcodec._detect`, read from the format's
own wire description rather than listed by hand.

Detection excludes a format when a body holds a mark the format does not hold, so a mark
is only safe when every format's list of it is complete: a hand list that names
``created_at`` for Ollama only says "never a Responses body", which is false (a trial
seventh provider listing its ``stop_sequences`` and ``thinking`` broke 57 tests that way).
So a format's top-level keys are *all* of them, read from what the folder already
describes: the SDK's request and response kinds in its ``known_fields.json`` (the union
arms of a root included), the fields its wire ``Request``, ``Response`` and ``ErrorBody``
shapes type (where ``wire.py`` takes one from its family, the family's), and the extensions
its edge documents for those kinds. Its message roles
are the ones its messages list takes (``None``: it has no ``messages`` list detection
reads, so a role says nothing against it). Its other marks (part and block tags, tool and
choice shapes: the vocabulary in :mod:`chatcodec._detect`) are listed in ``shapes``.

The law this gives (``tests/test_detection_laws.py``): registering a codec changes no
detection verdict on another provider's recordings, since a recording only holds marks
its own format's complete description holds.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING

from chatcodec._public_label import shown_as

if TYPE_CHECKING:
    from chatcodec._providers.contract.extension import Extension

__all__ = ["WIRE_SHAPES", "Detection", "Held"]

WIRE_SHAPES = ("Request", "Response", "ErrorBody")
"""The wire ``TypedDict``s of a folder's ``wire.py`` whose fields are top-level keys."""


@dataclass(frozen=True, slots=True)
class Held:
    """The marks one format holds, as detection reads them."""

    keys: tuple[str, ...]
    """Every top-level key a request, response or error body can hold, in description order."""
    roles: tuple[str, ...] | None
    """The roles of its ``messages`` list; ``None``: every role (it has no such list)."""
    shapes: frozenset[str]
    """Its other marks (``part:image_url``, ``tool:function``, ...)."""


@dataclass(frozen=True, slots=True)
class Detection:
    """A format's wire description as detection reads it (an edge's ``detection``)."""

    package: str | None = None
    """The provider package whose ``known_fields.json`` and ``wire.py`` describe the
    wire (``__package__`` in its ``edge.py``); ``None``: ``keys`` is the whole list."""
    keys: tuple[str, ...] = ()
    """Top-level keys beyond the described ones (each a documented field the SDK types
    leave out, with its source in a comment where it is written)."""
    roles: tuple[str, ...] | None = None
    """The roles its ``messages`` list takes; ``None``: it has none detection reads."""
    shapes: tuple[str, ...] = ()
    """Its marks beyond keys and roles (the vocabulary of :mod:`chatcodec._detect`)."""
    snake_case: bool = False
    """Its readers take every camelCase key in snake_case too (Gemini's SDK dumps)."""

    def held(self, extensions: Iterable[Extension] = ()) -> Held:
        """The marks a body of this format can hold (reads the description's files)."""
        keys = dict.fromkeys((*(self._described(tuple(extensions)) if self.package else ()), *self.keys))
        if self.snake_case:
            keys.update(dict.fromkeys(_snake(key) for key in tuple(keys)))
        shapes = frozenset((*self.shapes, *(_input_entries(self.package) if self.package else ())))
        return Held(tuple(keys), self.roles, shapes)

    def _described(self, extensions: tuple[Extension, ...]) -> Iterable[str]:
        from chatcodec._providers.kit.field_sets import load_field_sets

        package = self.package
        assert package is not None
        sets = load_field_sets(package)
        if sets is not None:
            roots = [root for name, root in sets.roots.items() if name != "stream"]
            kinds = [arm for root in roots for arm in sets.unions.get(root, (root,))]
            for kind in kinds:
                yield from sets.kinds.get(kind, {})
            for extension in extensions:
                if any(fnmatchcase(kind, extension.kind) for kind in kinds):
                    yield from extension.fields
        yield from _shape_fields(f"{package}.wire")


def _input_entries(package: str) -> Iterator[str]:
    """The ``input:<type>`` marks of the entries a request's ``input`` list holds, read from
    the SDK's request kinds in ``known_fields.json``: each arm's ``type`` tags, and
    ``input:untyped`` where an arm may leave its ``type`` out (Responses' ``EasyInputMessage``).
    Nothing when the SDK's request has no ``input``: then no such mark is this format's."""
    from chatcodec._providers.kit.field_sets import load_field_sets

    sets = load_field_sets(package)
    if sets is None or "request" not in sets.roots:
        return
    root = sets.roots["request"]
    for kind in sets.unions.get(root, (root,)):
        held = sets.kinds.get(kind, {}).get("input")
        for arm in sets.unions.get(held, (held,)) if held else ():
            tags = sets.tags.get(arm, {}).get("type", ())
            yield from (f"input:{tag}" for tag in tags)
            if not tags or "type" not in sets.required.get(arm, ("type",)):
                yield "input:untyped"


def _shape_fields(module: str) -> Iterator[str]:
    """The fields the :data:`WIRE_SHAPES` of ``module`` type, their bases' first, read from
    its source: a ``wire.py`` may build pydantic adapters at import, and detection runs on
    paths that load no pydantic (``chatcodec convert``'s first use). A shape or base the
    module imports (a family's, ``families/aws/blocks.py``'s ``ErrorBody``) is read from the
    module it comes from, so a folder lists no family key by hand. Each module's source is
    parsed once (a ``wire.py`` is the module of every shape and base it names; parsing
    it again for each was most of what ``chatcodec convert`` paid before its first row)."""
    parsed: dict[str, tuple[dict[str, ast.ClassDef], dict[str, tuple[str, str]]]] = {}

    def fields(module: str, name: str) -> Iterator[str]:
        shapes = parsed.get(module)
        if shapes is None:
            shapes = parsed[module] = _module_shapes(module)
        classes, imported = shapes
        shape = classes.get(name)
        if shape is None:
            if name in imported:
                yield from fields(*imported[name])
            return
        for base in shape.bases:
            if isinstance(base, ast.Name):
                yield from fields(module, base.id)
        for statement in shape.body:
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                yield statement.target.id

    for name in WIRE_SHAPES:
        yield from fields(module, name)


def _module_shapes(module: str) -> tuple[dict[str, ast.ClassDef], dict[str, tuple[str, str]]]:
    """The classes ``module`` defines, and the names it imports from ``chatcodec`` modules
    (``name -> (module, name there)``), read from its source; nothing for a module not found."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return {}, {}
    with open(spec.origin, encoding="utf-8") as source:
        tree = ast.parse(source.read())
    classes = {node.name: node for node in tree.body if isinstance(node, ast.ClassDef)}
    imported = {
        alias.asname or alias.name: (node.module or "", alias.name)
        for node in tree.body
        if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("chatcodec.")
        for alias in node.names
    }
    return classes, imported


_CAMEL = re.compile(r"(?<=[a-z0-9])([A-Z])")


def _snake(key: str) -> str:
    return _CAMEL.sub(r"_\1", key).lower()


shown_as("chatcodec.contract", Detection)
