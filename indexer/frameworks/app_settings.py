"""ASP.NET Core configuration files: ``appsettings.json`` and ``appsettings.Development.json`` of each
.NET project, for configuration keys C# code reads (``configuration["EventBus:Queue"]``,
``GetValue<string>("Kafka:Topic")``, ``GetSection("Services")["Catalog"]``: a ``config:`` ``ref``,
:data:`~indexer.symbols.CONFIG_KEY`).

Like ``.env`` files (:mod:`indexer.frameworks.env_config`) they are configuration read by the linker,
not source: :func:`load_app_settings` reads them once per run, per *project folder* (a folder holding
a ``*.csproj``). A key is looked up in the project folder innermost around the file reading it
(:func:`settings_for`), and only there: another service's settings are never used, as ASP.NET reads
only its host project's files at run time. A class library (a project without settings files) runs
inside the host projects that reference it (``<ProjectReference>``, followed through other libraries):
it sees the values all those hosts agree on. ``appsettings.Development.json`` is
read before ``appsettings.json`` and the first setting a key wins: the value a developer's run sees
(ASP.NET's environment-specific file overrides the base one). Nested objects are flattened with
``:`` (``{"EventBus": {"Queue": "orders"}}`` -> ``EventBus:Queue``), arrays by index (``A:0``), as
``Microsoft.Extensions.Configuration.Json`` does; keys are kept lower-case, since .NET configuration
keys are case-insensitive. Parsing is the standard library's ``json`` after comments and trailing
commas are removed (ASP.NET's JSON provider allows both).

Settings files hold secrets (connection strings, keys), so only two kinds of value are kept
(:func:`~indexer.frameworks.env_config.config_value`): a URL base (:func:`~indexer.frameworks.env_config.url_base`: credentials and
query dropped), and a *name* (letters, digits, ``._-/:``, at most 200 characters) under a key that
names a messaging destination (:data:`~indexer.frameworks.env_config.DESTINATION_WORDS`: ``Topic``, ``Queue``, ``Exchange``,
``RoutingKey``, ``Subscription...``). Every other value is never read into the index; the code
reading it keeps an unknown piece.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from indexer.frameworks.env_config import config_value, env_for
from indexer.frameworks.razor_directives import MAX_PAGE_BYTES, is_page_file, page_directive
from indexer.frameworks.spring_config import SKIP_DIRS
from indexer.fsguard import SkipFile, read_inside, read_regular

__all__ = ["SETTINGS_FILES", "DotnetProjects", "is_settings_file", "load_app_settings", "load_dotnet_projects",
           "settings_for"]

log = logging.getLogger(__name__)

SETTINGS_FILES = ("appsettings.Development.json", "appsettings.json")
"""The files read in each project folder, the first setting a key winning."""
_COMMENT = re.compile(r'("(?:[^"\\]|\\.)*")|//[^\n]*|/\*.*?\*/', re.S)
_TRAILING_COMMA = re.compile(r'("(?:[^"\\]|\\.)*")|,(\s*[}\]])')
_PROJECT_REFERENCE = re.compile(r'<ProjectReference\s+Include\s*=\s*"([^"]+)"', re.IGNORECASE)
MAX_FILE_BYTES = 500_000
MAX_PROJECTS = 2_000
MAX_PAGES = 20_000
"""At most this many Razor pages' directives are read per repository."""
MAX_KEYS = 20_000
"""At most this many keys per project (a settings file of generated data)."""
MAX_KEY_CHARS = 1_000
"""The longest flattened key kept (``A:B:C``); a value nested deeper is not read. Each key spells its parents'
names again, so the keys of a file nested N levels with long names grow as N squared: 900 levels of 250-character
names (450 KB) made 101 MB of keys."""


def is_settings_file(name: str) -> bool:
    """Whether the file ``name`` (a base name) is one :func:`load_dotnet_projects` reads: a settings file or a
    ``*.csproj`` (its ``<ProjectReference>`` items)."""
    return name in SETTINGS_FILES or name.endswith(".csproj")


@dataclass(frozen=True, slots=True)
class DotnetProjects:
    """The .NET projects of a repository: ``settings`` as :func:`load_app_settings` gives them, and
    ``references``: per project folder (repository-relative POSIX, ``""``: the root), the folders of the
    projects its ``*.csproj`` files name in ``<ProjectReference Include>`` (direct references only), and
    the Razor pages' route templates (``pages``, at most :data:`MAX_PAGES`)."""

    settings: dict[str, dict[str, str]] = field(default_factory=dict)
    references: dict[str, frozenset[str]] = field(default_factory=dict)
    pages: dict[str, str] = field(default_factory=dict)
    """Razor pages with a route template: repository path of the ``.cshtml`` -> its ``@page "template"``
    (:func:`~indexer.frameworks.razor_directives.page_directive`; pages with ``@page`` alone are left out)."""


def load_app_settings(repo_root: str | Path) -> dict[str, dict[str, str]]:
    """:attr:`DotnetProjects.settings` of :func:`load_dotnet_projects`."""
    return load_dotnet_projects(repo_root).settings


def load_dotnet_projects(repo_root: str | Path) -> DotnetProjects:
    """``{project_dir: {key: value}}`` for the repository at ``repo_root``: ``project_dir`` is the
    repository-relative POSIX folder of a ``*.csproj`` (``""``: the root), ``key`` the flattened,
    lower-case configuration key, ``value`` what :func:`~indexer.frameworks.env_config.config_value` keeps.
    A project folder is listed even with no value kept (settings are never inherited from a parent folder);
    a project with no settings file of its own takes the keys every host project referencing it agrees on
    (:func:`_inherit`). Build output and dependency folders are skipped; a file that is a link out of the root,
    not regular, larger than :data:`MAX_FILE_BYTES` or not JSON is skipped with a warning. Never raises.
    Returned with each project's direct references (:class:`DotnetProjects`)."""
    root = Path(repo_root)
    real_root = os.path.realpath(root)
    out: dict[str, dict[str, str]] = {}
    hosts: set[str] = set()
    refs: dict[str, set[str]] = {}
    pages: dict[str, str] = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and d not in ("bin", "obj"))
        rel_folder = Path(folder).relative_to(root).as_posix().removeprefix(".").lstrip("/")
        for name in sorted(files):
            path = f"{rel_folder}/{name}" if rel_folder else name
            if is_page_file(path) and len(pages) < MAX_PAGES:
                template = _page_template(Path(folder) / name, real_root)
                if template:
                    pages[path] = template
        projects = sorted(f for f in files if f.endswith(".csproj"))
        if not projects:
            continue
        if len(out) >= MAX_PROJECTS:
            break
        here = Path(folder)
        rel = here.relative_to(root).as_posix().removeprefix(".")
        values: dict[str, str] = {}
        for name in SETTINGS_FILES:
            if name in files:
                hosts.add(rel)
                for key, value in _read(here / name, real_root).items():
                    values.setdefault(key, value)
        out[rel] = values
        refs[rel] = {r for p in projects for r in _references(here / p, root, real_root)}
    _inherit(out, hosts, refs)
    return DotnetProjects(out, {p: frozenset(r) for p, r in refs.items()}, pages)


def _page_template(page: Path, real_root: str) -> str | None:
    """The ``@page`` template of the Razor page at ``page`` (``None``: none, or the file is skipped)."""
    try:
        text = read_regular(page, MAX_PAGE_BYTES, real_root).decode("utf-8-sig", errors="replace")
    except SkipFile:
        return None
    return page_directive(text)


def _references(csproj: Path, root: Path, real_root: str) -> set[str]:
    """The repository-relative folders of the projects ``csproj`` names in ``<ProjectReference Include>``."""
    try:
        text = read_regular(csproj, MAX_FILE_BYTES, real_root).decode("utf-8-sig", errors="replace")
    except SkipFile:
        return set()
    out = set()
    for m in _PROJECT_REFERENCE.finditer(text):
        target = os.path.normpath(os.path.join(csproj.parent, m.group(1).replace("\\", "/")))
        rel = os.path.relpath(os.path.dirname(target), root)
        if not rel.startswith(".."):
            out.add("" if rel == "." else Path(rel).as_posix())
    return out


def _inherit(out: dict[str, dict[str, str]], hosts: set[str], refs: dict[str, set[str]]) -> None:
    """A project without settings files of its own (a class library: ``Payment.Infrastructure``) runs inside
    the host projects that reference it, directly or through other projects, and sees their configuration:
    it is given each key every such host sets to the same value (hosts disagreeing, or one not setting it:
    unknown)."""
    reaches: dict[str, set[str]] = {}
    for host in sorted(hosts):
        seen: set[str] = set()
        stack = list(refs.get(host, ()))
        while stack:
            p = stack.pop()
            if p in seen or p in hosts:
                continue
            seen.add(p)
            stack.extend(refs.get(p, ()))
        for p in seen:
            reaches.setdefault(p, set()).add(host)
    for lib, by in reaches.items():
        if lib not in out:
            continue
        given = [out[h] for h in sorted(by)]
        out[lib] = {k: v for k, v in given[0].items() if all(g.get(k) == v for g in given[1:])}


def settings_for(settings: Mapping[str, Mapping[str, str]], path: str) -> Mapping[str, str]:
    """The settings a file at repository-relative ``path`` sees: those of the innermost project folder
    of ``settings`` (:func:`load_app_settings`) holding it, else none: the folder rule of ``.env`` files
    (:func:`~indexer.frameworks.env_config.env_for`)."""
    return env_for(settings, path)


def _read(path: Path, root: str) -> dict[str, str]:
    """The flattened settings of one file (module docstring), keys at most :data:`MAX_KEY_CHARS` long, at most
    :data:`MAX_KEYS` of them; ``{}`` for a file skipped (:func:`~indexer.fsguard.read_inside`) or not JSON
    (nested past the parser's recursion limit, too)."""
    data = read_inside(path, MAX_FILE_BYTES, root)
    if data is None:
        return {}
    text = data.decode("utf-8-sig", errors="replace")
    text = _COMMENT.sub(lambda m: m.group(1) or "", text)
    text = _TRAILING_COMMA.sub(lambda m: m.group(1) or m.group(2), text)
    try:
        doc = json.loads(text)
    except ValueError:
        log.warning("%s ignored: not JSON", path)
        return {}
    except RecursionError:
        log.warning("%s ignored: nested too deeply", path)
        return {}
    out: dict[str, str] = {}
    stack: list[tuple[str, object]] = [("", doc)]
    while stack and len(out) < MAX_KEYS:
        prefix, node = stack.pop()
        if len(prefix) > MAX_KEY_CHARS:
            continue
        if isinstance(node, dict):
            stack.extend((f"{prefix}:{k}" if prefix else str(k), v) for k, v in reversed(list(node.items())))
        elif isinstance(node, list):
            stack.extend((f"{prefix}:{i}" if prefix else str(i), v) for i, v in reversed(list(enumerate(node))))
        elif isinstance(node, str) and prefix:
            kept = config_value(prefix, node)
            if kept is not None:
                out.setdefault(prefix.lower(), kept)
    return out
