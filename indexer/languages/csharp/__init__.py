"""C#: everything ripplegraph knows of the language (extractor, queries, module system, framework
detectors: ASP.NET Core controllers and minimal APIs, HttpClient and Refit clients, Confluent.Kafka
and MassTransit, Grpc.AspNetCore servers and clients).

``EXTRACTORS`` is what the language registry (:mod:`indexer.languages`) reads.
"""

from __future__ import annotations

from indexer.languages.csharp.extractor import EXTRACTOR

__all__ = ["EXTRACTOR", "EXTRACTORS"]

EXTRACTORS = (EXTRACTOR,)
