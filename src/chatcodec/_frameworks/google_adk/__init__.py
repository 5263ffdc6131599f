"""The ``google-adk`` format: the events a Google Agent Development Kit session stores
(``google.adk.events.Event``, google-adk 2.13.0), read and written as a conversation.

An event's ``content`` is a google-genai ``Content``: Gemini's own turn, read and written by
the ``gemini`` codec (:mod:`.content`), so thought signatures stay where Gemini's writer sends
them back. What else an event holds (its author, ids, timestamp, actions and state deltas,
usage) rides in the first message it gave (:mod:`.events`).
Source: https://github.com/google/adk-python/blob/main/src/google/adk/events/event.py
"""
