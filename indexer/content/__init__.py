"""Search chunks for the rest of a repository: documentation, configuration and SQL.

Beside code, a repository holds what explains and configures it. These files become search chunks of
their own kinds (the design's ``doc``, ``config`` and ``sql``), each chunk pointing at its file's
graph node (``fqn`` = the File id, as file sections do), so ``ripple search --kind doc|config|sql``
and the agent interfaces find them:

* ``doc`` (:mod:`indexer.content.docs`): Markdown, reStructuredText and AsciiDoc files split by
  section (READMEs, ``docs/``, ADRs, a wiki export; ``.txt`` files under a ``doc/`` or ``docs/``
  folder are read as reStructuredText, as Sphinx projects such as Django write them);
* ``config`` (:mod:`indexer.content.config`): Spring ``application*`` / ``bootstrap*`` ``.yml`` /
  ``.yaml`` / ``.properties``, Helm ``values*.yaml`` and ``.env.example`` (``.env.sample``,
  ``.env.template``), one chunk per key with its full dotted name and its value. A real ``.env``
  (secrets) is never claimed, so never read;
* ``sql`` (:mod:`indexer.content.sql`): ``.sql`` files, one chunk per DDL statement (parsed with
  sqlglot), a migration (Flyway ``V1__x.sql``, or a file under a ``migration(s)`` / ``changelog``
  folder) as one chunk per file.

Which files are which is decided by the path alone (:func:`content_language`). This package plugs
into the language registry like a language folder (``EXTRACTORS``: none, as no suffix alone decides;
``modules.MODULE_SYSTEM``: nothing to import or call), and :func:`indexer.languages.extractor_for_path`
asks :func:`content_extractor` after the suffix table, so a language's own extractor of ``.sql`` comes
first; the files then get a File node each and are kept current by the incremental run like any
file. :func:`indexer.chunking.chunk_file` cuts them with :func:`content_chunks`. Sizes are capped: a chunk's text at
:data:`indexer.chunking.MAX_CHUNK_CHARS`, a section at :data:`SECTION_LINES` lines (longer ones
continue in further chunks), a file at :data:`MAX_CHUNKS` chunks (the rest is left out and logged).
Docs and configuration that name a symbol or a table in a code span link to it with ``MENTIONS``
edges (:mod:`indexer.mentions`).
"""

from __future__ import annotations

import hashlib
import logging
import posixpath
import re

from indexer.content.extractor import CONTENT_EXTRACTORS, ContentExtractor
from indexer.content.pieces import CONFIG_LANGUAGES, DOC_LANGUAGES, SECTION_LINES, Piece
from stores.contracts import Chunk

__all__ = ["CONTENT_KINDS", "DOC_LANGUAGES", "CONFIG_LANGUAGES", "MAX_CHUNKS", "SECTION_LINES", "content_language",
           "content_kind", "content_chunks", "content_extractor", "Piece", "EXTRACTORS", "CONTENT_EXTRACTORS"]

log = logging.getLogger(__name__)

CONTENT_KINDS = ("sql", "config", "doc")
"""The chunk kinds of this package."""
MAX_CHUNKS = 2_000
"""Most chunks one file gives (a generated reference page or a huge values file): the rest is left out."""

_ENV_EXAMPLES = (".env.example", ".env.sample", ".env.template", ".env.dist")
_SPRING = re.compile(r"(application|bootstrap)([-.][\w.-]*)?\.(ya?ml|properties)", re.IGNORECASE)
_HELM = re.compile(r"values([-.][\w.-]*)?\.ya?ml", re.IGNORECASE)
_DOC_DIRS = {"doc", "docs", "wiki"}


def content_language(path: str) -> str | None:
    """The language of a documentation, configuration or SQL file at ``path`` (repository-relative,
    POSIX; a bare file name works for all but ``docs/*.txt``): ``markdown``, ``restructuredtext``,
    ``asciidoc``, ``yaml``, ``properties``, ``dotenv``, ``sql``; ``None`` for any other file (``.env``
    itself included: it holds secrets)."""
    name = posixpath.basename(path)
    lower = name.lower()
    if lower in _ENV_EXAMPLES:
        return "dotenv"
    if _SPRING.fullmatch(name) or _HELM.fullmatch(name):
        return "properties" if lower.endswith(".properties") else "yaml"
    suffix = posixpath.splitext(lower)[1]
    if suffix == ".sql":
        return "sql"
    if suffix in DOC_LANGUAGES:
        return DOC_LANGUAGES[suffix]
    if suffix == ".txt" and _DOC_DIRS.intersection(path.lower().split("/")[:-1]):
        return "restructuredtext"
    return None


EXTRACTORS: tuple[ContentExtractor, ...] = ()
"""No suffix claimed (see the module docstring)."""


def content_extractor(path: str) -> ContentExtractor | None:
    """The extractor of the documentation, configuration or SQL file at ``path``, else ``None``."""
    language = content_language(path)
    return CONTENT_EXTRACTORS.get(language) if language is not None else None


def content_kind(language: str) -> str | None:
    """The chunk kind of a content language (``doc``, ``config``, ``sql``), ``None`` for code."""
    if language == "sql":
        return "sql"
    if language in CONFIG_LANGUAGES:
        return "config"
    if language in DOC_LANGUAGES.values():
        return "doc"
    return None


def content_chunks(repo: str, product: str, path: str, language: str, fid: str, text: str,
                   max_chars: int) -> list[Chunk]:
    """The chunks of one content file (``language`` from :func:`content_language`), in line order,
    each of at most ``max_chars`` characters (a longer text is cut and ends with a ``…`` line); ``[]``
    for a language of code. Never raises on bad content: what does not parse gives no chunk (YAML)
    or a chunk per window of lines (SQL)."""
    from indexer.content import config, docs, sql

    kind = content_kind(language)
    if kind is None:
        return []
    if kind == "doc":
        pieces = docs.sections(path, language, text)
    elif kind == "config":
        pieces = config.keys(path, language, text)
    else:
        pieces = sql.statements(path, text, MAX_CHUNKS)
    if len(pieces) > MAX_CHUNKS:
        log.info("%s: more than %d chunks, the first %d kept", path, MAX_CHUNKS, MAX_CHUNKS)
        pieces = pieces[:MAX_CHUNKS]
    out: list[Chunk] = []
    seen: set[str] = set()
    for p in pieces:
        body = p.text if len(p.text) <= max_chars else p.text[:max_chars] + "\n…"
        if not body.strip():
            continue
        cid = f"{fid}#L{p.start}-{p.end}"
        if cid in seen:  # two keys on one line (a YAML flow mapping): one chunk id each
            cid = f"{cid}:{p.name}"
        seen.add(cid)
        out.append(Chunk(id=cid, repo=repo, product=product, file=path, language=language, kind=kind,
                         name=p.name[:500], fqn=fid, parent=None, start_line=p.start, end_line=p.end, text=body,
                         checksum=hashlib.sha1(body.encode("utf-8", "surrogatepass")).hexdigest()))
    return out
