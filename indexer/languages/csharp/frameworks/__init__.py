"""C# framework detectors: one module per family (``aspnet``: ASP.NET Core controllers and minimal
APIs; ``razor_pages``: Razor Pages handlers; ``dotnet_http_clients``: HttpClient and Refit; ``dotnet_messaging``: Confluent.Kafka and
MassTransit; ``grpc_dotnet``: Grpc.AspNetCore servers and Grpc.Net.Client clients; ``efcore``: Entity
Framework Core tables and DbSet reads and writes; ``options_binding``: ``Configure<T>(configuration.GetSection("X"))``; ``fast_endpoints``: FastEndpoints
endpoint classes), each exposing
``LANGUAGES`` and ``detect``, listed in :data:`DETECTOR_MODULES` (the runner is
:mod:`indexer.frameworks`); ``common`` holds what they share."""

from __future__ import annotations

import functools
from types import ModuleType

from indexer.frameworks import load_detectors

__all__ = ["DETECTOR_MODULES", "detectors_for"]

DETECTOR_MODULES: tuple[str, ...] = ("aspnet", "razor_pages", "dotnet_http_clients", "dotnet_messaging", "grpc_dotnet", "efcore",
                                     "url_builders", "options_binding", "fast_endpoints", "arg_calls")
"""Modules of this package, each exposing ``LANGUAGES`` and ``detect``, in the order they run."""


@functools.cache
def detectors_for(language: str) -> tuple[ModuleType, ...]:
    """The detector modules registered for ``language`` (imported on first use), in registry order."""
    return load_detectors(__name__, DETECTOR_MODULES, language)
