"""Django model relations and the user model, as bindings the resolver reads
(:mod:`indexer.languages.python.django_models`).

* ``profile = models.OneToOneField(Target, related_name="profile")`` (or ``OneToOneField(...)``;
  rules in ``indexer/languages/python/queries/django_relations.scm``) in the body of class ``M`` ->
  a :class:`~indexer.model.Binding` ``(M, "~<accessor>", <target>, "reverse")``: instances of
  ``Target`` have the attribute ``<accessor>`` (``related_name``, else ``m`` lower-cased), an
  instance of ``M``. ``<target>`` is the first argument (or ``to=``) as written, a string literal
  quoted (``'auth.User'``, ``'self'``). ``related_name="+"`` (or ending in ``+``) hides the accessor:
  nothing is recorded; so is a target that is neither a name, an attribute nor a plain string.
* ``owner = models.ForeignKey(Check, ...)`` (or ``OneToOneField``) in the body of class ``M``: beside
  the extractor's ``constructed`` binding of ``owner`` (an instance of the field class, what
  ``M.owner`` reads), a ``related`` binding ``(M, "owner", <target>, "related")``: read on an instance
  of ``M`` it is an instance of the target (``flip.owner.to_dict()``); a ``ManyToManyField``'s is a
  queryset of the target (type text prefixed :data:`MANY`).
* The reverse side of a ``ForeignKey`` / ``ManyToManyField``: a ``reverse`` binding
  ``(M, "~<accessor>", "*<target>")``, the accessor ``related_name`` else ``m_set``; instances of
  the target have a queryset of ``M`` there (``project.check_set.all()``).
* ``User = get_user_model()``: the extractor's ``constructed`` binding (calling it would make an
  instance) becomes an ``alias`` of ``get_user_model()``, which the resolver reads as the user
  model class itself.
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.base import SourceText, query, run_query
from indexer.languages.python.frameworks.common import Args, scope_of, string_value
from indexer.model import Binding, FileExtraction

__all__ = ["LANGUAGES", "SHARED_QUERY", "detect", "shares"]

LANGUAGES = ("python",)

_ONE_TO_ONE = "OneToOneField"
_MANY_TO_MANY = "ManyToManyField"
_RELATIONS = (_ONE_TO_ONE, "ForeignKey", _MANY_TO_MANY)
MANY = "*"
"""Prefix of a ``related`` / ``reverse`` binding's type text whose value is a queryset of the model
(a many-to-many field, the reverse side of a foreign key), not one instance."""
_USER_MODEL = "get_user_model"


SHARED_QUERY = "django_relations"
_RELATION_WORDS = tuple(r.encode() for r in _RELATIONS)


def shares(data: bytes) -> bool:
    """Whether the extractor's shared pass should match :data:`SHARED_QUERY` for a file of ``data``
    (:func:`indexer.languages.python.frameworks.shared_queries`): the test :func:`detect` runs
    its query after."""
    return any(r in data for r in _RELATION_WORDS)


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Rewrite the ``get_user_model()`` bindings, add the ``related`` and ``reverse`` bindings of
    relation fields of one parsed Python file in ``out``."""
    data = src.data
    if _USER_MODEL.encode() in data:
        out.bindings[:] = [Binding(b.scope, b.name, _USER_MODEL + "()", "alias", b.line)
                           if b.how == "constructed" and b.type == _USER_MODEL else b for b in out.bindings]
    if not shares(data):
        return
    fields: dict[tuple[str, str, int], str] = {}
    for _, caps in run_query(query("python", "python/queries", "django_relations"), root):
        callee = caps["callee"][0]
        last = callee.child_by_field_name("attribute") if callee.type == "attribute" else callee
        kind = src.text(last) if last is not None else None
        if kind not in _RELATIONS:
            continue
        model = scope_of(caps["assign"][0], src)
        if model is None:
            continue
        args = Args.of(src, caps["args"][0])
        target = _target(src, args.get(0, "to"))
        if target is None:
            continue
        fields[(model, src.text(caps["field"][0]), src.line(caps["field"][0]))] = \
            MANY + target if kind == _MANY_TO_MANY else target
        related = args.keywords.get("related_name")
        default = model.rpartition(".")[2].lower()
        accessor = string_value(src, related) if related is not None else \
            default if kind == _ONE_TO_ONE else default + "_set"
        if not accessor or accessor.endswith("+") or not accessor.isidentifier():
            continue
        out.bindings.append(Binding(model, "~" + accessor, target if kind == _ONE_TO_ONE else MANY + target, "reverse",
                                    src.line(caps["assign"][0])))
    out.bindings.extend(Binding(model, name, target, "related", line) for (model, name, line), target in fields.items())


def _target(src: SourceText, node: Node | None) -> str | None:
    """The relation's target as the resolver reads it: ``'a.B'`` for a string, else the name or
    attribute text; ``None`` for anything else."""
    if node is None:
        return None
    value = string_value(src, node)
    if value is not None:
        return f"'{value}'" if value and "'" not in value else None
    if node.type in ("identifier", "attribute"):
        return "".join(src.text(node).split())
    return None
