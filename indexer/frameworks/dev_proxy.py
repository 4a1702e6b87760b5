"""Development-server proxies: which backend a front end's relative URL reaches.

A front end served by its development server (``ng serve``, Vite, webpack-dev-server, Create React
App) sends ``/api/orders`` to itself, and the server's proxy forwards it to a backend
(``http://localhost:8080``), often rewriting the path (``^/api`` -> ``""``). That configuration says
which service a relative URL of that front end addresses. Two sources:

* JSON, read here once per run (:func:`load_proxies`), per *package folder* (a folder holding a
  ``package.json``): an Angular proxy file (``proxy.conf.json`` / ``proxy.config.json`` in the folder
  or its ``src/``, and any JSON file a project's ``serve`` options name as ``proxyConfig`` in
  ``angular.json``), in either of its shapes (``{"/api": {"target": ..., "pathRewrite": {...}}}`` or
  ``[{"context": [...], "target": ...}]``), and Create React App's ``"proxy"`` string of
  ``package.json`` (every path);
* JavaScript / TypeScript configuration files (Vite ``server.proxy``, webpack ``devServer.proxy``, an
  Angular ``proxy.conf.js``), read by the ECMAScript detector ``dev_proxy`` from the parsed tree as
  :class:`~indexer.model.DevProxy` facts.

:func:`proxied_url` applies the rules of a package to one relative URL; the linker
(:mod:`indexer.frameworks.base_urls`) then reads the target's host and port like any URL's (a
compose-published port or a service name names the service). Bounds: package folders as
:mod:`indexer.frameworks.env_config` walks them; files of at most :data:`MAX_FILE_BYTES`, inside the
root, regular; JSON only (``json``); nothing raises on malformed files (a warning is logged).
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from indexer.frameworks.spring_config import SKIP_DIRS
from indexer.fsguard import read_inside

__all__ = ["ProxyRule", "PROXY_FILES", "load_proxies", "proxied_url", "rule_matches"]

log = logging.getLogger(__name__)

PROXY_FILES = ("proxy.conf.json", "proxy.config.json")
"""Angular proxy files found by name in a package folder (or its ``src/``)."""
MAX_FILE_BYTES = 200_000
MAX_PACKAGES = 2_000
MAX_RULES = 200
"""Rules kept per package folder."""
MAX_PATTERN = 200
"""A context or rewrite regular expression longer than this is ignored (it is configuration, not data)."""
_REPEATED_GROUP = re.compile(r"\)\s*[*+{]")
"""A repeated group (``(a+)+``, ``(a|aa)*``): the source of catastrophic backtracking on a crafted
repository's pattern; such a pattern is ignored, not run (a proxy context needs none)."""


_UNBOUNDED = re.compile(r"(?<!\\)(?:[*+]|\{\d*,\})")
"""An unbounded repetition (``*``, ``+``, ``{n,}``; an escaped star is a character)."""
MAX_UNBOUNDED = 2
"""Unbounded repetitions a proxy pattern may hold: each one more multiplies what a failing match tries
(``^.*.*.*.*.*.*x`` on a 120-character path: the sixth power); real contexts hold one (``^/api/.*``)."""


def _safe_pattern(pattern: str) -> bool:
    """Whether a proxy regular expression may be run: short, no repeated group (backtracking that
    explodes on a 30-character path) and at most :data:`MAX_UNBOUNDED` unbounded repetitions.

    >>> _safe_pattern("^/api"), _safe_pattern("^(a+)+$"), _safe_pattern("^(a|aa)*$"), _safe_pattern("^/(v1|v2)/.*")
    (True, False, False, True)
    >>> _safe_pattern("^.*.*.*.*x"), _safe_pattern("^/api/.*/v1/.*")
    (False, True)
    """
    return (len(pattern) <= MAX_PATTERN and not _REPEATED_GROUP.search(pattern)
            and len(_UNBOUNDED.findall(pattern)) <= MAX_UNBOUNDED)


@dataclass(frozen=True, slots=True)
class ProxyRule:
    """One proxy rule: requests whose path matches one of ``context`` (:func:`rule_matches`) go to
    ``target``, the path rewritten by the first of ``rewrite`` (``(pattern, replacement)``, a
    JavaScript regular expression) that matches; ``source`` the repository-relative file it comes
    from."""

    context: tuple[str, ...]
    target: str
    rewrite: tuple[tuple[str, str], ...] = ()
    source: str = ""


def load_proxies(repo_root: str | Path) -> dict[str, tuple[ProxyRule, ...]]:
    """``{package_dir: rules}`` of the JSON proxy configuration of the repository at ``repo_root``
    (``package_dir`` repository-relative POSIX, ``""`` the root); folders without rules are left out.
    Never raises."""
    root = Path(repo_root)
    real_root = os.path.realpath(root)
    out: dict[str, tuple[ProxyRule, ...]] = {}
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        if "package.json" not in files:
            continue
        seen += 1
        if seen > MAX_PACKAGES:
            break
        here = Path(folder)
        rel = here.relative_to(root).as_posix().removeprefix(".")
        rules: list[ProxyRule] = []
        package = _json(here / "package.json", real_root)
        if isinstance(package, dict) and isinstance(package.get("proxy"), str):
            rules.append(ProxyRule(("/",), package["proxy"], (), _join(rel, "package.json")))
        names = [n for n in PROXY_FILES if (here / n).is_file()]
        names += [f"src/{n}" for n in PROXY_FILES if (here / "src" / n).is_file()]
        if "angular.json" in files:
            names += _angular_proxy_files(here, real_root)
        for name in dict.fromkeys(names):
            rules.extend(_rules(_json(here / name, real_root), _join(rel, os.path.normpath(name))))
        if rules:
            out[rel] = tuple(rules[:MAX_RULES])
    return out


def _join(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


def _json(path: Path, root: str) -> object:
    data = read_inside(path, MAX_FILE_BYTES, root, quiet=("unreadable",))
    if data is None:
        return None
    try:
        return json.loads(data.decode("utf-8", errors="replace"))
    except (ValueError, RecursionError) as exc:
        log.warning("%s ignored: %s", path, exc)
        return None


def _angular_proxy_files(folder: Path, root: str) -> list[str]:
    """The JSON ``proxyConfig`` files the projects of ``folder/angular.json`` serve with (options and
    every configuration), relative to ``folder``; a path leading out of it is dropped."""
    doc = _json(folder / "angular.json", root)
    projects = doc.get("projects") if isinstance(doc, dict) else None
    out: list[str] = []
    for project in (projects.values() if isinstance(projects, dict) else ()):
        architect = project.get("architect") if isinstance(project, dict) else None
        serve = architect.get("serve") if isinstance(architect, dict) else None
        if not isinstance(serve, dict):
            continue
        blocks = [serve.get("options")]
        configs = serve.get("configurations")
        if isinstance(configs, dict):
            blocks += list(configs.values())
        for block in blocks:
            name = block.get("proxyConfig") if isinstance(block, dict) else None
            if isinstance(name, str) and name.endswith(".json"):
                norm = PurePosixPath(os.path.normpath(name.replace("\\", "/"))).as_posix()
                if not norm.startswith(("../", "/")) and norm != "..":
                    out.append(norm)
    return out


def _rules(doc: object, source: str) -> list[ProxyRule]:
    """The rules of an Angular / webpack proxy document: ``{context: options}`` or a list of options
    each with its ``context``; options without a string ``target`` are skipped."""
    out: list[ProxyRule] = []
    if isinstance(doc, dict):
        entries: list[tuple[Sequence[object], object]] = [([k], v) for k, v in doc.items()]
    elif isinstance(doc, list):
        entries = []
        for item in doc:
            ctx = item.get("context") if isinstance(item, dict) else None
            entries.append((ctx if isinstance(ctx, list) else [ctx], item))
    else:
        return out
    for contexts, options in entries:
        if not isinstance(options, dict) or not isinstance(options.get("target"), str):
            continue
        ctx = tuple(c for c in contexts if isinstance(c, str) and c)
        rewrite = options.get("pathRewrite")
        pairs = tuple((k, v) for k, v in rewrite.items() if isinstance(k, str) and isinstance(v, str)) \
            if isinstance(rewrite, dict) else ()
        if ctx:
            out.append(ProxyRule(ctx, options["target"], pairs, source))
    return out


def rule_matches(context: str, path: str) -> bool:
    """Whether a request ``path`` (``/api/orders``) falls under a proxy ``context``: a regular
    expression when it starts with ``^`` (Vite), a glob (``/api/**``, ``/api/*``: everything under the
    part before the first ``*``), ``/`` everything, else a path prefix."""
    if context.startswith("^"):
        if not _safe_pattern(context):
            return False
        try:
            return re.match(context, path) is not None
        except re.error:
            return False
    if "*" in context:
        context = context.split("*", 1)[0]
        return path.startswith(context) or path == context.rstrip("/")
    return path.startswith(context)


def proxied_url(rules: Sequence[ProxyRule], path: str) -> tuple[str, ProxyRule] | None:
    """The URL a relative request ``path`` is forwarded to by the first rule of ``rules`` matching
    it (the target, then the rewritten path), with the rule; ``None`` when no rule matches."""
    for rule in rules:
        if not any(rule_matches(c, path) for c in rule.context):
            continue
        rewritten = path
        for pattern, replacement in rule.rewrite:
            if not _safe_pattern(pattern):
                continue
            try:
                new = re.sub(pattern, replacement.replace("\\", "\\\\"), rewritten, count=1)
            except re.error:
                continue
            if new != rewritten:
                rewritten = new
                break
        if rewritten and not rewritten.startswith("/"):
            rewritten = "/" + rewritten
        return rule.target.rstrip("/") + rewritten, rule
    return None
