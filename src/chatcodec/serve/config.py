"""The settings of one ``chatcodec serve`` process (no third-party import, so the
command line can build them before the server's dependencies are checked)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from chatcodec.errors import ProviderLookupError
from chatcodec.registry import get_edge, registered_providers


def fronts() -> tuple[str, ...]:
    """The APIs the server can offer its callers: the registered providers whose edge has a front."""
    return tuple(name for name in registered_providers() if _side(name, "front"))


def upstreams() -> tuple[str, ...]:
    """The APIs the server can call: the registered providers whose edge has an upstream side."""
    return tuple(name for name in registered_providers() if _side(name, "upstream"))


def _side(name: str, side: str) -> bool:
    try:
        edge = get_edge(name)
    except ProviderLookupError:  # a codec without an edge: nothing to serve or call
        return False
    return getattr(edge, side) is not None


@dataclass(frozen=True)
class ServeConfig:
    """What ``chatcodec serve`` was asked to do."""

    api: str
    """The API offered to callers (one of :func:`fronts`)."""
    upstream: str
    """The API called (one of :func:`upstreams`)."""
    upstream_url: str
    """The upstream's base URL, as its official SDK takes ``base_url``: OpenAI's includes
    ``/v1`` (``https://api.openai.com/v1``), Anthropic's and Gemini's do not
    (``https://api.anthropic.com``, ``https://generativelanguage.googleapis.com``),
    Bedrock's is the runtime endpoint (``https://bedrock-runtime.us-east-1.amazonaws.com``)."""
    model_map: Mapping[str, str] = field(default_factory=dict[str, str])
    """Caller model name -> upstream model name; a name not listed passes unchanged."""
    api_key_env: str | None = None
    """The environment variable holding the upstream key when the caller sends none
    (default: the upstream SDK's own, such as ``ANTHROPIC_API_KEY``)."""
    strict: bool = False
    """Refuse requests that need a dialect or repair to read (``decode_request(strict=True)``,
    once the core has it)."""
    timeout: float = 600.0
    """Seconds to wait for the upstream between two reads."""
    options: Mapping[str, object] = field(default_factory=dict[str, object])
    """The upstream writer's options by name (``--option server=deepseek``); they win
    over what the upstream URL implies (:meth:`writer_options`)."""

    def writer_options(self) -> dict[str, object]:
        """The options the upstream's writer gets: what ``upstream_url`` implies (the
        OpenAI-compatible server it points at), then :attr:`options`."""
        upstream = get_edge(self.upstream).upstream
        implied = upstream.options(self.upstream_url) if upstream is not None and upstream.options else {}
        return {**implied, **self.options}

    def __post_init__(self) -> None:
        offered, called = fronts(), upstreams()
        if self.api not in offered:
            raise ValueError(f"--api must be one of {', '.join(offered)}, not {self.api!r}")
        if self.upstream not in called:
            raise ValueError(f"--upstream must be one of {', '.join(called)}, not {self.upstream!r}")
        if not self.upstream_url.startswith(("http://", "https://")):
            raise ValueError(f"--upstream-url must be an http(s) URL, not {self.upstream_url!r}")


def parse_model_map(pairs: list[str]) -> dict[str, str]:
    """``["gpt-4o=claude-sonnet-4-6", ...]`` as a dict; a pair without ``=`` is refused."""
    mapping: dict[str, str] = {}
    for pair in pairs:
        source, equals, target = pair.partition("=")
        if not equals or not source or not target:
            raise ValueError(f"--model-map takes FROM=TO, not {pair!r}")
        mapping[source] = target
    return mapping
