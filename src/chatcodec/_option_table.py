"""What an encoder's options are called, and the one place a name given for one is checked.

Each codec declares its options as an :class:`OptionTable` (a provider's
``markers.OPTIONS``): one public name per option, the name a caller passes in ``options=``
(``max_tokens``, ``reasoning_field``). A name the table does not hold is refused with an
:class:`~chatcodec._errors.OptionError` listing the table and the nearest name: a misspelt
``max_token`` used to be sent to Anthropic as a wire field, silently. Wire fields to send
go in ``extra_fields=`` instead (:func:`escaped_fields`).

Options were first spelled as ``_``-prefixed keys of a request's
``provider_options[provider]`` bag (``_reasoning_field``); :func:`legacy_option` is the one
place that spelling is still read, by argument or from a stored bag, with a
:class:`DeprecationWarning` naming :data:`LEGACY_REMOVAL`. A marker a reader stores so its
own writer restores the source exactly (Anthropic's ``_api_version``, OpenAI Chat's
``_max_tokens_key``, Gemini's ``_tools_layout``) is not an option spelling: the role that
wrote it reads it back.

This module is core (the registry's ``Codec`` protocol names :class:`OptionTable`) and
imports no provider.
"""

from __future__ import annotations

import warnings
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from chatcodec._errors import OptionError
from chatcodec._public_label import shown_as

LEGACY_REMOVAL = "0.3.0"
"""The release that stops reading an option spelled with a leading ``_``."""


@dataclass(frozen=True, slots=True)
class OptionTable:
    """One encoder's options, by their one name."""

    names: frozenset[str]
    """Every option the encoder takes, by the name ``options=`` gives it."""
    stored: frozenset[str] = frozenset()
    """The options a stored request may also set in its ``provider_options[provider]`` bag,
    under the same name (Anthropic's ``max_tokens``, Gemini's ``missing_signature``): the
    writer reads them as options and never sends them as fields."""
    legacy: frozenset[str] = frozenset()
    """The options a stored bag may still spell with a leading ``_`` (``_reasoning_field``),
    read by :func:`legacy_option` until :data:`LEGACY_REMOVAL`."""
    legacy_keys: frozenset[str] = field(init=False)
    """:attr:`legacy` as bag keys, to tell in one set operation whether a bag holds any."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "legacy_keys", frozenset("_" + name for name in self.legacy))

    def __contains__(self, name: object) -> bool:
        return name in self.names

    @classmethod
    def of(cls, *names: str, stored: Collection[str] = (), legacy: Collection[str] = ()) -> OptionTable:
        """A table of ``names``; ``stored`` and ``legacy`` must be among them."""
        table = cls(frozenset(names), frozenset(stored), frozenset(legacy))
        stray = (table.stored | table.legacy) - table.names
        if stray:
            raise ValueError(f"not options of the table: {sorted(stray)}")
        return table


NO_OPTIONS = OptionTable(frozenset())
"""The table of a codec that takes no option (``canonical``)."""


EXTRA_FIELDS = "extra_fields="
"""Where a library caller puts a wire field to send (the conversion functions' argument)."""


def named_options(
    provider: str, table: OptionTable, options: Mapping[str, Any] | None, *, wire_fields: str = EXTRA_FIELDS
) -> dict[str, Any]:
    """``options`` by public name, each checked against ``provider``'s ``table``: an unknown
    name raises :class:`~chatcodec._errors.OptionError` (saying a wire field goes in
    ``wire_fields``: the caller's place for one); a legacy ``_name`` is read as ``name`` with
    a :class:`DeprecationWarning`."""
    if not options:
        return {}
    names = table.names
    if options.keys() <= names:
        return dict(options)
    named: dict[str, Any] = {}
    for name, value in options.items():
        public = name if name in names else legacy_option(provider, table, name, "options=")
        if public is None:
            raise unknown_option(provider, table, name, wire_fields=wire_fields)
        named[public] = value
    return named


def legacy_option(provider: str, table: OptionTable, key: str, where: str) -> str | None:
    """The public name of ``key`` when it is an option's old ``_``-spelling, warning that
    it goes in :data:`LEGACY_REMOVAL`; ``None`` otherwise. The one place the old spelling
    is read (``where``: an argument, or the bag it was found in)."""
    if key[:1] != "_" or key[1:] not in table.names:
        return None
    warnings.warn(
        f"{provider} option {key!r} in {where}: the leading '_' spelling is deprecated and will not be "
        f"read from chatcodec {LEGACY_REMOVAL}; pass options={{{key[1:]!r}: ...}}",
        DeprecationWarning,
        stacklevel=4,
    )
    return key[1:]


def stored_options(
    provider: str, table: OptionTable, bag: Mapping[str, Any], field: str = "provider_options"
) -> dict[str, Any]:
    """The options a stored ``field[provider]`` bag sets (a request's ``provider_options``,
    a response's or start event's ``provider_metadata``): :attr:`~OptionTable.stored` names,
    and :attr:`~OptionTable.legacy` ones still spelled with ``_`` (warned)."""
    found = {name: bag[name] for name in table.stored if name in bag}
    if not table.legacy_keys.isdisjoint(bag):
        where = f'{field}["{provider}"]'
        for key in sorted(table.legacy_keys.intersection(bag)):
            public = legacy_option(provider, table, key, where)
            if public is not None:
                found.setdefault(public, bag[key])
    return found


def unknown_option(provider: str, table: OptionTable, name: str, *, wire_fields: str = EXTRA_FIELDS) -> OptionError:
    """The error for an option ``name`` that ``provider`` does not take: its options, the
    nearest one, and where wire fields go instead (``wire_fields``: the library's argument,
    or the gateway's request body)."""
    import difflib  # the rare path only

    valid = sorted(table.names)
    nearest = difflib.get_close_matches(name, valid, n=1)
    hint = f" (did you mean {nearest[0]!r}?)" if nearest else ""
    takes = f"its options are {', '.join(valid)}" if valid else "it takes no option"
    message = (
        f"{provider} takes no option {name!r}{hint}; {takes}. A wire field to send goes in {wire_fields} "
        "[rule: known_option]"
    )
    return OptionError(message, name=name, valid=valid)


def escaped_fields(fields: Mapping[str, Any]) -> dict[str, Any]:
    """``extra_fields`` as bag keys: a wire key that starts with ``_`` gets one more, so it
    is sent and never read as a marker (``_providers/kit/bags.py``'s spelling)."""
    return {("_" + key if key[:1] == "_" else key): value for key, value in fields.items()}


shown_as("chatcodec.contract", OptionTable)
