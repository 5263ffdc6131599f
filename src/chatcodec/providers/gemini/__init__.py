"""The Google Gemini codec (registry name ``"gemini"``): the REST JSON of
``generateContent`` / ``streamGenerateContent`` (Gemini API and Vertex AI).

Load it through the registry (``chatcodec.get_codec("gemini")``) or the top-level
functions.
"""
