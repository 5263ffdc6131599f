"""What an encode could not carry into the target format, and what to do about it.

A conversion is exact or it says what it dropped or changed: codecs record a
:class:`Loss` for each thing the target cannot hold, and the caller's ``on_loss`` policy
decides whether that warns (the default: one warning per conversion, listing them), raises,
or stays quiet. The list is always available to the caller, whatever the policy.

Every loss has a :data:`LossKind`, so a policy can treat them apart
(``on_loss={"content": "error", "*": "warn"}``: refuse a conversion that changes what the
model reads, warn about the rest). The kinds:

``content``   what the model reads or writes was dropped or changed: a part, a message,
              a tool call, thinking, a citation (the default kind)
``setting``   a request setting the target has no field for, or takes only in part
              (a sampling penalty, a reasoning summary, a service tier, a cache breakpoint)
``rule``      the target's API version or model family refuses what was asked, so the body
              was changed to what it accepts (:mod:`chatcodec._providers.contract.target_rules`)
``default``   a field the target requires was missing and its default was sent (Anthropic's
              ``max_tokens``)
``required``  a field the target requires is missing and was left out, as no value can be
              made up (``model``): the target will refuse the body
``metadata``  data kept for exact round trips that the model never sees: another
              provider's bag, an id, a usage detail, a provider's own finish reason
``spelling``  a spelling another server may read differently (OpenAI Chat's
              ``max_tokens`` against ``max_completion_tokens``)
``schema``    a tool's or output format's JSON Schema was rewritten to what the target
              takes (Gemini's OpenAPI spellings, Anthropic's structured-outputs subset,
              OpenAI's strict mode); the path points inside the schema

A value equal to the target's default is no loss at all (``n: 1``, ``logprobs: false``,
``presence_penalty: 0``): it is dropped without a report.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias, get_args

from chatcodec._errors import ChatcodecError, json_path
from chatcodec._public_label import shown_as

Steps: TypeAlias = tuple[int | str, ...]
"""A path into the canonical input as steps: ``("messages", 2, "content", 0)``. Codecs
pass steps, so the text ``$.messages[2].content[0]`` is built only for a real loss."""

LossKind = Literal["content", "setting", "rule", "default", "required", "metadata", "spelling", "schema"]
"""What a loss touches (see the module docstring)."""

LOSS_KINDS: tuple[LossKind, ...] = get_args(LossKind)
"""Every :data:`LossKind`, in the order the module docstring gives them."""

LossAction = Literal["warn", "error", "ignore"]
"""What to do with a loss: emit a :class:`LossWarning`, raise :class:`LossError`, or say
nothing (it is still collected)."""

OnLoss: TypeAlias = LossAction | Mapping[str, LossAction]
"""Policy for losses: one :data:`LossAction` for every loss, or one per
:data:`LossKind` with ``"*"`` for the kinds not named (``{"content": "error", "*":
"warn"}``; a kind neither named nor covered by ``"*"`` warns). Raising names every loss
whose kind says ``"error"``."""


@dataclass(frozen=True, slots=True, init=False)
class Loss:
    """One thing the target format could not carry."""

    path: str
    """JSON path in the input (``$.messages[3].content[1]``): in a conversion, the place in
    the payload converted (its own field names and numbering: Anthropic's top-level
    ``system``, each OpenAI ``tool`` message); in an encode, in the canonical request; a
    ``rule`` loss's path is in the encoded body, which the rule read."""
    what: str
    """What was dropped or changed (``thinking part``, ``cache_control``)."""
    why: str
    """Why the target cannot carry it."""
    kind: LossKind = "content"
    """What it touches: ``content`` unless the codec says otherwise (see :data:`LossKind`)."""

    def __init__(self, path: str, what: str, why: str, kind: LossKind = "content") -> None:
        # each field set through its slot: the frozen dataclass's own __init__ sets them
        # through object.__setattr__, which looks each name up first (a shown warning makes
        # one Loss per loss: docs/performance.md)
        _set_path(self, path)
        _set_what(self, what)
        _set_why(self, why)
        _set_kind(self, kind)

    def __str__(self) -> str:
        return f"{self.path}: {self.what} ({self.why})"


_set_path, _set_what, _set_why, _set_kind = (vars(Loss)[field].__set__ for field in ("path", "what", "why", "kind"))


_ACTIONS = get_args(LossAction)


def loss_action(on_loss: OnLoss, kind: LossKind) -> LossAction:
    """The action ``on_loss`` takes for a loss of ``kind``."""
    if isinstance(on_loss, str):
        return on_loss
    return on_loss.get(kind) or on_loss.get("*") or "warn"


def check_policy(on_loss: OnLoss) -> None:
    """Refuse a per-kind policy naming a kind or an action that does not exist, so a typo
    (``{"contnet": "error"}``) never quietly warns instead of raising."""
    if isinstance(on_loss, str):
        if on_loss not in _ACTIONS:  # "wanr" would otherwise say nothing of any loss
            raise ValueError(f"on_loss: unknown action {on_loss!r} (actions: {', '.join(_ACTIONS)})")
        return
    unknown = sorted(set(on_loss) - {*LOSS_KINDS, "*"})
    actions = sorted({str(action) for action in on_loss.values()} - set(_ACTIONS))
    if unknown or actions:
        known = ", ".join((*LOSS_KINDS, "*"))
        raise ValueError(f"on_loss: unknown kind(s) {unknown} or action(s) {actions} (kinds: {known})")


def _listed(losses: Sequence[Loss]) -> str:
    """The text a warning and an error give for ``losses``: how many, then each on its own line
    (each loss's own text, by :meth:`Loss.__str__` itself: ``str`` would look it up on each)."""
    listed = "\n  ".join(map(Loss.__str__, losses))
    return f"{len(losses)} thing(s) cannot be carried by the target format:\n{'  ' if losses else ''}{listed}"


class LossWarning(UserWarning):
    """Warning category for losses under ``on_loss="warn"``: one warning per conversion, its
    text counting and listing every loss warned about, so a conversion that drops twelve things
    costs one ``warnings.warn`` and prints one message rather than twelve."""

    def __init__(self, losses: Loss | Sequence[Loss]) -> None:
        listed = [losses] if isinstance(losses, Loss) else list(losses)
        if not listed:  # a warning about nothing would be a second way to say "no loss"
            raise ValueError("a LossWarning names at least one loss")
        UserWarning.__init__(self, _listed(listed))
        self.losses: list[Loss] = listed
        """Every loss warned about, in the order found."""
        self.loss: Loss = listed[0]
        """The first loss warned about (kept from when each loss was a warning of its own)."""


class LossError(ChatcodecError, ValueError):
    """An encode could not carry everything and the caller asked for ``on_loss="error"``."""

    def __init__(self, losses: Sequence[Loss]) -> None:
        super().__init__(_listed(losses))
        self.losses: list[Loss] = list(losses)
        """Every loss found, not only the first."""


def loss_warnings_ignored() -> bool:
    """Whether ``warnings.warn`` would drop a :class:`LossWarning` unseen, decided from the
    warning filters as the standard library decides, so a conversion under ``on_loss="warn"``
    whose warnings nobody will see renders no path and builds no text (``warnings.warn`` makes
    ``str(message)`` before it reads a filter).

    True only when the first filter covering the category says ``ignore`` and reads neither the
    message, the module nor the line (``simplefilter("ignore")``, ``-W ignore``), or when no
    filter covers it and the default action is ``ignore``. Any other filter, or Python 3.14's
    context-aware warnings (whose filters live in a context variable, not in
    ``warnings.filters``), leaves the decision to ``warnings.warn``: the warning is made and
    given to it, so ``catch_warnings``, ``-W error`` and ``simplefilter("always")`` act as
    they do on any warning."""
    if _CONTEXT_AWARE:
        return False
    filters: Sequence[_Filter] = warnings.filters
    default: object = getattr(warnings, "defaultaction", "default")  # not in the stubs
    decided = _DECIDED[0]
    if decided is not None and decided[0] is filters and decided[2] == default and decided[1] == filters:
        return decided[3]
    ignored = _ignored(filters, default)
    _DECIDED[0] = (filters, list(filters), default, ignored)
    return ignored


def _ignored(filters: Sequence[_Filter], default: object) -> bool:
    """:func:`loss_warnings_ignored` decided from ``filters`` and the ``default`` action."""
    for action, message, category, module, line in filters:
        if not issubclass(LossWarning, category):
            continue
        if message is not None or module is not None or line:
            return False  # whether it matches depends on the text or the caller: warn decides
        return bool(action == "ignore")
    return bool(default == "ignore")


_CONTEXT_AWARE: bool = getattr(sys.flags, "context_aware_warnings", False)
"""Python 3.14's context-aware warnings (fixed when the interpreter starts, as every flag):
read once, since an absent flag costs ``getattr`` an exception caught on every warning."""

_Filter: TypeAlias = tuple[str, Any, Any, Any, int]
"""One entry of ``warnings.filters``: action, message pattern, category, module pattern, line."""
_DECIDED: list[tuple[Sequence[_Filter], list[_Filter], object, bool] | None] = [None]
"""The last decision of :func:`loss_warnings_ignored`: the filter list it read (the object and
a copy of its entries, each an immutable tuple), the default action and the answer. The same
list holding the same entries under the same default gives the same answer, so a conversion
reads no filter again until one is added, removed or replaced (``catch_warnings`` swaps the
list, ``filterwarnings`` edits it in place: either is seen)."""


@dataclass(frozen=True, slots=True)
class Renumbering:
    """Where each message of a rewritten history came from, so a loss found while writing
    it names its place in the request (:func:`chatcodec._providers.history.turns.history_for`
    leaves out an empty system message, drops calls the target cannot send and moves a
    message after a call's results; a writer numbers the messages it is given)."""

    messages: tuple[int, ...]
    """The request's index of each message as sent."""
    parts: Mapping[int, tuple[int, ...]]
    """For a sent message (by its index as sent) some of whose parts were dropped: the
    request's position of each part kept."""

    def apply(self, path: Steps) -> Steps:
        """``path`` (``("messages", 2, "content", 0)``, numbered as sent) in the request's numbering."""
        if len(path) < 2 or path[0] != "messages" or path[1].__class__ is not int:
            return path
        sent = int(path[1])
        if not 0 <= sent < len(self.messages):
            return path
        rest = path[2:]
        kept = self.parts.get(sent)
        if kept is not None and len(rest) >= 2 and rest[0] == "content" and rest[1].__class__ is int:
            position = int(rest[1])
            if 0 <= position < len(kept):
                rest = ("content", kept[position], *rest[2:])
        return ("messages", self.messages[sent], *rest)


class LossRecorder:
    """Collects losses during one encode; codecs call :meth:`add`, the API calls :meth:`settle`.

    A loss is kept as its parts and becomes a :class:`Loss` (its path rendered) only when
    :attr:`losses` is read: a caller who ignores losses, or whose warning filters drop them,
    never pays for their text.
    """

    __slots__ = ("_pending", "_rendered", "_renumbering", "_source")

    def __init__(self) -> None:
        self._pending: list[tuple[str | Steps, str, str, LossKind, Callable[[Steps], Steps] | None]] = []
        self._rendered: list[Loss] = []
        self._renumbering: Renumbering | None = None
        self._source: Callable[[Steps], Steps] | None = None

    def trace(self, source: Callable[[Steps], Steps] | None) -> None:
        """Name the losses added from now on at their place in the payload converted:
        ``source`` takes a canonical path to the input's
        (:class:`chatcodec._providers.kit.origins.Origins`), called only when a loss is
        rendered. Set by a conversion before it writes; the writer ends it before the
        target's rules, whose paths are in the body they read."""
        self._source = source

    def renumber(self, renumbering: Renumbering | None) -> None:
        """Number the message steps of the losses added from now on as the request does
        (None: as they are given). Set while a rewritten history is written; cleared before
        the target's rules, whose paths number the body's own messages."""
        self._renumbering = renumbering

    def request_path(self, path: Steps) -> str:
        """``path`` as a loss would name it (renumbered as the request counts): for a loss's
        text that names another place."""
        if self._renumbering is not None:
            path = self._renumbering.apply(path)
        return json_path(path if self._source is None else self._source(path))

    @property
    def losses(self) -> list[Loss]:
        """Losses recorded so far, in the order found."""
        if self._pending:
            rendered = self._rendered.append
            steps: Steps | None = None  # the last loss's place and its text: a part's losses (its
            traced: Callable[[Steps], Steps] | None = None  # bag, then the part) name one place,
            text = ""  # rendered once
            for path, what, why, kind, source in self._pending:
                if isinstance(path, str):
                    rendered(Loss(path, what, why, kind))
                    continue
                if path != steps or source is not traced:
                    steps, traced = path, source
                    text = json_path(path if source is None else source(path))
                rendered(Loss(text, what, why, kind))
            self._pending.clear()
        return self._rendered

    def count(self) -> int:
        """How many losses were recorded so far (none rendered by asking)."""
        return len(self._pending) + len(self._rendered)

    def below(self, count: int, at: Steps) -> list[tuple[Steps, str, str, LossKind]] | None:
        """The losses recorded after the first ``count`` (:meth:`count`), each as the rest of
        its place below ``at`` and its text: what one writing of a part at ``at`` answered,
        for a direct path that proved a later part of its shape answers the same
        (:meth:`repeat`). None when one is not below ``at`` (or was renumbered, or rendered since)."""
        start = count - len(self._rendered)
        if start < 0 or self._renumbering is not None:
            return None
        found: list[tuple[Steps, str, str, LossKind]] = []
        size = len(at)
        for path, what, why, kind, _ in self._pending[start:]:
            if isinstance(path, str) or path[:size] != at:
                return None
            found.append((path[size:], what, why, kind))
        return found

    def take_back(self, count: int) -> None:
        """Forget the losses recorded after the first ``count`` (:meth:`count`), none rendered
        since: a direct path's trial writing of a part, which it then writes again as the
        canonical path does."""
        del self._pending[count - len(self._rendered) :]

    def repeat(self, found: Sequence[tuple[Steps, str, str, LossKind]], at: Steps) -> None:
        """Record ``found`` (:meth:`below`) again below ``at``: a later part of the shape they were proved on."""
        if self._renumbering is not None:  # each renumbered as :meth:`add` numbers it
            for rest, what, why, kind in found:
                self.add((*at, *rest), what, why, kind)
            return
        pending, source = self._pending.append, self._source  # as :meth:`add` keeps a loss, with no call each
        for rest, what, why, kind in found:  # (each ``rest`` a tuple, as :meth:`below` cuts it)
            pending((at + rest, what, why, kind, source))

    def add(self, path: str | Steps, what: str, why: str, kind: LossKind = "content") -> None:
        """Record that ``what`` at ``path`` (a JSON path, or its :data:`Steps`) cannot be
        carried, because ``why``; ``kind`` says what it touches (:data:`LossKind`)."""
        if self._renumbering is not None and not isinstance(path, str):
            path = self._renumbering.apply(path)
        self._pending.append((path, what, why, kind, self._source))

    def settle(self, on_loss: OnLoss, sink: list[Loss] | None = None, stacklevel: int = 3) -> None:
        """Apply the caller's policy; ``sink`` receives every loss whatever the policy.

        The losses to warn about make one :class:`LossWarning`, given to ``warnings.warn``
        unless the filters would drop it unseen (:func:`loss_warnings_ignored`); the losses to
        refuse make one :class:`LossError`, raised before any warning.

        ``stacklevel`` is counted from this method: the default points a warning at the
        code that called the public function that called :meth:`settle`.
        """
        if on_loss not in _ACTIONS:  # a policy by kind, or a name that is none of the actions
            check_policy(on_loss)
        if not (self._pending or self._rendered):
            return
        if on_loss == "warn" and loss_warnings_ignored():
            on_loss = "ignore"  # the warning would be dropped unseen: nothing to build for it
        if sink is None and on_loss == "ignore":
            return  # nobody reads the losses: no path rendered, no text built
        losses = self.losses
        if sink is not None:
            sink.extend(losses)
        if on_loss == "ignore":
            return
        if on_loss == "warn":  # one action for every loss (the default): no kind to look up
            warnings.warn(LossWarning(losses), stacklevel=stacklevel)
            return
        actions = [(loss, loss_action(on_loss, loss.kind)) for loss in losses]
        refused = [loss for loss, action in actions if action == "error"]
        if refused:
            raise LossError(refused)
        warned = [loss for loss, action in actions if action == "warn"]
        if warned:
            warnings.warn(LossWarning(warned), stacklevel=stacklevel)


shown_as("chatcodec", Loss, LossWarning, LossError)
shown_as("chatcodec.contract", LossRecorder)
