"""The ports the applications of a repository listen on, read where each application declares its own:
a client of ``http://localhost:8100`` (``//localhost:8100``, ``https://127.0.0.1:8100``) reaches the
application listening on 8100, not another one of the repository serving the same route
(:meth:`indexer.frameworks.link_options.LinkOptions.for_repository` turns the ports into service-map
keys; :func:`analysis.services.named_client_reaches` applies them).

Declarations read (each names the *application folder* whose files the port serves):

* go-kratos: a YAML file of a ``configs`` folder setting ``server.http.addr`` (``0.0.0.0:8100``,
  ``:8000``): the folder above ``configs`` (kratos' layout: ``cmd/``, ``configs/``, ``internal/``);
* ASP.NET Core: ``Properties/launchSettings.json`` (each profile's ``applicationUrl``, ``;``-separated,
  and its ``ASPNETCORE_URLS`` variable): the folder above ``Properties``; ``appsettings.json`` /
  ``appsettings.Development.json`` (``Kestrel:Endpoints:<name>:Url`` and ``Urls``, keys
  case-insensitive): its own folder;
* Spring Boot: ``server.port`` of a module's configuration
  (:func:`indexer.frameworks.spring_config.load_module_properties`; a ``${PORT:8081}`` placeholder gives
  its default): the module folder (:func:`spring_ports`).

A port of ``0`` (a random one) or outside 1-65535 is no declaration; a URL without a port names none
(its scheme's default is not taken: it says nothing of a development run). Files are read through
:func:`indexer.frameworks.services.read_config` (inside the root, regular, bounded); JSON files are parsed
by the standard library, else by ``json5`` (ASP.NET allows comments and trailing commas), YAML safe-loaded; a file
longer than :data:`MAX_PORT_FILE_CHARS` or malformed declares nothing and nothing raises.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Iterable, Mapping

import json5
import yaml

__all__ = ["loopback_port", "code_ports", "MAX_PORT_FILE_CHARS", "KRATOS_CONFIG_DIR", "PORT_FILE_FOLDERS", "APP_SETTINGS_FILES", "is_port_file", "app_folder", "port_of", "ports_of_file", "spring_ports",
           "loopback_keys"]

log = logging.getLogger(__name__)

MAX_PORT_FILE_CHARS = 64_000
"""Longest file read for a port (characters): these files are a few hundred bytes; a larger one (a hostile or
generated file, parsed by pure-Python YAML / JSON5) declares nothing."""
KRATOS_CONFIG_DIR = "configs"
"""The folder of a go-kratos application's configuration files (``app/shop/admin/configs/config.yaml``)."""
PORT_FILE_FOLDERS = (KRATOS_CONFIG_DIR, "Properties")
"""Base names of the folders whose files may declare their application's port (besides settings files)."""
APP_SETTINGS_FILES = ("appsettings.json", "appsettings.Development.json")
"""ASP.NET Core settings files that may set Kestrel's URLs."""
_LAUNCH_SETTINGS = "launchSettings.json"
_YAML = (".yaml", ".yml")
_PORT = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]*://)?(?:(?:\[[^\]/]*\]|[^:/\[\]\s{}$]*):)?(\d{1,5})/?")
_PLACEHOLDER = re.compile(r"\$\{[^:{}]*:(.*)\}", re.DOTALL)
_MAX_PLACEHOLDERS = 8
"""Placeholders nested deeper than this (``${A:${B:...}}``) name no port."""
LOOPBACK_FORMS = tuple(f"{scheme}{host}" for scheme in ("http://", "https://", "//")
                       for host in ("localhost", "127.0.0.1"))
"""The scheme and host forms a client on the same machine writes (``http://localhost``, ``//127.0.0.1``...)."""


def app_folder(rel: str) -> str | None:
    """The repository-relative folder of the application that the file ``rel`` (repository-relative,
    POSIX) declares a port of, ``None`` when ``rel`` is no file :func:`ports_of_file` reads: the folder
    above ``Properties`` for ``Properties/launchSettings.json``, the folder of an ``appsettings`` file, the
    folder above ``configs`` for a YAML file there.

    >>> app_folder("app/shop/admin/configs/config.yaml"), app_folder("Api/Properties/launchSettings.json")
    ('app/shop/admin', 'Api')
    >>> app_folder("src/Web/appsettings.json"), app_folder("configs/config.yaml"), app_folder("a/b.yaml")
    ('src/Web', '', None)
    """
    folder, _, name = rel.rpartition("/")
    parent, _, base = folder.rpartition("/")
    if name == _LAUNCH_SETTINGS and base == "Properties":
        return parent
    if name in APP_SETTINGS_FILES:
        return folder
    if name.endswith(_YAML) and base == KRATOS_CONFIG_DIR:
        return parent
    return None


def is_port_file(rel: str) -> bool:
    """Whether a change to the repository-relative file ``rel`` can change a declared port
    (:func:`app_folder` names its application)."""
    return app_folder(rel) is not None


def port_of(value: object) -> int | None:
    """The port a declared value names: an integer, ``"8100"``, ``"0.0.0.0:8100"``, ``":8000"``,
    ``"[::]:8080"``, ``"http://localhost:5000/"``, ``"https://+:5001"``, a Spring placeholder's default
    (``"${PORT:8081}"``, ``"${SERVER_PORT:${PORT:8081}}"``: at most :data:`_MAX_PLACEHOLDERS` deep); ``None`` for no
    port, ``0`` (a random one) or one above 65535.

    >>> [port_of(v) for v in (8080, "0.0.0.0:8100", ":8000", "http://*:5000", "${SERVER_PORT:8081}", "0.0.0.0:0",
    ...                       "http://localhost", "localhost", True, "99999")]
    [8080, 8100, 8000, 5000, 8081, None, None, None, None, None]
    """
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        port = value
    elif isinstance(value, str):
        text = value.strip()
        for _ in range(_MAX_PLACEHOLDERS):  # Spring's default of a default: `${SERVER_PORT:${PORT:8081}}` is 8081
            inner = _PLACEHOLDER.fullmatch(text)
            if inner is None:
                break
            text = inner.group(1).strip()
        m = _PORT.fullmatch(text)
        if m is None:
            return None
        port = int(m.group(1))
    else:
        return None
    return port if 0 < port < 65536 else None


def _get(node: object, *keys: str) -> object:
    """``node[k1][k2]...`` with keys matched case-insensitively; ``None`` when a level is missing or no mapping."""
    for key in keys:
        if not isinstance(node, Mapping):
            return None
        node = next((v for k, v in node.items() if isinstance(k, str) and k.lower() == key.lower()), None)
    return node


def _url_ports(value: object) -> list[int]:
    """The ports of a ``;``-separated URL list (``"https://localhost:7001;http://localhost:5001"``)."""
    if not isinstance(value, str):
        return []
    return [p for p in (port_of(u) for u in value.split(";")) if p is not None]


def ports_of_file(rel: str, read: Callable[[str], str | None]) -> list[int]:
    """The ports the file ``rel`` (:func:`app_folder` names it) declares, in file order without repeats;
    ``read(rel)`` gives its text (``None``: unreadable). Never raises on malformed content."""
    text = read(rel)
    if not text or len(text) > MAX_PORT_FILE_CHARS:
        return []
    name = rel.rpartition("/")[2]
    found: list[int] = []
    try:
        if name.endswith(_YAML):
            for doc in list(yaml.safe_load_all(text))[:20]:
                found += [p for p in (port_of(_get(doc, "server", "http", "addr")),) if p is not None]
        else:
            try:
                doc = json.loads(text)
            except ValueError:  # comments or trailing commas, which ASP.NET allows
                doc = json5.loads(text)
            if name == _LAUNCH_SETTINGS:
                profiles = _get(doc, "profiles")
                for profile in profiles.values() if isinstance(profiles, Mapping) else ():
                    found += _url_ports(_get(profile, "applicationUrl"))
                    found += _url_ports(_get(profile, "environmentVariables", "ASPNETCORE_URLS"))
            else:
                found += _url_ports(_get(doc, "Urls"))
                endpoints = _get(doc, "Kestrel", "Endpoints")
                for endpoint in endpoints.values() if isinstance(endpoints, Mapping) else ():
                    found += _url_ports(_get(endpoint, "Url"))
    except (yaml.YAMLError, ValueError, RecursionError, TypeError) as exc:
        log.warning("%s: no port read (%s)", rel, type(exc).__name__)
        return []
    return list(dict.fromkeys(found))


def spring_ports(modules: Mapping[str, Mapping[str, str]]) -> dict[str, list[int]]:
    """Per Spring module folder of ``modules`` (:func:`~indexer.frameworks.spring_config.load_module_properties`),
    the port its ``server.port`` declares (modules declaring none are left out)."""
    out: dict[str, list[int]] = {}
    for folder, props in modules.items():
        port = port_of(props.get("server.port"))
        if port is not None:
            out[folder] = [port]
    return out


_LOOPBACK_URL = re.compile(r"(?:[A-Za-z][A-Za-z0-9+.-]*:)?//(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]):(\d{1,5})(?=[/?#\x00]|$)")


def loopback_port(url: str) -> str | None:
    """The port a client URL on the same machine names (``//localhost:8100/v1/login`` -> ``"8100"``,
    ``http://127.0.0.1:3000`` -> ``"3000"``); ``None`` for another host or no port.

    >>> loopback_port("//localhost:8100/v1/login"), loopback_port("http://[::1]:3000"), loopback_port("http://api:80/x")
    ('8100', '3000', None)
    """
    m = _LOOPBACK_URL.match(url)
    return m.group(1) if m else None


def code_ports(declared: Iterable[tuple[str, str | None]]) -> dict[str, str]:
    """``{port: application}`` of the ports applications' code listens on (``declared``: each server's rendered
    port and the application of its file, :class:`~indexer.model.ListenPort`): a port only one named application
    declares; one of no named application, or of two, names none (the client keeps reaching every handler).

    >>> code_ports([("3000", "api"), ("3000", "api"), ("4000", "a"), ("4000", "b"), ("5000", None), ("?", "x")])
    {'3000': 'api'}
    """
    apps: dict[str, set[str | None]] = {}
    for text, app in declared:
        port = port_of(text)
        if port is not None:
            apps.setdefault(str(port), set()).add(app)
    return {port: next(iter(names)) for port, names in apps.items() if len(names) == 1 and None not in names}  # type: ignore[misc]


def loopback_keys(ports: Iterable[int | str]) -> list[str]:
    """The service-map keys of a client on the same machine requesting one of ``ports``: each of
    :data:`LOOPBACK_FORMS` with ``:<port>`` (``http://localhost:8100``, ``//127.0.0.1:8100``...)."""
    return [f"{form}:{port}" for port in ports for form in LOOPBACK_FORMS]
