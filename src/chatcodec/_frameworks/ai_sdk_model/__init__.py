"""The ``ai-sdk-model`` format: the Vercel AI SDK's ``ModelMessage[]`` (``generateText``'s
``messages`` and ``response.messages``), read and written exactly."""
