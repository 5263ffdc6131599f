"""Amazon Bedrock's block wire: what every AWS block body shares, served by Bedrock Converse
(``_providers/bedrock_converse/``) and Amazon Nova's InvokeModel body (``_providers/bedrock_nova/``).

``blocks``      the wire shapes: content blocks (unions by member name) and their media
                sources and formats, tool uses and results, reasoning, cache points,
                messages, the tool configuration, the error body, the stream's block
                events; and a body's adapters, built from its own shapes over these
``tool_ids``    the ``ToolUseId`` rule (a reversible rewrite, the id each writer sends, a
                hashed one reported) and made-up ids for empty ones
``structure``   strict mode's structure: a user turn first, ``toolUse`` paired with
                ``toolResult``, the Runtime's ``ValidationException`` texts
``runtime``     the Runtime's exception types by HTTP status, its error body and stream
                exception event (written and read), SigV4 signing
``batch``       Bedrock batch inference rows (``recordId``, ``modelInput`` / ``modelOutput``)
``blobs``       the base64 text botocore takes as a blob (media bytes, redacted reasoning)
``parts``       content blocks <-> canonical parts (each body's members: its ``Body``),
                tool results, ``guardContent`` text, ``json`` result items, cache points
``media``       ``image`` and ``video`` blocks and their ``bytes`` / ``s3Location`` sources
``documents``   ``document`` blocks (formats, sources, unique names): Converse's only
``audio``       ``audio`` blocks: Converse's only
``citations``   ``citationsContent`` blocks as text: Converse's only
``tool_use``    ``toolUse`` blocks <-> tool-use parts (a server tool's call kept whole)
``thinking``    ``reasoningContent`` <-> thinking parts, and when a signature replays
``context``     ``BedrockContext``: a body's encode state (its ``Body``, options, document names)
``body``        what a body tells the shared functions (its kit, names, the members it lacks,
                whether it serves Claude, has system turns, takes a cache ttl)
``turns``       ``messages`` and ``system`` <-> canonical messages, and an answer's message:
                tool-result runs, merged turns, blank text, the prefill trim (each body's
                system turns and cache ttl: its ``Body``)
``stream_decode`` a block stream's events -> the stream builder (each body's ``StreamFacts``;
                Nova's chunk framing in its folder)
``stream_encode`` canonical stream events -> a block stream's events (the same facts)
``tools``       ``toolConfig`` <-> canonical tools, provider tools and tool choice
``finish_reason`` ``stopReason`` words <-> canonical finish reasons (both bodies' one list)
``nova_models`` Amazon Nova's understanding models and their documented facts (media read,
                counts, sizes, extended thinking), told by model id
``nova_rules``  the model rules over those facts, in both bodies' tables (Nova's body, and
                Converse given a Nova model id)

What one of the two bodies alone has at the top level stays in its folder: Converse's
top-level fields, ``additionalModelRequestFields``, guardrails; Nova's ``inferenceConfig``
spellings and ``reasoningConfig``; Nova's stream framing (``chunk`` events). A block member
one body lacks is that body's ``Body.lacks``; what else a body does its own way is a field of
its ``Body`` or its ``StreamFacts``.
"""
