; TypeScript-only definitions; the shared ECMAScript ones are in ../ecmascript/definitions.scm.
; Captures as there: the definition node under its kind (@class, @interface, @enum, @method, @field),
; its name as @name.

(abstract_class_declaration name: (_) @name) @class
(interface_declaration name: (_) @name) @interface
(enum_declaration name: (_) @name) @enum

; Class members. Overload signatures (method_signature in a class body, function_signature) are
; not matched: the implementation carries the definition.
(class_body (abstract_method_signature name: (_) @name) @method)
(class_body (public_field_definition name: (_) @name) @field)

; Interface members: method signatures (modifier "abstract") and property signatures (fields).
(interface_body (method_signature name: (_) @name) @method)
(interface_body (property_signature name: (_) @name) @field)

; Namespaces keep their name: `namespace A { export function f() {} }` is a class-like scope `A`
; (modifier "namespace") whose members are `A.f`; nested namespaces nest, and the blocks of a merged
; namespace share its qualname (their members are each block's). A dotted declaration
; (`namespace A.B {}`) and ambient `declare module "x"` are not matched.
(internal_module name: (identifier) @name) @class
(module name: (identifier) @name) @class
