; Definitions in JavaScript / JSX. Every pattern captures the definition node under a capture named
; after its kind (@class, @function, @method, @field) and its name as @name.
; Anonymous `export default function () {}` / `export default class {}` have no @name ("default").

(class_declaration name: (_) @name) @class
(export_statement value: (class) @class)

(function_declaration name: (_) @name) @function
(generator_function_declaration name: (_) @name) @function
(export_statement value: [(function_expression) (generator_function)] @function)

; `const f = () => ...`, `let f = function () {}`, `var g = function* () {}` (any scope).
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @function

(class_body (method_definition name: (_) @name) @method)
(class_body (field_definition property: (_) @name) @field)
