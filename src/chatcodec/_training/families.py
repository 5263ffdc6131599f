"""The template families chatcodec knows by name: where each template comes from, and its profile.

``families.json`` is data: per family, the template's file (kept in ``templates/`` with its
source and licence, or a file of an installed ``trl`` where the model's licence keeps it
out of this package), the values of the names the template reads besides the conversation
(``bos_token``), and the profile read from that template (``tests/training/test_profiles.py``
reads each template again and fails when the stored profile differs).

A template given as text is looked up by its text: the text of a known family's template
is that family (its stored profile, no probing); any other is read by
:func:`chatcodec._training.profile.read_profile`.
"""

from __future__ import annotations

import importlib.util
import json
import os
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from chatcodec._public_label import shown_as
from chatcodec._training.errors import TemplateError
from chatcodec._training.profile import TemplateProfile, generation_prompt_given, read_profile
from chatcodec._training.template_limits import DEFAULT_LIMITS, TemplateLimits

_HERE = Path(__file__).parent


@dataclass(frozen=True, slots=True)
class Template:
    """A chat template's text with its profile and where it came from."""

    text: str
    profile: TemplateProfile
    family: str | None
    """The family name, when the template is one chatcodec knows."""


@lru_cache(maxsize=1)
def families() -> dict[str, dict[str, Any]]:
    """The families' table (``families.json``)."""
    table: dict[str, dict[str, Any]] = json.loads((_HERE / "families.json").read_text(encoding="utf-8"))
    return table


def starts_checked(family: str) -> bool:
    """Whether a family's one run shows a message starting after text of its own (Qwen2.5-VL
    writes ``<|im_start|>`` before it reads the message), so its starts are checked against a
    prefix render as an unknown template's are: its entry's ``one_run_starts`` says why."""
    return "one_run_starts" in families()[family]


def family_names() -> list[str]:
    """Every family name chatcodec knows, in the table's order."""
    return list(families())


@lru_cache(maxsize=64)  # the families' table holds fewer
def stored_profile(family: str) -> TemplateProfile:
    """The profile ``families.json`` stores for ``family`` (frozen: made once a process, not at
    every render naming the family)."""
    data = dict(families()[family]["profile"])
    data["refusals"] = tuple(data["refusals"])
    return TemplateProfile(**data)


def _trl_templates() -> Path | None:
    spec = importlib.util.find_spec("trl")  # finds the package without importing it (and its torch)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "chat_templates"


@lru_cache(maxsize=64)
def template_text(family: str) -> str:
    """The template text of a known ``family``, read from its file once a process (a render or a
    converter given the family's name asks for it on every row)."""
    entry = families()[family]
    if "file" in entry:
        return (_HERE / "templates" / str(entry["file"])).read_text(encoding="utf-8")
    folder = _trl_templates()
    if folder is None or not (folder / entry["trl_file"]).is_file():
        raise TemplateError(
            f"the {family} chat template ships under its maker's licence, not in chatcodec: install the trl "
            f"package alone (pip's --no-deps: it brings neither transformers nor torch), or pass the "
            f"tokenizer's chat_template text"
        )
    return (folder / str(entry["trl_file"])).read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _families_by_text() -> dict[str, str]:
    known: dict[str, str] = {}
    for family in families():
        try:
            known.setdefault(template_text(family), family)
        except TemplateError:
            continue
    return known


TEMPLATE_SUFFIXES = (".jinja", ".jinja2", ".j2")
"""The endings of a chat template's file (TRL's ``chat_templates/``, a model repository's
``chat_template.jinja``): a template named so is a file to read, even when it is missing."""


def given_text(template: str | os.PathLike[str]) -> str:
    """The template ``template`` names: a file's text when it is a path (an existing file, or a
    name ending in ``.jinja``), else ``template`` itself (a family name or a template's text).

    The command line and :func:`~chatcodec.render` read a template the same way, so
    ``render(template="chat_template.jinja")`` is the file, as ``--template`` is.
    """
    if not isinstance(template, str):
        return _file_text(Path(template))
    if "{{" in template or "{%" in template or template in families() or "\n" in template:
        return template
    if template.endswith(TEMPLATE_SUFFIXES) or _is_file(template):
        return _file_text(Path(template))
    return template


def _is_file(name: str) -> bool:
    try:
        return Path(name).is_file()
    except (OSError, ValueError):  # a name too long for a path, or holding a NUL
        return False


def _file_text(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise TemplateError(f"the chat template file {os.fspath(path)!r} cannot be read ({error})") from None
    if "{{" not in text and "{%" not in text:
        raise TemplateError(f"the file {os.fspath(path)!r} holds no chat template (no Jinja tag in it)")
    return text


def suggestion(name: str) -> str | None:
    """The family a model's name (``Qwen/Qwen3-8B``, ``meta-llama/Llama-3.1-8B-Instruct``) or a
    misspelt family most likely means: the longest family name within it, separators aside."""
    plain = _plain(name.rpartition("/")[2])
    within = [family for family in families() if _plain(family) in plain]
    if within:
        return max(within, key=len)
    import difflib  # a misspelt name only

    close = difflib.get_close_matches(name.lower(), families(), n=1, cutoff=0.6)
    return close[0] if close else None


def _plain(name: str) -> str:
    return name.lower().replace("-", "").replace("_", "").replace(" ", "")


def resolve(
    template: str | os.PathLike[str], variables: dict[str, Any] | None = None, limits: TemplateLimits = DEFAULT_LIMITS
) -> Template:
    """``template`` (a family name, a template's Jinja text, or a template file's path) as a
    :class:`Template` (a template read by probes, each probe within ``limits``).

    A name that is no family and holds no Jinja tag is refused with the names known (and the
    family a model's name suggests), so a misspelt family never renders as a template of its
    own letters.
    """
    text = given_text(template)
    if text in families():
        profile = stored_profile(text)
        if variables:
            profile = _with_variables(template_text(text), profile, variables, limits)
        return Template(template_text(text), profile, text)
    family = _families_by_text().get(text)
    if family is not None:
        profile = stored_profile(family)
        return Template(text, _with_variables(text, profile, variables, limits) if variables else profile, family)
    if "{{" not in text and "{%" not in text:
        known = ", ".join(families())
        guess = suggestion(text)
        meant = "" if guess is None else f"; did you mean {guess!r}?"
        raise TemplateError(
            f"unknown chat template family {text!r}{meant} (known: {known}; or pass a template's text or a file of it)"
        )
    return Template(text, read_profile(text, variables=variables, limits=limits), None)


def _with_variables(
    text: str, profile: TemplateProfile, variables: dict[str, Any], limits: TemplateLimits
) -> TemplateProfile:
    """A stored profile given the caller's variables: its generation prompt read again where a
    variable the template reads may change it (read once a process for each set of variables)."""
    merged = {**profile.variables, **variables}
    parts = profile.content == "parts"
    try:
        key = json.dumps(merged, sort_keys=True)
    except (TypeError, ValueError):  # a value JSON cannot write: read every time
        prompt = generation_prompt_given(text, parts=parts, variables=merged, limits=limits)
    else:
        prompt = _prompt_given(text, parts, key, limits)
    return replace(profile, variables=merged, generation_prompt=profile.generation_prompt if prompt is None else prompt)


@lru_cache(maxsize=64)
def _prompt_given(text: str, parts: bool, variables: str, limits: TemplateLimits) -> str | None:
    return generation_prompt_given(text, parts=parts, variables=json.loads(variables), limits=limits)


def template_profile(
    template: str | os.PathLike[str],
    *,
    variables: dict[str, Any] | None = None,
    limits: TemplateLimits = DEFAULT_LIMITS,
) -> TemplateProfile:
    """The :class:`~chatcodec.TemplateProfile` of a chat template: a family chatcodec knows
    (``"qwen3"``, stored and checked against its template), a template's Jinja text or a
    ``.jinja`` file of it (read from it by rendering probes, each run within ``limits``). Raises
    :class:`~chatcodec.TemplateError` for a template chatcodec cannot shape input for (or one
    that fails or passes its limits on a probe)."""
    return resolve(template, variables, limits).profile


shown_as("chatcodec", template_profile)
