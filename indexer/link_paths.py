"""Which changed paths are link inputs that are not source files: a Kubernetes manifest naming a
service unit, a part of an OpenAPI spec, a file an nginx configuration includes
(:meth:`indexer.incremental.RepositoryIndex.update` re-links the repository when one changes)."""

from __future__ import annotations

import re
from pathlib import Path

from indexer.discovery import SkipFile
from indexer.frameworks.link import LinkOptions
from indexer.frameworks.nginx_config import include_names
from indexer.frameworks.openapi import MAX_FILE_BYTES as MAX_SPEC_BYTES
from indexer.frameworks.openapi import SPEC_SUFFIXES, looks_like_spec
from indexer.fsguard import read_regular

__all__ = ["is_gateway_input", "is_manifest_path", "is_spec_path"]

_K8S_SERVICE = re.compile(rb"^kind:[ \t]*[\"']?(?:Service|Deployment|StatefulSet|DaemonSet)\b", re.M)
"""A Kubernetes manifest whose Service or workload names a service unit (see :func:`is_manifest_path`)."""


def is_manifest_path(root: Path, rel: str, link: LinkOptions | None) -> bool:
    """Whether ``rel`` (under ``root``) is a Kubernetes manifest declaring a Service (its name names
    a service unit, :mod:`indexer.frameworks.services`), now or at the last sync (``link``: the link
    options it read; a renamed or removed one)."""
    if not rel.lower().endswith((".yml", ".yaml")):
        return False
    if link is not None and rel in link.manifests:
        return True
    try:
        return _K8S_SERVICE.search(read_regular(root / rel, MAX_SPEC_BYTES, str(root))) is not None
    except (SkipFile, OSError):
        return False


def is_spec_path(root: Path, rel: str, link: LinkOptions | None) -> bool:
    """Whether ``rel`` (under ``root``) is, or was at the last sync (``link``), part of an OpenAPI
    spec (:mod:`indexer.frameworks.openapi`)."""
    if link is not None and rel in link.api.files:  # a $ref target may have any suffix
        return True
    if not rel.lower().endswith(SPEC_SUFFIXES):
        return False
    try:
        return looks_like_spec(read_regular(root / rel, MAX_SPEC_BYTES, str(root)))
    except (SkipFile, OSError):
        return False


def is_gateway_input(rel: str, link: LinkOptions | None) -> bool:
    """Whether ``rel`` is a file the nginx gateway routes were read from at the last sync (``link``),
    an included one too (``include proxy.inc``: not a configuration by its name, edited or deleted), or
    a path one of their ``include`` directives looked for (a file added where ``conf.d/*.inc`` reads)."""
    if link is None:
        return False
    return rel in link.gateway_inputs or any(include_names(p, rel) for p in link.gateway_patterns)
