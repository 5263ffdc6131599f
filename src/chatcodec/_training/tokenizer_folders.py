"""A model folder as a tokenizer: what a snapshot download gives (``huggingface_hub``'s
``snapshot_download``, a checkpoint saved by ``save_pretrained``).

The folder holds ``tokenizer.json`` (the tokenizer, its added tokens included), and maybe
``tokenizer_config.json`` (the chat template as ``chat_template``, a string or a list of named
templates of which ``default`` is the one ``apply_chat_template`` takes; the special tokens a
template reads by name, ``bos_token``, as a string or an added token's ``content``) and
``chat_template.jinja`` (where transformers 4.43 and later save the template, read before the
config's). A render given the folder reads the tokenizer from ``tokenizer.json`` and, without
``template=``, the folder's chat template, as ``AutoTokenizer.from_pretrained`` would.
"""

from __future__ import annotations

import functools
import json
import os
from typing import Any, cast

from chatcodec._errors import PayloadError
from chatcodec._narrow import as_dict, as_list

TOKENIZER_FILE = "tokenizer.json"
CONFIG_FILE = "tokenizer_config.json"
TEMPLATE_FILE = "chat_template.jinja"
_SPECIAL_NAMES = ("bos_token", "eos_token", "unk_token", "pad_token", "sep_token", "cls_token", "mask_token")
"""The special tokens ``special_tokens_map`` names, which a template reads by name."""


def folder(tokenizer: object) -> str | None:
    """The path of ``tokenizer`` where it names a model folder (a directory), else None."""
    if not isinstance(tokenizer, str | os.PathLike):
        return None
    path = os.fspath(cast("str | os.PathLike[str]", tokenizer))
    return path if os.path.isdir(path) else None


def tokenizer_file(path: str) -> str:
    """The folder's ``tokenizer.json`` (a :class:`~chatcodec.PayloadError` at ``$.tokenizer``
    for a folder without one: a slow tokenizer's files alone are not read)."""
    found = os.path.join(path, TOKENIZER_FILE)
    if not os.path.isfile(found):
        raise PayloadError(
            f"{path} is a folder without a {TOKENIZER_FILE} (a model folder holds one; its slow tokenizer's "
            "files alone are not read)",
            "$.tokenizer",
        )
    return found


def chat_template(path: str) -> str | None:
    """The folder's chat template (``chat_template.jinja``, else the config's), or None."""
    return _read(path, _stamps(path))[0]


def special_tokens(path: str) -> dict[str, str]:
    """The special tokens the folder's config names (``bos_token``: ``"<s>"``)."""
    return dict(_read(path, _stamps(path))[1])


KEPT_FOLDERS = 4
"""How many folders' templates and special tokens are kept read (a run names one)."""


def _stamps(path: str) -> tuple[int, ...]:
    """Each read file's modification time (-1: none), so a file written again is read again."""
    stamps: list[int] = []
    for name in (TEMPLATE_FILE, CONFIG_FILE):
        try:
            stamps.append(os.stat(os.path.join(path, name)).st_mtime_ns)
        except OSError:
            stamps.append(-1)
    return tuple(stamps)


@functools.lru_cache(maxsize=KEPT_FOLDERS)
def _read(path: str, stamps: tuple[int, ...]) -> tuple[str | None, tuple[tuple[str, str], ...]]:
    del stamps
    return _template(path), tuple(_specials(path).items())


def _template(path: str) -> str | None:
    template_file = os.path.join(path, TEMPLATE_FILE)
    if os.path.isfile(template_file):
        return _text(template_file)
    template = _config(path).get("chat_template")
    if isinstance(template, str):
        return template
    named = {
        str(entry.get("name")): entry.get("template")
        for item in as_list(template) or []
        if (entry := as_dict(item)) is not None
    }
    found = named.get("default")
    return found if isinstance(found, str) else None


def _specials(path: str) -> dict[str, str]:
    config = _config(path)
    found: dict[str, str] = {}
    for name in _SPECIAL_NAMES:
        value = config.get(name)
        content = (as_dict(value) or {}).get("content") if not isinstance(value, str) else value
        if isinstance(content, str):
            found[name] = content
    return found


def _config(path: str) -> dict[str, Any]:
    config_file = os.path.join(path, CONFIG_FILE)
    if not os.path.isfile(config_file):
        return {}
    try:
        read = json.loads(_text(config_file))
    except ValueError as error:
        raise PayloadError(f"{config_file} is no JSON: {error}", "$.tokenizer") from None
    return as_dict(read) or {}


def _text(file: str) -> str:
    try:
        with open(file, encoding="utf-8") as opened:
            return opened.read()
    except (OSError, UnicodeDecodeError) as error:
        raise PayloadError(f"{file} cannot be read: {error}", "$.tokenizer") from None
