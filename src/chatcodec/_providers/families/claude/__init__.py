"""Claude's rules, shared by the Anthropic and Bedrock Converse folders (see :mod:`chatcodec._providers.families`)."""
