"""The ``ag-ui`` format: the messages of the Agent-User Interaction protocol (AG-UI 1.0's
``Message`` union: developer, system, user, assistant, tool, activity and reasoning messages),
what ``RunAgentInput.messages`` and ``MESSAGES_SNAPSHOT`` carry and CopilotKit, pydantic-ai,
LangGraph, Mastra and the ADK speak to a UI, read and written as a conversation; a run's event
stream read as the answer it carries (:mod:`.stream_decode`) and written from any stream
(:mod:`.stream_encode`).
Source: https://github.com/ag-ui-protocol/ag-ui (``ag_ui.core``, ``ag-ui-protocol`` 1.0.0 on PyPI).
"""
