"""What a ``template=`` tells the completion parser: the family (so its parsers) and the
generation prompt (so whether the completion starts inside the reasoning).

A template is a family name or a template's Jinja text, as ``chatcodec.render`` takes it; the
profile comes from the renderer's own families table, so both sides of the training boundary
read one fact once.
"""

from __future__ import annotations

from dataclasses import dataclass

from chatcodec._errors import OptionError
from chatcodec._training import families
from chatcodec._training.completion.family_parsers import FAMILY_PARSERS, FamilyParsers
from chatcodec._training.errors import TemplateError
from chatcodec._training.template_limits import BOUND_RULES, DEFAULT_LIMITS, TemplateLimits


@dataclass(frozen=True, slots=True)
class TemplateLink:
    """A template's parsers (None for a template of no family chatcodec knows) and its
    generation prompt ("" where no profile is kept)."""

    parsers: FamilyParsers | None
    generation_prompt: str


def template_link(template: str, limits: TemplateLimits = DEFAULT_LIMITS) -> TemplateLink:
    """The link for ``template`` (a template's text read by probes, each run within ``limits``);
    an unknown family name is an :class:`~chatcodec.OptionError` at ``$.template`` listing the
    names known. A template stopped at its bounds is the :class:`~chatcodec.TemplateError` naming
    the bound, as ``render`` raises it: a hostile template is no option to correct."""
    if template in families.families():
        return TemplateLink(FAMILY_PARSERS.get(template), families.stored_profile(template).generation_prompt)
    if template in FAMILY_PARSERS:
        return TemplateLink(FAMILY_PARSERS[template], "")
    if "{{" not in template and "{%" not in template:
        known = sorted({*FAMILY_PARSERS, *families.families()})
        raise OptionError(
            f"no completion parser is known for the template family {template!r}",
            name=template,
            valid=known,
            path="$.template",
        )
    try:
        resolved = families.resolve(template, limits=limits)
    except TemplateError as error:
        if error.rule in BOUND_RULES:
            raise
        raise OptionError(
            f"the template cannot be read: {error}", name="template", valid=[], path="$.template"
        ) from None
    parsers = FAMILY_PARSERS.get(resolved.family) if resolved.family is not None else None
    return TemplateLink(parsers, resolved.profile.generation_prompt)
