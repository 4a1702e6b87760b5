"""Java framework detectors: one module per framework family, registered in :data:`DETECTOR_MODULES`.

``common`` holds what they share. The detector protocol and the runner are language-neutral
(:mod:`indexer.frameworks`).
"""

from __future__ import annotations

import functools
from types import ModuleType

from indexer.frameworks import load_detectors

__all__ = ["DETECTOR_MODULES", "detectors_for"]

DETECTOR_MODULES: tuple[str, ...] = (
    "spring_web",
    "spring_functional",
    "spring_gateway",
    "jaxrs",
    "servlet",
    "spring_wrappers",
    "java_http_clients",
    "apache_http_clients",
    "spring_test_clients",
    "spring_kafka",
    "kafka_clients",
    "kafka_streams",
    "spring_rabbit",
    "spring_jms",
    "paho_java",
    "spring_cloud_stream",
    "spring_sqs",
    "eventuate",
    "grpc_java",
    "spring_graphql",
    "dgs",
    "graphql_java",
    "graphql_clients_java",
    "spring_boot_runners",
    "jvm_entries",
    "openapi_generated",
    "java_constants",
    "jpa_data",
    "jooq",
    "url_builders",
    "arg_calls",
)
"""Modules of this package, each exposing ``LANGUAGES`` and ``detect``, in the order they run."""


@functools.cache
def detectors_for(language: str) -> tuple[ModuleType, ...]:
    """The detector modules registered for ``language`` (imported on first use), in registry order."""
    return load_detectors(__name__, DETECTOR_MODULES, language)
