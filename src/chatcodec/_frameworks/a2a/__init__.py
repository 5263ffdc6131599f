"""The ``a2a`` format: the Agent2Agent protocol's messages (A2A v1.0, ``lf.a2a.v1``), and a
task's history and artifacts, read and written as a conversation.

A ``Message`` is a user's (``ROLE_USER``) or an agent's (``ROLE_AGENT``) turn; its ``parts``
are v1.0's one flattened ``Part``: ``text``, a file given as ``raw`` bytes (base64 in JSON) or
by ``url`` with its ``mediaType`` and ``filename``, or ``data``, any JSON value
(:mod:`.parts` says where each goes). A ``Task`` holds the messages of its ``history``, the
message of its ``status`` and its ``artifacts``, the agent's outputs (:mod:`.task`). A stream
(``SendStreamingMessage``, ``SubscribeToTask``) is read as the agent's answer
(:mod:`.stream_decode`) and written as a task's lifecycle (:mod:`.stream_encode`).
Sources: https://github.com/a2aproject/A2A/blob/main/specification/a2a.proto (the one
normative definition; its JSON is the ProtoJSON of these messages) and
https://a2a-protocol.org/latest/specification/
"""
