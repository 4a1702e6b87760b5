"""The service map of cross-service impact analysis: which repository serves the HTTP service a URL
names (``customers-service`` -> ``petclinic-customers``).

Front ends merge, in this order of precedence, the entries given on their command line, the
``$RIPPLE_SERVICES`` variable and the ``[http.services]`` table of the configuration
(:attr:`stores.config.Config.http_services`), and pass the result to
:func:`analysis.impact.blast_radius` as ``services``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

__all__ = ["SERVICES_ENV", "service_map"]

SERVICES_ENV = "RIPPLE_SERVICES"
"""Environment variable holding the service map of impact analysis: ``NAME=REPO`` entries separated
by spaces or commas (the HTTP service an URL names -> the repository that serves it)."""


def service_map(entries: Sequence[str] | None = None) -> dict[str, str]:
    """``{service: repository}`` from ``NAME=REPO`` ``entries`` (each may hold several, separated by
    spaces or commas), else from ``$RIPPLE_SERVICES``. Raises :class:`ValueError` on an entry
    without ``=`` or with an empty side."""
    if entries is None:
        entries = [os.environ.get(SERVICES_ENV, "")]
    out: dict[str, str] = {}
    for entry in entries:
        for item in entry.replace(",", " ").split():
            name, eq, repo = item.partition("=")
            if not eq or not name or not repo:
                raise ValueError(f"expected NAME=REPO in the service map, got {item!r}")
            out[name] = repo
    return out
