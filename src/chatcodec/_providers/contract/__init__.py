"""The codec contract: what every provider folder implements and what the shared code
reads of it, and nothing else.

``provider_codec``  :class:`~.provider_codec.ProviderCodec`, the one codec class, built
                    from a folder's role modules
``folder``          the roles a folder's modules play, found by file name
                    (:meth:`~.provider_codec.ProviderCodec.from_package`)
``roles``           one protocol per role module (request, response, messages, parts, ...)
``context``         :class:`~.context.EncodeContext` and :class:`~.context.DecodeContext`,
                    what one encode or decode carries
``capabilities``    :class:`~.capabilities.Capabilities`, what a folder's wire can carry
                    (its ``capabilities.py``)
``edge``            :class:`~.edge.Edge`, what a provider says on HTTP (its ``edge.py``)
``extension``       :class:`~.extension.Extension`, fields a server documents beyond the
                    SDK types (an edge's and a server table's rows for strict reading)
``detection``       :class:`~.detection.Detection`, the edge's wire description as format
                    detection reads it (its keys, roles and other marks)
``structure``       :class:`~.structure.Structure`, the conversation shape strict mode
                    checks (its ``structure.py``)
``target_rules``    :class:`~.target_rules.ProviderRules`, API versions and model rules as
                    data (its ``rules.py``)
``envelopes``       :class:`~.envelopes.BatchRows`, the batch envelopes a folder's bodies
                    ride in and whether the training dialects hold its messages (its
                    optional ``batch_rows.py``)

Why these and not the rest: each module here is a record or a protocol a folder fills in
(or the class its roles are assembled into), so reading this package tells a newcomer
what a provider folder must say. How a body is taken apart and put back (bags, markers,
tool names, schema walking, stream reading) is mechanics, in :mod:`chatcodec._providers.kit`;
what one vendor's models or APIs require is in :mod:`chatcodec._providers.families`.
"""
