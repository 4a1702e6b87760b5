""".NET options bound from configuration: which configuration section fills an options class ``T``, so that a read
of ``IOptions<T>`` (``_settings.Value.PurchaseUrl``, :meth:`indexer.languages.csharp.frameworks.common.CsFile.
options_read`) is the appsettings key ``Section:PurchaseUrl`` (Microsoft.Extensions.Options.ConfigurationExtensions).

Facts: a :class:`~indexer.model.StringConstant` named ``config:@T`` (:data:`OPTIONS_KEY` + ``T``) whose value is
the key prefix of the section (``"urls:"``; ``""`` for the configuration itself), for each binding written

* ``services.Configure<T>(configuration)`` / ``Configure<T>(configuration.GetSection("urls"))`` (a receiver whose
  last name holds ``config``, as for ``configuration["K"]`` reads);
* ``services.AddOptions<T>().Bind(configuration.GetSection("urls"))`` and ``AddOptions<T>().BindConfiguration("urls")``.

A ``Configure<T>(options => ...)`` lambda binds nothing. The linker looks ``config:@T`` up among the files of the
reading file's service folder (:meth:`indexer.frameworks.app_prefixes.AppPrefixLinks.config_constant`), then the key
in that project's appsettings (:mod:`indexer.frameworks.app_settings`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.csharp.frameworks.common import OPTIONS_KEY, cs_file
from indexer.model import StringConstant, Template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText
    from indexer.model import FileExtraction

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("csharp",)


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
            prefix = cf.section_prefix(arg) if arg is not None else None
        elif sel[1] in ("Bind", "BindConfiguration"):
            fn = call.child_by_field_name("function")
            inner = fn.child_by_field_name("expression") if fn is not None else None
            if inner is None or inner.type != "invocation_expression" or (cf.member(inner) or ("", ""))[1] != "AddOptions":
                continue
            target = cf.type_args(inner)
            args = cf.args(call)
            if sel[1] == "Bind":
                prefix = cf.section_prefix(args[0]) if len(args) == 1 else None
            else:
                name = cf.template(args[0]) if len(args) == 1 else None
                literal = name.literal() if name is not None else None
                prefix = literal + ":" if literal else None
        else:
            continue
        if len(target) == 1 and prefix is not None:
            out.constants.append(StringConstant(OPTIONS_KEY + target[0].rsplit(".", 1)[-1], Template.of(prefix)))
