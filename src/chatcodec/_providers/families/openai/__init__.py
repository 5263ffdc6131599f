"""OpenAI's rules, shared by the Chat Completions and Responses folders (see :mod:`chatcodec._providers.families`)."""
