"""What the Vercel AI SDK's two stored forms share: ``ModelMessage[]`` (``ai-sdk-model``,
:mod:`chatcodec._frameworks.ai_sdk_model`) and ``UIMessage[]`` (``ai-sdk-ui``,
:mod:`chatcodec._frameworks.ai_sdk_ui`) spell provider data (``providerOptions`` /
``providerMetadata``), media (base64, URLs, data URLs), finish reasons and usage the same
way, so those are read and written once, here."""
