"""Python framework detectors: one module per framework family, registered in :data:`DETECTOR_MODULES`.

``common`` holds what they share. The detector protocol and the runner are language-neutral
(:mod:`indexer.frameworks`).
"""

from __future__ import annotations

import functools
from types import ModuleType

from indexer.frameworks import load_detectors

__all__ = ["DETECTOR_MODULES", "detectors_for", "shared_queries"]

DETECTOR_MODULES: tuple[str, ...] = (
    "fastapi",
    "flask",
    "flask_restful",
    "starlette",
    "django_urls",
    "django_admin",
    "drf_routers",
    "drf_serializers",
    "deferred_calls",
    "django_settings",
    "python_view_decorators",
    "python_http_clients",
    "listen_ports",
    "pytest_clients",
    "python_kafka",
    "celery_tasks",
    "pika_rabbit",
    "boto3_messaging",
    "nats_messaging",
    "paho_mqtt",
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
    "config_values",
    "url_builders",
    "pytest_plugins",
    "registrations",
    "orm_tables",
    "fastcrud",
    "generic_repositories",
    "orm_results",
    "orm_attributes",
    "django_relations",
    "sqlalchemy_bindings",
    "class_uses",
    "arg_calls",
)
"""Modules of this package, each exposing ``LANGUAGES`` and ``detect``, in the order they run."""


@functools.cache
def detectors_for(language: str) -> tuple[ModuleType, ...]:
    """The detector modules registered for ``language`` (imported on first use), in registry order."""
    return load_detectors(__name__, DETECTOR_MODULES, language)


@functools.cache
def _sharing(language: str) -> tuple[ModuleType, ...]:
    """The detectors of ``language`` that offer their query to the shared pass (``SHARED_QUERY``)."""
    return tuple(mod for mod in detectors_for(language) if getattr(mod, "SHARED_QUERY", None))


def shared_queries(language: str, data: bytes) -> tuple[str, ...]:
    """The query files (``python/queries/<name>.scm``) of the detectors of ``language`` that are
    likely to run them over a file of bytes ``data``, for the extractor's shared pass
    (:func:`indexer.languages.base.shared_pass`: one walk of the tree serves them with its own
    queries instead of a walk each). A detector offers its query with ``SHARED_QUERY`` (the file
    name) and ``shares(data) -> bool`` (a byte test). The test is a guess that costs time only:
    a query shared with a file that does not run it is matched for nothing, and one not shared
    with a file that runs it runs on its own (:func:`indexer.languages.base.run_query`) with the
    same matches, so the extraction is the same either way."""
    return tuple(mod.SHARED_QUERY for mod in _sharing(language) if mod.shares(data))

