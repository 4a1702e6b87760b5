"""Configuration keys with their values: one piece per leaf key, named by its full dotted key
(``spring.datasource.url``; list items as ``key[0]``), its text ``key = value``, its lines those of
the value in the file.

YAML through PyYAML's composer (node positions; several documents in one file, Spring profiles,
give their keys again); ``.properties`` through javaproperties (continuation lines and escapes as
Java reads them); ``.env.example`` through python-dotenv's parser. A file that does not parse gives
no piece (it is still a File of the index).
"""

from __future__ import annotations

import io

from indexer.content.pieces import Piece

__all__ = ["keys", "MAX_KEYS", "MAX_VALUE_CHARS"]

MAX_KEYS = 2_000
"""Most keys read from one file (the chunk cap of :data:`indexer.content.MAX_CHUNKS`); a YAML alias of
a collection already read is one key (``key = *alias``), never expanded again (a "billion laughs"
file of nested aliases is linear, not exponential)."""
MAX_VALUE_CHARS = 1_000
"""A value longer than this (an inlined certificate) is cut and ends with ``…``."""


def keys(path: str, language: str, text: str) -> list[Piece]:
    """The keys of one configuration file (``language``: ``yaml``, ``properties`` or ``dotenv``)."""
    try:
        if language == "yaml":
            return _yaml(text)
        if language == "properties":
            return _properties(text)
        return _dotenv(text)
    except Exception:  # noqa: BLE001 - a configuration file that does not parse gives no keys
        return []


def _piece(key: str, value: str, start: int, end: int) -> Piece:
    value = value if len(value) <= MAX_VALUE_CHARS else value[:MAX_VALUE_CHARS] + "…"
    return Piece(key, start, max(start, end), f"{key} = {value}")


def _yaml(text: str) -> list[Piece]:
    import yaml

    out: list[Piece] = []
    seen: set[int] = set()

    def walk(node: yaml.Node, key: str) -> None:
        if len(out) >= MAX_KEYS:
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
            if doc is not None:
                walk(doc, "")
    except _Full:
        pass
    return out[:MAX_KEYS]


class _Full(Exception):
    """:data:`MAX_KEYS` keys read: the rest of the file is left out."""


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
