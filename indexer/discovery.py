"""Discovery: which files of a source tree get indexed, and why the others do not.

Walks a root directory, honours ``.gitignore`` files at every level (gitwildmatch semantics through
the ``pathspec`` library), prunes vendored and generated trees, and classifies every file it passes
over with a reason, so a run can say exactly what it skipped. Links out of the root are not followed
and only regular files are indexed (:mod:`indexer.fsguard`, the rule the language server shares);
binary and encoding checks need the bytes and happen when the file is read (:func:`read_source`).
"""

from __future__ import annotations

import errno
import logging
import os
import re
import stat
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pathspec

from indexer.fsguard import MAX_CONFIG_BYTES, SkipFile, inside_root, read_regular
from indexer.languages import extractor_for_path
from indexer.source_files import SourceFile, SourceFiles

__all__ = [
    "DEFAULT_MAX_FILE_BYTES",
    "PRUNED_DIRS",
    "SourceFile",
    "Discovery",
    "discover",
    "classify_path",
    "with_mapped_scripts",
    "doc_folder_problem",
    "link_target_indexed",
    "read_source",
    "SkipFile",
    "to_utf8",
    "inside_root",
    "load_gitignore",
]

log = logging.getLogger(__name__)

DEFAULT_MAX_FILE_BYTES = 1_000_000
"""Files larger than this (bytes) are skipped as ``too_large``; generated bundles live above it."""

PRUNED_DIRS = frozenset({
    ".git", ".hg", ".svn", "node_modules", "bower_components", "jspm_packages",
    "__pycache__", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".tox", ".nox", ".venv", "venv",
    ".eggs", "site-packages", "build", "dist", "out", "target", ".gradle", ".next", ".nuxt",
    ".svelte-kit", "coverage", ".idea", ".vscode", "vendor", "third_party",
})
"""Directory names never descended into: VCS metadata, dependencies, caches and build output."""

OWN_DIR = ".ripple"
"""The folder ripplegraph keeps its index in, never walked."""

_GENERATED_SUFFIXES = (".min.js", ".bundle.js", ".min.mjs", ".d.ts", ".d.mts", ".d.cts")
_MAPPED_SUFFIXES = (".js", ".mjs", ".cjs")
"""Script files a bundler or compiler emits with a source map beside them (``main.05accb10.chunk.js``
and ``main.05accb10.chunk.js.map``: a React build committed under a Spring Boot app's
``src/main/resources/static``; ``tsc --sourceMap`` output): the map says the file was made from
other sources, so it is ``generated`` (:func:`_mapped_output`)."""


def _mapped_output(name: str, exists: Callable[[str], bool]) -> bool:
    """Whether the file ``name`` is a script with a source map ``<name>.map`` beside it (``exists``
    says whether a sibling of that name is there)."""
    return name.lower().endswith(_MAPPED_SUFFIXES) and exists(name + ".map")


def with_mapped_scripts(rels: Iterable[str]) -> set[str]:
    """The repository-relative paths ``rels`` plus, for each source map among them
    (``dist/app.js.map``), the script it maps (``dist/app.js``): a map that appears makes its script
    ``generated`` and one that goes makes it a source again (:func:`_mapped_output`), so a watcher told
    only of the map must classify the script again. Whether the script exists is not checked here."""
    out = set(rels)
    for rel in tuple(out):
        if rel.lower().endswith(".map") and rel[:-4].lower().endswith(_MAPPED_SUFFIXES):
            out.add(rel[:-4])
    return out


@dataclass(slots=True)
class Discovery:
    """The outcome of a walk: files to index (sorted by path) and skipped files counted by reason.

    Reasons: ``gitignored``, ``pruned_dir`` (files under a pruned directory are not counted one by
    one: the directory counts once), ``no_extractor``, ``generated``, ``too_large``, ``symlink_loop``
    (a link back to a folder on the walk or to one of its ancestors, or links leading to each other),
    ``symlink_duplicate`` (a second link to a folder already walked), ``symlink_outside`` (a link out of the root, not followed by
    default), ``not_regular`` (a FIFO, socket or device), ``undecodable_name`` (a file name that is not
    UTF-8 or holds a line break), ``unreadable``. ``skipped_examples`` keeps up to five paths per reason for the summary.
    """

    files: SourceFiles = field(default_factory=SourceFiles)  # columns: no objects a file (indexer.source_files)
    skipped: Counter[str] = field(default_factory=Counter)
    skipped_examples: dict[str, list[str]] = field(default_factory=dict)
    skipped_log: list[tuple[str, str]] = field(default_factory=list)

    def skip(self, reason: str, path: str) -> None:
        """Count ``path`` as skipped for ``reason`` (every skip is kept in ``skipped_log``)."""
        self.skipped[reason] += 1
        self.skipped_log.append((reason, path))
        examples = self.skipped_examples.setdefault(reason, [])
        if len(examples) < 5:
            examples.append(path)


MAX_PATTERN_STARS = 3
"""Single ``*`` wildcards a ``.gitignore`` line may hold. pathspec compiles each to a regular
expression that backtracks: against a 200-character name of ``a`` s, ``*a*a*b`` takes 1 ms,
``*a*a*a*b`` 78 ms, ``*a*a*a*a*b`` 3.3 s (measured), growing as the name's length to the power of
the stars. Real lines hold one or two (``*.min.*.js``); a line with more is dropped with a warning
(git, whose matcher does not backtrack, would honour it: such a file may then be indexed)."""
_SINGLE_STAR = re.compile(r"(?<![*\\])\*(?!\*)")
"""A ``*`` that is neither part of ``**`` nor escaped."""


def load_gitignore(directory: str, root: str | None = None) -> pathspec.GitIgnoreSpec | None:
    """The patterns of ``directory``'s ``.gitignore`` (``None``: no file, or no pattern in it).

    A ``.gitignore`` that is a symbolic link is ignored with a warning, as git (2.32 on) ignores it.
    Read as :func:`indexer.fsguard.read_regular` reads (a FIFO or device is not read; a file over
    :data:`indexer.fsguard.MAX_CONFIG_BYTES` is ignored, with a warning; with ``root``, a real path,
    a file swapped for a link out of it since is not read). A line pathspec rejects
    (a trailing backslash, a lone ``!``) is dropped with a warning naming the file and line, as git
    drops it; the other lines keep their order and meaning. Never raises."""
    path = os.path.join(directory, ".gitignore")
    if os.path.islink(path):
        log.warning("%s ignored: a symbolic link (git does not follow it either)", printable_path(path))
        return None
    try:
        data = read_regular(path, MAX_CONFIG_BYTES, root)
    except SkipFile as exc:
        if exc.reason != "unreadable" or os.path.lexists(path):
            log.warning("%s ignored: %s", path.encode("utf-8", "surrogateescape").decode("utf-8", "replace"), exc)
        return None
    lines = data.decode("utf-8", "replace").splitlines()
    for number, line in enumerate(lines, 1):
        stars = len(_SINGLE_STAR.findall(line))
        if stars > MAX_PATTERN_STARS:
            log.warning("%s:%d: pattern ignored: %d wildcards (matching it could take hours on a long file name)",
                        printable_path(path), number, stars)
            lines[number - 1] = ""
    try:
        spec = pathspec.GitIgnoreSpec.from_lines(lines)
    except Exception:  # noqa: BLE001 - pathspec raises several types; find the culprit lines
        kept = []
        for number, line in enumerate(lines, 1):
            try:
                pathspec.GitIgnoreSpec.from_lines([line])
            except Exception as exc:  # noqa: BLE001
                log.warning("%s:%d: pattern %r ignored (git ignores it too): %s", path, number, line, exc)
                continue
            kept.append(line)
        spec = pathspec.GitIgnoreSpec.from_lines(kept)
    return spec if len(spec) else None


def doc_folder_problem(root: str | Path, folder: str) -> str | None:
    """Why the configured documentation folder ``folder`` (repository-relative, as
    :func:`stores.config.doc_folder_paths` checked it) cannot be indexed under ``root``, as a skip
    reason: ``doc_folder_missing`` (nothing there, or not a folder) or ``doc_folder_outside`` (a
    symbolic link on its path leads out of the repository); ``None`` when it can."""
    real_root = os.path.realpath(root)
    path = os.path.join(real_root, *folder.split("/"))
    if not os.path.lexists(path):
        return "doc_folder_missing"
    if not inside_root(real_root, Path(path)):
        return "doc_folder_outside"
    return None if os.path.isdir(path) else "doc_folder_missing"


def _under(rel: str, folders: tuple[str, ...]) -> bool:
    return any(rel == f or rel.startswith(f + "/") for f in folders)


def _toward(rel: str, folders: tuple[str, ...]) -> bool:
    """Whether the folder ``rel`` is, or holds, a documentation folder."""
    return any(f == rel or f.startswith(rel + "/") for f in folders)


def _doc_file(rel: str) -> bool:
    from indexer.content import content_kind

    ex = extractor_for_path(rel)
    return ex is not None and content_kind(ex.language) == "doc"


def discover(root: str | Path, max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
             follow_external_symlinks: bool = False, doc_folders: tuple[str, ...] = ()) -> Discovery:
    """Walk ``root`` and return the files to index with every skipped file counted by reason.

    ``.gitignore`` files apply to their own directory and below, patterns relative to it, as git does.
    Symbolic links are followed while they stay inside ``root``; one that leads out of it is skipped
    (``symlink_outside``, the rule of :func:`indexer.fsguard.inside_root`) unless
    ``follow_external_symlinks``. A symbolic link to a directory is not followed when it leads back
    to a directory on the walk or to one of its ancestors, ``/`` included (``symlink_loop``). Only
    regular files are indexed (a FIFO, socket or device: ``not_regular``). ``doc_folders``
    (repository-relative, ``[docs] folders``): their documentation files (Markdown, AsciiDoc,
    reStructuredText) are indexed even where ``.gitignore`` or a pruned folder name would leave them
    out (a wiki export nobody commits); nothing else there is. A folder that is missing or leads out of
    the repository is skipped and counted (:func:`doc_folder_problem`), never walked. Raises
    ``NotADirectoryError`` when ``root`` is not a directory.
    """
    root_path = Path(root).resolve()
    if not root_path.is_dir():
        raise NotADirectoryError(f"not a directory: {root}")
    root_real = str(root_path)
    result = Discovery()
    usable = []
    for f in doc_folders:  # a missing folder, or a link out of the repository, is skipped and counted
        problem = doc_folder_problem(root_real, f)
        if problem is None:
            usable.append(f)
        else:
            result.skip(problem, f + "/")
    doc_folders = tuple(usable)
    # Stack of (absolute dir, relative dir, inherited ignore specs [(base_rel, spec)], real paths on walk).
    stack: list[tuple[str, str, list[tuple[str, pathspec.GitIgnoreSpec]], frozenset[str]]] = [
        (root_real, "", [], frozenset({root_real}))
    ]
    walked: set[str] = {root_real}
    docs_only: dict[str, str] = {}  # folder walked only for doc folders -> the skip reason of the rest
    linked: list[tuple[str, tuple[str, str, list[tuple[str, pathspec.GitIgnoreSpec]], frozenset[str]]]] = []
    # The real path of each folder on the stack, by its path as walked: a folder that is no link, in a folder whose
    # real path is known, is that path joined with its name (``os.path.realpath`` of a folder N deep costs N
    # ``lstat`` calls, each resolving the folders above: quadratic in the depth).
    real_of: dict[str, str] = {root_real: root_real}
    while stack:
        abs_dir, rel_dir, specs, ancestors = stack.pop()
        here_real = real_of.pop(abs_dir, None)
        own = load_gitignore(abs_dir, None if follow_external_symlinks else root_real)
        if own is not None:
            specs = [*specs, (rel_dir, own)]
        try:
            entries = sorted(os.scandir(abs_dir), key=lambda e: e.name)
        except OSError:
            result.skip("unreadable", rel_dir or ".")
            continue
        subdirs = []
        siblings = {e.name for e in entries}
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            if not _utf8_name(rel):
                # Bytes that are not UTF-8 in a file name (os.scandir keeps them as surrogates):
                # the path cannot be stored, shown or sent to an editor.
                result.skip("undecodable_name", printable_path(rel))
                continue
            try:
                is_dir = entry.is_dir()
                is_link = entry.is_symlink()
            except OSError as exc:
                result.skip(_unreadable(exc), rel)
                continue
            only_docs = rel_dir in docs_only  # a folder walked only for the documentation folders in it
            if (only_docs or _ignored(specs, rel, is_dir)) and not (doc_folders and (
                    _toward(rel, doc_folders) or _under(rel, doc_folders) if is_dir
                    else _under(rel, doc_folders) and _doc_file(rel))):
                result.skip(docs_only.get(rel_dir, "gitignored"), rel + ("/" if is_dir else ""))
                continue
            if is_dir and doc_folders and (only_docs or _ignored(specs, rel, is_dir)):
                docs_only[rel] = docs_only.get(rel_dir, "gitignored")
            if is_link and not follow_external_symlinks and not inside_root(root_real, entry.path):
                result.skip("symlink_outside", rel + ("/" if is_dir else ""))
                continue
            if is_dir:
                if entry.name == OWN_DIR:
                    continue  # our own index: not source, not worth a skip count
                if entry.name in PRUNED_DIRS or entry.name.endswith(".egg-info"):
                    if not _toward(rel, doc_folders):
                        result.skip("pruned_dir", rel + "/")
                        continue
                    docs_only.setdefault(rel, "pruned_dir")
                real = os.path.join(here_real, entry.name) if here_real and not is_link else os.path.realpath(entry.path)
                if is_link:
                    if real in ancestors or _is_ancestor(real, ancestors):
                        result.skip("symlink_loop", rel + "/")
                        continue
                    # Walked after every real folder: a folder is indexed under its own path, and
                    # a link only adds folders the walk does not otherwise reach.
                    linked.append((real, (entry.path, rel, specs, ancestors | {real})))
                    continue
                walked.add(real)
                real_of[entry.path] = real
                subdirs.append((entry.path, rel, specs, ancestors | {real}))
                continue
            _classify_file(entry, rel, max_file_bytes, result, None if follow_external_symlinks else root_real,
                           siblings.__contains__)
        stack.extend(reversed(subdirs))
        while not stack and linked:
            real, item = linked.pop(0)
            if real in walked:  # two ways into one folder: index it once
                result.skip("symlink_duplicate", item[1] + "/")
                continue
            walked.add(real)
            real_of[item[0]] = real
            stack.append(item)
    result.files.sort_by_path()
    return result


def classify_path(root: str | Path, rel: str, max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
                  follow_external_symlinks: bool = False, doc_folders: tuple[str, ...] = ()) -> SourceFile | str:
    """What :func:`discover` would say of the one file ``rel`` (repository-relative, POSIX) under the
    resolved ``root``: its :class:`SourceFile`, or the reason it is not indexed (a skip reason, or
    ``own_dir`` for the index folder, ``missing`` when nothing is there). The watcher asks this for
    each path it sees change instead of walking the tree again. Never raises."""
    if not _utf8_name(rel):
        return "undecodable_name"
    wanted_doc = bool(doc_folders) and _under(rel, doc_folders) and _doc_file(rel) and not any(
        _under(rel, (f,)) and doc_folder_problem(root, f) for f in doc_folders)
    root_path = Path(root)
    real_root = os.path.realpath(root_path)
    confine = None if follow_external_symlinks else real_root
    parts = rel.split("/")
    specs: list[tuple[str, pathspec.GitIgnoreSpec]] = []
    for i, name in enumerate(parts[:-1]):
        base = "/".join(parts[:i])
        own = load_gitignore(str(root_path / base) if base else str(root_path), confine)
        if own is not None:
            specs.append((base, own))
        if _ignored(specs, "/".join(parts[: i + 1]), True) and not wanted_doc:
            return "gitignored"
        if name == OWN_DIR:
            return "own_dir"
        if (name in PRUNED_DIRS or name.endswith(".egg-info")) and not wanted_doc:
            return "pruned_dir"
    base = "/".join(parts[:-1])
    own = load_gitignore(str(root_path / base) if base else str(root_path), confine)
    if own is not None:
        specs.append((base, own))
    if _ignored(specs, rel, False) and not wanted_doc:
        return "gitignored"
    path = root_path / rel
    name = parts[-1]
    try:
        st = path.stat()
    except OSError:
        return "missing"
    if stat.S_ISDIR(st.st_mode):
        return "missing"
    if not follow_external_symlinks and not inside_root(str(root_path), path):
        return "symlink_outside"
    extractor = extractor_for_path(rel)
    if extractor is None or (path.is_symlink() and not link_target_indexed(str(path), str(root_path))):
        return "no_extractor"
    if name.lower().endswith(_GENERATED_SUFFIXES) or _mapped_output(name, lambda n: os.path.lexists(path.parent / n)):
        return "generated"
    if not stat.S_ISREG(st.st_mode):
        return "not_regular"
    if st.st_size > max_file_bytes:
        return "too_large"
    return SourceFile(rel, str(path), extractor.language, st.st_size, confine)


def printable_path(rel: str) -> str:
    """``rel`` with the bytes that are not UTF-8 (kept by ``os`` as lone surrogates) written as
    ``\\xNN``: safe to print, log and store."""
    return rel.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace") if not _utf8_name(rel) else rel


def _utf8_name(rel: str) -> bool:
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return "\n" not in rel and "\r" not in rel


def _is_ancestor(real: str, ancestors: frozenset[str]) -> bool:
    # ``real`` is an ancestor of a folder on the walk (``/`` is everyone's).
    prefix = real if real.endswith(os.sep) else real + os.sep
    return any(a == real or a.startswith(prefix) for a in ancestors)


def _ignored(specs: list[tuple[str, pathspec.GitIgnoreSpec]], rel: str, is_dir: bool) -> bool:
    # As git does: the deepest .gitignore with a matching pattern decides, so a nested file's
    # "!pattern" re-includes what a parent's pattern excluded.
    for base, spec in reversed(specs):
        sub = rel[len(base) + 1 :] if base else rel
        verdict = spec.check_file(sub + "/" if is_dir else sub).include
        if verdict is not None:
            return verdict
    return False


def link_target_indexed(path: str, root: str) -> bool:
    """Whether the file a symbolic link at ``path`` leads to would be indexed under its own name:
    a link named ``.env.example`` or ``notes.md`` to a ``.env`` (whose secrets are never read) is
    skipped like its target (reason ``no_extractor``). The target's path relative to ``root`` decides
    when it lies inside, else its file name."""
    real = os.path.realpath(path)
    real_root = os.path.realpath(root)
    inside = real.startswith(real_root.rstrip(os.sep) + os.sep)
    target = os.path.relpath(real, real_root).replace(os.sep, "/") if inside else os.path.basename(real)
    return extractor_for_path(target) is not None


def _unreadable(exc: OSError) -> str:
    """The skip reason of a path whose type or size cannot be read: ``symlink_loop`` for links leading
    to each other (``ELOOP``: the walk's own loop check sees only links to folders it walks), else
    ``unreadable``."""
    return "symlink_loop" if exc.errno == errno.ELOOP else "unreadable"


def _classify_file(entry: os.DirEntry[str], rel: str, max_file_bytes: int, result: Discovery,
                   confine: str | None, sibling: Callable[[str], bool] = lambda _: False) -> None:
    extractor = extractor_for_path(rel)
    if extractor is None or (entry.is_symlink() and not link_target_indexed(entry.path, confine or "/")):
        result.skip("no_extractor", rel)
        return
    if entry.name.lower().endswith(_GENERATED_SUFFIXES) or _mapped_output(entry.name, sibling):
        result.skip("generated", rel)
        return
    try:
        st = entry.stat()
    except OSError as exc:
        # A dangling symlink, links leading to each other, or a file removed under us.
        result.skip(_unreadable(exc), rel)
        return
    if not stat.S_ISREG(st.st_mode):  # a FIFO, socket or device: opening it could block forever
        result.skip("not_regular", rel)
        return
    size = st.st_size
    if size > max_file_bytes:
        result.skip("too_large", rel)
        return
    result.files.append(SourceFile(rel, entry.path, extractor.language, size, confine))


def read_source(abs_path: str, max_file_bytes: int = DEFAULT_MAX_FILE_BYTES, confine: str | None = None) -> bytes:
    """Read a file for extraction (``confine``: :attr:`SourceFile.confine`). Raises :class:`SkipFile`
    with reason ``unreadable``, ``symlink_outside`` (a link swapped since discovery now leads out of
    ``confine``: checked on the open file, :func:`indexer.fsguard.read_regular`),
    ``not_regular`` (a FIFO, socket or device, perhaps swapped in since discovery: never blocks),
    ``too_large`` (it grew since discovery) or ``binary`` (a NUL byte in the first 8 KiB). Bytes
    that are not UTF-8 are returned as they are: extractors decode leniently."""
    data = read_regular(abs_path, max_file_bytes, confine)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data  # UTF-16 with a byte-order mark: NUL bytes are expected; to_utf8 decodes it
    if b"\x00" in data[:8192]:
        raise SkipFile("binary", "NUL byte in the first 8 KiB")
    return data


def to_utf8(data: bytes) -> tuple[bytes, str]:
    """The file's text as UTF-8 bytes for the parser, and the encoding it was read as.

    UTF-8 (a leading BOM dropped) passes through unchanged; UTF-16 with a byte-order mark is
    decoded; CR-only line endings become LF; anything else is decoded as cp1252,
    falling back to latin-1 (which accepts every byte), and re-encoded, so a legacy-encoded file is
    extracted with its identifiers intact instead of as syntax errors. Line numbers are unchanged;
    columns count code points either way.
    """
    text, encoding = _decode(data)
    if b"\r" in text and b"\n" not in text:
        text = text.replace(b"\r", b"\n")  # classic Mac line endings: the parser counts only \n
    return text, encoding


def _decode(data: bytes) -> tuple[bytes, str]:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16").encode("utf-8"), "utf-16"
        except UnicodeDecodeError:
            pass
    try:
        data.decode("utf-8")
        return data, "utf-8"
    except UnicodeDecodeError:
        pass
    for encoding in ("cp1252", "latin-1"):
        try:
            return data.decode(encoding).encode("utf-8"), encoding
        except UnicodeDecodeError:
            continue
    raise AssertionError("latin-1 decodes every byte")  # pragma: no cover
