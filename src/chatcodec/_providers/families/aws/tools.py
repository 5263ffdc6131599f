"""``toolConfig`` <-> canonical tools, provider tools and tool choice, for both Bedrock
block bodies (Converse's ``toolConfig`` and Nova's are one shape: ``tools`` of ``toolSpec``
or ``systemTool``, ``toolChoice``; https://docs.aws.amazon.com/nova/latest/nova2-userguide/using-tools.html).

A ``toolSpec`` is a canonical :class:`~chatcodec.ToolDefinition` (``inputSchema.json`` is
its parameters); a ``cachePoint`` after one is that tool's ``cache_control``; a
``systemTool`` (Bedrock-run tools such as Nova's ``nova_code_interpreter``) or a member
added later is kept whole in ``provider_tools``, and the order of the two kinds is kept
as a ``_tool_order`` marker when they were interleaved.

``toolChoice``: ``auto`` -> ``auto``, ``any`` -> ``required``, ``tool`` -> ``tool`` with its
name. Neither body has a ``none`` choice or a parallel-calls switch: both are reported.
What one body lacks is its :class:`~chatcodec._providers.families.aws.body.Body`'s data:
Nova caches no tools and takes no ``strict`` flag (reported).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chatcodec._errors import rule_error
from chatcodec._narrow import as_dict, as_list
from chatcodec._providers.contract.context import DecodeContext, EncodeContext, Reading
from chatcodec._providers.families.aws.blocks import cache_marker, cache_point
from chatcodec._providers.families.aws.body import Body
from chatcodec._providers.families.aws.tool_ids import tool_name
from chatcodec._providers.families.claude.schema_subset import to_anthropic_subset
from chatcodec._providers.families.schema_writing import AS_SENT, anthropic_schema, json_schema, read_as_sent
from chatcodec.codec_kit import leftovers, restore_fields, unmapped_fields
from chatcodec.contract import Steps

_FUNCTION, _SERVER = "function", "server"
_CHOICES = {"auto": "auto", "any": "required", "tool": "tool"}
_WIRE_CHOICES = {canonical: wire for wire, canonical in _CHOICES.items()}


def _spec(tool: dict[str, Any]) -> dict[str, Any] | None:
    """The ``toolSpec`` of a tool canonical can hold: a name, and a JSON-object schema alone
    in ``inputSchema``; None for any other tool."""
    spec: Any = tool.get("toolSpec")
    if len(tool) != 1 or spec.__class__ is not dict or not spec["name"]:
        return None
    schema: Any = spec["inputSchema"]
    if schema.__class__ is not dict or len(schema) != 1 or not isinstance(schema.get("json"), dict):
        return None
    return spec


class ToolConfig:
    """One body's ``toolConfig`` reader and writer (its :class:`Body`: the kit its bags and
    kept tools carry, its names in losses, whether a tool takes a cache point or ``strict``)."""

    __slots__ = ("body",)

    def __init__(self, body: Body) -> None:
        self.body = body

    def decode_tools(
        self, request: dict[str, Any], canonical: dict[str, Any], bag: dict[str, Any], context: DecodeContext
    ) -> None:
        """Fill ``tools``, ``provider_tools`` and ``tool_choice`` from ``toolConfig``."""
        config = as_dict(request.get("toolConfig"))
        if config is None:
            return
        tools: list[dict[str, Any]] = []
        servers: list[dict[str, Any]] = []
        order: list[str] = []
        interleaved = False  # a function tool after a server tool
        for index, tool in enumerate(config["tools"]):
            spec = _spec(tool)
            if spec is not None:
                if not spec["name"].isascii():
                    self._check_text(spec["name"], ("toolConfig", "tools", index, "toolSpec", "name"))
                tools.append(self._decode_spec(spec, context.reading))
                interleaved = interleaved or bool(servers)
                order.append(_FUNCTION)
                continue
            marker = cache_marker(tool)
            last = (tools if order[-1] == _FUNCTION else servers) if order else None
            if marker is not None and last and "cache_control" not in last[-1]:
                last[-1]["cache_control"] = marker
            else:
                servers.append({"type": "opaque", "provider": self.body.kit.name, "data": dict(tool)})
                order.append(_SERVER)
        if tools:
            canonical["tools"] = tools
        if servers:
            canonical["provider_tools"] = servers
        if interleaved:
            bag["_tool_order"] = order
        if len(config) > 1 + ("toolChoice" in config):
            bag["toolConfig"] = unmapped_fields(config, ("tools", "toolChoice"))
        if not config["tools"]:
            bag["_tool_config"] = True  # sent with no tools (botocore refuses that; kept as read)
        _decode_choice(config.get("toolChoice"), canonical, bag)

    def _check_text(self, text: str, at: Steps) -> None:
        """Refuse text holding a lone surrogate (valid JSON, not Unicode) where canonical wants
        text it can write (a tool name: ``ToolDefinition.name``), at its wire path."""
        try:
            text.encode()
        except UnicodeEncodeError:
            message = "Input should be a valid string, unable to parse raw data as a unicode string"
            raise rule_error(f"{self.body.name} request", at, "string_unicode", message, text) from None

    def _decode_spec(self, spec: dict[str, Any], reading: Reading | None) -> dict[str, Any]:
        definition: dict[str, Any] = {
            "type": "function",
            "name": spec["name"],
            "parameters": spec["inputSchema"]["json"],
        }
        for key in ("description", "strict"):
            if key in spec:
                definition[key] = spec[key]
        rewrite = to_anthropic_subset if spec.get("strict") is True else None
        as_sent = read_as_sent(definition["parameters"], rewrite, reading=reading)
        if len(spec) == len(definition) - 1 and not as_sent:  # its name, schema, description and strict flag alone
            return definition
        bag = leftovers(spec, ("name", "inputSchema", "description", "strict"))
        if as_sent:  # sent back unchanged (families/schema_writing.py)
            bag[AS_SENT] = True
        return self.body.kit.attach(definition, bag)

    def encode_tools(
        self, request: Mapping[str, Any], wire: dict[str, Any], bag: dict[str, Any], context: EncodeContext
    ) -> None:
        """Write ``toolConfig`` (``request``: canonical request data)."""
        definitions: list[Mapping[str, Any]] = request.get("tools") or []
        if not definitions and not _tool_fields(request, bag):
            return  # no tools, no choice, nothing kept: no toolConfig
        functions = [self._encode_tool(tool, index, context) for index, tool in enumerate(definitions)]
        servers = self._servers(request, context)
        tools = [block for group in _ordered(functions, servers, as_list(bag.get("_tool_order"))) for block in group]
        # toolConfig's unmapped members are a wire value (``unmapped``): a key like ``_x`` is
        # the caller's, not a marker, so they are written as they are.
        config: dict[str, Any] = dict(as_dict(bag.get("toolConfig")) or {})
        kept_choice = as_dict(config.pop("toolChoice", None))
        choice = self._encode_choice(request.get("tool_choice"), kept_choice, context)
        if choice is not None and not tools and not bag.get("_tool_config"):
            context.losses.add(
                ("tool_choice",), "tool_choice without tools", "Bedrock needs at least one tool for it", "setting"
            )
            choice = None
        if tools or config or bag.get("_tool_config"):
            config["tools"] = tools
            if choice is not None:
                config["toolChoice"] = choice
            wire["toolConfig"] = config
        if request.get("parallel_tool_calls") is not None:
            context.losses.add(
                ("parallel_tool_calls",), "parallel_tool_calls", f"{self.body.name} has no such switch", "setting"
            )

    def _servers(self, request: Mapping[str, Any], context: EncodeContext) -> list[list[dict[str, Any]]]:
        """The body's own kept tools (``systemTool``s), each with its cache point."""
        body, servers = self.body, list[list[dict[str, Any]]]()
        for index, tool in enumerate(request.get("provider_tools") or ()):
            at = ("provider_tools", index)
            if tool["provider"] != body.kit.name:
                why = f"only {body.short}'s own tools can be sent to {body.short}"
                context.losses.add(at, f"{tool['provider']} tool", why)
                continue
            body.kit.claim(context.losses, tool.get("provider_metadata"), at)
            servers.append([dict(tool["data"]), *self._cache_point(tool.get("cache_control"), context, at)])
        return servers

    def _cache_point(self, marker: Mapping[str, Any] | None, context: EncodeContext, at: Steps) -> list[dict[str, Any]]:
        """The ``cachePoint`` after a tool for its marker (none when the body caches no tools: reported)."""
        if marker is None:
            return []
        if not self.body.tool_cache_points:
            why = f"{self.body.name} caches no tools: sent without its cache point"
            context.losses.add((*at, "cache_control"), "tool cache_control", why, "setting")
            return []
        return [cache_point(marker)]

    def _encode_tool(self, tool: Mapping[str, Any], index: int, context: EncodeContext) -> list[dict[str, Any]]:
        at = ("tools", index)
        kit = self.body.kit
        metadata = tool.get("provider_metadata")
        bag = kit.claim(context.losses, metadata, at) if metadata else {}
        spec: dict[str, Any] = restore_fields(bag)
        spec["name"] = tool_name(tool["name"], context, at, kit.name)
        description = tool.get("description")
        if description is not None:
            if description:
                spec["description"] = description
            else:
                context.losses.add((*at, "description"), "empty tool description", "Bedrock rejects an empty one")
        parameters = tool.get("parameters")
        strict = tool.get("strict")
        if strict is not None and not self.body.strict_tools:
            context.losses.add((*at, "strict"), "tool strict", f"{self.body.name} has no strict tools", "setting")
            strict = None
        if parameters is None:
            parameters = dict(_NO_PARAMETERS)
        else:  # a strict tool's schema in the structured-outputs subset; JSON Schema in any case
            rewrite = anthropic_schema if strict is True else json_schema
            at_schema, as_sent = (*at, "parameters"), bag.get(AS_SENT)
            parameters = rewrite(parameters, context.losses, at_schema, as_sent=as_sent, reading=context.reading)
        spec["inputSchema"] = {"json": parameters}
        if strict is not None:
            spec["strict"] = strict
        return [{"toolSpec": spec}, *self._cache_point(tool.get("cache_control"), context, at)]

    def _encode_choice(
        self, choice: Mapping[str, Any] | None, kept: dict[str, Any] | None, context: EncodeContext
    ) -> dict[str, Any] | None:
        if choice is None:
            return None if kept is None else dict(kept)
        kind = choice.get("type", "auto")
        if kind == "none":
            why = f"{self.body.name} has no such choice; sent none"
            context.losses.add(("tool_choice",), "tool_choice 'none'", why, "setting")
            return None
        if kind == "tool":
            return {
                "tool": {"name": tool_name(choice.get("name") or "", context, ("tool_choice",), self.body.kit.name)}
            }
        return {_WIRE_CHOICES[kind]: {}}


def _decode_choice(choice: Any, canonical: dict[str, Any], bag: dict[str, Any]) -> None:
    fields = as_dict(choice)
    if fields is None:
        return
    kind = next(iter(fields)) if len(fields) == 1 else None
    value = as_dict(fields.get(kind)) if kind in _CHOICES else None
    expected: set[str] = {"name"} if kind == "tool" else set()  # not set[str](): an alias call raises inside
    if kind is None or value is None or set(value) != expected or not all(isinstance(v, str) for v in value.values()):
        # A choice canonical has no word for is kept whole, inside toolConfig where it was
        # (it was written at the request's top level too).
        bag["toolConfig"] = {**(as_dict(bag.get("toolConfig")) or {}), "toolChoice": fields}
        return
    canonical["tool_choice"] = {"type": _CHOICES[kind], **value}


def _tool_fields(request: Mapping[str, Any], bag: Mapping[str, Any]) -> bool:
    """Whether the request has tool settings besides its definitions, or its bag toolConfig's."""
    if request.get("provider_tools") or request.get("tool_choice") is not None:
        return True
    return request.get("parallel_tool_calls") is not None or "toolConfig" in bag or "_tool_config" in bag


_NO_PARAMETERS: dict[str, Any] = {"type": "object", "properties": {}}
"""A definition's parameters when its data leaves them out (``ToolDefinition``'s default)."""


def _ordered(
    functions: list[list[dict[str, Any]]], servers: list[list[dict[str, Any]]], order: list[Any] | None
) -> list[list[dict[str, Any]]]:
    if order is None or order.count(_FUNCTION) != len(functions) or order.count(_SERVER) != len(servers):
        return functions + servers
    pending = {_FUNCTION: iter(functions), _SERVER: iter(servers)}
    return [next(pending[kind]) for kind in order]
