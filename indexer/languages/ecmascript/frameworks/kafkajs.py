"""kafkajs producers and consumers (JavaScript and TypeScript).

Facts (:class:`~indexer.model.TopicUse`, framework ``kafkajs``), from
``indexer/languages/ecmascript/queries/kafkajs.scm``:

* ``produces``: ``P.send({ topic, messages })``, and each ``topic`` of
  ``P.sendBatch({ topicMessages: [{ topic, messages }, ...] })``;
* ``consumes``: ``C.subscribe({ topic })`` and each element of ``C.subscribe({ topics: [...] })``
  (regular expressions are skipped).

``P`` is a producer when the file binds it to ``X.producer(...)`` or ``X.transaction()`` (a
transaction sends like its producer), or its last part contains ``producer`` (any case); ``C`` a
consumer when bound to ``X.consumer(...)`` or its last part contains ``consumer``. Topics are
:meth:`~indexer.languages.ecmascript.frameworks.common.JsFile.template` values (literal, ``ref`` for constants, a
shorthand ``{ topic }`` is the ``ref`` ``topic``). ``owner`` follows the extractor's
``CallSite.caller`` rule (the enclosing named function); the position is the call's start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import JsFile, js_file, unwrap
from indexer.model import FileExtraction, Template, TopicUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("javascript", "typescript")

FRAMEWORK = "kafkajs"


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's kafkajs topic uses to ``out``."""
    jf = js_file(root, src, out)
    matches = jf.matches("kafkajs")
    if not matches:
        return
    made: dict[str, str] = {}  # receiver -> "producer" | "consumer"
    calls = []
    for caps in matches:
        if "made" in caps:
            kind = jf.text(caps["kind"][0])
            made[jf.receiver(caps["made"][0])] = "consumer" if kind == "consumer" else "producer"
        else:
            calls.append(caps)
    for caps in calls:
        receiver = jf.receiver(caps["receiver"][0])
        method = jf.text(caps["method"][0])
        want = "consumer" if method == "subscribe" else "producer"
        kind = made.get(receiver)
        if kind is None and want in receiver.rpartition(".")[2].lower():
            kind = want
        if kind != want:
            continue
        call = caps["call"][0]
        config = jf.object_pairs(caps["config"][0])
        topics: list[Template] = []
        if method == "send":
            topics = _topics(jf, config.get("topic"))
        elif method == "sendBatch":
            batch = unwrap(config.get("topicMessages"))
            if batch is not None and batch.type == "array":
                for element in batch.named_children:
                    topics.extend(_topics(jf, jf.object_pairs(element).get("topic")))
        else:
            topics = _topics(jf, config.get("topic")) + _topics(jf, config.get("topics"))
        role = "consumes" if method == "subscribe" else "produces"
        owner = jf.code_scope(call)
        line, col = jf.pos(call)
        out.topics.extend(TopicUse(FRAMEWORK, role, t, owner, line, col) for t in topics)


def _topics(jf: JsFile, node: Node | None) -> list[Template]:
    """A topic value (or an array of them) as templates; regular expressions are left out."""
    node = unwrap(node)
    if node is None or node.type == "regex":
        return []
    if node.type == "array":
        out: list[Template] = []
        for element in node.named_children:
            out.extend(_topics(jf, element))
        return out
    return [jf.template(node)]
