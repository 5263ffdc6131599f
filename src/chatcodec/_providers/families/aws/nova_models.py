"""Amazon Nova's understanding models, as AWS documents them: one table (:data:`MODELS`) of
facts of the model, not of the body, read by both Bedrock bodies that serve them (Nova's
InvokeModel body, ``bedrock_nova/rules.py``, and Converse given a Nova model id,
``bedrock_converse/rules.py``) through the rules of :mod:`.nova_rules`.

A model is told by its Bedrock id, with or without a cross-region prefix (``us.``, ``eu.``,
``apac.``, ``global.``...), a context-length suffix (``amazon.nova-2-lite-v1:0:256k``) or
an ARN around it (``arn:aws:bedrock:...:inference-profile/us.amazon.nova-micro-v1:0``,
``...::foundation-model/amazon.nova-pro-v1:0``). An id the table does not name (an
application inference profile's ARN, a custom model, a preview whose id AWS's guides do
not give, such as Nova 2 Pro's or Nova 2 Omni's) gets the permissive rule: no model rule
applies to it.

The facts, each with its page:

- What each model reads beside text. Nova Micro reads text only: "Because Amazon Nova Micro
  does not support images or videos as input, those parts of the request schema do not
  apply to Amazon Nova Micro" (:data:`SCHEMA_V1_SOURCE`), its model card's one input
  modality is text, Converse's table of models gives Micro no document chat and no vision
  (:data:`CONVERSE_FEATURES_SOURCE`), and the document guide names Lite, Pro and Premier as
  the models that read documents (:data:`DOCUMENT_SOURCE`). Lite, Pro, Premier and Nova 2 Lite read images,
  videos and (on the Converse API only) documents.
- Extended thinking (``reasoningConfig``): Nova 2 Lite's alone among these ("Amazon Nova 2
  Lite supports extended thinking", :data:`THINKING_SOURCE`; the version 1 request schema
  has no such field).
- Counts and sizes of media (:data:`MEDIA_SOURCE`, :data:`VIDEO_SOURCE`,
  :data:`DOCUMENT_SOURCE`): one video per request on every model that reads video; Nova 2
  Lite takes 5 images as bytes and 1,000 from S3 (Nova 2's media table; the version 1
  guide gives no image count, only the payload); documents 5 as bytes and 1,000 from S3;
  25 MB of media carried in the request itself (the version 1 image guide: "a total payload
  limit of 25 MB"; Nova 2's table: 25 MB per kind); a text document (CSV, XLS, XLSX, HTML,
  TXT, MD, DOC) at most 4.5 MB.

Tool choice (``auto``, ``any``, ``tool``) is every Nova understanding model's alike
(:data:`TOOL_CHOICE_SOURCE`, and Nova 2's tool guide), so it is no model fact here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from chatcodec.contract import ModelFamily

SCHEMA_V1_SOURCE = "https://docs.aws.amazon.com/nova/latest/userguide/complete-request-schema.html"
THINKING_SOURCE = "https://docs.aws.amazon.com/nova/latest/nova2-userguide/extended-thinking.html"
REASONING_SOURCE = "https://docs.aws.amazon.com/nova/latest/nova2-userguide/reasoning-capabilities.html"
CARDS = "https://docs.aws.amazon.com/bedrock/latest/userguide/model-card-amazon-{}.html"
MEDIA_SOURCE = "https://docs.aws.amazon.com/nova/latest/nova2-userguide/using-multimodal-models.html"
IMAGE_SOURCE = "https://docs.aws.amazon.com/nova/latest/userguide/modalities-image.html"
VIDEO_SOURCE = (
    "https://docs.aws.amazon.com/nova/latest/userguide/prompting-video-understanding.html ; "
    f"{MEDIA_SOURCE} (Video: 1 object)"
)
DOCUMENT_SOURCE = "https://docs.aws.amazon.com/nova/latest/userguide/modalities-document.html"
CONVERSE_FEATURES_SOURCE = (
    "https://docs.aws.amazon.com/bedrock/latest/userguide/conversation-inference-supported-models-features.html"
)
RESTRICTIONS_SOURCE = "https://docs.aws.amazon.com/bedrock/latest/userguide/inference-api-restrictions.html"
TOOL_CHOICE_SOURCE = (
    "https://docs.aws.amazon.com/nova/latest/userguide/tool-choice.html ; "
    "https://docs.aws.amazon.com/nova/latest/nova2-userguide/prompting-tools-function.html"
)

INLINE_BYTES = 25 * 1024 * 1024
"""The media a request may carry in itself (``bytes`` sources, counted as the base64 text
sent): 25 MB, read as 25 MiB, the larger reading, so nothing AWS takes is withheld."""
TEXT_DOCUMENT_BYTES = 4_718_592
"""A text document's most bytes: 4.5 MB (read as MiB, as :data:`INLINE_BYTES` is)."""
TEXT_DOCUMENT_FORMATS = frozenset({"csv", "xls", "xlsx", "html", "txt", "md", "doc"})
"""The document formats Nova reads for their text alone (the document guide's "text-based
document types"); PDF and DOCX are its media documents, which the 4.5 MB limit spares."""


@dataclass(frozen=True, slots=True)
class Limit:
    """How many blocks of one kind a request may hold, by where their bytes are."""

    inline: int | None
    """As ``bytes`` in the request; ``None``: AWS documents no count."""
    s3: int | None
    """From S3 (``s3Location``); ``None``: AWS documents no count."""
    total: int | None = None
    """Both together; ``None``: each counted on its own."""


_NONE = Limit(None, None)


@dataclass(frozen=True, slots=True)
class NovaModel:
    """One Nova understanding model, as AWS documents it."""

    name: str
    """Its name in losses and the docs (``Nova Micro``)."""
    key: str
    """The word of its model id after ``amazon.`` and before ``-v`` (``nova-micro``)."""
    media: frozenset[str]
    """The blocks it reads beside text (``image``, ``video``, ``document``)."""
    context_tokens: int
    """Its context window, in tokens."""
    max_output_tokens: int | None
    """The most tokens one answer may hold (``maxTokens``); None: not stated where read."""
    reasoning: bool
    """Whether it takes ``reasoningConfig`` (extended thinking)."""
    source: str
    """Where these facts are documented (the Bedrock model card)."""
    images: Limit = _NONE
    """How many ``image`` blocks a request may hold."""
    videos: Limit = _NONE
    """How many ``video`` blocks a request may hold."""
    documents: Limit = _NONE
    """How many ``document`` blocks a request may hold (the Converse API's alone)."""


_READS = frozenset({"image", "video", "document"})
_ONE_VIDEO = Limit(1, 1, total=1)
_DOCUMENTS = Limit(5, 1000)


def _reader(
    name: str, context: int, output: int | None, *, reasoning: bool = False, images: Limit = _NONE
) -> NovaModel:
    """A model that reads images, videos and documents: one video, five documents."""
    key = name.lower().replace(" ", "-")
    return NovaModel(name, key, _READS, context, output, reasoning, CARDS.format(key), images, _ONE_VIDEO, _DOCUMENTS)


MODELS = (
    NovaModel("Nova Micro", "nova-micro", frozenset(), 128_000, 5_000, False, CARDS.format("nova-micro")),
    _reader("Nova Lite", 300_000, 5_000),
    _reader("Nova Pro", 300_000, 5_000),
    _reader("Nova Premier", 1_000_000, None),
    _reader("Nova 2 Lite", 1_000_000, None, reasoning=True, images=Limit(5, 1000)),
)
"""The understanding models the ``messages-v1`` body and Converse serve. Micro is text only;
Lite, Pro, Premier and Nova 2 Lite read images, videos and documents (documents through
Converse only); only Nova 2 Lite reasons on request. The version 1 models' ``maxTokens`` is
at most 5K (:data:`SCHEMA_V1_SOURCE`: "greater than 0, equal or less than 5k")."""

_MODEL_ID = re.compile(r"(?:^|[./:])amazon\.(nova-(?:\d+-)?[a-z]+)-v\d")


def model_of(model: str) -> NovaModel | None:
    """The Nova model a Bedrock model id (or inference-profile ARN) names, or None."""
    found = _MODEL_ID.search(model.lower())
    if found is None:
        return None
    return next((known for known in MODELS if known.key == found[1]), None)


def nova_family(name: str, test: Callable[[NovaModel], bool]) -> ModelFamily:
    """The Nova models ``test`` holds for, as a rule's model family."""

    def matches(model: str) -> bool:
        known = model_of(model)
        return known is not None and test(known)

    return ModelFamily(name, matches)


def _names(test: Callable[[NovaModel], bool]) -> str:
    return ", ".join(model.name for model in MODELS if test(model))


def _reads_media(model: NovaModel) -> bool:
    return bool(model.media)


def _counts_images(model: NovaModel) -> bool:
    return model.images != _NONE


TEXT_ONLY = nova_family(_names(lambda model: not model.media), lambda model: not model.media)
READS_MEDIA = nova_family(_names(_reads_media), _reads_media)
COUNTS_IMAGES = nova_family(_names(_counts_images), _counts_images)
NO_REASONING = nova_family("Nova 1 (Micro, Lite, Pro, Premier)", lambda model: not model.reasoning)
