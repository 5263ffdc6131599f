"""Amazon Bedrock's facts that more than one provider folder needs (module map below)."""
