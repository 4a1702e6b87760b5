; Python call sites: a bare call `f(x)` and a call through an attribute `recv.f(x)`.
; Calls whose callee is neither (`f()()`, `handlers[k]()`, `(lambda: 0)()`) have no short name and
; are not reported.
(call
  function: (identifier) @name
  arguments: (_) @args) @call

(call
  function: (attribute
    object: (_) @receiver
    attribute: (identifier) @name) @callee
  arguments: (_) @args) @call

; `raise E` / `raise pkg.E`: raising a class instantiates it (its `__init__` runs); the raised
; expression only (the first child), never the `from` cause.
(raise_statement . (identifier) @name) @raise

(raise_statement . (attribute
    object: (_) @receiver
    attribute: (identifier) @name)) @raise

; `f()(x)`, `obj.make()(x)`: a call of what a call returns (`via="result"`: the functions the
; callee returns, the `__call__` of what it builds); the inner call is a call site of its own.
(call
  function: (call
    function: (identifier) @name
    arguments: (_))
  arguments: (_) @args) @result

(call
  function: (call
    function: (attribute
      object: (_) @receiver
      attribute: (identifier) @name)
    arguments: (_))
  arguments: (_) @args) @result

; `f()()(x)`, `a.make()(1)(x)`: a call of what a call's result returns; `@name` is the chain under
; the outer call (`f()`, read as its normalised text, `f()` / `a.make()`), which the resolver calls
; once per `()` (Resolver.resolve_expr_at), then calls what that returns.
(call
  function: (call
    function: (call) @name
    arguments: (_))
  arguments: (_) @args) @result
