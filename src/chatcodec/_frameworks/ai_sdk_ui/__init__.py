"""The ``ai-sdk-ui`` format: the Vercel AI SDK's ``UIMessage[]`` (what ``useChat`` holds and
chat apps persist), read and written exactly."""
