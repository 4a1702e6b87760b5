"""Classes used as values in Python code: ``User.objects.get(...)``, ``Profile.DoesNotExist``,
``model = User``, ``isinstance(x, User)``, ``sa.select(User)``, ``get_object_or_404(models.User, pk=1)`` (rules in
``indexer/languages/python/queries/class_uses.scm``).

Each use -> a :class:`~indexer.model.TypeUse` (owner: the innermost enclosing function or class,
``None`` at module level; type: the name or dotted name as written), which the resolver turns into
a ``USES_TYPE`` edge when it names a class of the repository (:mod:`indexer.resolve.output`), so that
"who uses class ``User``" (``ripple references``) finds them; a library class or a name that is no
class makes nothing. Read: the object of an attribute access, an argument (positional, keyword,
or an element of a tuple or list argument) and the value of an assignment (``model = User`` in a
serializer's ``Meta``, ``renderer_classes = (ArticleJSONRenderer,)``) that is a capitalised name
(``User``, ``models.User``);
ALL-CAPS names (``MAX_SIZE``, ``settings.DEBUG``) are constants, not classes, and are skipped, and so
is a name used as a call's own callee (``User(...)``: a CALLS edge already), in a class's base list
(an EXTENDS edge) or inside an annotation (the extractor's own type uses).
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.base import SourceText, query, run_query
from indexer.languages.python.frameworks.common import compact, scope_of
from indexer.model import FileExtraction, TypeUse

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)

_ANNOTATION_PARENTS = frozenset({"type", "typed_parameter", "typed_default_parameter"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append a TypeUse per class-like name used as a value in one parsed Python file to ``out``."""
    seen: set[tuple[int, int]] = set()
    for _, caps in run_query(query("python", "python/queries", "class_uses"), root):
        node = caps["use"][0]
        last = caps["last"][0] if "last" in caps else node
        span = (node.start_byte, node.end_byte)
        if span in seen or not _is_class_name(src.text(last)) or _in_annotation(node) or _is_base(node):
            continue
        seen.add(span)
        out.type_uses.append(TypeUse(scope_of(node, src), compact(src, node), *src.line_col(node)))


def _is_class_name(name: str) -> bool:
    """``User``, ``_Base``, ``HTTPServer``: capitalised with a lower-case letter somewhere."""
    bare = name.lstrip("_")
    if not bare or not bare[0].isupper():
        return False
    if bare.isascii():  # an ASCII name has a lower-case letter exactly when upper-casing changes it
        return bare.upper() != bare
    return any(ch.islower() for ch in bare)


def _is_base(node: Node) -> bool:
    """Whether ``node`` is written in a class's base list (an EXTENDS edge, not a use)."""
    parent = node.parent
    if parent is not None and parent.type in ("tuple", "list", "keyword_argument"):
        parent = parent.parent
    return parent is not None and parent.type == "argument_list" and parent.parent is not None \
        and parent.parent.type == "class_definition"


def _in_annotation(node: Node) -> bool:
    """Whether ``node`` lies inside a type annotation (the extractor records those)."""
    parent = node.parent
    for _ in range(8):
        if parent is None:
            return False
        if parent.type in _ANNOTATION_PARENTS:
            return True
        if parent.type in ("call", "block", "module"):
            return False
        parent = parent.parent
    return False
