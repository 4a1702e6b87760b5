"""What a chunk's vector is computed from: a short contextual header, then the chunk's own source.

A method's source alone does not say which class it belongs to or which file holds it, so the
``__str__`` of a hundred models, the ``save`` of every backend and a one-line getter look alike to the
embedding model, and a query naming the module or the class ("queryset filter", "the admin's
changelist") cannot reach them through dense retrieval. *Contextual chunk headers* fix that by
prepending the chunk's context to the text that is embedded, never to the text that is stored and
shown (the idea of Anthropic's "Contextual Retrieval", 2024, with the context taken from the code's
structure instead of written by a model).

The one place that builds it is :func:`embedding_text`; every embedding path (the bulk phase
:func:`indexer.embedding.embed_pending`, which ``ripple index``, ``ripple embed``, the background
worker, the central indexer, the REST jobs and the language server's embedding thread all run, on
every search backend) calls it, and ``similar`` compares the vectors it produced. Format
:data:`EMBEDDING_TEXT_FORMAT` (``ctx1``)::

    <file path, last 3 parts>     every chunk
    <qualified name>              code units (method, function, class) nested in a class or function
    <chunk text>                  the real source, docstrings and signature included, unchanged

The qualified name is the definition's name inside its file, its enclosing classes and functions
first (``Config.from_envvar``, ``Outer.Inner``), read from the chunk's ``fqn`` without the
repository, the module path (already on the first line) and the parameter part. A top-level function
or class gets no second line (its name is the chunk text's first line). The signature is not
repeated: a code unit's text starts with it (decorators or annotations, then the declaration), so it
is always inside the model's window. File sections, ``doc``, ``config`` and ``sql`` chunks get the
path line only: a doc section's text starts with its heading trail and a config chunk with its full
dotted key already, and the path ("settings", "migrations", "application-mysql") is what they lack.

Short on purpose: the bundled model reads 256 tokens (:data:`stores.embedder.MAX_TOKENS`), so every
header token pushes a token of source out of a long chunk. Measured on Django 5.2.8, spring-petclinic
and zod 4.6.7 by ``bench/chunk_header_tokens.py`` (figures in docs/search-quality.md).

BM25 needs no copy of the header: it indexes the chunk's ``fqn`` (path, qualified name, parameter
part) as a field of its own.

The chunk's ``checksum`` (the key of the content-addressed embedding cache and of the dedup in
``pending_chunks``) is :func:`chunk_checksum`, the digest of this text, so two chunks of equal source
in two classes or files get a vector each, and a text is still embedded once. The format is recorded
with the model (:func:`embedding_record`): an index whose vectors were computed from another format
(or another model) has them all dropped by ``set_embedding_model`` and embedded again, never mixed.
The format constant and the record live in :mod:`stores.embedding_format` (the ensemble's extra models
key their vectors by the same record); they are re-exported here.
"""

from __future__ import annotations

import dataclasses
import hashlib
import operator
import re

from indexer.symbols import module_path
from stores.contracts import CODE_UNIT_KINDS, Chunk
from stores.embedding_format import EMBEDDING_TEXT_FORMAT, embedding_record

__all__ = ["EMBEDDING_TEXT_FORMAT", "PATH_PARTS", "embedding_text", "short_path", "embedding_header", "chunk_checksum", "with_checksum", "embedding_record",
           "qualified_name"]

_DUPLICATE = re.compile(r"#\d+$")

PATH_PARTS = 3
"""Parts of the file path in the header: the file and its two folders. The leading folders are the
same for most of a repository (``src/main/java/org/springframework/samples/…``, ``django/``) and cost
the model's window most on Java (a median of 25 tokens for the whole path on spring-petclinic)."""

def qualified_name(chunk: Chunk) -> str:
    """The definition's name inside its file, enclosing classes and functions first
    (``Config.from_envvar``), from ``chunk.fqn``: the repository key, the module path (the file's path
    without its suffix, or the whole path when two files share that stem) and the parameter part
    (``(2)``, ``(Owner,int)``) and a duplicate mark (``#2``) removed. ``chunk.name`` when the fqn
    does not start with the file's module path."""
    rest = chunk.fqn.partition(":")[2]
    for prefix in (chunk.file + ".", module_path(chunk.file) + "."):  # the whole path when two files share a stem
        if rest.startswith(prefix) and len(rest) > len(prefix):
            rest = rest[len(prefix):]
            break
    else:
        return chunk.name
    rest = _DUPLICATE.sub("", rest)
    if chunk.kind in ("method", "function") and rest.endswith(")") and "(" in rest:
        rest = rest[: rest.rindex("(")]  # the parameter part holds no parenthesis (indexer.symbols)
    return rest or chunk.name


def short_path(path: str) -> str:
    """The last :data:`PATH_PARTS` parts of ``path`` (``django/contrib/admin/views/main.py`` ->
    ``admin/views/main.py``); a shorter path unchanged."""
    return "/".join(path.split("/")[-PATH_PARTS:])


def embedding_header(chunk: Chunk) -> str:
    """The header lines of :func:`embedding_text` (no trailing newline): the path's last parts
    (:func:`short_path`), then for a code unit whose qualified name says more than its name, that
    qualified name."""
    lines = [short_path(chunk.file)]
    if chunk.kind in CODE_UNIT_KINDS:
        qual = qualified_name(chunk)
        if qual != chunk.name:
            lines.append(qual)
    return "\n".join(lines)


def embedding_text(chunk: Chunk) -> str:
    """The text the embedding model reads for ``chunk`` (format :data:`EMBEDDING_TEXT_FORMAT`, see the
    module docstring): :func:`embedding_header`, a newline, then ``chunk.text`` unchanged. Pure: the
    same chunk fields always give the same text; ``chunk.text`` (what search shows) is never altered."""
    return f"{embedding_header(chunk)}\n{chunk.text}"


def chunk_checksum(chunk: Chunk) -> str:
    """Hex SHA-1 of :func:`embedding_text` (UTF-8, lone surrogates kept): the value a chunk's
    ``checksum`` must hold, whatever its current one."""
    return hashlib.sha1(embedding_text(chunk).encode("utf-8", "surrogatepass")).hexdigest()


_CHUNK_FIELDS = operator.attrgetter(*(f.name for f in dataclasses.fields(Chunk)))
_CHECKSUM_AT = [f.name for f in dataclasses.fields(Chunk)].index("checksum")


def with_checksum(chunk: Chunk) -> Chunk:
    """``chunk`` with ``checksum`` set to :func:`chunk_checksum` (the chunkers build every chunk
    through it). ``dataclasses.replace`` without its per-call look-up of the fields (Django's 50,000
    chunks: half the cost)."""
    values = list(_CHUNK_FIELDS(chunk))
    values[_CHECKSUM_AT] = chunk_checksum(chunk)
    return Chunk(*values)

