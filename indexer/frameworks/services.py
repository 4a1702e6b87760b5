"""Service boundaries of a repository, language-neutral: which folder is one deployable service, and
what it is called. The linker (:mod:`indexer.frameworks.link`) uses them to name the application of
every endpoint (EXPOSES ``props["service"]``), to stop application-wide wrappers at a service's
folder, and to map a client URL's host (``http://billing-api:8080``, ``lb://billing``) to the service
it addresses.

A folder is a *build unit* (:func:`service_map`) when it holds one of

* a Maven ``pom.xml`` or Gradle ``build.gradle(.kts)``; the folders a ``pom.xml``'s ``<module>`` or a
  ``settings.gradle(.kts)``'s ``include`` names;
* a ``package.json`` with a ``start`` / ``dev`` / ``serve`` script or a web framework dependency
  (:data:`JS_FRAMEWORKS`), and every folder its ``workspaces`` name (globs ending in ``/*`` expanded
  one level);
* a ``pyproject.toml``, ``setup.py`` or ``requirements*.txt``;
* a ``Dockerfile`` (or ``Dockerfile.*`` / ``*.Dockerfile``);
* an ASP.NET Core project: a ``*.csproj`` of the Web SDK (``<Project Sdk="Microsoft.NET.Sdk.Web">``, or
  ``<Sdk Name="Microsoft.NET.Sdk.Web" />``), a web application whether or not it is containerised;
* the build context of a docker-compose service (``services: billing-api: build: ./billing``);
* a Spring module folder (:func:`indexer.frameworks.spring_config.load_module_properties`);
* an application folder declaring the port it listens on (:mod:`indexer.frameworks.app_ports`: a
  go-kratos ``configs/*.yaml``, an ASP.NET ``launchSettings.json`` or Kestrel URL, Spring ``server.port``)
  that no named unit holds (one inside a compose service's build context is that service's).

Its name, first found: the docker-compose service building it (of several building one folder, the
first whose Dockerfile copies files of the context: one copying none, no ``COPY`` / ``ADD`` but
``--from`` another stage, runs a tool, not the folder's code: ``maildev: build: {context: .,
dockerfile: maildev.Dockerfile}`` beside ``api: build: .``) (or running an image named like the
folder: ``image: springcommunity/spring-petclinic-customers-service`` for the folder
``spring-petclinic-customers-service``), the Kubernetes ``Service`` whose
selector matches a ``Deployment`` whose container image is named like the folder or a compose
service (``registry/billing:1.2`` -> ``billing``), ``spring.application.name`` of its Spring
configuration, the ``name`` of its ``package.json`` (scope cut off: ``@shop/billing`` -> ``billing``),
the folder's own name. The repository root is named only by compose, Kubernetes or Spring (a
single-application repository keeps naming its endpoints as before). Every other name of a unit (the
Kubernetes name, Spring name, package name, folder name) is an *alias*: a client URL whose host is
an alias addresses that unit's service.

Bounds (a repository is untrusted): at most :data:`MAX_DIRS` folders are walked, :data:`MAX_DEPTH`
deep, build output, VCS and dependency folders skipped, symbolic links to folders never followed and
files leading out of the root never read (:func:`indexer.fsguard.read_inside`); each file read is at
most :data:`MAX_FILE_BYTES` (a larger one is ignored), at most :data:`MAX_YAML_FILES` YAML files are
read for Kubernetes objects, YAML is safe-loaded and only walked two levels deep (an alias bomb is
never expanded); a compose ``build`` path leading out of the root names nothing. Nothing raises on
malformed files.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import PurePosixPath

import yaml

from indexer.frameworks.app_ports import APP_SETTINGS_FILES, PORT_FILE_FOLDERS, app_folder, ports_of_file, spring_ports
from indexer.frameworks.env_config import env_values
from indexer.fsguard import SkipFile, read_inside

__all__ = ["ServiceUnit", "ServiceMap", "service_map", "compose_environment", "interpolate_compose", "is_compose_file", "is_boundary_file", "JS_FRAMEWORKS", "MAX_DIRS", "MAX_FILE_BYTES",
           "read_config", "walk_folders"]

log = logging.getLogger(__name__)

MAX_DIRS = 20_000
"""Folders walked at most; beyond, no more units are found (a note is logged)."""
MAX_DEPTH = 12
"""Folder depth below the root walked at most."""
MAX_FILE_BYTES = 1_000_000
"""Cap (bytes) on each build, compose or Kubernetes file read; a larger one is ignored."""
MAX_YAML_FILES = 400
"""YAML files read at most looking for Kubernetes ``Service`` / ``Deployment`` objects."""
MAX_DOCUMENTS = 200
"""YAML documents read at most per file."""
SKIP_DIRS = frozenset({
    "build", "target", "node_modules", ".git", ".gradle", ".venv", "venv", ".tox", "__pycache__", "dist",
    ".idea", ".mvn", "bower_components", ".next", ".nuxt", "vendor",
})
JS_FRAMEWORKS = frozenset({
    "express", "koa", "fastify", "hono", "@nestjs/core", "next", "nuxt", "react", "react-dom", "react-scripts",
    "vue", "@angular/core", "svelte", "@sveltejs/kit", "@remix-run/node", "@apollo/server", "apollo-server",
    "@hapi/hapi", "restify", "socket.io",
})
"""Dependencies that make a ``package.json`` folder an application (a server or a front end)."""
_COMPOSE_NAMES = re.compile(r"^(?:docker-)?compose(?:[.-][\w.-]+)?\.ya?ml$")
_DEFAULT_COMPOSE = ("compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml")
"""The compose files docker compose reads when none is named, in its order of preference."""
_DOCKERFILE = re.compile(r"^(?:Dockerfile(?:\.[\w.-]+)?|[\w.-]+\.Dockerfile)$")
_REQUIREMENTS = re.compile(r"^requirements[\w.-]*\.txt$")
_MAVEN_MODULE = re.compile(r"<module>\s*([^<\s]+)\s*</module>")
_GRADLE_INCLUDE = re.compile(r"""\binclude\s*\(?\s*((?:["'][^"'\n]+["']\s*,?\s*)+)""")
_QUOTED = re.compile(r"""["']([^"'\n]+)["']""")
_CONTEXT_COPY = re.compile(r"^[ \t]*(?:COPY|ADD)[ \t]+(?![^\n]*--from=)", re.I | re.M)
"""A Dockerfile instruction copying files of the build context (``COPY --from=build`` copies another
stage's)."""


_VARIABLE = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^${}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))")
"""docker compose's interpolation: ``${VAR}``, ``${VAR:-default}`` / ``${VAR-default}``, ``${VAR:?err}``, ``$VAR``.
A default holds no ``$``, ``{`` nor ``}``: the innermost of nested ones (``${A:-${B}}``) matches
first, and a match tried at each ``$`` of a text stops at the next one, so a text of ``n`` unclosed
``${A:-`` costs ``O(n)``, not the ``O(n^2)`` of a default running to the text's end (80 KB took 27 s)."""
MAX_INTERPOLATED = 4096
"""Longest text :func:`interpolate_compose` reads or makes (a Dockerfile path: Linux's ``PATH_MAX``)."""
MAX_NESTING = 8
"""Rounds of :func:`interpolate_compose` for nested variables (``${A:-${B:-${C}}}`` takes three)."""


def interpolate_compose(text: str, env: Mapping[str, str]) -> str | None:
    """``text`` of a compose file with its variables replaced from ``env`` (the ``.env`` beside the
    compose file, which docker compose reads; the indexing machine's own environment never), a
    default taking an unset (``-``) or unset-or-empty (``:-``) variable's place, a default that is a
    variable itself (``${A:-${B}}``) read innermost first, up to :data:`MAX_NESTING` deep; ``$$`` is
    ``$``. ``None`` when a variable has no value here, when the text or what it becomes is longer
    than :data:`MAX_INTERPOLATED` characters, or when variables are still left after the last round."""
    missing = False

    def value(m: re.Match[str]) -> str:
        nonlocal missing
        name = m.group(1) or m.group(4)
        got = env.get(name)
        op, default = m.group(2), m.group(3)
        if op in (":-", "-") and (got is None or (op == ":-" and not got)):
            return default or ""
        if got is None:
            missing = True
            return ""
        return got

    if len(text) > MAX_INTERPOLATED:
        return None
    pieces = text.split("$$")
    for i, piece in enumerate(pieces):
        for _ in range(MAX_NESTING):
            if "$" not in piece:
                break
            piece, n = _VARIABLE.subn(value, piece)
            if missing or n == 0 or len(piece) > MAX_INTERPOLATED:
                return None
        if "$" in piece:
            return None  # unclosed, or nested past the bound: no path docker compose would build
        pieces[i] = piece
    return "$".join(pieces)


def compose_environment(value: object, env: Mapping[str, str]) -> dict[str, str]:
    """The variables a compose service's ``environment`` (a mapping, or a list of ``KEY=value``) sets,
    each value interpolated from ``env`` (the ``.env`` beside the compose file, :func:`interpolate_compose`);
    a variable without a value (``- KEY``, ``KEY:``) or whose value cannot be interpolated is left out.

    >>> compose_environment(["A=1", "B=${X:-x}", "C"], {})
    {'A': '1', 'B': 'x'}
    """
    items: list[tuple[object, object]]
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list):
        items = [tuple(v.split("=", 1)) if isinstance(v, str) and "=" in v else (v, None) for v in value]
    else:
        return {}
    out: dict[str, str] = {}
    for key, raw in items:
        if not isinstance(key, str) or raw is None or isinstance(raw, (dict, list)):
            continue
        text = str(raw).lower() if isinstance(raw, bool) else str(raw)
        got = interpolate_compose(text, env) if "$" in text else text
        if got is not None:
            out[key.strip()] = got
    return out


def _envsubst_mounts(folder: str, spec: Mapping[str, object]) -> list[str]:
    """Repository-relative files a compose service ``spec`` (of the compose file in ``folder``) bind-mounts
    for ``envsubst`` to fill (:attr:`ServiceMap.filled`): all its file mounts when its ``command`` or
    ``entrypoint`` runs ``envsubst``, else those mounted under ``/etc/nginx/templates/``."""
    runs = "envsubst" in f"{spec.get('command') or ''} {spec.get('entrypoint') or ''}"
    out: list[str] = []
    for v in spec.get("volumes") or [] if isinstance(spec.get("volumes"), list) else []:
        source, target = (v.get("source"), v.get("target")) if isinstance(v, dict) else (
            (v.split(":")[:2] + [""])[:2] if isinstance(v, str) else (None, None))
        if not isinstance(source, str) or not isinstance(target, str) or not source.startswith((".", "/")):
            continue  # a named volume
        if runs or target.startswith("/etc/nginx/templates/"):
            path = _inside(folder, source) if not source.startswith("/") else None
            if path:
                out.append(path)
    return out


def _dotenv(real: str, rel: str) -> Mapping[str, str]:
    """The variables of the ``.env`` file ``rel`` (:func:`indexer.frameworks.env_config.env_values`); ``{}``
    when there is none or it cannot be read. Read to interpolate a compose ``dockerfile`` and a service's
    ``environment`` (:attr:`ServiceMap.environments`); no other value is kept."""
    text = _read(real, rel) if os.path.isfile(os.path.join(real, rel)) else None
    return (env_values(text, rel) or {}) if text else {}


def _dockerfile_folder(real: str, context: str, build: Mapping[str, object],
                       env: Mapping[str, str]) -> tuple[str, Mapping[str, object]]:
    """``(folder, build)`` a compose ``build`` names as its service's: the folder of its ``dockerfile``
    when that lies below the ``context`` (``context: ./``, ``dockerfile: ${CART_DOCKERFILE}``, ``.env``:
    ``CART_DOCKERFILE=./src/cart/src/Dockerfile``, as opentelemetry-demo builds each service from the
    repository root), with a ``build`` naming that file there; else the context and ``build`` as given
    (a Dockerfile in the context, a path leading out, a variable with no value)."""
    name = build.get("dockerfile")
    if not isinstance(name, str):
        return context, build
    written = interpolate_compose(name, env) if "$" in name else name
    path = _inside(context, written) if written else None
    if path is None or "/" not in "/" + path:
        return context, build
    folder, _, file = path.rpartition("/")
    if folder == context or not file or not _real_folder(real, folder) or not os.path.isfile(os.path.join(real, path)):
        return context, build
    return folder, {**build, "context": folder, "dockerfile": file}


def _runs_context(real: str, context: str, build: object) -> bool:
    """Whether the image a compose ``build`` (a path, or ``{context, dockerfile}``) makes holds its
    context's files: its Dockerfile (``dockerfile``, relative to the context; default ``Dockerfile``)
    copies some (:data:`_CONTEXT_COPY`). A Dockerfile that cannot be read counts as copying (the
    service names its folder, as it did before Dockerfiles were read)."""
    name = build.get("dockerfile") if isinstance(build, dict) else None
    if not isinstance(name, str) or not name:
        name = "Dockerfile"
    rel = _inside(context, name)
    text = _read(real, rel) if rel is not None else None
    return text is None or _CONTEXT_COPY.search(text) is not None


_WEB_SDK = re.compile(r'\bSdk\s*=\s*"Microsoft\.NET\.Sdk\.Web(?:/[^"]*)?"|<Sdk\s+Name\s*=\s*"Microsoft\.NET\.Sdk\.Web"')
"""An ASP.NET Core project file (the Web SDK: a web application, :func:`service_map`)."""
_BUILD_FILES = frozenset({"pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts",
                          "package.json", "pyproject.toml", "setup.py"})


def is_compose_file(name: str) -> bool:
    """Whether a file of this base name is a compose file (``compose.yaml``, ``docker-compose.prod.yml``)."""
    return bool(_COMPOSE_NAMES.match(name))


def is_boundary_file(name: str) -> bool:
    """Whether a file of this base name can move a service boundary or rename a service (a build
    file, Dockerfile or compose file): a change to it re-reads :func:`service_map`. Kubernetes
    manifests (any YAML) are not watched."""
    return (name in _BUILD_FILES or bool(_REQUIREMENTS.match(name)) or bool(_DOCKERFILE.match(name))
            or bool(_COMPOSE_NAMES.match(name)))


@dataclass(frozen=True, slots=True)
class ServiceUnit:
    """One service: ``folder`` repository-relative POSIX (``""``: the root), ``name`` (``None``: the
    root, named by nothing), ``how`` the name was found (``compose``, ``kubernetes``, ``spring``,
    ``package``, ``folder``), ``aliases`` (its other names), ``kinds`` (the build files found:
    ``maven``, ``gradle``, ``npm``, ``python``, ``docker``, ``compose``, ``spring``, ``port``)."""

    folder: str
    name: str | None
    how: str
    aliases: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ServiceMap:
    """The services of one repository: ``units`` by folder, ``hosts``: every name and alias -> the
    service name it stands for (a URL host that is a key addresses that service), and ``ports``."""

    units: Mapping[str, ServiceUnit] = field(default_factory=dict)
    hosts: Mapping[str, str] = field(default_factory=dict)
    ports: Mapping[str, str] = field(default_factory=dict)
    """Host port published by a compose service built here (``ports: ["8081:8080"]``) -> its service
    name: ``http://localhost:8081`` addresses it."""
    manifests: frozenset[str] = frozenset()
    """Repository-relative paths of the Kubernetes manifests read (a Service or a workload in them):
    an edit to one re-reads the boundaries."""
    environments: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """Per folder a compose service is built from, the ``environment`` compose gives its container
    (:func:`compose_environment`; the first compose file naming a variable wins): what an envsubst
    template of the image (nginx's ``*.conf.template``) is filled with."""
    filled: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    """Per repository-relative file a compose service mounts (``volumes: ["./nginx/nginx.conf:/tmp/x"]``)
    into a container that fills it with ``envsubst`` (its ``command`` / ``entrypoint`` names it, or the
    file goes to ``/etc/nginx/templates/``, which the nginx image fills): that service's environment."""
    listening: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """Port an application declares it listens on (:mod:`indexer.frameworks.app_ports`: go-kratos
    ``server.http.addr``, ASP.NET ``launchSettings.json`` / Kestrel URLs, Spring ``server.port``) -> the
    unit folders it names: the innermost named unit holding the declaring folder, else that folder, made a unit
    of kind ``port``."""

    def unit_of(self, path: str) -> ServiceUnit | None:
        """The innermost unit whose folder holds the repository-relative POSIX ``path`` (``None``:
        none)."""
        best = max((f for f in self.units if not f or path.startswith(f + "/")), key=len, default=None)
        return self.units[best] if best is not None else None


def read_config(root: str, rel: str) -> str | None:
    """The text of configuration file ``rel`` under ``root`` (inside it, a regular file, at most
    :data:`MAX_FILE_BYTES`; invalid UTF-8 replaced), ``None`` when it cannot be read."""
    return _read(root, rel)


def _read(root: str, rel: str) -> str | None:
    def warn(skip: SkipFile) -> None:  # a compose file linked out of the repository is worth a word
        if skip.reason != "unreadable":
            log.warning("%s ignored: %s", rel, skip)

    data = read_inside(os.path.join(root, rel), MAX_FILE_BYTES, root, on_skip=warn)
    return None if data is None else data.decode("utf-8", "replace")


def _inside(base: str, rel: str) -> str | None:
    """``rel`` (a folder written in a file of folder ``base``) as a repository-relative POSIX folder,
    ``None`` when it leads out of the root or is absolute."""
    if not rel or rel.startswith(("/", "\\")) or "://" in rel or "\x00" in rel:
        return None
    parts: list[str] = [p for p in base.split("/") if p]
    for seg in rel.replace("\\", "/").split("/"):
        if seg in ("", "."):
            continue
        if seg == "..":
            if not parts:
                return None
            parts.pop()
        else:
            parts.append(seg)
    return "/".join(parts)


def _real_folder(root: str, folder: str) -> bool:
    """Whether ``folder`` (repository-relative POSIX) is a folder under the real ``root`` reached
    through no symbolic link at all (a link anywhere on the way could lead out of the root)."""
    full = os.path.join(root, *folder.split("/")) if folder else root
    return os.path.isdir(full) and os.path.realpath(full) == os.path.normpath(full)


def walk_folders(root: str) -> Iterator[tuple[str, list[str]]]:
    """``(folder, file names)`` of every folder under ``root`` (repository-relative POSIX), sorted,
    within the bounds of the module docstring; links to folders are not followed."""
    seen = 0
    for folder, dirs, files in os.walk(root):
        rel = os.path.relpath(folder, root).replace(os.sep, "/")
        rel = "" if rel == "." else rel
        depth = rel.count("/") + 1 if rel else 0
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith(".")
                         and not os.path.islink(os.path.join(folder, d))) if depth < MAX_DEPTH else []
        seen += 1
        if seen > MAX_DIRS:
            log.warning("service boundaries: more than %d folders under %s, the rest not looked at", MAX_DIRS, root)
            return
        yield rel, sorted(files)


_CLoader = getattr(yaml, "CSafeLoader", None)  # libyaml's safe loader, when PyYAML was built with it


def _yaml_docs(text: str) -> list[object]:
    """The first :data:`MAX_DOCUMENTS` documents of a YAML stream (safe loader; libyaml's when the
    text has no anchor, so no alias; none when it does not parse)."""
    docs: list[object] = []
    loader = yaml.SafeLoader if "&" in text or _CLoader is None else _CLoader
    try:
        for doc in yaml.load_all(text, Loader=loader):  # noqa: S506 - a safe loader
            docs.append(doc)
            if len(docs) >= MAX_DOCUMENTS:
                break
    except (yaml.YAMLError, ValueError, RecursionError):
        pass
    return docs


def _package(text: str) -> tuple[bool, str | None, list[str]]:
    """``(is an application, its name, its workspace globs)`` of a ``package.json``'s text."""
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        return False, None, []
    if not isinstance(doc, dict):
        return False, None, []
    scripts = doc.get("scripts") if isinstance(doc.get("scripts"), dict) else {}
    deps: set[str] = set()
    for key in ("dependencies", "devDependencies"):
        if isinstance(doc.get(key), dict):
            deps.update(str(k) for k in doc[key])
    app = any(k in scripts for k in ("start", "dev", "serve")) or bool(deps & JS_FRAMEWORKS)
    name = doc.get("name") if isinstance(doc.get("name"), str) else None
    ws = doc.get("workspaces")
    if isinstance(ws, dict):
        ws = ws.get("packages")
    globs = [w for w in ws if isinstance(w, str)] if isinstance(ws, list) else []
    return app, (name.rsplit("/", 1)[-1] if name else None), globs


def _expand(root: str, base: str, pattern: str, budget: list[int]) -> list[str]:
    """Folders a workspace / module pattern names: a plain folder, or ``dir/*`` one level down.
    ``budget[0]`` is how many more folders the whole run may look at (each ``dir/*`` listing spends
    one per entry): a repository listing ``pkgs/*`` five hundred times, or a thousand packages each
    listing ``../*``, stops there instead of stat-ing millions of folders."""
    pattern = pattern.rstrip("/")
    if budget[0] <= 0:
        return []
    if pattern.endswith("/*") or pattern.endswith("/**"):
        parent = _inside(base, pattern.rsplit("/", 1)[0])
        if parent is None:
            return []
        full = os.path.join(root, parent)
        try:
            names = sorted(os.listdir(full))[: min(1000, budget[0])] if _real_folder(root, parent) else []
        except OSError:
            return []
        budget[0] -= len(names) + 1
        return [f"{parent}/{n}" if parent else n for n in names if _real_folder(root, f"{parent}/{n}" if parent else n)]
    budget[0] -= 1
    if "*" in pattern:
        return []
    one = _inside(base, pattern)
    return [one] if one is not None and _real_folder(root, one) else []


def _published(ports: object) -> list[str]:
    """Host ports of a compose ``ports`` list: ``"8081:8080"``, ``"127.0.0.1:8081:8080/tcp"``,
    ``{published: 8081, target: 8080}``; a bare ``"8080"`` (an ephemeral host port) and ranges publish
    nothing known."""
    out: list[str] = []
    for p in ports[:50] if isinstance(ports, list) else []:
        if isinstance(p, dict):
            pub = p.get("published")
            if isinstance(pub, (int, str)) and str(pub).isdigit():
                out.append(str(pub))
        elif isinstance(p, str):
            parts = p.split("/", 1)[0].split(":")
            if len(parts) >= 2 and parts[-2].isdigit():
                out.append(parts[-2])
    return out


def _image_name(image: object) -> str | None:
    """``registry.example/shop/billing:1.2@sha256:...`` -> ``billing``."""
    if not isinstance(image, str) or not image:
        return None
    last = image.split("@", 1)[0].rsplit("/", 1)[-1]
    return last.split(":", 1)[0] or None


def service_map(root: str | os.PathLike[str], spring_modules: Mapping[str, Mapping[str, str]] | None = None) -> ServiceMap:
    """The service units of the repository checked out at ``root`` (rules and bounds in the module
    docstring). ``spring_modules``: :func:`~indexer.frameworks.spring_config.load_module_properties`
    of the same root (module folders become units; ``spring.application.name`` names them). Never
    raises on unreadable or malformed files."""
    real = os.path.realpath(root)
    kinds: dict[str, set[str]] = {}
    pkg_names: dict[str, str] = {}
    compose: dict[str, str] = {}  # folder -> compose service name
    tools: set[str] = set()  # folders named by a compose service whose Dockerfile copies none of their files
    ports: dict[str, str] = {}
    port_files: list[str] = []  # files that may declare the port of their application (indexer.frameworks.app_ports)
    compose_images: list[tuple[str, str]] = []  # (image name, compose service) of services built elsewhere
    yaml_files: list[str] = []
    expand_budget = [MAX_DIRS]  # folders workspace globs may look at, over the whole run (see _expand)
    dotenvs: dict[str, Mapping[str, str]] = {}  # compose folder -> its .env (interpolating a dockerfile path)
    environments: dict[str, dict[str, str]] = {}  # built folder -> its compose environment
    filled: dict[str, dict[str, str]] = {}  # file mounted into an envsubst container -> its environment

    def unit(folder: str | None, kind: str) -> None:
        if folder is not None and _real_folder(real, folder):
            kinds.setdefault(folder, set()).add(kind)

    for folder, files in walk_folders(real):
        def rel(name: str, folder: str = folder) -> str:
            return f"{folder}/{name}" if folder else name
        if folder.rpartition("/")[2] in PORT_FILE_FOLDERS or any(n in files for n in APP_SETTINGS_FILES):
            port_files += [rel(n) for n in sorted(files) if app_folder(rel(n)) is not None]
        # the files docker compose reads by default first: their services name a folder before those of
        # an extra file (compose.tests.yaml's frontendTests building src/frontend with Dockerfile.cypress)
        for name in sorted(files, key=lambda n: (n not in _DEFAULT_COMPOSE, n)):
            if name == "pom.xml":
                unit(folder, "maven")
                text = _read(real, rel(name)) or ""
                for m in _MAVEN_MODULE.findall(text):
                    unit(_inside(folder, m), "maven")
            elif name in ("build.gradle", "build.gradle.kts"):
                unit(folder, "gradle")
            elif name in ("settings.gradle", "settings.gradle.kts"):
                text = _read(real, rel(name)) or ""
                for group in _GRADLE_INCLUDE.findall(text):
                    for m in _QUOTED.findall(group):
                        unit(_inside(folder, m.lstrip(":").replace(":", "/")), "gradle")
            elif name == "package.json":
                app, pname, globs = _package(_read(real, rel(name)) or "")
                if app:
                    unit(folder, "npm")
                if pname and folder:
                    pkg_names[folder] = pname
                for g in dict.fromkeys(globs):  # a glob listed twice is expanded once
                    for f in _expand(real, folder, g, expand_budget):
                        unit(f, "npm")
            elif name in ("pyproject.toml", "setup.py") or _REQUIREMENTS.match(name):
                unit(folder, "python")
            elif _DOCKERFILE.match(name):
                unit(folder, "docker")
            elif name.endswith(".csproj") and _WEB_SDK.search(_read(real, rel(name)) or ""):
                unit(folder, "dotnet")
            if _COMPOSE_NAMES.match(name):
                for doc in _yaml_docs(_read(real, rel(name)) or "")[:1]:
                    services = doc.get("services") if isinstance(doc, dict) else None
                    if not isinstance(services, dict):
                        continue
                    for sname, spec in services.items():
                        if not isinstance(sname, str) or not isinstance(spec, dict):
                            continue
                        build = spec.get("build")
                        context = build.get("context") if isinstance(build, dict) else build
                        target = _inside(folder, context) if isinstance(context, str) else None
                        if target is not None and isinstance(build, dict) and isinstance(build.get("dockerfile"), str):
                            if folder not in dotenvs:
                                dotenvs[folder] = _dotenv(real, rel(".env"))
                            target, build = _dockerfile_folder(real, target, build, dotenvs[folder])
                        if target is not None and spec.get("environment"):
                            if folder not in dotenvs:
                                dotenvs[folder] = _dotenv(real, rel(".env"))
                            given = compose_environment(spec.get("environment"), dotenvs[folder])
                            for k, v in given.items():
                                environments.setdefault(target, {}).setdefault(k, v)
                        for mounted in _envsubst_mounts(folder, spec):
                            if folder not in dotenvs:
                                dotenvs[folder] = _dotenv(real, rel(".env"))
                            filled.setdefault(mounted, compose_environment(spec.get("environment"), dotenvs[folder]))
                        if target is not None and (target not in compose or target in tools):
                            copies = _runs_context(real, target, build)
                            if target in compose and not copies:
                                continue  # a second tool building the folder: the first keeps its name
                            unit(target, "compose")
                            if target in kinds:
                                compose[target] = sname
                                if copies:
                                    tools.discard(target)
                                else:
                                    tools.add(target)
                                for port in _published(spec.get("ports")):
                                    ports.setdefault(port, sname)
                        elif build is None and (image := _image_name(spec.get("image"))):
                            compose_images.append((image, sname))
            elif name.endswith((".yml", ".yaml")) and len(yaml_files) < MAX_YAML_FILES:
                yaml_files.append(rel(name))
    for m in (spring_modules or {}):
        unit(m, "spring")
    declared = spring_ports(spring_modules or {})  # application folder -> the ports it declares
    for f in port_files[:MAX_YAML_FILES]:
        got = ports_of_file(f, lambda r: _read(real, r))
        if got:
            declared.setdefault(app_folder(f) or "", []).extend(got)

    manifests: set[str] = set()
    k8s = _kubernetes(real, yaml_files, manifests)
    units: dict[str, ServiceUnit] = {}
    by_basename: dict[str, list[str]] = {}
    for folder in kinds:
        by_basename.setdefault(PurePosixPath(folder).name or "", []).append(folder)
    for image, sname in compose_images:  # image: shop/billing-service:1.0 runs the folder billing-service
        for folder in by_basename.get(image, []):
            if folder and folder not in compose and sname not in compose.values():
                compose[folder] = sname
    k8s_of: dict[str, str] = {}
    for image, kname in k8s:
        for folder in by_basename.get(image, []) + [f for f, c in compose.items() if c == image]:
            k8s_of.setdefault(folder, kname)
    for folder in sorted(kinds):
        spring = (spring_modules or {}).get(folder, {}).get("spring.application.name") or None
        candidates = [(compose.get(folder), "compose"), (k8s_of.get(folder), "kubernetes"), (spring, "spring")]
        if folder:
            candidates += [(pkg_names.get(folder), "package"), (PurePosixPath(folder).name, "folder")]
        names = [(n, how) for n, how in candidates if n]
        name, how = names[0] if names else (None, "")
        aliases = tuple(dict.fromkeys(n for n, _ in names[1:] if n != name))
        units[folder] = ServiceUnit(folder, name, how, aliases, tuple(sorted(kinds[folder])))
    listening = _listening(real, declared, units, pkg_names)
    hosts: dict[str, str] = {}
    for u in units.values():  # explicit names first; an alias never takes over another unit's name
        if u.name:
            hosts.setdefault(u.name, u.name)
    for u in units.values():
        for a in u.aliases:
            hosts.setdefault(a, u.name or a)
    return ServiceMap(units, hosts, ports, frozenset(manifests), environments, filled,
                      listening)


def _listening(real: str, declared: Mapping[str, list[int]], units: dict[str, ServiceUnit],
               pkg_names: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """Per port the folders of ``declared`` (application folder -> its declared ports) declare, the unit
    folders they name: the innermost named unit holding the declaring folder (a project inside a compose
    service's build context is that service), else the folder itself, made a unit of kind ``port`` (named by
    its package, else its own name; the root by nothing). ``units`` is updated in place."""
    out: dict[str, list[str]] = {}
    for folder, found in sorted(declared.items()):
        if not _real_folder(real, folder):
            continue
        holder = max((f for f in units if not f or f == folder or folder.startswith(f + "/")), key=len, default=None)
        if holder is None or not units[holder].name:
            names = [n for n in ((pkg_names.get(folder), PurePosixPath(folder).name) if folder else ()) if n]
            prior = units.get(folder)
            units[folder] = ServiceUnit(folder, names[0] if names else None,
                                        ("package" if pkg_names.get(folder) else "folder") if names else "",
                                        tuple(dict.fromkeys(n for n in names[1:] if n != names[0])),
                                        tuple(sorted({*(prior.kinds if prior else ()), "port"})))
            holder = folder
        elif "port" not in units[holder].kinds:
            u = units[holder]
            units[holder] = ServiceUnit(u.folder, u.name, u.how, u.aliases, tuple(sorted({*u.kinds, "port"})))
        for port in dict.fromkeys(found):
            out.setdefault(str(port), []).append(holder)
    return {p: tuple(dict.fromkeys(fs)) for p, fs in out.items()}


def _kubernetes(root: str, files: list[str], manifests: set[str]) -> list[tuple[str, str]]:
    """``(image name, Service name)`` pairs: a ``kind: Service`` whose ``spec.selector`` labels are all
    among a ``Deployment`` / ``StatefulSet`` / ``DaemonSet`` pod template's labels, with that
    workload's container images (:func:`_image_name`). Adds to ``manifests`` each file holding one of
    those kinds."""
    services: list[tuple[str, dict[str, str]]] = []
    workloads: list[tuple[dict[str, str], list[str]]] = []
    for rel in files:
        text = _read(root, rel)
        if not text or "kind:" not in text:
            continue
        for doc in _yaml_docs(text):
            if not isinstance(doc, dict):
                continue
            kind, spec = doc.get("kind"), doc.get("spec")
            if not isinstance(spec, dict):
                continue
            if kind in ("Service", "Deployment", "StatefulSet", "DaemonSet"):
                manifests.add(rel)
            if kind == "Service":
                meta = doc.get("metadata")
                name = meta.get("name") if isinstance(meta, dict) else None
                sel = spec.get("selector")
                if isinstance(name, str) and isinstance(sel, dict):
                    services.append((name, {str(k): str(v) for k, v in sel.items() if isinstance(v, (str, int))}))
            elif kind in ("Deployment", "StatefulSet", "DaemonSet"):
                tmpl = spec.get("template")
                meta = tmpl.get("metadata") if isinstance(tmpl, dict) else None
                labels = meta.get("labels") if isinstance(meta, dict) else None
                pod = tmpl.get("spec") if isinstance(tmpl, dict) else None
                containers = pod.get("containers") if isinstance(pod, dict) else None
                if isinstance(labels, dict) and isinstance(containers, list):
                    images = [i for c in containers[:20] if isinstance(c, dict) and (i := _image_name(c.get("image")))]
                    workloads.append(({str(k): str(v) for k, v in labels.items() if isinstance(v, (str, int))}, images))
    out: list[tuple[str, str]] = []
    for name, sel in services:
        for labels, images in workloads:
            if sel and all(labels.get(k) == v for k, v in sel.items()):
                out += [(image, name) for image in images]
    return out
