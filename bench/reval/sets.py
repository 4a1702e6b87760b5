"""The hand-written query sets in ``bench/data``: developer questions and identifier queries.

Both files are JSON objects ``{"about": ..., "queries": [{"corpus", "query", "answers", ...}]}``:
``corpus`` names the corpus (the folder name without its version: ``textual``, ``commons-lang``,
``date-fns``), ``answers`` is the set of acceptable chunk ids (graph node ids) for the query, found by
reading the code; a query is a hit at k when any of them is in the top k. Identifier queries also carry
``kind``: ``unique`` (a name defined once), ``qualified`` (``Class.method`` whose bare name is
shared), ``ambiguous`` (a bare public name several definitions share; the answer is the public / base
definition, by the rule in the file's ``about``).

:func:`load_set` reads a file; :func:`check_answers` says which answers a built store does not hold
(a changed extractor or a typo), so a stale set fails loudly instead of scoring 0.
:func:`identifier_candidates` lists names by the rules above for a person to pick and check from.
"""

from __future__ import annotations

import json
import random
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from stores.contracts import Chunk

__all__ = ["SetQuery", "load_set", "check_answers", "base_definitions", "identifier_candidates", "is_test_path"]


@dataclass(frozen=True, slots=True)
class SetQuery:
    """One query of a set: its corpus, text, acceptable answers (chunk ids) and kind."""

    corpus: str
    text: str
    answers: frozenset[str]
    kind: str


def load_set(path: Path, default_kind: str) -> list[SetQuery]:
    """The queries of one set file (see the module docstring). Raises ``ValueError`` naming the entry
    when one lacks ``corpus``, ``query`` or a non-empty ``answers`` list."""
    data = json.loads(path.read_text(encoding="utf-8"))
    out: list[SetQuery] = []
    for i, q in enumerate(data["queries"]):
        if not isinstance(q.get("corpus"), str) or not isinstance(q.get("query"), str) or not q.get("answers"):
            raise ValueError(f"{path}: entry {i} needs corpus, query and a non-empty answers list: {q}")
        out.append(SetQuery(q["corpus"], q["query"], frozenset(q["answers"]), q.get("kind", default_kind)))
    return out


def check_answers(queries: Sequence[SetQuery], chunk_ids: set[str]) -> list[str]:
    """``"query: missing id"`` lines for every answer not among ``chunk_ids``."""
    return [f"{q.text!r}: {a}" for q in queries for a in sorted(q.answers) if a not in chunk_ids]


_TEST = re.compile(r"(^|/)(tests?|__tests__|testing)(/|$)|(^|/)test_[^/]*$|_test\.\w+$|\.(test|spec)\.\w+$"
                   r"|(^|/)test\.\w+$|Test\.java$")


def is_test_path(path: str) -> bool:
    """Whether a file path is test code by the usual layouts (``tests/``, ``test_x.py``,
    ``x.test.ts``, ``src/x/test.ts``, ``FooTest.java``)."""
    return bool(_TEST.search(path))


def _public(c: Chunk) -> bool:
    return not c.name.startswith(("_", "#")) and c.kind in ("function", "method", "class")


def base_definitions(defs: Sequence[Chunk], overrides: Mapping[str, Sequence[str]]) -> list[str]:
    """The public / base definition(s) among ``defs`` (chunks sharing one name), by the set's rule:

    1. the roots of the override relation among them: definitions that another of ``defs`` overrides
       (``overrides``: chunk id -> ids it OVERRIDES, followed transitively) and that override none
       of ``defs`` themselves, when that family holds at least 80% of ``defs``;
    2. without such a relation, the one definition in the module named after it (``src/format/index.ts``
       for ``format``, ``.../Range.java`` for ``Range``) outside private folders (``_lib``, ``_x``);
    3. otherwise none (``[]``: the name has no single public place and is not used)."""
    ids = {c.id for c in defs}

    def ancestors(cid: str) -> set[str]:
        seen: set[str] = set()
        todo = list(overrides.get(cid, ()))
        while todo:
            d = todo.pop()
            if d not in seen:
                seen.add(d)
                todo.extend(overrides.get(d, ()))
        return seen

    reached = {a for c in defs for a in ancestors(c.id) if a in ids}
    roots = sorted(r for r in reached if not (ancestors(r) & ids))
    family = {c.id for c in defs if c.id in roots or ancestors(c.id) & set(roots)}
    if roots and 5 * len(family) >= 4 * len(defs):
        return roots
    if roots:
        return []  # an override family beside unrelated definitions of the name: no single public place
    named = [c for c in defs if _named_module(c)]
    return [named[0].id] if len(named) == 1 else []


def _named_module(c: Chunk) -> bool:
    parts = c.file.split("/")
    stem = parts[-1].rsplit(".", 1)[0]
    private = any(p.startswith("_") for p in parts[:-1]) or "locale" in parts
    return not private and (stem == c.name or (stem == "index" and len(parts) > 1 and parts[-2] == c.name))


def identifier_candidates(chunks: Sequence[Chunk], per_kind: int, seed: int,
                          overrides: Mapping[str, Sequence[str]] | None = None) -> dict[str, list[dict[str, object]]]:
    """Candidate identifier queries of one corpus, ``per_kind`` of each kind, sampled with ``seed``:

    * ``unique``: a public callable or class name (>= 4 characters) that one chunk of the corpus
      defines, outside tests; answer: that chunk.
    * ``qualified``: ``Parent.name`` of a public method whose bare name >= 2 chunks define, where
      ``Parent.name`` ends exactly one chunk's qualified name; answer: that chunk.
    * ``ambiguous``: a public name >= 3 non-test chunks define whose :func:`base_definitions` (with
      ``overrides``) are not empty; answer: those; ``definitions`` lists them all, for reading.
    """
    by_name: dict[str, list[Chunk]] = defaultdict(list)
    for c in chunks:
        if c.kind in ("function", "method", "class"):
            by_name[c.name].append(c)
    rng = random.Random(seed)
    unique = [cs[0] for n, cs in sorted(by_name.items())
              if len(cs) == 1 and len(n) >= 4 and _public(cs[0]) and not is_test_path(cs[0].file)]
    tails: dict[str, list[Chunk]] = defaultdict(list)
    for cs in by_name.values():
        for c in cs:
            parent = (c.parent or "").rsplit(".", 1)[-1].split("(")[0]
            if parent:
                tails[f"{parent}.{c.name}"].append(c)
    qualified = [(t, cs[0]) for t, cs in sorted(tails.items())
                 if len(cs) == 1 and len(by_name[cs[0].name]) >= 2 and _public(cs[0]) and cs[0].kind == "method"
                 and not is_test_path(cs[0].file)]
    ambiguous = []
    for n, cs in sorted(by_name.items()):
        defs = [c for c in cs if not is_test_path(c.file)]
        if _public(cs[0]) and len(defs) >= 3 and (base := base_definitions(defs, overrides or {})):
            ambiguous.append((n, defs, base))
    return {
        "unique": [{"query": c.name, "answers": [c.id]} for c in rng.sample(unique, min(per_kind, len(unique)))],
        "qualified": [{"query": t, "answers": [c.id]} for t, c in rng.sample(qualified, min(per_kind, len(qualified)))],
        "ambiguous": [{"query": n, "answers": base, "definitions": [c.id for c in cs]}
                      for n, cs, base in rng.sample(ambiguous, min(per_kind, len(ambiguous)))],
    }
