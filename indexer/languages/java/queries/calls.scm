; Java call sites: method invocations, `new` expressions (anonymous class creation included) and
; explicit constructor invocations `this(...)` / `super(...)`.

(method_invocation
  object: (_)? @receiver
  name: (identifier) @name
  arguments: (argument_list) @args) @call

(object_creation_expression
  type: (_) @type
  arguments: (argument_list) @args) @new

(explicit_constructor_invocation
  constructor: [(this) (super)] @name
  arguments: (argument_list) @args) @ctor

; Method references `X::m`, `this::m`, `super::m`, `X::new`: a call of `m` (or of X's constructor)
; from the enclosing method, arity unknown.
(method_reference) @ref
