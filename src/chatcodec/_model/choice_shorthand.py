"""A response given by its one message: ``message`` (and ``finish_reason``) as the single choice.

Kept apart from the response models so the dialect reader, which every reading of messages
imports, can name the shorthand without building the response classes (a render reads no
response).
"""

from __future__ import annotations

from typing import Any

from chatcodec._narrow import as_dict


def with_single_message_shorthand(fields: dict[str, Any]) -> dict[str, Any]:
    """``fields`` with ``message`` (and ``finish_reason``) turned into the single choice,
    unless ``choices`` is given too (then the schema reports the stray keys). A message
    given as a dict may leave out its ``role``."""
    if "message" not in fields or "choices" in fields:
        return fields
    rest = {key: value for key, value in fields.items() if key not in ("message", "finish_reason")}
    message: object = fields["message"]
    untagged = as_dict(message)
    if untagged is not None and "role" not in untagged:
        # The constructor's shorthand, like ``AssistantMessage(content=...)``: the one role a
        # response message can have. ``model_validate`` takes tagged canonical data only.
        message = {"role": "assistant", **untagged}
    choice: dict[str, object] = {"message": message}
    if fields.get("finish_reason") is not None:
        choice["finish_reason"] = fields["finish_reason"]
    rest["choices"] = [choice]
    return rest
