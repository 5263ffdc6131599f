"""The one error of the training boundary: a template that cannot be used as asked."""

from __future__ import annotations

from chatcodec._errors import ChatcodecError
from chatcodec._public_label import shown_as


class TemplateError(ChatcodecError, ValueError):
    """A chat template refused its input, failed, or cannot be read for the facts a render
    needs (where the user's text goes, what ends a turn); or a mask would train nothing; or a
    trainer's frame cannot hold an episode (``trainer_rows``: the rule says which)."""

    def __init__(
        self, message: str, *, refusal: str | None = None, path: str | None = None, rule: str | None = None
    ) -> None:
        text = message if rule is None else f"{message} [rule: {rule}]"
        super().__init__(text if path is None else f"at {path}: {text}")
        self.refusal = refusal
        """The template's own words, where it refused with ``raise_exception``."""
        self.path = path
        """JSON path of the input the error is about, where there is one."""
        self.rule = rule
        """The rule broken, as data (``template_time``, ``template_output``, ``template_range``,
        ``template_depth``, ``template_failed``, ``single_token_marker``...), where one is named."""


shown_as("chatcodec", TemplateError)
