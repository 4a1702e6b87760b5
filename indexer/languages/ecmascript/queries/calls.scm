; Call sites. @call / @new is the expression, @name the callee's name node (its position is the
; call's position), @receiver the object of a member callee, @args the argument list.
; Not calls: tagged templates (their arguments are a template_string), dynamic import() (callee is
; `import`), require("...") (an import, see imports.scm).

(call_expression
  function: (identifier) @name
  arguments: (arguments) @args
  (#not-eq? @name "require")) @call

(call_expression
  function: (member_expression
    object: (_) @receiver
    property: [(property_identifier) (private_property_identifier)] @name)
  arguments: (arguments) @args) @call

; super(...) in a constructor.
(call_expression function: (super) @name arguments: (arguments) @args) @call

(new_expression constructor: (identifier) @name arguments: (arguments)? @args) @new

(new_expression
  constructor: (member_expression
    object: (_) @receiver
    property: (property_identifier) @name)
  arguments: (arguments)? @args) @new

; `f()(x)`, `obj.make()(x)`: a call of what a call returns (`via="result"`: the functions the callee
; returns uncalled, ecmascript/returns.py); the inner call is a call site of its own.
(call_expression
  function: (call_expression
    function: (identifier) @name
    arguments: (arguments))
  arguments: (arguments) @args
  (#not-eq? @name "require")) @result

(call_expression
  function: (call_expression
    function: (member_expression
      object: (_) @receiver
      property: (property_identifier) @name)
    arguments: (arguments))
  arguments: (arguments) @args) @result

; `f()()(x)`, `a.make()()(x)`: a call of what a call's result returns (@chain: the call whose result
; is called; the site is named by its normalised text, `f()`, and placed at @args).
(call_expression
  function: (call_expression
    function: (call_expression) @chain
    arguments: (arguments))
  arguments: (arguments) @args) @result
