"""A proxy's law: every recorded stream of every codec, decoded and encoded as another
codec's stream, gives events that codec's SDK oracle accepts, and they accumulate to the
same answer text the source stream gives (what is lost on the way is reported, never
raised). Found missing when one decoder gave a part's end after the finish and the encoders
that close their blocks at the finish refused it."""

from __future__ import annotations

import chatcodec
from chatcodec.testing._laws.entry import ProviderEntry
from chatcodec.testing._laws.registry import law
from chatcodec.testing._laws.suite import Suite


def _cases(suite: Suite) -> list[tuple[ProviderEntry, str, ProviderEntry]]:
    return [
        (source, name, target)
        for source in suite.streaming
        for name in source.recorded["stream"]
        for target in suite.streaming
        if target is not source
    ]


def _text(response: chatcodec.ChatResponse) -> str:
    """The answer's text, refusals included (a wire without refusal parts carries a refusal
    as text, reported)."""
    content = response.message.content
    if isinstance(content, str):
        return content
    return "".join(part.text for part in content if isinstance(part, chatcodec.TextPart | chatcodec.RefusalPart))


@law(_cases)
def a_recorded_stream_crosses_to_every_other_codec(source: ProviderEntry, name: str, target: ProviderEntry) -> None:
    events = source.stream_events(name)
    wire = list(chatcodec.encode_stream(target.name, chatcodec.decode_stream(source.name, events), on_loss="ignore"))
    target.check_stream(wire)
    assert _text(chatcodec.accumulate_stream(target.name, wire)) == _text(
        chatcodec.accumulate_stream(source.name, events)
    )
