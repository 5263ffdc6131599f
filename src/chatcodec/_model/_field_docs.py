"""Field descriptions for the JSON Schema, read from attribute docstrings on demand.

Every canonical field carries a docstring under it. pydantic's
``use_attribute_docstrings`` would read them when each class is created, which parses
source on every import (about a third of the cost of loading the models). Only the
JSON Schema export needs them, so they are read here, once per module, when a schema is
generated.
"""

from __future__ import annotations

import ast
import inspect
import sys
from functools import cache
from typing import Any

from chatcodec._narrow import as_dict
from chatcodec._public_label import defined_in


def describe_fields(schema: dict[str, Any], model: type[Any]) -> None:
    """``json_schema_extra`` hook: give each property its attribute docstring.

    Docstrings of inherited fields come from the class that declares them; a field's
    explicit ``description`` wins.
    """
    properties = as_dict(schema.get("properties"))
    if properties is None:
        return
    for name, docstring in _docstrings_through_mro(model).items():
        field_schema = as_dict(properties.get(name))
        if field_schema is not None and "description" not in field_schema:
            field_schema["description"] = docstring


def _docstrings_through_mro(model: type[Any]) -> dict[str, str]:
    docstrings: dict[str, str] = {}
    for cls in reversed(model.__mro__):
        module_name = defined_in(cls)  # a public model's __module__ is where a user imports it
        if module_name not in sys.modules or not module_name.startswith("chatcodec"):
            continue
        docstrings.update(_module_docstrings(module_name).get(cls.__qualname__, {}))
    return docstrings


@cache
def _module_docstrings(module_name: str) -> dict[str, dict[str, str]]:
    """Attribute docstrings of every top-level class in a module, by class name."""
    try:
        source = inspect.getsource(sys.modules[module_name])
    except (OSError, TypeError):
        return {}
    classes: dict[str, dict[str, str]] = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef):
            classes[node.name] = _class_docstrings(node)
    return classes


def _class_docstrings(node: ast.ClassDef) -> dict[str, str]:
    docstrings: dict[str, str] = {}
    for statement, following in zip(node.body, node.body[1:], strict=False):
        if (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            docstrings[statement.target.id] = inspect.cleandoc(following.value.value)
    return docstrings
