"""A request's history as a target format can hold it: the turn-level rules several
writers share, each format choosing them by its capabilities (``turns``).

The one module here is the history concern on its own: tool calls kept whole from another
format, freeform calls, turn order. The rules that look like history but are one
vendor's (Claude's prefill whitespace) are in :mod:`chatcodec._providers.families.claude`;
what a response or stream written for a format without freeform calls drops is output,
not history, and is in the kit (``freeform_calls``, ``freeform_streams``).
"""
