"""Google's model list, one for every Gemini API wire (``generateContent`` and Interactions): both
serve the models ``GET /v1beta/models`` lists (https://ai.google.dev/api/models#method:-models.list),
with the same key."""

from __future__ import annotations

from chatcodec.codec_kit import as_dict, as_list

__all__ = ["models_url", "read_models"]


def models_url(base: str) -> str:
    """The model list under ``base`` (the Gemini API's; one page of up to 1,000)."""
    return f"{base}/v1beta/models?pageSize=1000"


def read_models(body: object) -> list[str]:
    """The model names of ``GET /v1beta/models`` (``{"models": [{"name": "models/..."}]}``),
    without the ``models/`` prefix a request's path adds back."""
    entries = [as_dict(entry) or {} for entry in as_list((as_dict(body) or {}).get("models")) or ()]
    return [entry["name"].removeprefix("models/") for entry in entries if isinstance(entry.get("name"), str)]
