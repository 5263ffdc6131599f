"""Raw completions back to canonical messages: ``chatcodec.parse_completion``.

``parse`` is the public function; ``parsers`` the tool-call parsers under vLLM's names, each
format in ``formats/`` with its source; ``reasoning`` the reasoning parsers; ``families`` the
link from a template family to its parsers; ``message`` pieces to parts, with the losses.
"""
