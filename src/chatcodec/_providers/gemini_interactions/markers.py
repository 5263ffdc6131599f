"""This provider's name, its kit, its encoder options, and the spelling markers it keeps.

Markers are keys starting with exactly one ``_`` in a bag, never written to the wire.

Pure spelling (the API reads either spelling with the same meaning; another provider drops
them without a report):

* ``_input`` (requests): how ``input`` was spelled when it was not a list of steps:
  ``"string"`` (one user turn of text), ``"content"`` (one ``Content`` object) or
  ``"contents"`` (a list of them); the API reads each as one ``user_input`` step
  (https://ai.google.dev/gemini-api/docs/interactions), and the writer spells a lone user
  turn that way again (:mod:`.messages`); ``"steps"``: an empty list, sent again as one (a
  request of no messages otherwise has no ``input``);
* ``_new_step`` (assistant parts): the part began a ``model_output`` step of its own right
  after another one, so the writer starts a new step there;
* ``_no_content`` (messages): the ``user_input`` or ``model_output`` step of a turn with
  nothing in it came without its ``content`` (the writer sends ``content: []`` otherwise);
* ``_object_result`` (tool results): the ``function_result``'s ``result`` was a JSON object,
  which canonical holds as its JSON text; ``_text_result``: it was a string holding a JSON
  object's text, sent back as that string (another format's JSON object text is sent as the
  object, :mod:`.messages`);
* ``_no_parameters`` (tools): the function declared no ``parameters``;
* ``_generation_config`` (requests): a ``generation_config`` was sent whose every field has
  a canonical home, even an empty one (:mod:`.settings`);
* ``_schema_format`` (requests): the output schema came in the older spelling, the schema
  itself as ``response_format`` beside ``response_mime_type`` (:mod:`.settings`);
* ``_status`` (response bags): a ``status`` this codec does not know, or ``completed`` on an
  Interaction that ended on a function call (read as ``tool_calls``), written back by this
  codec only (the canonical finish reason carries the word; :mod:`.finish_reason`);
* ``_nulls`` / ``_absent``: the kit's.

Carry meaning (declared in ``KIT``'s ``meaningful_markers``, reported by another writer):

* ``_echoed_turns`` (response bags): the ``user_input`` steps an Interaction's ``steps`` held
  (the server's echo of the turn it answered), each with its place among the steps, written
  back there by this codec only. They are the caller's turn, not the model's answer: kept out
  of the assistant message, so a history that replays the answer never sends the user's turn
  twice (:mod:`.response`).

``previous_interaction_id`` is no marker but a field of the request
bag: the server-held history it names is not in the request, so every other writer
reports it (:meth:`~chatcodec.contract.ProviderKit.claim`), and this one sends it back.

Encoder options: ``model`` (the model a request without one names), ``server_fields`` (a
server answering the request itself: :mod:`.server`), ``store`` (the ``store`` a request
without one is sent with), and the target rules' ``api_version`` and ``skip_rules``.
"""

from __future__ import annotations

from chatcodec.codec_kit import MODEL_OPTION, RULE_OPTIONS, ProviderKit
from chatcodec.contract import OptionTable

PROVIDER = "gemini-interactions"
"""Registry name, and the key of this codec's ``provider_metadata`` bags."""

ECHOED_TURNS = "_echoed_turns"
"""Response bag marker: an Interaction's ``user_input`` steps with their places (see above)."""

KIT = ProviderKit(
    PROVIDER,
    meaningful_markers={ECHOED_TURNS: "the user's turns an Interaction echoed beside its answer"},
)
"""The shared bag operations, bound to this provider (:mod:`chatcodec._providers.kit`)."""

SERVER_FIELDS = "server_fields"
"""The option of a server answering a request itself (``chatcodec serve``'s Interactions
front): the Interaction fields it sets over the converted answer (its own id, ``object``,
its clock's ``created`` and ``updated``, the ``previous_interaction_id`` it continued),
on the plain answer and on the stream's ``interaction.created`` and ``interaction.completed``."""

STORE_OPTION = "store"
"""The ``store`` a request that names none is written with (None: none written, the API's
default, true). ``chatcodec serve`` sends ``store: false`` without it (:mod:`.edge`), so
``--option store=true`` is how an operator lets Google keep the calls."""

OPTIONS = OptionTable.of(
    MODEL_OPTION, SERVER_FIELDS, STORE_OPTION, *RULE_OPTIONS, stored=(MODEL_OPTION,), legacy=RULE_OPTIONS
)
"""This encoder's options: the ``model`` a request without one is sent to (the API takes it
in the body and requires it), a server's ``server_fields``, the ``store`` a request without
one is sent with, and the target rules'."""

DISPLAY = "Gemini Interactions"
"""The API's name in loss messages."""

INPUT = "_input"
NEW_STEP = "_new_step"
NO_CONTENT = "_no_content"
OBJECT_RESULT = "_object_result"
TEXT_RESULT = "_text_result"
NO_PARAMETERS = "_no_parameters"
GENERATION_CONFIG = "_generation_config"
SCHEMA_FORMAT = "_schema_format"
STATUS = "_status"
