; C# using directives: `using A.B;`, `using static A.B.C;`, `global using A.B;` (@target) and aliases
; `using X = A.B.C;` (@name, then @target).

(using_directive name: (identifier) @name [(identifier) (qualified_name) (generic_name)] @target) @using
(using_directive !name [(identifier) (qualified_name)] @target) @using
