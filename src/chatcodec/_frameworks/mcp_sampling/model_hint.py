"""The model a sampling request asks for: its first model hint.

A sampling request names no model; the server hints one in ``modelPreferences.hints``
(``{"name": "claude-3-sonnet"}``, matched by the client as a substring of a model id). A
first hint that is a name alone reads as the canonical ``model``, and a canonical ``model``
is written as the first hint, so a request's model survives the trip both ways, and a
gateway maps the hint to a provider's model id (``chatcodec serve --model-map``)."""

from __future__ import annotations

from typing import Any

from chatcodec.codec_kit import as_dict, as_list

PREFERENCES = "modelPreferences"


def take_model(bag: dict[str, Any]) -> str | None:
    """The first hint's name, removed from the request's kept ``modelPreferences`` in ``bag``
    (which goes when nothing else is left in it); None when the first hint is not a name alone."""
    preferences = as_dict(bag.get(PREFERENCES))
    hints = as_list(preferences.get("hints")) if preferences is not None else None
    first = as_dict(hints[0]) if hints else None
    if preferences is None or hints is None or first is None or set(first) != {"name"}:
        return None
    name = first["name"]
    if not isinstance(name, str):
        return None
    rest = {key: value for key, value in preferences.items() if key != "hints"}
    if len(hints) > 1:
        rest["hints"] = hints[1:]
    if rest:
        bag[PREFERENCES] = rest
    else:
        del bag[PREFERENCES]
    return name


def put_model(model: str, wire: dict[str, Any]) -> None:
    """Write ``model`` as the first hint of ``wire``'s ``modelPreferences``."""
    preferences = dict(as_dict(wire.get(PREFERENCES)) or {})
    preferences["hints"] = [{"name": model}, *(as_list(preferences.get("hints")) or [])]
    wire[PREFERENCES] = preferences
