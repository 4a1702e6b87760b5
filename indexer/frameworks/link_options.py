"""What the linker (:mod:`indexer.frameworks.link`) knows of a repository beyond its files: its
Spring configuration (repository-wide and per module), its service boundaries
(:mod:`indexer.frameworks.services`) and the service map that says which service a client URL
addresses. Read once per run (and again when a configuration, build, Docker or compose file
changes: :func:`indexer.rescan.is_config_path`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from indexer.frameworks.app_ports import loopback_keys
from indexer.frameworks.app_settings import load_dotnet_projects
from indexer.frameworks.dev_proxy import ProxyRule, load_proxies
from indexer.frameworks.env_config import load_env_files
from indexer.frameworks.js_modules import load_js_modules
from indexer.frameworks.mybatis_xml import MyBatisMappers, load_mappers
from indexer.frameworks.nginx_config import load_nginx_routes
from indexer.frameworks.ui_templates import load_templates
from indexer.frameworks.openapi import ApiSpecs, load_operations
from indexer.frameworks.route_tokens import project_of
from indexer.frameworks.services import service_map
from indexer.frameworks.spring_config import (discovery_routes, gateway_route_list, gateway_routes, load_module_properties,
                                             load_properties)
from stores.gateway import GatewayRoute

__all__ = ["LinkOptions"]


@dataclass(frozen=True, slots=True)
class LinkOptions:
    """``properties``: the repository's flattened Spring configuration (``a.b -> value``), for
    ``${a.b}`` placeholders; ``modules``: per module folder of a multi-service repository, its own
    configuration (which also names the module's service: ``spring.application.name``, and its
    ``server.servlet.context-path``). ``services``: a URL prefix, host or service name -> service (repository)
    name map; the longest matching prefix of a client URL is cut off and names the service the call
    goes to (``{"http://localhost:8081": "customers-service", "/api/customer": "customers-service"}``).
    ``units``: the repository's service boundaries, language-neutral
    (:func:`indexer.frameworks.services.service_map`: folder -> service name, ``""`` for a root named
    by nothing): they name the application of every endpoint and bound application-wide wrappers.
    """

    properties: Mapping[str, str] = field(default_factory=dict)
    services: Mapping[str, str] = field(default_factory=dict)
    modules: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    units: Mapping[str, str] = field(default_factory=dict)
    api: ApiSpecs = field(default_factory=ApiSpecs)  # the OpenAPI specs' operations (indexer.frameworks.api_first)
    env: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """Per package folder, the variables its ``.env`` files set (:func:`~indexer.frameworks.env_config.load_env_files`),
    for ``import.meta.env.X`` / ``process.env.X`` in URLs."""
    proxies: Mapping[str, tuple[ProxyRule, ...]] = field(default_factory=dict)
    """Per package folder, the development-server proxy rules of its JSON files
    (:func:`~indexer.frameworks.dev_proxy.load_proxies`): which backend a relative URL reaches."""
    manifests: frozenset[str] = frozenset()
    """The Kubernetes manifests the service units were read from (:attr:`ServiceMap.manifests`): a
    watcher re-reads the boundaries when one changes."""
    module_configs: Mapping[str, object] = field(default_factory=dict)
    """Per module namespace, what its module system reads of the repository's configuration
    (``ecmascript``: the packages, :func:`~indexer.frameworks.js_modules.load_js_modules`), handed to
    the resolver (:meth:`indexer.resolve.language.Lookup.module_config`); a change rebinds every file."""
    mappers: MyBatisMappers = field(default_factory=MyBatisMappers)
    """The MyBatis mapper XML statements (:func:`~indexer.frameworks.mybatis_xml.load_mappers`): the
    SQL each mapper interface method runs (:mod:`indexer.frameworks.tables`)."""
    templates: Mapping[str, str] = field(default_factory=dict)
    """Component template files by repository-relative path (:func:`~indexer.frameworks.ui_templates.load_templates`):
    the bindings of a ``templateUrl`` component (:mod:`indexer.frameworks.ui_templates`)."""

    gateways: tuple[GatewayRoute, ...] = ()
    """The Spring Cloud Gateway routes of the repository's applications, in module order
    (:func:`~indexer.frameworks.spring_config.gateway_route_list`), then its nginx configurations' locations
    (:func:`~indexer.frameworks.nginx_config.load_nginx_routes`): a relative client URL a route's
    ``Path`` predicate matches goes to the route's service, at the path its filters make
    (:meth:`stores.gateway.GatewayRoute.forward`)."""

    gateway_inputs: frozenset[str] = frozenset()
    """The files the nginx routes were read from, included ones too (:attr:`~indexer.frameworks.nginx_config.NginxRoutes.inputs`):
    a watcher reads the gateways again when one changes or goes (:func:`indexer.link_paths.is_gateway_input`)."""
    gateway_patterns: tuple[str, ...] = ()
    settings: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """Per .NET project folder, the keys its ``appsettings*.json`` give a URL base or a destination name
    (:func:`~indexer.frameworks.app_settings.load_app_settings`), for ``config:`` keys C# code reads."""
    project_refs: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """Per .NET project folder, the project folders its ``<ProjectReference>`` items name
    (:attr:`~indexer.frameworks.app_settings.DotnetProjects.references`): the application a test project
    tests (:meth:`tested_application`)."""
    pages: Mapping[str, str] = field(default_factory=dict)
    """Razor pages' ``@page`` route templates by ``.cshtml`` path
    (:attr:`~indexer.frameworks.app_settings.DotnetProjects.pages`), applied to their page models' routes
    (:func:`~indexer.frameworks.razor_directives.page_route`)."""
    """Where nginx ``include`` directives looked for files (:attr:`~indexer.frameworks.nginx_config.NginxRoutes.patterns`):
    a file added at one of them is read again too."""

    @classmethod
    def for_repository(cls, root: str | Path, services: Mapping[str, str] | None = None) -> LinkOptions:
        """Options for the repository checked out at ``root``: its Spring configuration (repository-wide
        and per module), its service units (:func:`~indexer.frameworks.services.service_map`) and a
        service map made of every unit's names and aliases (a host ``billing`` -> the unit's service
        ``billing-api``), compose-published ports (``http://localhost:8080``, ``//127.0.0.1:8080`` ... -> ``billing-api``:
        :func:`~indexer.frameworks.app_ports.loopback_keys`) and the ports applications declare they listen on
        (:attr:`~indexer.frameworks.services.ServiceMap.listening`; a port two applications declare, or one compose
        publishes, is left to compose or to nobody), the Spring Cloud
        Gateway routes it declares (:func:`~indexer.frameworks.spring_config.gateway_routes`) and those its
        discovery locators make for every Spring application of the repository
        (:func:`~indexer.frameworks.spring_config.discovery_routes`), overridden by ``services`` (the user's
        configuration), and the nginx locations that forward to those services
        (:func:`~indexer.frameworks.nginx_config.load_nginx_routes`). Never raises on unreadable
        configuration files."""
        modules = load_module_properties(Path(root))
        found = service_map(root, modules)
        derived: dict[str, str] = {h: s for h, s in found.hosts.items() if h != s}
        for port, name in found.ports.items():  # compose ports: "8081:8080" publishes the service on localhost:8081
            derived.update(dict.fromkeys(loopback_keys([port]), name))
        for port, folders in found.listening.items():  # a port an application declares, unless compose publishes it
            names = {found.units[f].name for f in folders if f in found.units}
            if port not in found.ports and len(names) == 1 and None not in names:
                derived.update(dict.fromkeys(loopback_keys([port]), names.pop()))
        for props in modules.values():
            derived.update(gateway_routes(props))
        gateways = [r for _, props in sorted(modules.items()) for r in gateway_route_list(props)]
        registered = {p["spring.application.name"]: p.get("spring.cloud.consul.discovery.service-name")
                      or p.get("eureka.instance.appname") or p["spring.application.name"]
                      for _, p in sorted(modules.items()) if p.get("spring.application.name")}
        gateways += [r for _, props in sorted(modules.items()) for r in discovery_routes(props, registered)]
        nginx = load_nginx_routes(str(root), found, {**derived, **(services or {})})
        gateways += nginx.routes
        units = {f: u.name or "" for f, u in found.units.items()}
        dotnet = load_dotnet_projects(root)
        return cls(load_properties(Path(root)), {**derived, **(services or {})}, modules, units,
                   load_operations(Path(root)), load_env_files(root), load_proxies(root), found.manifests,
                   {"ecmascript": load_js_modules(root)}, load_mappers(root), load_templates(root), tuple(gateways),
                   gateway_inputs=nginx.inputs, gateway_patterns=nginx.patterns, settings=dotnet.settings,
                   project_refs=dotnet.references, pages=dotnet.pages)

    def properties_for(self, path: str) -> Mapping[str, str]:
        """The configuration a file sees: that of the innermost module folder holding it
        (``modules``, from :func:`indexer.frameworks.spring_config.load_module_properties`), else the
        repository-wide ``properties``."""
        best = max((m for m in self.modules if not m or path.startswith(m + "/")), key=len, default=None)
        return self.modules[best] if best is not None else self.properties

    def service_for(self, path: str) -> str | None:
        """The service (application) a file of the repository-relative ``path`` belongs to: the name
        of the innermost of ``units`` holding it, else ``spring.application.name`` of the innermost
        Spring module holding it (of ``properties`` when there are no modules: a file outside every
        module is not named by another module's configuration); ``None`` when nothing names it."""
        best = max((u for u in self.units if not u or path.startswith(u + "/")), key=len, default=None)
        if best is not None and self.units[best]:
            return self.units[best]
        if self.modules:  # the repository-wide configuration is not that of a file outside every module
            module = max((m for m in self.modules if not m or path.startswith(m + "/")), key=len, default=None)
            return self.modules[module].get("spring.application.name") or None if module is not None else None
        return self.properties.get("spring.application.name") or None

    def tested_application(self, path: str) -> str | None:
        """The application a test file of the repository-relative ``path`` that belongs to none
        (:meth:`service_for` gives nothing) tests in process: the one named application among the projects
        its .NET project (the innermost ``*.csproj`` folder holding it) references (``Catalog.FunctionalTests``
        beside ``Catalog.API``: ``catalog-api``); ``None`` when the file is in no .NET project or its project
        references no named application or several (``Application.FunctionalTests`` referencing four APIs)."""
        project = project_of(self.project_refs, path)
        if project is None:
            return None
        names = {self.service_for(f"{ref}/-" if ref else "-") for ref in self.project_refs[project]}
        names.discard(None)
        return names.pop() if len(names) == 1 else None

    def applications(self) -> dict[str, str]:
        """The folders that name the application of the files below them, as the registry keeps them
        (``Repository`` ``props["applications"]``): ``{folder: name}``, the repository-relative folder
        (``""``: the root) of each service unit and Spring module, with the name :meth:`service_for`
        gives a file directly in it (``""`` when nothing names it). A file's application is that of
        the longest folder holding it (:func:`analysis.services.application_of`), which is
        :meth:`service_for` of that file: the innermost unit or module holding a file is the longest
        such folder, and it sees the same unit and module as the file. A folder naming nothing is
        kept only when a named folder holds it (it stops that name); folders naming nothing under no
        named one are left out (the lookup gives nothing either way)."""
        folders = sorted({"", *self.units, *self.modules}, key=len)
        named: dict[str, str] = {}
        for folder in folders:
            name = self.service_for(f"{folder}/-" if folder else "-") or ""
            outer = max((f for f in named if not f or folder.startswith(f + "/")), key=len, default=None)
            if name or (outer is not None and named[outer]):
                named[folder] = name
        return named
