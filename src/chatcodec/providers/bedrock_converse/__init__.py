"""The ``bedrock-converse`` codec: AWS Bedrock Converse and ConverseStream as JSON.

API documentation:

- Reference: https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
- Streaming: https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html
- Guide: https://docs.aws.amazon.com/bedrock/latest/userguide/conversation-inference.html
- Changes: https://docs.aws.amazon.com/bedrock/latest/userguide/doc-history.html
- Service model (the tests' oracle, botocore):
  https://github.com/boto/botocore/tree/develop/botocore/data/bedrock-runtime
"""
