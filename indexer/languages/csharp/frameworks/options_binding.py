""".NET options bound from configuration: which configuration section fills an options class ``T``, so that a read
of ``IOptions<T>`` (``_settings.Value.PurchaseUrl``, :meth:`indexer.languages.csharp.frameworks.common.CsFile.
options_read`) is the appsettings key ``Section:PurchaseUrl`` (Microsoft.Extensions.Options.ConfigurationExtensions).

Facts: a :class:`~indexer.model.StringConstant` named ``config:@T`` (:data:`OPTIONS_KEY` + ``T``) whose value is
the key prefix of the section as a template (``urls:``; empty for the configuration itself), for each binding written

* ``services.Configure<T>(configuration)`` / ``Configure<T>(configuration.GetSection("urls"))`` (a receiver whose
  last name holds ``config``, as for ``configuration["K"]`` reads; ``GetRequiredSection``; the section's name a
  literal or a constant, ``BaseUrlConfiguration.CONFIG_NAME``; through a local, ``var section = ...``);
* ``services.AddOptions<T>().Bind(configuration.GetSection("urls"))`` and ``AddOptions<T>().BindConfiguration("urls")``.

A ``Configure<T>(options => ...)`` lambda binds nothing. The linker looks ``config:@T`` up among the files of the
reading file's own .NET project (:mod:`indexer.frameworks.link`), then the key in that
project's appsettings (:mod:`indexer.frameworks.app_settings`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.csharp.frameworks.common import OPTIONS_KEY, CsFile, cs_file
from indexer.model import StringConstant, Template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText
    from indexer.model import FileExtraction

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("csharp",)
MAX_HOPS = 4
"""Locals and nested ``GetSection`` calls followed from a binding to the configuration."""
_CONFIG_NAME = re.compile(r"config", re.IGNORECASE)
"""The last name of a receiver read as an ``IConfiguration``, as for ``configuration["K"]`` reads."""
_SECTION_NAME = re.compile(r"section", re.IGNORECASE)
"""... unless it names a section (``configSection``): a section not followed to its value is no configuration root."""


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append a ``config:@T`` constant to ``out.constants`` for each options binding of the file."""
    if b"Configure<" not in src.data and b"AddOptions<" not in src.data:
        return
    cf = cs_file(root, src, out)
    for call in cf.calls:
        sel = cf.member(call)
        if sel is None:
            continue
        target: list[str] = []
        arg: Node | None = None
        if sel[1] == "Configure":
            target = cf.type_args(call)
            args = cf.args(call)
            arg = args[0] if len(args) == 1 else None
            prefix = _section(cf, arg, 0) if arg is not None else None
        elif sel[1] in ("Bind", "BindConfiguration"):
            fn = call.child_by_field_name("function")
            inner = fn.child_by_field_name("expression") if fn is not None else None
            if inner is None or inner.type != "invocation_expression" or (cf.member(inner) or ("", ""))[1] != "AddOptions":
                continue
            target = cf.type_args(inner)
            args = cf.args(call)
            if sel[1] == "Bind":
                prefix = _section(cf, args[0], 0) if len(args) == 1 else None
            else:
                name = cf.name_template(args[0]) if len(args) == 1 else None
                prefix = name + Template.of(":") if name is not None else None
        else:
            continue
        if len(target) == 1 and prefix is not None:
            out.constants.append(StringConstant(OPTIONS_KEY + target[0].rsplit(".", 1)[-1], prefix))


def _section(cf: CsFile, node: Node, depth: int) -> Template | None:
    """The key prefix a configuration expression stands for, as a template: empty for the configuration itself
    (``configuration``, ``builder.Configuration``), ``A:`` for ``X.GetSection("A")`` / ``GetRequiredSection`` (the
    name a literal or a constant, ``BaseUrlConfiguration.CONFIG_NAME``, which the linker renders), a local holding
    one (``var section = builder.Configuration.GetRequiredSection(...)``) followed :data:`MAX_HOPS` times;
    ``None`` for anything else (a lambda)."""
    if node.type == "identifier" and depth < MAX_HOPS:
        value = cf.local_value(node) or _declared_once(cf, cf.text(node))
        if value is not None:
            return _section(cf, value, depth + 1)
    if node.type in ("identifier", "member_access_expression"):
        last = cf.expr(node).rsplit(".", 1)[-1]
        return Template() if _CONFIG_NAME.search(last) and not _SECTION_NAME.search(last) else None
    sel = cf.member(node) if node.type == "invocation_expression" else None
    fn = node.child_by_field_name("function") if sel is not None else None
    if sel is None or sel[1] not in ("GetSection", "GetRequiredSection") or fn is None or depth >= MAX_HOPS:
        return None
    receiver = fn.child_by_field_name("expression")
    outer = _section(cf, receiver, depth + 1) if receiver is not None else None
    args = cf.args(node)
    name = cf.name_template(args[0]) if len(args) == 1 else None
    return outer + name + Template.of(":") if outer is not None and name is not None else None


def _declared_once(cf: CsFile, name: str) -> Node | None:
    """The initializer of the one declaration ``var name = ...`` of the file (top-level statements of a
    ``Program.cs``, which :meth:`~indexer.languages.csharp.frameworks.common.CsFile.local_value` does not see), when
    the file declares ``name`` once and never assigns it; else ``None``."""
    found: list[Node] = []
    stack = [cf.root]
    while stack:
        n = stack.pop()
        if n.type == "variable_declarator" and cf.text(n.child_by_field_name("name") or n.named_children[0]) == name:
            found.append(n)
        elif n.type == "assignment_expression" and cf.expr(n.child_by_field_name("left") or n) == name:
            return None
        stack.extend(n.named_children)
    if len(found) != 1:
        return None
    value = found[0].named_children[-1] if len(found[0].named_children) > 1 else None
    if value is not None and value.type == "equals_value_clause":
        value = value.named_children[0] if value.named_children else None
    return value
