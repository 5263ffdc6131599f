"""The ``pydantic-ai`` format: a history as pydantic-ai's ``ModelMessagesTypeAdapter`` stores it."""
