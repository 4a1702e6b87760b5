"""OpenAPI 3.x / Swagger 2.0 documents: the operations an API-first repository declares.

A spec is found by its content, not its name: any ``.yaml`` / ``.yml`` / ``.json`` file under the
repository (build output, VCS, dependency and virtualenv folders skipped: :data:`SKIP_DIRS`) whose
top-level mapping has an ``openapi`` key (3.x) or a ``swagger`` key (2.0) and a ``paths`` mapping. A
document where ``openapi:`` is nested under another key is no spec.

:func:`load_operations` returns one :class:`ApiOperation` per HTTP method of every path item: the
method, the full path (the base path, then the path as the spec writes it, ``{petId}`` kept: the
linker normalises it as every route path, :func:`stores.contracts.endpoint_id`), the ``operationId``,
the tags, the spec file and, for connexion, the dotted Python function that handles it. The base
path is the path of the first ``servers[].url`` (its ``{variables}`` filled with their defaults; a
path item's or an operation's own ``servers`` override it), or Swagger 2.0's ``basePath``: what
openapi-generator puts in front of the generated routes.

``$ref`` is followed for path items and for ``paths`` itself (``$ref: paths/pets.yaml``,
``$ref: '#/x-paths/pets'``, ``$ref: 'common.yaml#/pets'``): within the repository only (a reference
leading out of the root, ``../../x.yaml`` above it or a symbolic link out, is not read and counted),
never over the network, at most :data:`MAX_REF_DEPTH` references deep, :data:`MAX_DOCUMENTS`
documents per run, each at most :data:`MAX_FILE_BYTES`. YAML is read by PyYAML's safe loader with at
most :data:`MAX_ALIASES` aliases per document (a "billion laughs" document is dropped, not expanded);
a file that cannot be read or parsed is skipped. Nothing here raises on bad input.

This is read by the linker (:mod:`indexer.frameworks.link`), like Spring's configuration
(:mod:`indexer.frameworks.spring_config`), not by a language folder: see ARCHITECTURE.md.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit

import yaml

from indexer.fsguard import SkipFile, inside_root, read_regular

__all__ = [
    "ApiOperation", "ApiSpecs", "HTTP_METHODS", "api_tag", "match_operations", "MAX_ALIASES", "MAX_DOCUMENTS", "MAX_FILE_BYTES", "MAX_REF_DEPTH",
    "SKIP_DIRS", "SPEC_SUFFIXES", "generated_operation_id", "load_operations", "looks_like_spec", "parse_document", "spec_files",
]

log = logging.getLogger(__name__)

SPEC_SUFFIXES = (".yaml", ".yml", ".json")
SKIP_DIRS = frozenset({
    "build", "target", "node_modules", ".git", ".gradle", ".venv", "venv", ".tox", "__pycache__", "dist",
    ".mypy_cache", ".pytest_cache", ".idea", ".vscode",
})
HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
MAX_FILE_BYTES = 5_000_000
"""A spec or referenced document larger than this is not read."""
MAX_ALIASES = 1_000
"""YAML aliases per document: beyond, the document is dropped ("billion laughs")."""
MAX_REF_DEPTH = 16
"""``$ref`` chains are followed at most this deep."""
MAX_DOCUMENTS = 1_000
"""Documents (specs and the files they reference) read in one run."""
MAX_OPERATIONS = 50_000
"""Operations kept per repository."""
MAX_PATH_CHARS = 2_048
"""Longest operation path, server URL or operationId kept; longer (or holding a control character,
which a node id must not) is skipped and counted ``bad_path``."""
MAX_PARSED_BYTES = 32_000_000
"""Bytes of spec documents kept parsed at once (specs and ``$ref`` targets; a candidate that is no
spec is dropped right after the check); beyond, documents are skipped and counted ``budget``."""
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")

_TOP_KEY = re.compile(rb"^(?:openapi|swagger)[ \t]*:|\"(?:openapi|swagger)\"\s*:", re.M)


@dataclass(frozen=True, slots=True)
class ApiOperation:
    """One operation of a spec. ``method``: upper-case HTTP method; ``path``: base path + the path
    template as written (``/v1/pets/{petId}``); ``operation_id``: as written (``""`` when the spec
    gives none); ``tags``; ``spec``: the repository-relative path of the document declaring it;
    ``handler``: connexion's dotted function (``x-openapi-router-controller`` + ``operationId``, or a
    dotted ``operationId``), else ``None``; ``base``: the base path part of ``path`` (``/v1``; ``""``:
    none), which a server may replace by its own prefix."""

    method: str
    path: str
    operation_id: str
    tags: tuple[str, ...] = ()
    spec: str = ""
    handler: str | None = None
    base: str = ""


@dataclass(frozen=True, slots=True)
class ApiSpecs:
    """What :func:`load_operations` found: ``operations`` (sorted), the repository-relative paths of
    every document read (``files``: specs and referenced files, for the watcher) and ``skipped``
    counts by reason (``ref_outside``, ``ref_missing``, ``ref_depth``, ``unparsable``, ``too_large``,
    ``aliases``, ``documents``)."""

    operations: tuple[ApiOperation, ...] = ()
    files: frozenset[str] = frozenset()
    skipped: tuple[tuple[str, int], ...] = ()
    _names: dict[str, list[ApiOperation]] = field(default_factory=dict, compare=False, hash=False, repr=False)

    def by_name(self) -> dict[str, list[ApiOperation]]:
        """``{normalised operationId: operations}`` (its last dotted part, :func:`_norm`; for an
        operation without one, the name openapi-generator gives it: :func:`generated_operation_id`),
        built once per :class:`ApiSpecs` and shared: :func:`match_operations` looks names up, never
        scans."""
        names = self._names
        if self.operations and not names:
            for op in self.operations:
                name = op.operation_id.rpartition(".")[2] if op.operation_id else generated_operation_id(op)
                names.setdefault(_norm(name), []).append(op)
            names.setdefault("", [])  # built, even when no operation has an id
        return names

    def by_id(self) -> dict[str, list[ApiOperation]]:
        """``{operationId: operations}`` (operations without an id left out)."""
        out: dict[str, list[ApiOperation]] = {}
        for op in self.operations:
            if op.operation_id:
                out.setdefault(op.operation_id, []).append(op)
        return out


class _TooManyAliases(Exception):
    pass


_CLoader = getattr(yaml, "CSafeLoader", None)  # libyaml's safe loader, when PyYAML was built with it


class _BoundedLoader(yaml.SafeLoader):
    """PyYAML's safe loader counting aliases: more than :data:`MAX_ALIASES` aborts the document."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self.aliases = 0

    def compose_node(self, parent, index):  # type: ignore[no-untyped-def]  # PyYAML's signature
        if self.check_event(yaml.AliasEvent):
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                raise _TooManyAliases
        return super().compose_node(parent, index)


def parse_document(data: bytes, name: str) -> object:
    """The document ``data`` holds (JSON for a ``.json`` name, else YAML, first document only).
    Raises ``ValueError`` when it cannot be parsed, is not UTF-8 or uses more than
    :data:`MAX_ALIASES` aliases."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{name}: not UTF-8") from exc
    try:
        if name.lower().endswith(".json"):
            return json.loads(text)
        # Without an anchor (``&name``) there can be no alias: libyaml's loader is safe and about ten
        # times faster; with one, the pure-Python loader counts the aliases.
        loader = _BoundedLoader(text) if "&" in text or _CLoader is None else _CLoader(text)
        try:
            return _load_first(loader)
        finally:
            loader.dispose()
    except _TooManyAliases as exc:
        raise ValueError(f"{name}: more than {MAX_ALIASES} YAML aliases") from exc
    except (yaml.YAMLError, json.JSONDecodeError, RecursionError) as exc:
        raise ValueError(f"{name}: {exc.__class__.__name__}") from exc


def _load_first(loader: Any) -> object:
    """The first document of the stream (later ``---`` documents are ignored, not parsed)."""
    if loader.check_node():
        node = loader.get_node()
        if node is not None:
            return loader.construct_document(node)
    return None


def looks_like_spec(data: bytes) -> bool:
    """Whether ``data`` may be a spec: a line starting ``openapi:`` / ``swagger:`` or a JSON key
    ``"openapi"`` / ``"swagger"`` (a cheap filter; :func:`load_operations` checks the parsed
    document's top level)."""
    return _TOP_KEY.search(data) is not None


def spec_files(root: str | Path) -> Iterator[Path]:
    """Every ``.yaml`` / ``.yml`` / ``.json`` file under ``root`` (sorted per folder; :data:`SKIP_DIRS`
    and hidden folders skipped; symbolic links out of the root left out)."""
    real_root = os.path.realpath(root)
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            if name.lower().endswith(SPEC_SUFFIXES):
                path = Path(folder) / name
                if inside_root(real_root, path):
                    yield path


def _is_spec(doc: object) -> bool:
    """A top-level ``openapi`` (3.x) or ``swagger`` (2.0) version and a ``paths`` mapping (or a
    ``$ref`` to one)."""
    if not isinstance(doc, dict) or not ("openapi" in doc or "swagger" in doc):
        return False
    version = doc.get("openapi", doc.get("swagger"))
    return isinstance(version, str | int | float) and not isinstance(version, bool) and isinstance(doc.get("paths"), dict)


@dataclass(slots=True)
class _Reader:
    root: Path
    real_root: str
    docs: dict[str, object] = field(default_factory=dict)
    referenced: set[str] = field(default_factory=set)
    skipped: Counter[str] = field(default_factory=Counter)
    parsed_bytes: int = 0
    """Source bytes of the documents held in ``docs`` (bounded by :data:`MAX_PARSED_BYTES`)."""
    sizes: dict[str, int] = field(default_factory=dict)

    def forget(self, rel: str) -> None:
        """Drop the parsed document ``rel`` (a candidate that is no spec), freeing its budget."""
        self.docs.pop(rel, None)
        self.parsed_bytes -= self.sizes.pop(rel, 0)

    def document(self, rel: str, data: bytes | None = None) -> object:
        """The parsed document at repository-relative ``rel`` (``None``: unreadable, counted)."""
        if rel in self.docs:
            return self.docs[rel]
        if len(self.docs) >= MAX_DOCUMENTS:
            self.skipped["documents"] += 1
            return None
        doc: object = None
        try:
            if data is None:
                data = read_regular(self.root / rel, MAX_FILE_BYTES, self.real_root)
            if self.parsed_bytes + len(data) > MAX_PARSED_BYTES:
                self.skipped["budget"] += 1
                return None
            doc = parse_document(data, rel)
            self.parsed_bytes += len(data)
            self.sizes[rel] = len(data)
        except SkipFile as exc:
            self.skipped["too_large" if exc.reason == "too_large" else "unreadable"] += 1
        except OSError:
            self.skipped["unreadable"] += 1
        except ValueError as exc:
            self.skipped["aliases" if "aliases" in str(exc) else "unparsable"] += 1
            log.info("OpenAPI document skipped: %s", exc)
        self.docs[rel] = doc
        return doc

    def deref(self, value: object, base: str, depth: int = 0) -> tuple[object, str]:
        """``value`` with its ``$ref`` followed (relative to the document ``base``), and the document
        the result lives in; ``(None, base)`` when the reference cannot be followed (counted)."""
        while isinstance(value, dict) and isinstance(value.get("$ref"), str):
            if depth >= MAX_REF_DEPTH:
                self.skipped["ref_depth"] += 1
                return None, base
            depth += 1
            ref = value["$ref"]
            file_part, _, pointer = ref.partition("#")
            if file_part:
                if urlsplit(file_part).scheme:
                    self.skipped["ref_remote"] += 1
                    return None, base
                target = os.path.normpath(os.path.join(os.path.dirname(base), unquote(file_part)))
                if target.startswith("..") or os.path.isabs(target) \
                        or not inside_root(self.real_root, self.root / target):
                    self.skipped["ref_outside"] += 1
                    return None, base
                if not (self.root / target).is_file():
                    self.skipped["ref_missing"] += 1
                    return None, base
                base = target.replace(os.sep, "/")
                self.referenced.add(base)
            value = self.document(base)
            for token in [t for t in pointer.split("/") if t]:
                token = unquote(token).replace("~1", "/").replace("~0", "~")
                if isinstance(value, dict) and token in value:
                    value = value[token]
                elif isinstance(value, list) and token.isdigit() and int(token) < len(value):
                    value = value[int(token)]
                else:
                    self.skipped["ref_missing"] += 1
                    return None, base
        return value, base


def _server_path(servers: object) -> str | None:
    """The path of the first server URL (``{var}`` filled with its default), or ``None``."""
    if not isinstance(servers, list) or not servers or not isinstance(servers[0], dict):
        return None
    url = servers[0].get("url")
    if not isinstance(url, str):
        return None
    variables = servers[0].get("variables")
    if isinstance(variables, dict):
        for name, spec in variables.items():
            default = spec.get("default") if isinstance(spec, dict) else None
            # A scalar only: str() of a list built from YAML aliases expands it ("billion laughs").
            if isinstance(name, str) and isinstance(default, str | int | float) and not isinstance(default, bool):
                url = url.replace("{" + name + "}", str(default))
                if len(url) > MAX_PATH_CHARS:
                    return None
    parts = urlsplit(url) if "//" in url else None
    path = parts.path if parts is not None else url
    return "/" + path.strip("/") if path.strip("/") else ""


def _join(base: str, path: str) -> str:
    return "/" + "/".join(p for p in (base.strip("/"), path.strip("/")) if p)


def _operations(reader: _Reader, rel: str, doc: dict, out: list[ApiOperation]) -> None:
    if "openapi" in doc:
        base = _server_path(doc.get("servers")) or ""
    else:
        bp = doc.get("basePath")
        base = bp if isinstance(bp, str) else ""
    paths, where = reader.deref(doc.get("paths"), rel)
    if not isinstance(paths, dict):
        return
    for template, item in paths.items():
        if not isinstance(template, str) or not template.startswith("/"):
            continue  # extensions (x-...) and junk
        item, item_doc = reader.deref(item, where)
        if not isinstance(item, dict):
            continue
        item_base = _server_path(item.get("servers"))
        item_controller = item.get("x-openapi-router-controller") or item.get("x-swagger-router-controller")
        for method in HTTP_METHODS:
            op = item.get(method)
            if not isinstance(op, dict):
                continue
            if len(out) >= MAX_OPERATIONS:
                reader.skipped["operations"] += 1
                return
            op_base = _server_path(op.get("servers"))
            op_id = op.get("operationId")
            op_id = op_id.strip() if isinstance(op_id, str) else ""
            tags = tuple(t for t in op.get("tags", ()) if isinstance(t, str)) if isinstance(op.get("tags"), list) else ()
            controller = op.get("x-openapi-router-controller") or op.get("x-swagger-router-controller") or item_controller
            handler = None
            if op_id and isinstance(controller, str) and controller:
                handler = f"{controller}.{op_id}"
            elif "." in op_id:
                handler = op_id
            chosen = op_base if op_base is not None else item_base if item_base is not None else base
            full = _join(chosen, template)
            if len(full) > MAX_PATH_CHARS or _CONTROL.search(full) or len(op_id) > MAX_PATH_CHARS:
                reader.skipped["bad_path"] += 1  # it would become an Endpoint id: no line breaks, bounded
                continue
            out.append(ApiOperation(method.upper(), full, op_id, tags, rel, handler,
                                    "/" + chosen.strip("/") if chosen.strip("/") else ""))


def load_operations(root: str | Path) -> ApiSpecs:
    """Every operation the specs under ``root`` declare (see the module docstring), sorted by spec,
    path and method. Never raises on a bad or hostile file: it is skipped and counted."""
    root = Path(root)
    reader = _Reader(root, os.path.realpath(root))
    found: list[ApiOperation] = []
    specs: set[str] = set()
    for path in spec_files(root):
        try:
            data = read_regular(path, MAX_FILE_BYTES, reader.real_root)
        except (SkipFile, OSError):
            continue
        if not looks_like_spec(data):
            continue
        rel = path.relative_to(root).as_posix()
        doc = reader.document(rel, data)
        if isinstance(doc, dict) and _is_spec(doc):
            specs.add(rel)
            _operations(reader, rel, doc, found)
        elif rel not in reader.referenced:
            reader.forget(rel)  # no spec: not kept (a later $ref parses it again)
    ops = tuple(sorted(set(found), key=lambda o: (o.spec, o.path, HTTP_METHODS.index(o.method.lower()), o.operation_id)))
    return ApiSpecs(ops, frozenset(specs | reader.referenced), tuple(sorted(reader.skipped.items())))


_SUFFIXES = ("ApiDelegate", "ApiController", "Api", "Service", "Client")


def generated_operation_id(op: ApiOperation) -> str:
    """The operationId openapi-generator makes up for an operation that has none (its
    ``DefaultCodegen.getOrGenerateOperationId``): the spec's path (below the base path) without
    braces, then the HTTP method, camel-cased; ``root`` first for ``/``.

    >>> generated_operation_id(ApiOperation("GET", "/api/tags", "", base="/api"))
    'tagsGet'
    >>> generated_operation_id(ApiOperation("DELETE", "/articles/{slug}/comments/{id}", ""))
    'articlesSlugCommentsIdDelete'
    >>> generated_operation_id(ApiOperation("GET", "/", ""))
    'rootGet'
    """
    path = op.path[len(op.base):] if op.base and op.path.startswith(op.base) else op.path
    parts = [p for p in re.sub(r"[{}]", "", path).split("/") if p] + [op.method.lower()]
    words = [p[:1].upper() + p[1:] for p in re.split(r"[^0-9A-Za-z]+", "/".join(parts)) if p]
    name = ("root" if path.strip("/") == "" else "") + "".join(words)
    return name[:1].lower() + name[1:]


def _norm(name: str) -> str:
    """``listPets``, ``list_pets``, ``ListPets``, ``list-pets`` -> ``listpets``."""
    return re.sub(r"[^0-9a-z]", "", name.lower())


def api_tag(api: str) -> str:
    """The tag a generated class or package stands for, normalised: ``PetsApi``, ``PetsApiDelegate``,
    ``PetsService`` and the openapi-python-client package ``pets`` -> ``pets``."""
    for suffix in _SUFFIXES:
        if api.endswith(suffix) and api != suffix:
            api = api[: -len(suffix)]
            break
    return _norm(api)


def match_operations(specs: ApiSpecs, operation: str) -> tuple[list[ApiOperation], str]:
    """The operations an API-first fact's ``operation`` (``"PetsApi.listPets"``, ``"pets.list_pets"``:
    the generated class or tag package, then an operationId candidate) names, and how sure the match
    is: ``exact`` when the class or package also names a tag of the operation (``PetsApi`` / tag
    ``pets``; ``DefaultApi`` for an operation without tags, as openapi-generator names it), ``name``
    when only the operationId matches (names compared without case and separators: ``list_pets`` is
    ``listPets``); ``([], "")`` when no operationId matches. Several operations may match (several
    specs)."""
    api, _, name = operation.rpartition(".")
    want = _norm(name)
    if not want:
        return [], ""
    found = specs.by_name().get(want, [])
    if not found:
        return [], ""
    tag = api_tag(api)
    tagged = [o for o in found if tag in {_norm(t) for t in o.tags} or (not o.tags and tag == "default")]
    return (tagged, "exact") if tagged else (found, "name")
