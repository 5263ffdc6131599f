"""Values a writer makes up because the target requires a field the source never had (kit module).

An SDK type may require what another format's answer does not hold: OpenAI's
``ChatCompletion`` an ``id``, ``created`` and ``model`` (and a ``CompletionUsage``'s
``prompt_tokens`` and ``completion_tokens``), Responses' ``Response`` an ``id``,
``created_at`` and ``model``, Anthropic's ``Message`` an ``id``, ``model`` and ``usage``,
botocore's ``ConverseResponse`` its ``usage`` counts and ``metrics.latencyMs``. The writer
then sends a placeholder (``""`` for a name, the current time for a creation time, ``0``
for a count or a latency), which read back is a value the answer never had.

Each one is reported as one ``default`` loss (a required field missing, a value sent in its
place): at the path the value would have come from (``$.id``, ``$.usage.input_tokens``; a
stream's, at the event its writer builds the field from), with the wire's name for it in
``what``. A stream writes its placeholders on every chunk and reports each once, where it
builds them. A field a recorded body left out is left out again (the reader marked it
absent), so it is never invented.
"""

from __future__ import annotations

from collections.abc import Iterable

from chatcodec._losses import LossRecorder, Steps

INVENTED_TIME = "the current time"
"""What a creation time is sent as (a client that sorts or expires by it would read 1970
from ``0``)."""


def report_invented(losses: LossRecorder, at: Steps, field: str, owner: str, sent: object) -> None:
    """One loss for the wire ``field`` that ``owner`` (the type that requires it, as its SDK
    or documentation names it) was given ``sent`` (a value, or a phrase such as
    :data:`INVENTED_TIME`) because the answer has none."""
    shown = sent if isinstance(sent, str) and sent == INVENTED_TIME else repr(sent)
    losses.add(at, f"invented {field}", f"{owner} requires it and the answer has none: sent {shown}", "default")


def report_invented_counts(losses: LossRecorder, at: Steps, filled: Iterable[tuple[str, str]], owner: str) -> None:
    """One loss per token count written as 0: ``filled`` pairs the canonical name (the path
    under ``at``, the usage) with the wire's."""
    for canonical, wire in filled:
        report_invented(losses, (*at, canonical), wire, owner, 0)
