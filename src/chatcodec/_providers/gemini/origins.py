"""Where each canonical message of a Gemini request came from
(:mod:`chatcodec._providers.kit.origins`): ``systemInstruction`` is message 0, a turn's
parts are its content, and a user turn is one message per run of ``functionResponse``
parts and of other parts."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from chatcodec.codec_kit import Origin, as_list, is_dict, origins_by_run
from chatcodec.contract import Steps


def message_origins(payload: Mapping[str, Any], messages: Sequence[Mapping[str, Any]]) -> list[Origin]:
    """The origin of each of ``messages`` (read from ``payload``) in ``payload``."""
    del messages  # the turns say it
    found: list[Origin] = []
    for key in ("systemInstruction", "system_instruction"):
        if key in payload:
            system: Steps = (key,)
            found.append(Origin(system, (*system, "parts") if is_dict(payload[key]) else system))
    for index, content in enumerate(as_list(payload.get("contents")) or []):
        at: Steps = ("contents", index)
        parts = (as_list(content.get("parts")) or []) if is_dict(content) else []
        if is_dict(content) and content.get("role") == "model":
            found.append(Origin(at, (*at, "parts")))
        else:
            found += origins_by_run(at, "parts", parts, _is_result)
    return found


def _is_result(part: object) -> bool:
    return is_dict(part) and ("functionResponse" in part or "function_response" in part)
