"""The tool-call formats, one module per family, each named for vLLM's parser."""
