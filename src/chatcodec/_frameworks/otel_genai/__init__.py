"""The ``otel-genai`` format: the messages the OpenTelemetry GenAI semantic conventions put on a
model call's span (``gen_ai.system_instructions``, ``gen_ai.input.messages``,
``gen_ai.output.messages``), read and written, so a trace becomes a conversation again.

The conventions' JSON Schemas (``gen-ai-input-messages.json``, ``gen-ai-output-messages.json``,
``gen-ai-system-instructions.json``, ``gen-ai-tool-definitions.json``, from the conventions' own
repository, open-telemetry/semantic-conventions-genai ``model/gen-ai/``) are the oracle of what
is written (``tests/fixtures/otel_genai/schemas``, with their provenance); what real emitters
write besides (pydantic-ai's ``thinking``, ``binary`` and ``image-url`` parts, its ``result`` for
``response``) is read too. A call whose instrumentation records its messages as events instead
(``gen_ai.user.message``... ``gen_ai.choice``, or the single
``gen_ai.client.inference.operation.details``) is read as the span they stand for (:mod:`.events`).
"""
