"""The central indexer's manifest: which repositories ``ripple index --all`` / ``ripple watch --all``
index, and how much memory each is expected to take.

The manifest is TOML: a list of ``[[repository]]`` tables, each with ``path`` (required: a folder;
relative paths are relative to the manifest's folder, ``~`` expands), ``name`` (default: the
folder's name), ``product`` (default: the name) and ``branch`` (default: the checkout's current
branch)::

    [[repository]]
    path = "/repos/billing-service"
    product = "shop"

    [[repository]]
    path = "checkouts/web"
    name = "shop-web"
    product = "shop"

Everything is checked before anything is indexed; every problem is reported at once, each naming
the entry (``repository #2 (shop-web)``) and the key: unknown keys (top level or in an entry), a
value of the wrong type, a missing or non-folder path, a name or branch ripple cannot use as a
repository key (empty, ``:``, ``@``, whitespace, control characters), and the same name twice. Imports
nothing of the package but :mod:`indexer.discovery` (what the estimate walks).
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from indexer.discovery import OWN_DIR, PRUNED_DIRS

__all__ = ["ManifestEntry", "ManifestError", "load_manifest", "estimate_mib", "BASE_MIB", "MIB_PER_SOURCE_MIB",
           "MANIFEST_MAX_BYTES"]

MANIFEST_MAX_BYTES = 4 << 20
"""Largest manifest read (4 MiB: tens of thousands of entries)."""

_KEYS = {"path", "name", "product", "branch"}
_BAD_NAME = re.compile(r"[:@\s\x00-\x1f\x7f]")
_SOURCE_SUFFIXES = (".py", ".pyi", ".java", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs", ".proto",
                    ".graphql", ".graphqls", ".gql", ".go", ".cs", ".kt", ".kts", ".vue")

BASE_MIB = 120
"""Memory one index run takes whatever the repository (interpreter, grammars, stores), MiB."""
MIB_PER_SOURCE_MIB = 35
"""Memory per MiB of source the run holds in its resolver, MiB (measured: Django 5.2.8's 18.4 MiB
of Python and JavaScript peak at 727 MiB indexed in one process, docs/benchmarks.md)."""


class ManifestError(ValueError):
    """The manifest cannot be used; the message lists every problem, one per line."""


@dataclass(frozen=True, slots=True)
class ManifestEntry:
    """One repository to index: ``path`` resolved, ``name`` / ``product`` filled in, ``branch``
    ``None`` for the checkout's current branch."""

    path: Path
    name: str
    product: str
    branch: str | None = None


def _label(i: int, raw: object) -> str:
    name = raw.get("name") if isinstance(raw, dict) else None
    return f"repository #{i}" + (f" ({name})" if isinstance(name, str) and name else "")


def _check_name(what: str, value: str) -> str | None:
    if not value.strip():
        return f"{what} is empty"
    if _BAD_NAME.search(value):
        return f"{what} {value!r} holds a character a repository key cannot (':', '@', whitespace, control)"
    return None


def load_manifest(path: Path) -> list[ManifestEntry]:
    """The entries of manifest ``path``, in file order. Raises :class:`ManifestError` listing every
    problem (see the module docstring); a file that cannot be read or is not TOML too."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(MANIFEST_MAX_BYTES + 1)
    except OSError as exc:
        raise ManifestError(f"cannot read manifest {path}: {exc.strerror or exc}") from exc
    if len(data) > MANIFEST_MAX_BYTES:
        raise ManifestError(f"manifest {path} is larger than {MANIFEST_MAX_BYTES:,} bytes")
    try:
        doc = tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise ManifestError(f"manifest {path} is not UTF-8 text: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"manifest {path} is not valid TOML: {exc}") from exc
    except RecursionError:  # tomllib parses nested arrays and inline tables recursively
        raise ManifestError(f"manifest {path} nests arrays or inline tables too deep to read") from None
    problems: list[str] = []
    extra = sorted(set(doc) - {"repository"})
    if extra:
        problems.append(f"unknown top-level key(s) {', '.join(extra)}: a manifest holds [[repository]] tables only")
    raw_entries = doc.get("repository", [])
    if not isinstance(raw_entries, list) or not all(isinstance(e, dict) for e in raw_entries):
        raise ManifestError("\n".join([*problems, "`repository` must be a list of tables: write each as [[repository]]"]))
    if not raw_entries and not problems:
        problems.append("no [[repository]] entries: nothing to index")
    base = path.resolve().parent
    entries: list[ManifestEntry] = []
    seen: dict[str, str] = {}
    for i, raw in enumerate(raw_entries, 1):
        label = _label(i, raw)
        unknown = sorted(set(raw) - _KEYS)
        if unknown:
            problems.append(f"{label}: unknown key(s) {', '.join(unknown)} (allowed: branch, name, path, product)")
        wrong = [k for k in sorted(_KEYS & set(raw)) if not isinstance(raw[k], str)]
        for k in wrong:
            problems.append(f"{label}: {k} must be a string, not {type(raw[k]).__name__}")
        if "path" not in raw:
            problems.append(f"{label}: path is missing")
            continue
        if wrong:
            continue
        folder = Path(os.path.expanduser(raw["path"]))
        folder = (base / folder if not folder.is_absolute() else folder).resolve()
        if not folder.is_dir():
            problems.append(f"{label}: path {raw['path']!r} is not a folder ({folder})")
            continue
        name = raw.get("name", folder.name)
        product = raw.get("product", name)
        branch = raw.get("branch")
        for what, value in (("name", name), ("product", product), ("branch", branch)):
            bad = _check_name(what, value) if value is not None and what != "product" else None
            if what == "product" and not value.strip():
                bad = "product is empty"
            if bad:
                problems.append(f"{label}: {bad}")
        key = f"{name}@{branch}" if branch else name
        if key in seen:
            problems.append(f"{label}: name {name!r}{' on branch ' + repr(branch) if branch else ''} is also "
                            f"{seen[key]}: give one of them another name")
            continue
        seen[key] = label
        entries.append(ManifestEntry(folder, name, product, branch))
    if problems:
        raise ManifestError(f"manifest {path}:\n" + "\n".join(f"  - {p}" for p in problems))
    return entries


def estimate_mib(root: Path, limit_files: int = 200_000) -> int:
    """A conservative estimate of the memory (MiB) one index run of ``root`` takes:
    :data:`BASE_MIB` plus :data:`MIB_PER_SOURCE_MIB` per MiB of source files (by suffix; dependency
    and build folders pruned as discovery prunes them; links not followed; at most ``limit_files``
    files looked at). Never raises: what cannot be read counts nothing."""
    total, seen = 0, 0
    for folder, dirs, files in os.walk(root, onerror=lambda exc: None):
        dirs[:] = [d for d in dirs if d not in PRUNED_DIRS and d != OWN_DIR and not d.endswith(".egg-info")]
        for f in files:
            if f.endswith(_SOURCE_SUFFIXES):
                seen += 1
                try:
                    total += os.lstat(os.path.join(folder, f)).st_size
                except OSError:
                    pass
        if seen >= limit_files:
            break
    return BASE_MIB + int(MIB_PER_SOURCE_MIB * total / (1 << 20))
