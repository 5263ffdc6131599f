"""The ``bedrock-converse`` codec: AWS Bedrock Converse and ConverseStream as JSON."""
