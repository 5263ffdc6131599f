"""What Nova accepts, by model (``RULES``), each rule with its source: the one API version,
the Nova models' documented facts and the model rules the writer applies last
(``_providers/contract/target_rules.py``).

The body names no model (it is in the URL), so a rule applies when the request's model is
a Nova id, with or without a cross-region prefix or an inference-profile ARN around it
(``amazon.nova-micro-v1:0``, ``us.amazon.nova-pro-v1:0``, ``global.amazon.nova-2-lite-v1:0``);
any other model gets the permissive rule (nothing is changed) but for the sampling ranges
(:data:`SAMPLING_RANGES`, the body's own for every model).

The models' facts are facts of the model, not of this body: they live once in the AWS
family (``families/aws/nova_models.py``, the table; ``families/aws/nova_rules.py``, the
rules), which Converse applies to a Nova model id too. Here: Nova Micro reads text only
(``text_only``); a request holds one video (``one_video``), and Nova 2 Lite 5 images as
bytes and 1,000 from S3 (``image_count``); 25 MB of media in the request itself
(``inline_media_size``); only Nova 2 takes ``reasoningConfig`` (``reasoning_config``, top
level or inside ``inferenceConfig`` in this body). Tool choice (``auto``, ``any``,
``tool``) is every Nova model's alike, so no rule changes it by model.
"""

from __future__ import annotations

from chatcodec._providers.families.aws.nova_models import NO_REASONING, SCHEMA_V1_SOURCE, THINKING_SOURCE
from chatcodec._providers.families.aws.nova_rules import drop_reasoning_config, media_rules
from chatcodec.codec_kit import as_dict, range_rule
from chatcodec.contract import ProviderRules, RuleCall, SamplingRange, TargetRule

VERSION = "messages-v1"
"""The body's one schema version (``schemaVersion``)."""

_SOURCE = "https://docs.aws.amazon.com/nova/latest/nova2-userguide/request-response-schema.html"


def _reasoning_config(call: RuleCall) -> None:
    """A model without extended thinking takes no ``reasoningConfig`` (at the top level or
    inside ``inferenceConfig``): not sent; reported unless it only disabled reasoning (the
    model's default)."""
    config = as_dict(call.body.get("inferenceConfig"))
    drop_reasoning_config(call, ((call.body, ()), (config, ("inferenceConfig",))))


_RANGES_SOURCE = (
    f"{_SOURCE} (inferenceConfig: temperature 0.00001-1, topP 0-1; the version 1 schema: temperature "
    "greater than 0 and less than 1.0, topP greater than 0, at most 1.0)"
)
SAMPLING_RANGES = tuple(
    SamplingRange(key, 0.0, 1.0, _RANGES_SOURCE, at=("inferenceConfig",)) for key in ("temperature", "topP", "top_p")
)
"""Nova's sampling ranges, as the user guide's request schema gives them (``topP`` in either
spelling, ``top_p`` being the one Nova took first). A temperature of 0, which the guide's
lowest bound (0.00001) leaves out, is sent as it is: the ranges hold what is past 1."""


RULES = ProviderRules(
    provider="bedrock-nova",
    api_versions=(VERSION,),
    default_version=VERSION,
    version_source=_SOURCE,
    rules=(
        *media_rules(documents=False),
        TargetRule(
            "reasoning_config",
            "`reasoningConfig` not sent",
            f"{THINKING_SOURCE} ; {SCHEMA_V1_SOURCE}",
            _reasoning_config,
            families=(NO_REASONING,),
        ),
        range_rule(SAMPLING_RANGES),
    ),
)
"""Nova's table."""
