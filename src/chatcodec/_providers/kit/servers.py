"""What every format's table of compatible servers shares: choosing one, and saying what
changed for it.

Much traffic in a format does not go to the format's owner: OpenAI Chat bodies go to
DeepSeek, Groq or vLLM, Anthropic Messages bodies to DeepSeek, Kimi, Z.ai or MiniMax (the
endpoints people put behind Claude Code). Each format keeps its servers as records of its
own (``openai_chat/servers/``, ``anthropic/servers/``), since what a server takes is said
in that format's words; what they share lives here:

- :class:`ServerTable`: the servers by option name, the one a base URL points at (its
  host, or host and path), and the one ``options={"server": ...}`` names;
- :class:`ServerCall`: a body being fitted to one server, and :meth:`ServerCall.report`,
  which makes each change a loss of kind ``rule`` naming the server and the rule;
- :class:`Refusal`: one field a server refuses or ignores, with its source;
  :class:`ServerRule`: what field lists cannot say (reasoning a server needs back).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar
from urllib.parse import urlsplit

from chatcodec._errors import PayloadError

if TYPE_CHECKING:
    from chatcodec._losses import LossRecorder, Steps

__all__ = ["OPTION", "OPTION_HINT", "NamedServer", "Refusal", "ServerCall", "ServerRule", "ServerTable"]

OPTION = "server"
"""The writer option naming the server a body is written for (``options={"server": "deepseek"}``)."""
OPTION_HINT = "choose the server with options={'server': ...}"


class NamedServer(Protocol):
    """What a table needs of a server record."""

    @property
    def name(self) -> str:
        """The option value that names it."""
        ...

    @property
    def title(self) -> str:
        """How the docs and losses name it."""
        ...

    @property
    def hosts(self) -> tuple[str, ...]:
        """URL hosts that name it: ``api.deepseek.com``, ``.openai.azure.com`` (a suffix),
        ``host:port``, ``host/path`` (a base URL under that path: ``api.deepseek.com/anthropic``),
        or a host with ``*`` for one label (``bedrock-mantle.*.api.aws``: any region)."""
        ...


ServerT = TypeVar("ServerT", bound=NamedServer)


@dataclass(frozen=True, slots=True)
class Refusal:
    """A field the server refuses or silently ignores, with its source."""

    field: str
    """The field (``top_k``), or a nested one in the format's own path words
    (``messages[].name``, ``tools[].cache_control``)."""
    source: str
    """Where the server says so."""
    instead: str | None = None
    """Where the server keeps the same value (Mistral's ``random_seed`` for ``seed``): the
    value is moved there, not dropped."""


@dataclass(slots=True)
class ServerCall(Generic[ServerT]):
    """What a server's fitting gets: the body written for the server, and where to say what changed."""

    server: ServerT
    body: dict[str, Any]
    """The request body, edited in place."""
    model: str | None
    """The model id the body is for, when known."""
    options: Mapping[str, object]
    """The encode options, by public name."""
    losses: LossRecorder
    rule: str = "fields"
    """The name of the rule reporting."""

    def report(self, at: Steps, what: str, change: str) -> None:
        """One change made for the server, as a ``rule`` loss naming the server, the rule
        and how to change it."""
        why = f"{change}: server {self.server.name} ({self.server.title}), rule {self.rule}; {OPTION_HINT}"
        self.losses.add(at, what, why, "rule")

    def apply(self, rules: Iterable[ServerRule[ServerT]]) -> None:
        """Run the server's own rules in order (after its field lists), each reporting
        under its name."""
        for rule in rules:
            self.rule = rule.name
            rule.edit(self)


@dataclass(frozen=True)  # no slots: a frozen slotted generic cannot be built through its alias
class ServerRule(Generic[ServerT]):
    """One thing a server refuses or needs back that its field lists cannot say."""

    name: str
    """Its name in losses (``reasoning_in_tool_loop``)."""
    summary: str
    """What the server does and what is sent (one line, for the docs)."""
    source: str
    """Where the server documents it (or the issue that shows it)."""
    edit: Callable[[ServerCall[ServerT]], None]
    """Changes the body to what the server takes, reporting each change."""


class ServerTable(Generic[ServerT]):
    """A format's compatible servers by option name, in the docs' order."""

    def __init__(self, servers: Iterable[ServerT]) -> None:
        self.servers: Mapping[str, ServerT] = {server.name: server for server in servers}

    def named(self, name: str) -> ServerT:
        """The server called ``name``; an unknown name is refused with the known ones."""
        server = self.servers.get(name)
        if server is None:
            raise PayloadError(f"the option server must be one of {', '.join(self.servers)}, not {name!r}")
        return server

    def for_url(self, url: str) -> ServerT | None:
        """The server a base URL points at (its host, host and port, or host and path), or None."""
        parts = urlsplit(url)
        host = (parts.hostname or "").lower()
        with_port = f"{host}:{parts.port}" if parts.port is not None else host
        path = parts.path.rstrip("/")
        for server in self.servers.values():
            for known in server.hosts:
                if _names(known, host, with_port, path):
                    return server
        return None

    def chosen(self, options: Mapping[str, object]) -> ServerT | None:
        """The server ``options`` names (a record of this table, or its name), or None."""
        name = options.get(OPTION)
        if name is None:
            return None
        if not isinstance(name, str):
            found = next((server for server in self.servers.values() if server is name), None)
            if found is not None:
                return found
        return self.named(str(name))


def _names(known: str, host: str, with_port: str, path: str) -> bool:
    known_host, slash, known_path = known.partition("/")
    if slash and not (path == f"/{known_path}" or path.startswith(f"/{known_path}/")):
        return False
    if "*" in known_host:  # one label of any name: fnmatch's * would take dots too
        return fnmatchcase(host, known_host) and host.count(".") == known_host.count(".")
    return (known_host.startswith(".") and host.endswith(known_host)) or known_host in (host, with_port)
