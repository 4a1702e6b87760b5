"""Apex SOQL reads and DML writes as table accesses (issue 20): each
:class:`~indexer.languages.apex.frameworks.data.SObjectAccess` becomes a
:class:`~indexer.model.TableUse` of framework ``apex`` naming the sObject as its table (an sObject is
the table of its API name: ``Account``, ``Invoice__c``), with the selected fields as columns
(relationship paths such as ``Owner.Name`` left out: they name another object's field) and the
access's resolution. The linker (:mod:`indexer.frameworks.tables`) makes the ``Table`` node and the
READS / WRITES edge; identity folds case, as Apex does."""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.apex.frameworks.data import sobject_accesses
from indexer.model import FileExtraction, TableUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("apex",)


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's SOQL / DML accesses to ``out.table_uses``."""
    for a in sobject_accesses(root, src, out):
        out.table_uses.append(TableUse("apex", a.role, a.owner, a.line, a.col, table=a.sobject,
                                       columns=[f for f in a.fields if "." not in f], resolution=a.resolution))
