"""The embedded store's name lookup for doc mentions (:meth:`stores.contracts.GraphStore.find_symbol_keys`):
every key in one set query, not one or two queries per key.

A write batch's mention lookup asks for thousands of keys (Django 5.2.8's docs: about 20,000 over a
cold index's 12 batches, once the first batch has stored a shared ``Table`` node, which the
"nothing outside the skipped files" check cannot rule out). Each key's query is small; their Python
round trips (statement, bindings, rows) are most of the cost. :func:`symbol_keys` binds the keys as
one JSON array (``json_each``) joined to ``node_rows`` on its ``name`` index, and cuts each key's
rows of other repositories to the limit in SQL with ``row_number()`` over the key, in id order: the
same rows, in the same order, as the per-key queries give (kept for keys JSON cannot carry, a NUL).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence

from stores.contracts import SymbolKey
from stores.embedded_schema import qualname_sql

__all__ = ["symbol_keys"]

_Q = qualname_sql()
_MODULE = "coalesce(n.module, json_extract(n.props, '$.module'))"
_COLUMNS = f"i.id, l.term, n.name, {_Q}, p.repo, p.path, {_MODULE}"
_AGREES = (f"(?2 = '' OR {_Q} = ?2 OR substr(?2, -length({_Q}) - 1) = '.' || {_Q}"
           f" OR substr({_Q}, -length(?2) - 1) = '.' || ?2)")
_LABELS = "(?3 IS NULL OR n.label IN (SELECT tid FROM terms WHERE term IN (SELECT value FROM json_each(?3))))"
_ONE = (f"SELECT {_COLUMNS} FROM node_rows n JOIN ids i ON i.nid = n.nid JOIN terms l ON l.tid = n.label"
        f" JOIN paths p ON p.fid = n.fid WHERE n.name = ?1 AND {_AGREES} AND {_LABELS}")
_SET = (
    "WITH k(kn, name, tail) AS MATERIALIZED (SELECT key, json_extract(value, '$[0]'), json_extract(value, '$[1]')"
    " FROM json_each(?1)),"
    f" hit AS (SELECT k.kn AS kn, i.id AS id, l.term AS term, n.name AS name, {_Q} AS qualname, p.repo AS repo,"
    f" p.path AS path, {_MODULE} AS module,"
    " row_number() OVER (PARTITION BY k.kn, p.repo = ?4 ORDER BY i.id) AS rn"
    " FROM k JOIN node_rows n ON n.name = k.name JOIN ids i ON i.nid = n.nid JOIN terms l ON l.tid = n.label"
    " JOIN paths p ON p.fid = n.fid"
    f" WHERE (k.tail = '' OR {_Q} = k.tail OR substr(k.tail, -length({_Q}) - 1) = '.' || {_Q}"
    f" OR substr({_Q}, -length(k.tail) - 1) = '.' || k.tail)"
    f" AND {_LABELS.replace('?3', '?2')})"
    " SELECT kn, id, term, name, qualname, repo, path, module FROM hit WHERE rn <= ?3 OR repo = ?4"
)
"""Every key of a JSON array ``?1`` at once (``kn``: its index), labels ``?2``, limit ``?3``, ``skip_repo`` ``?4``."""
_SET_ALL = (_SET.replace(" row_number() OVER (PARTITION BY k.kn, p.repo = ?4 ORDER BY i.id) AS rn", " 0 AS rn")
            .replace(" WHERE rn <= ?3 OR repo = ?4", ""))
""":data:`_SET` without a limit (``?3``, ``?4`` unused): no window."""


def symbol_keys(conn: sqlite3.Connection, keys: Iterable[tuple[str, str]], kinds: str | None, limit: int | None,
                skip_repo: str, skip: set[str]) -> dict[tuple[str, str], list[SymbolKey]]:
    """``{(name, tail): [SymbolKey]}`` for each of ``keys`` on ``conn`` (an embedded store's
    database): the nodes named ``name`` whose qualname agrees with ``tail`` (equal, or one ends with
    the other after a dot; ``""``: any), of the labels ``kinds`` (a JSON array of label names;
    ``None``: any), sorted by id; with a ``limit``, at most that many, of which those of repositories
    other than ``skip_repo`` are cut to the first ``limit`` by id before the nodes of ``skip_repo``
    whose path is in ``skip`` are left out (the order :meth:`GraphStore.find_symbol_keys` documents).
    One query for every key JSON can carry; a key holding a NUL (where SQLite's JSON text ends) takes
    one or two queries of its own."""
    result: dict[tuple[str, str], list[SymbolKey]] = {k: [] for k in keys}
    whole = [k for k in result if "\0" not in k[0] and "\0" not in k[1]]
    rows: dict[int, list[tuple[object, ...]]] = {}
    if whole:
        sql, params = (_SET_ALL, (json.dumps(whole), kinds)) if limit is None else (_SET, (json.dumps(whole), kinds, limit, skip_repo))
        for row in conn.execute(sql, params):
            rows.setdefault(row[0], []).append(row[1:8])
    for kn, key in enumerate(whole):
        _fill(result[key], sorted(rows.get(kn, ())), skip_repo, skip, limit)
    for key in result.keys() - set(whole):
        name, tail = key
        if limit is None:
            got = conn.execute(_ONE + " ORDER BY i.id", (name, tail, kinds)).fetchall()
        else:
            got = conn.execute(_ONE + " AND p.repo <> ?4 ORDER BY i.id LIMIT ?5", (name, tail, kinds, skip_repo, limit)).fetchall()
            got += conn.execute(_ONE + " AND p.repo = ?4", (name, tail, kinds, skip_repo)).fetchall()
        _fill(result[key], sorted(got), skip_repo, skip, limit)
    return result


def _fill(hits: list[SymbolKey], rows: Sequence[tuple[object, ...]], skip_repo: str, skip: set[str],
          limit: int | None) -> None:
    """Append the keys of ``rows`` (sorted by id) but the skipped files' to ``hits``, cut to ``limit``."""
    for row in rows:
        if not (skip and row[4] == skip_repo and row[5] in skip):
            hits.append(SymbolKey(*row[:6], str(row[6]) if row[6] else ""))  # type: ignore[arg-type]
    if limit is not None:
        del hits[limit:]
