"""The Google Gemini codec (registry name ``"gemini"``): the REST JSON of
``generateContent`` / ``streamGenerateContent`` (Gemini API and Vertex AI).

API documentation:

- Reference: https://ai.google.dev/api/generate-content
- Streaming (``streamGenerateContent``, ``alt=sse``):
  https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent
- Vertex AI: https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/projects.locations.endpoints/generateContent
- Changelog: https://ai.google.dev/gemini-api/docs/changelog ; Gemini 3 and thought
  signatures: https://ai.google.dev/gemini-api/docs/gemini-3 ,
  https://ai.google.dev/gemini-api/docs/thought-signatures
- SDK types (the tests' oracle): https://github.com/googleapis/python-genai/blob/main/google/genai/types.py

Load it through the registry (``chatcodec.get_codec("gemini")``) or the top-level
functions.
"""
