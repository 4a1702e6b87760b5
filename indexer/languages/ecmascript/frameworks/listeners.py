"""Event listeners written inline (JavaScript and TypeScript): handler nodes of their own.

``X.on(event, fn)`` (and ``once``, ``addListener``, ``prependListener``, ``prependOnceListener``)
with ``fn`` an inline arrow or function expression makes ``fn`` a definition of its own, named ``on
<event>`` (``on connection``, ``on SIGTERM``; the event as :func:`indexer.symbols.path_text` writes
it, ``{}`` when not known statically), owning the calls in its body (:meth:`JsFile.inline_function`),
so what one listener calls is not merged into the function that registers it. No other fact is
emitted: the listener is a callable node that call hierarchy and references reach.

Only a recognisable emitter counts, so that the ``.on(`` callbacks of a codebase (jQuery, streams,
promise libraries, test frameworks) do not all become nodes. ``X`` is an emitter when:

* it is ``process``;
* the file binds it to ``new EventEmitter()`` or a constructor / factory whose name ends in
  ``EventEmitter``, ``Emitter``, ``Server``, ``WebSocket``, ``Socket``, ``createServer``, ``connect``,
  ``io``, ``socketIO``, ``Worker`` or ``Redis`` (``new Server(httpServer)``, ``http.createServer()``,
  ``io(server)``, ``new WebSocketServer({ port })``);
* its last name part is an emitter's usual name: ``emitter``, ``eventEmitter``, ``events``, ``bus``,
  ``eventBus``, ``io``, ``socket``, ``ws``, ``wss`` (any case; ``this.bus`` too);
* it is ``this`` in a class extending ``EventEmitter`` (or ``*Emitter``).

A request or stream (``req.on("data", ...)``), ``$(el).on("click", ...)``, ``arr.map(x => ...)`` are
none of these. A listener given by name (``process.on("exit", cleanup)``) is already a node.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import js_file
from indexer.symbols import path_text

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText
    from indexer.model import FileExtraction

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("javascript", "typescript")

_NAMES = re.compile(r"(?i)^(emitter|eventemitter|events|bus|eventbus|io|socket|ws|wss)$")
_EMITTER_BASE = re.compile(r"(^|\.)\w*Emitter$")


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Make the file's inline listeners on recognisable emitters definitions of their own."""
    jf = js_file(root, src, out)
    matches = jf.matches("listeners")
    if not matches:
        return
    emitters = {jf.text(caps["name"][0]) for caps in matches if "emitter" in caps}
    bases = {d.qualname for d in out.definitions if any(_EMITTER_BASE.search(b) for b in d.bases)}
    for caps in matches:
        if "emitter" in caps:
            continue
        obj = caps["object"][0]
        receiver = jf.receiver(obj)
        last = receiver.rpartition(".")[2]
        if obj.type == "this":
            if jf.class_of(obj) not in bases:
                continue
        elif receiver != "process" and receiver not in emitters and not _NAMES.match(last):
            continue
        event = path_text(jf.template(caps["event"][0])) or "{}"
        jf.inline_function(caps["fn"][0], f"on {event}")
