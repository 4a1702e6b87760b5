"""Python framework detectors: one module per framework family, registered in :data:`DETECTOR_MODULES`.

``common`` holds what they share. The detector protocol and the runner are language-neutral
(:mod:`indexer.frameworks`).
"""

from __future__ import annotations

import functools
from types import ModuleType

from indexer.frameworks import load_detectors

__all__ = ["DETECTOR_MODULES", "detectors_for"]

DETECTOR_MODULES: tuple[str, ...] = (
    "fastapi",
    "flask",
    "flask_restful",
    "starlette",
    "django_urls",
    "drf_routers",
    "drf_serializers",
    "django_settings",
    "python_view_decorators",
    "python_http_clients",
    "python_kafka",
    "celery_tasks",
    "pika_rabbit",
    "boto3_messaging",
    "nats_messaging",
    "redis_pubsub",
    "grpc_python",
    "strawberry",
    "graphene",
    "ariadne",
    "gql_python",
    "python_schedulers",
    "python_cli",
    "openapi_python",
    "python_constants",
    "registrations",
    "orm_tables",
    "orm_results",
    "orm_attributes",
    "django_relations",
    "sqlalchemy_bindings",
    "class_uses",
)
"""Modules of this package, each exposing ``LANGUAGES`` and ``detect``, in the order they run."""


@functools.cache
def detectors_for(language: str) -> tuple[ModuleType, ...]:
    """The detector modules registered for ``language`` (imported on first use), in registry order."""
    return load_detectors(__name__, DETECTOR_MODULES, language)
