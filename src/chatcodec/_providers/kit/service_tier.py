"""The canonical ``service_tier`` and ``user`` of a request, read and written by each
format's table.

Canonical names a processing tier in OpenAI's words (``auto``, ``default``, ``flex``,
``priority``, ``scale``, ``fast``, ``ultrafast``) plus Bedrock's ``reserved``; a format
gives :func:`read_tier` and :func:`write_tier` its table of wire word -> canonical word
(Anthropic's ``standard_only`` is ``default``; Gemini's ``standard`` is ``default``). A
word the table does not hold is not read (the reader keeps it in the request's bag, so
it is written back to its own format as it came) and is not written (a loss naming the
tiers the format has). So no provider reads another provider's bag for a tier.
"""

from __future__ import annotations

from collections.abc import Mapping

from chatcodec._losses import LossRecorder


def read_tier(value: object, table: Mapping[str, str]) -> str | None:
    """The canonical tier for a wire ``value``; ``None`` when the table has no such word."""
    return table.get(value) if isinstance(value, str) else None


def write_tier(tier: str, table: Mapping[str, str], losses: LossRecorder, target: str) -> str | None:
    """The wire word for canonical ``tier``; ``None``, with a loss, when ``target`` has no
    such tier (the provider would refuse the word: every tier field is an enum)."""
    for wire, canonical in table.items():
        if canonical == tier:
            return wire
    why = f"{target} has the tiers {', '.join(sorted(set(table.values())))}"
    losses.add(("service_tier",), f"service tier {tier!r}", why, "setting")
    return None


def report_tier(tier: str | None, losses: LossRecorder, target: str) -> None:
    """A loss for a tier sent to a format with no tier field."""
    if tier is not None:
        losses.add(("service_tier",), f"service tier {tier!r}", f"{target} has no service tier", "setting")


def report_user(user: str | None, losses: LossRecorder, target: str) -> None:
    """A loss for an end-user id sent to a format with no field for one."""
    if user is not None:
        losses.add(("user",), "end-user id", f"{target} has no end-user id field", "metadata")
