; Places where a type is named. Each captured @type subtree is searched (in Python: a type subtree is
; small) for its class names: `List<Owner>` yields List and Owner; primitives yield nothing.

(formal_parameter type: (_) @type)
(spread_parameter
  [(type_identifier) (scoped_type_identifier) (generic_type) (array_type)] @type)
(method_declaration type: (_) @type)
(annotation_type_element_declaration type: (_) @type)
(field_declaration type: (_) @type)
(constant_declaration type: (_) @type)
(local_variable_declaration type: (_) @type)
(object_creation_expression type: (_) @type)
(array_creation_expression type: (_) @type)
(cast_expression type: (_) @type)
(catch_type (_) @type)
(instanceof_expression right: (_) @type)
(enhanced_for_statement type: (_) @type)
(resource type: (_) @type)

; Type variables (`<T extends Base>`) are not class names: uses of these names are dropped
; (file-wide, an approximation: a class named like a type variable of the same file is missed).
(type_parameter . (type_identifier) @type_param)

; The type arguments of a supertype (`extends JpaRepository<Visit, Integer>`); the supertype itself
; is an EXTENDS / IMPLEMENTS edge.
(superclass (generic_type (type_arguments) @type))
(super_interfaces (type_list (generic_type (type_arguments) @type)))
(extends_interfaces (type_list (generic_type (type_arguments) @type)))
; `Visit.class`
(class_literal (_) @type)
; A static member reached through its class: `Visit.Builder.aVisit()`, `Visit.MAX`, `Visit.of(x)`.
; Only a capitalised name (Java's convention for classes); one naming no class binds to nothing.
(method_invocation object: (identifier) @static (#match? @static "^[A-Z]"))
(field_access object: (identifier) @static (#match? @static "^[A-Z]"))
