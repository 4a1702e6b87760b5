"""When a change makes an update rebind the whole tree instead of the changed files: too many paths
at once (:data:`RESCAN_THRESHOLD`) or a file whose change moves other files' facts
(:func:`is_config_path`). :meth:`indexer.incremental.RepositoryIndex.update` asks both (and whether a
path is a directory, an OpenAPI spec part or a Kubernetes manifest: :mod:`indexer.link_paths`)."""

from __future__ import annotations

from indexer.frameworks.app_ports import is_port_file
from indexer.frameworks.dev_proxy import PROXY_FILES
from indexer.frameworks.app_settings import is_settings_file
from indexer.frameworks.env_config import ENV_FILES
from indexer.frameworks.js_modules import is_module_config
from indexer.frameworks.mybatis_xml import is_mapper_path
from indexer.frameworks.nginx_config import is_nginx_config
from indexer.frameworks.razor_directives import is_page_file
from indexer.frameworks.services import is_boundary_file
from indexer.frameworks.spring_config import CONFIG_SUFFIXES, is_served_config

__all__ = ["RESCAN_THRESHOLD", "is_config_path"]

RESCAN_THRESHOLD = 256
"""An update of more paths than this (a branch switch) rescans the tree instead
(:meth:`indexer.incremental.RepositoryIndex.sync`)."""


def is_config_path(rel: str) -> bool:
    """Whether a change at ``rel`` changes more than one file's facts: ``.gitignore`` (what is
    indexed), a Spring configuration file (``application*`` / ``bootstrap*`` ``.yml`` / ``.yaml`` /
    ``.properties``: placeholders and gateway routes of HTTP links) or a file that draws service
    boundaries (:func:`indexer.frameworks.services.is_boundary_file`: build, Docker and compose files)
    or a ``.env`` file (:data:`indexer.frameworks.env_config.ENV_FILES`: environment variables in client URLs)
    or an Angular proxy file or ``angular.json`` (:mod:`indexer.frameworks.dev_proxy`: which backend a
    relative URL reaches) or a TypeScript configuration (:func:`indexer.frameworks.js_modules.is_module_config`:
    path aliases) or a MyBatis mapper XML file (:func:`indexer.frameworks.mybatis_xml.is_mapper_path`: the SQL
    of mapper interfaces) or a file a config server may serve (:func:`indexer.frameworks.spring_config.is_served_config`)
    or an nginx configuration (:func:`indexer.frameworks.nginx_config.is_nginx_config`: gateway routes)
    or an ASP.NET settings or project file (:func:`indexer.frameworks.app_settings.is_settings_file`: configured
    names, the projects a test project references) or a Razor page (:func:`indexer.frameworks.razor_directives.is_page_file`:
    its ``@page`` template moves its page model's routes) or a file declaring the port of its application
    (:func:`indexer.frameworks.app_ports.is_port_file`: go-kratos ``configs/*.yaml``, ``launchSettings.json``)."""
    name = rel.rsplit("/", 1)[-1]
    if (name == ".gitignore" or is_boundary_file(name) or name in ENV_FILES or name in PROXY_FILES
            or name == "angular.json" or is_module_config(name) or is_mapper_path(rel) or is_nginx_config(rel)
            or is_settings_file(name) or is_page_file(rel) or is_port_file(rel)):
        return True
    return name.endswith(CONFIG_SUFFIXES) and (name.startswith(("application", "bootstrap")) or is_served_config(rel))
