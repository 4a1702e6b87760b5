"""Go framework detectors: one module per family (``go_web``: net/http, gin, echo, chi, gorilla/mux
routes and net/http / resty clients; ``go_http_wrappers``: calls of the application's own client
functions; ``go_messaging``: sarama, kafka-go, confluent-kafka-go, streadway / amqp091-go RabbitMQ;
``grpc_go``: grpc-go servers and clients; ``go_sql``: raw SQL of database/sql, pgx, sqlx, sqlc), each
exposing ``LANGUAGES`` and ``detect``, listed in :data:`DETECTOR_MODULES` (the runner is :mod:`indexer.frameworks`); ``common`` holds what they share."""

from __future__ import annotations

import functools
from types import ModuleType

from indexer.frameworks import load_detectors

__all__ = ["DETECTOR_MODULES", "detectors_for"]

DETECTOR_MODULES: tuple[str, ...] = (
    "go_web", "go_http_wrappers", "go_messaging", "grpc_go", "go_sql", "url_builders",
)
"""Modules of this package, each exposing ``LANGUAGES`` and ``detect``, in the order they run."""


@functools.cache
def detectors_for(language: str) -> tuple[ModuleType, ...]:
    """The detector modules registered for ``language`` (imported on first use), in registry order."""
    return load_detectors(__name__, DETECTOR_MODULES, language)
