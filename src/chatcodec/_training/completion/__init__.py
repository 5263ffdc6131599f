"""Raw completions back to canonical messages: ``chatcodec.parse_completion``.

``parse`` is the public function and its steps: ``tokens`` (ids to text), ``end_of_turn`` (the
token that stopped sampling), ``reasoning`` (the reasoning parsers), ``parsers`` (the tool-call
parsers under vLLM's names, each format in ``formats/`` with its source), ``message`` (pieces to
parts, with the losses). ``family_parsers`` and ``template_link`` tie a template (as
``chatcodec.render`` takes it) to its parsers and its generation prompt.
"""
