; Python call sites: a bare call `f(x)` and a call through an attribute `recv.f(x)`.
; Calls whose callee is neither (`f()()`, `handlers[k]()`, `(lambda: 0)()`) have no short name and
; are not reported.
(call
  function: (identifier) @name
  arguments: (_) @args) @call

(call
  function: (attribute
    object: (_) @receiver
    attribute: (identifier) @name)
  arguments: (_) @args) @call

; `raise E` / `raise pkg.E`: raising a class instantiates it (its `__init__` runs); the raised
; expression only (the first child), never the `from` cause.
(raise_statement . (identifier) @name) @raise

(raise_statement . (attribute
    object: (_) @receiver
    attribute: (identifier) @name)) @raise
