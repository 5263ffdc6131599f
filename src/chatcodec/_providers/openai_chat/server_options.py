"""The internal options :func:`~chatcodec._providers.openai_chat.servers.prepare` sets for the
server a body is written for, read by the writer's reasoning and settings rules: their names
here, apart from the servers' records, which a reader (and a direct path) never asks for."""

IN_CONTENT = "_reasoning_in_content"
"""Internal option: the named server reads reasoning back as ``thinking`` content parts
(Mistral), so each thinking part is written in its place among the texts."""
AS_OBJECT = "_reasoning_as_object"
"""Internal option: the named server takes OpenRouter's ``reasoning`` object
(:attr:`~.servers.server.Server.reasoning_object`), so reasoning an effort word cannot say (a
thinking budget: :func:`~chatcodec._providers.openai_chat.reasoning_object.said_only_here`) is
written there as it is, with no loss."""
