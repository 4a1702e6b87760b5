; Names bound to a type inside a function or method: parameters (the receiver included), `var x T`,
; and `x := T{}` / `x := &T{}` / `x := f()` / `var x = f()` (constructed: the type is the value's).
; `var` specs bind at package level too (@var).

(parameter_declaration name: (identifier) @name type: (_) @type) @declared
(variadic_parameter_declaration name: (identifier) @name type: (_) @type) @declared
(var_spec name: (identifier) @name type: (_) @type) @declared @var
(var_spec name: (identifier) @name !type value: (expression_list . (_) @value)) @constructed @var
(short_var_declaration left: (expression_list . (identifier) @name) right: (expression_list . (_) @value)) @constructed

; `for _, v := range xs`: the element of a slice, array or channel typed `[]T` takes xs's (reduced)
; type, bound as an alias of xs (map ranges reduce to `map`, which binds nothing).
(range_clause left: (expression_list (_) . (identifier) @name .) right: [(identifier) (selector_expression)] @value) @range
