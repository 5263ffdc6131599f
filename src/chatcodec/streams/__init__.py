"""Streams: the builder every provider's stream decoder drives, the wire framings (SSE,
AWS event stream), reading a stream in any form, accumulating and replaying canonical
events, and converting a stream between providers. The events themselves are canonical
vocabulary (:mod:`chatcodec._model.stream_events`)."""
