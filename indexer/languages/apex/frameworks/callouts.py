"""Apex HTTP callouts -> :class:`~indexer.model.HttpCall` (framework ``apex-callout``).

A method that builds an ``HttpRequest`` and calls ``setEndpoint(...)`` on it makes a request to that
URL with the method its ``setMethod('POST')`` names (``*`` when none is written as a literal). The
endpoint is a string literal, or literals joined with ``+`` around other expressions (holes, which
become path variables). A named credential ``callout:Billing/api/sync`` is written
``callout://Billing/api/sync``: the credential's name stands for the host, so it is the service; a
credential name not written as a literal (``'callout:' + name``) makes no call (nothing of it is known).
Requests are paired with their ``setMethod`` by receiver text within one method.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.model import FileExtraction, HttpCall, Template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect", "endpoint_template"]

LANGUAGES = ("apex",)
FRAMEWORK = "apex-callout"
_MAX_PARTS = 64


def _literal(src: SourceText, node: Node) -> str | None:
    if node.type != "string_literal":
        return None
    text = src.text(node)
    return text[1:-1].replace("\\'", "'") if len(text) >= 2 else None


def endpoint_template(src: SourceText, node: Node) -> Template | None:
    """The URL an ``setEndpoint`` argument builds: literals joined by ``+`` with holes for the other
    operands; ``None`` when no literal piece is written (nothing of the URL is known)."""
    parts: list[tuple[str, str]] = []
    stack = [node]
    while stack and len(parts) <= _MAX_PARTS:
        n = stack.pop()
        if n.type == "binary_expression" and n.child_by_field_name("operator") is not None \
                and src.text(n.child_by_field_name("operator")) == "+":
            stack.append(n.child_by_field_name("right"))
            stack.append(n.child_by_field_name("left"))
            continue
        lit = _literal(src, n)
        parts.append(("lit", lit) if lit is not None else ("hole", src.text(n)[:200]))
    if not any(k == "lit" for k, _ in parts):
        return None
    if parts[0][0] == "lit" and parts[0][1].lower().startswith("callout:"):
        credential = parts[0][1][len("callout:"):]
        if not credential.split("/", 1)[0]:
            return None  # `'callout:' + name`: the named credential, so the service, is not known
        parts[0] = ("lit", "callout://" + credential)
    return Template.merged(parts)


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append an HTTP call per ``setEndpoint`` of a method, with the method its ``setMethod`` names."""
    calls = [c for c in out.calls if c.name.lower() in ("setendpoint", "setmethod") and c.receiver]
    if not any(c.name.lower() == "setendpoint" for c in calls):
        return
    args: dict[tuple[int, int], Node] = {}
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type == "method_invocation":
            name = n.child_by_field_name("name")
            arguments = n.child_by_field_name("arguments")
            if name is not None and arguments is not None and arguments.named_child_count == 1 \
                    and src.text(name).lower() in ("setendpoint", "setmethod"):
                args[(src.line(name), src.col(name))] = arguments.named_children[0]
        stack.extend(n.named_children)
    verbs: dict[tuple[str | None, str | None], str] = {}
    for c in calls:
        if c.name.lower() == "setmethod" and (c.line, c.col) in args:
            verb = _literal(src, args[(c.line, c.col)])
            if verb:
                verbs[(c.caller, c.receiver)] = verb.upper()
    for c in calls:
        if c.name.lower() != "setendpoint" or (c.line, c.col) not in args:
            continue
        url = endpoint_template(src, args[(c.line, c.col)])
        if url is not None:
            method = verbs.get((c.caller, c.receiver), "*")
            out.http_calls.append(HttpCall(FRAMEWORK, method, url, c.caller, c.line, c.col))
