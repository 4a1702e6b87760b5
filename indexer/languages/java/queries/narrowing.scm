; Type tests of a local name or parameter, whose guarded code sees the name as the type tested
; (indexer/languages/java/narrowing.py finds that code). @name: the name tested; @type: the type;
; @pattern: a pattern variable bound to the type too.

; `o instanceof Circle`, `o instanceof Circle c`
(instanceof_expression left: (identifier) @name right: (_) @type name: (identifier)? @pattern) @test

; `o.getClass() == Circle.class`, `Circle.class == o.getClass()`
(binary_expression
  left: (method_invocation object: (identifier) @name name: (identifier) @_get)
  operator: "=="
  right: (class_literal (_) @type)
  (#eq? @_get "getClass")) @test
(binary_expression
  left: (class_literal (_) @type)
  operator: "=="
  right: (method_invocation object: (identifier) @name name: (identifier) @_get)
  (#eq? @_get "getClass")) @test

; `Circle.class.isInstance(o)`, `Circle.class.isAssignableFrom(o.getClass())`
(method_invocation
  object: (class_literal (_) @type)
  name: (identifier) @_is
  arguments: (argument_list . (identifier) @name .)
  (#eq? @_is "isInstance")) @test
(method_invocation
  object: (class_literal (_) @type)
  name: (identifier) @_is
  arguments: (argument_list . (method_invocation object: (identifier) @name name: (identifier) @_get) .)
  (#eq? @_is "isAssignableFrom")
  (#eq? @_get "getClass")) @test

; `case Circle c -> ...` / `case Circle c: ...` of a switch on a name (a type pattern's variable is
; bound by bindings.scm; here the name switched on is narrowed too)
(switch_label (pattern (type_pattern (_) @type . (identifier) @pattern .))) @case
