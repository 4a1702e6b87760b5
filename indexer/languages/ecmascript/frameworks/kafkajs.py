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
``CallSite.caller`` rule (the enclosing named function), except for a consumer whose
``C.run({ eachMessage: async (...) => ... })`` (or ``eachBatch``) in this file passes an inline
function: that function becomes a definition of its own, named ``eachMessage <topics>``
(``eachMessage owner-events``; several topics joined by ``|``, the scheme of :mod:`indexer.symbols`),
owning the calls in its body, and it is the owner of the consumer's subscriptions, so what it calls
reaches the topic and what the code around it calls does not. The position is the call's start.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import FUNCTION_TYPES, JsFile, js_file, unwrap
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
    def is_a(receiver: str, want: str) -> bool:
        kind = made.get(receiver)
        return kind == want or (kind is None and want in receiver.rpartition(".")[2].lower())

    handlers = _run_handlers(jf, [c for c in calls if jf.text(c["method"][0]) == "run"], is_a)
    for caps in calls:
        receiver = jf.receiver(caps["receiver"][0])
        method = jf.text(caps["method"][0])
        if method == "run":
            continue
        if not is_a(receiver, "consumer" if method == "subscribe" else "producer"):
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
        owner = handlers[receiver](topics) if role == "consumes" and receiver in handlers else jf.code_scope(call)
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


def _run_handlers(jf: JsFile, runs: list[dict[str, list[Node]]], is_a: Callable[[str, str], bool]) -> dict[str, Callable[[list[Template]], str]]:
    """Consumer receiver -> a function that, given the topics the consumer subscribes to, makes the
    inline ``eachMessage`` / ``eachBatch`` function of its first ``C.run({...})`` a definition of its
    own (named ``eachMessage owner-events``; see :func:`_topic_text`) and returns its qualname. A
    handler that is not inline (a name) is left to the calls it makes: the subscription stays with
    the code around it."""
    out: dict[str, Callable[[list[Template]], str]] = {}
    for caps in runs:
        receiver = jf.receiver(caps["receiver"][0])
        if receiver in out or not is_a(receiver, "consumer"):
            continue
        config = jf.object_pairs(caps["config"][0])
        for key in ("eachMessage", "eachBatch"):
            fn = unwrap(config.get(key))
            if fn is not None and fn.type in FUNCTION_TYPES:
                names: list[str] = []

                def make(
                    topics: list[Template], fn: Node = fn, key: str = key, names: list[str] = names, rx: str = receiver
                ) -> str:
                    if not names:
                        names.append(jf.inline_function(fn, f"{key} {_topic_text(topics) or rx}"))
                    return names[0]

                out[receiver] = make
                break
    return out


def _topic_text(topics: list[Template]) -> str:
    """Topic templates as a name: literal text, ``{ref}`` for a constant, ``{}`` for an unknown
    value; several joined by ``|``."""
    return "|".join(
        "".join(t if k == "lit" else ("{" + t + "}" if k == "ref" else "{}") for k, t in tpl.parts) for tpl in topics
    )
