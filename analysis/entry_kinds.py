"""What makes a reached node an entry point, and of which kind (the blast radius lists them by kind).

Three sources, one vocabulary (:class:`analysis.impact.EntryPoint`):

* the edges a node EXPOSES: ``http``, or ``graphql query`` / ``mutation`` / ``subscription`` /
  ``field`` for a GraphQL operation (:func:`exposes_kind`);
* ENTRY edges, written by the linker for entry points registered by a call or a configuration entry
  (:class:`indexer.model.EntryRegistration`: Celery beat, APScheduler ``add_job``, node-cron,
  argparse, ``__main__`` blocks, Django commands, Spring Boot runners): their ``kind`` property;
* decorators and annotations on the node itself (:data:`ENTRY_DECORATORS`, :func:`decorator_kinds`).
"""

from __future__ import annotations

from stores.contracts import GRAPHQL_OPERATIONS, Node

__all__ = ["ENTRY_DECORATORS", "decorator_kinds", "exposes_kind"]

ENTRY_DECORATORS = {
    "Scheduled": "scheduled", "Schedules": "scheduled", "Cron": "scheduled", "Interval": "scheduled",
    "scheduled_job": "scheduled", "periodic_task": "scheduled", "shared_task": "task", "task": "task",
    "KafkaListener": "listener", "RabbitListener": "listener", "JmsListener": "listener",
    "SqsListener": "listener", "EventListener": "listener", "EventPattern": "listener",
    "MessagePattern": "listener", "StreamListener": "listener", "Timeout": "scheduled",
    # click / Typer commands (`@click.command`, `@cli.command()`, `@app.command()`), picocli / Spring
    # Shell command methods (nest-commander's class decorator is an ENTRY on its `run`)
    "command": "cli", "group": "cli", "Command": "cli", "ShellMethod": "cli",
    # Apex methods the Salesforce platform calls: from Lightning components (`@AuraEnabled`), Flow and
    # Process Builder (`@InvocableMethod`), Visualforce JavaScript remoting (`@RemoteAction`), and
    # asynchronously (`@future`); the Apex extractor writes these names in this case
    "AuraEnabled": "lightning", "InvocableMethod": "flow", "RemoteAction": "visualforce", "future": "async",
}
"""Decorators / annotations (last dotted part of their name) that make a callable an entry point, and
its kind."""


def exposes_kind(endpoint: str) -> str:
    """The entry-point kind of a handler exposing the Endpoint id ``endpoint``: ``http``, or
    ``graphql query`` / ``graphql mutation`` / ``graphql subscription`` / ``graphql field`` for a
    GraphQL operation (:data:`stores.contracts.GRAPHQL_OPERATIONS`)."""
    method = endpoint.removeprefix("endpoint:").partition(" ")[0]
    return f"graphql {method.lower()}" if method in GRAPHQL_OPERATIONS else "http"


def decorator_kinds(node: Node) -> list[str]:
    """The entry-point kinds the decorators of ``node`` (``props["decorators"]``, texts with or without
    ``@``) give, in order, each once: ``@Scheduled(...)`` -> ``["scheduled"]``."""
    kinds = []
    for deco in node.props.get("decorators") or ():
        name = str(deco).lstrip("@").split("(", 1)[0].strip().rsplit(".", 1)[-1]
        kind = ENTRY_DECORATORS.get(name)
        if kind and kind not in kinds:
            kinds.append(kind)
    return kinds
