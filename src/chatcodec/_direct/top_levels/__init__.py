"""The top level of the usual agent request, read and written directly for a pair with a direct
path: one module per pair, named for it (as the pair's own module in :mod:`chatcodec._direct`
writes its messages), and :mod:`.openai_chat_usual`, the proof of the usual OpenAI Chat request
the pairs from OpenAI Chat share. Each calls its pair's two folders' own functions, field by
field; any other body goes the pair's general top level."""
