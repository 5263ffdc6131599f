"""The steps one request passes through the proxy, in one direction, each a module with one
job whose input is the previous step's record (:mod:`chatcodec.serve._app` only wires them):

1. :mod:`.authenticate`: the caller let in (before its body is read), its headers, and
   whose kept answers it may continue (:class:`~.authenticate.Admitted`);
2. :mod:`.read`: the body read within its size limit, parsed, and read as the front's call,
   given the server's own options where the front answers with its own resources
   (:class:`~.read.ReadCall`);
3. :mod:`.route`: the model mapped and checked, its upstream chosen, what the route cannot
   take refused, the upstream API version chosen (:class:`~.route.Routed`);
4. :mod:`.validate`: seals checked, the request read as canonical data (strictly under
   ``--validate``, against the routed upstream's turn order: so it follows the route), or
   left unread where no step needs it (:func:`~.validate.direct_route`)
   (:class:`~.validate.Validated`);
5. :mod:`.fit`: what the store keeps for it put back (the conversation it continues, the
   thinking its client dropped), written for the upstream (an unread one by the pair's
   direct path, as the library converts it), its losses settled, the call signed
   (:class:`~.fit.Fitted`);
6. :mod:`.send`: the upstream called; its error answer refused in the front's shape
   (:class:`~.send.Sent`);
7. :mod:`.answer` (a plain answer converted) or :mod:`.stream` (a stream relayed as it
   is converted), each handing what it answered to
8. :mod:`.keep`: the answer and its signed thinking kept (``--store``), a store failure
   reported beside the answer.

Beside them: :mod:`.record` (``--record``) begins a turn's record at :mod:`.fit` and writes it
when the answer ends, however it ends; and where chatcodec renders the prompt itself (a token
upstream: ``vllm-generate``, ``sglang-generate``), :mod:`.sample` takes the place of steps 5
to 7 (the request rendered to ids, sent, its completion parsed and answered).

The steps that parse, read, write or convert (read, validate, fit, answer) do it on a
worker thread when the request or the answer is above ``offload_bytes``: parsing and
converting a 5 MB body takes the event loop for a quarter of a second, during which every
other request waits.

A step never calls back into the one that called it, nor into the app: the log line, the
span (:mod:`chatcodec.serve._request_log`, :mod:`chatcodec.serve._telemetry`) and the
server's shared parts (:mod:`.shared`) are what every step may touch.
``tests/serve/test_pipeline.py`` traces a request and holds it to this order.
"""

from __future__ import annotations

PLAIN = ("authenticate", "read", "route", "validate", "fit", "send", "answer", "keep")
"""The steps of a plain request, in order."""
RENDERED = ("authenticate", "read", "route", "validate", "sample", "send")
"""The steps of a request to a token upstream, whose prompt chatcodec renders, in order (its
call is sent by :mod:`.send`'s admission and client, from :mod:`.sample`)."""
STREAMED = ("authenticate", "read", "route", "validate", "fit", "send", "stream", "keep")
"""The steps of a streamed request, in order."""
