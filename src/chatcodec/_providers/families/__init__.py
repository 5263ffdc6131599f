"""Facts of one vendor or model family that more than one provider folder needs.

A folder's own facts stay in its folder; a fact shared by two folders because the same
models or the same vendor stand behind both lives here, once:

``claude/``          Claude's rules, served by Anthropic Messages and Bedrock Converse: the
                     model-family rules (``model_rules``), the rules the two wires share
                     (``wire_rules``: signatures, usage, thinking, stop reasons), the
                     prefill rule (``prefill``), the structured-outputs schema subset
                     (``schema_subset``)
``openai/``          OpenAI's rules, served by Chat Completions and Responses: model-family
                     rules (``model_rules``), strict-mode schemas (``strict_schema``), the
                     file name inline file data needs (``file_names``)
``google/``          Google's ``Schema`` object (the OpenAPI subset Gemini takes), which every
                     *other* target's writer reads as JSON Schema (``openapi_schema``);
                     a call's thought signature in its ``gemini`` bag, which OpenAI Chat
                     and Anthropic carry in places of their own (``thought_signatures``)
``aws/``             Bedrock's block wire, served by Converse and by Nova's InvokeModel body:
                     the block shapes (``blocks``), tool ids (``tool_ids``), turn
                     alternation and tool results (``structure``), the Runtime's errors and
                     signing (``runtime``), Bedrock batch rows (``batch``)
``schema_writing``   what the tool and response-format writers call: the rewrites a target
                     needs (JSON Schema, Anthropic's subset, OpenAI's strict mode), each
                     change reported as a loss of kind ``schema`` (what they remember is the
                     kit's: ``kit/schema_memory.py``)

Each schema rewrite is a pure function over a schema returning the new schema (the same
object when nothing changed) and its changes, each with its JSON path in the request; the
walk they share is mechanics (:mod:`chatcodec._providers.kit.schema_walk`).

The law: every family module is imported by at least two provider folders
(``tests/test_families_shared.py``); carving a family out of a folder is its own commit of
moves only (CONTRIBUTING, step 0 of adding a provider).

Families sit in the kit layer (``tools/import_graph.py``): provider folders import them,
they import the kit and the contract, and the kit never imports them.
"""
