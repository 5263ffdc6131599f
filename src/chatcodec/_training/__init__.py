"""The training boundary: conversations to the tokens a model trains on, and raw completions back.

A room of its own, beside the provider folders and the dataset dialects, because its targets are
neither: a chat template (the Jinja text a tokenizer carries), a tokenizer, a completion parser.
It reaches the codecs only as an outside package would, through the public API and canonical
data (``convert_request``/``decode_request`` to canonical messages, then its own shaping), so a
provider folder never learns that templates exist.

What lives here:

- ``profiles``: per-template facts as data with their source (content as text or parts, the
  reasoning key, arguments as an object or JSON text, what the template refuses), read from a
  template's text and checked against it;
- ``templates/``: the chat templates chatcodec knows by family name, each with its source and
  licence;
- the renderer (``chatcodec.render``): canonical messages shaped for a profile, rendered by the
  template itself, tokenized, masked;
- episodes (``chatcodec.render_turns``, ``chatcodec.trainer_samples``): one record per answer of
  what the sampler saw and wrote, made by the renderer, and the records merged into trainer
  samples where prompts extend each other;
- the completion parsers (``chatcodec.parse_completion``): a model's raw text back to a canonical
  assistant message, under vLLM's parser names.
"""
