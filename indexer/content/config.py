"""Configuration keys with their values: one piece per leaf key, named by its full dotted key
(``spring.datasource.url``; list items as ``key[0]``), its text ``key = value``, its lines those of
the value in the file.

YAML through PyYAML's composer (node positions; several documents in one file, Spring profiles,
give their keys again); ``.properties`` through javaproperties (continuation lines and escapes as
Java reads them); ``.env.example`` through python-dotenv's parser. A YAML document that does not
parse gives no piece (the documents before it do; the file is still a File of the index) and its
error is counted with the files that have parse errors (:func:`read`, the content extractor).
"""

from __future__ import annotations

import io

from indexer.content.pieces import Piece

__all__ = ["keys", "read", "MAX_KEYS", "MAX_VALUE_CHARS"]

MAX_KEYS = 2_000
"""Most keys read from one file (the chunk cap of :data:`indexer.content.MAX_CHUNKS`); a YAML alias of
a collection already read is one key (``key = *alias``), never expanded again (a "billion laughs"
file of nested aliases is linear, not exponential)."""
MAX_VALUE_CHARS = 1_000
"""A value longer than this (an inlined certificate) is cut and ends with ``…``."""


def keys(path: str, language: str, text: str) -> list[Piece]:
    """The keys of one configuration file (``language``: ``yaml``, ``properties`` or ``dotenv``): in a
    YAML file with a syntax error, those of the documents before the broken one (:func:`read` also
    says what the error was)."""
    return read(path, language, text)[0]


def read(path: str, language: str, text: str) -> tuple[list[Piece], list[str]]:
    """``(keys, errors)`` of one configuration file: the keys read (in a YAML file with a syntax error,
    those of the ``---`` documents before the broken one; a YAML file is read up to one key past :data:`MAX_KEYS`, so that more keys than
    the cap show), and the parse errors as ``"line:col: message"`` (1-based; ``"0:0: message"`` when
    the parser gives no position). Never raises."""
    import yaml

    out: list[Piece] = []
    try:
        if language == "yaml":
            _yaml(text, out)
        elif language == "properties":
            out = _properties(text)
        else:
            out = _dotenv(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = f"{mark.line + 1}:{mark.column + 1}" if mark is not None else "0:0"
        return out, [f"{where}: {exc.problem or exc.context or 'not YAML'}"]
    except Exception as exc:  # noqa: BLE001 - a configuration file that does not parse: what was read, and why
        return out, [f"0:0: {type(exc).__name__}: {str(exc)[:200]}"]
    return out, []


def _piece(key: str, value: str, start: int, end: int) -> Piece:
    value = value if len(value) <= MAX_VALUE_CHARS else value[:MAX_VALUE_CHARS] + "…"
    return Piece(key, start, max(start, end), f"{key} = {value}")


def _yaml(text: str, out: list[Piece]) -> list[Piece]:
    """Appends the keys of YAML ``text`` to ``out`` document by document (so a syntax error leaves the
    keys of the documents before it); raises PyYAML's errors."""
    import yaml

    seen: set[int] = set()

    def walk(node: yaml.Node, key: str) -> None:
        if len(out) > MAX_KEYS:  # one past the cap: the caller can tell the file was cut
            raise _Full
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
            if id(node) in seen:  # an alias of a collection read already: named, not expanded again
                out.append(_piece(key, "*alias", node.start_mark.line + 1, node.start_mark.line + 1))
                return
            seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                part = str(k.value) if isinstance(k, yaml.ScalarNode) else "?"
                walk(v, f"{key}.{part}" if key else part)
        elif isinstance(node, yaml.SequenceNode):
            scalars = all(isinstance(v, yaml.ScalarNode) for v in node.value)
            if scalars and key:
                out.append(_piece(key, ", ".join(str(v.value) for v in node.value), node.start_mark.line + 1,
                                  node.end_mark.line + (0 if node.end_mark.column == 0 else 1)))
                return
            for i, v in enumerate(node.value):
                walk(v, f"{key}[{i}]")
        elif isinstance(node, yaml.ScalarNode) and key:
            end = node.end_mark.line + (0 if node.end_mark.column == 0 else 1)
            out.append(_piece(key, str(node.value), node.start_mark.line + 1, end))

    try:
        for doc in yaml.compose_all(io.StringIO(text), Loader=yaml.SafeLoader):
            # An alias names an anchor of its own document, and a finished document's nodes are freed, so a later
            # document's node may reuse an earlier one's id(): the collections read are per document.
            seen.clear()
            if doc is not None:
                walk(doc, "")
    except _Full:
        pass
    return out


class _Full(Exception):
    """More than :data:`MAX_KEYS` keys read: the rest of the file is left out."""


def _properties(text: str) -> list[Piece]:
    import javaproperties

    out = []
    line = 1
    for item in javaproperties.parse(text):
        lines = item.source.count("\n") or 1
        if isinstance(item, javaproperties.KeyValue) and item.key:
            out.append(_piece(item.key, item.value, line, line + lines - 1))
        line += item.source.count("\n")
    return out


def _dotenv(text: str) -> list[Piece]:
    from dotenv.parser import parse_stream

    out = []
    for b in parse_stream(io.StringIO(text)):
        if b.key and not b.error:
            n = b.original.string.rstrip("\n").count("\n")
            out.append(_piece(b.key, b.value or "", b.original.line, b.original.line + n))
    return out
