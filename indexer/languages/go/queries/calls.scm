; Go call sites: `f(x)`, `pkg.F(x)`, `recv.M(x)`, `a.b().c(x)`. A call of a function literal or of
; another call's result has no name and is not a call site.

(call_expression function: (identifier) @name arguments: (argument_list) @args) @call
(call_expression
  function: (selector_expression operand: (_) @receiver field: (field_identifier) @name)
  arguments: (argument_list) @args) @call
