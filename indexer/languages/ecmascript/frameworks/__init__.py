"""JavaScript / TypeScript framework detectors: one module per framework family, registered in :data:`DETECTOR_MODULES`.

``common`` holds what they share. The detector protocol and the runner are language-neutral
(:mod:`indexer.frameworks`).
"""

from __future__ import annotations

import functools
from types import ModuleType

from indexer.frameworks import load_detectors

__all__ = ["DETECTOR_MODULES", "detectors_for"]

DETECTOR_MODULES: tuple[str, ...] = (
    "test_callbacks",  # first: the code in a test is the test's for every detector after it
    "express",
    "express_errors",
    "fastify",
    "hono",
    "nextjs",
    "nest",
    "nest_cqrs",
    "nest_microservices",
    "js_http_clients",
    "http_wrappers",
    "base_urls",
    "listen_ports",
    "kafkajs",
    "amqplib",
    "mqtt_js",
    "aws_messaging",
    "grpc_js",
    "listeners",
    "apollo",
    "nest_graphql",
    "graphql_clients",
    "schedulers",
    "nest_commander",
    "lwc",
    "aura",
    "lwc_records",
    "angular_templates",
    "openapi_clients",
    "rtk_query",
    "js_constants",
    "url_builders",
    "mongoose",
    "typeorm",
    "js_data",
    "sequelize",
)
"""Modules of this package, each exposing ``LANGUAGES`` and ``detect``, in the order they run."""


@functools.cache
def detectors_for(language: str) -> tuple[ModuleType, ...]:
    """The detector modules registered for ``language`` (imported on first use), in registry order."""
    return load_detectors(__name__, DETECTOR_MODULES, language)
