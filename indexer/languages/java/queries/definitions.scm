; Java definitions. Type declarations are definitions wherever they appear (top level, nested,
; local classes in a method body). Members are definitions only when they sit directly in the body
; of a *named* type: methods and fields of anonymous classes (`new X() { ... }`) and of enum
; constant bodies are not matched, so their calls fall to the enclosing named method.

(class_declaration name: (identifier) @name) @def.class
(record_declaration name: (identifier) @name) @def.class
(interface_declaration name: (identifier) @name) @def.interface
(annotation_type_declaration name: (identifier) @name) @def.interface
(enum_declaration name: (identifier) @name) @def.enum

(class_declaration
  body: (class_body
    [(method_declaration) @def.method
     (constructor_declaration) @def.constructor
     (field_declaration) @def.field]))

(record_declaration
  body: (class_body
    [(method_declaration) @def.method
     (constructor_declaration) @def.constructor
     (compact_constructor_declaration) @def.constructor
     (field_declaration) @def.field]))

(record_declaration
  parameters: (formal_parameters (formal_parameter) @def.component))

(enum_declaration
  body: (enum_body
    (enum_body_declarations
      [(method_declaration) @def.method
       (constructor_declaration) @def.constructor
       (field_declaration) @def.field])))

(enum_declaration
  body: (enum_body (enum_constant) @def.constant))

(interface_declaration
  body: (interface_body
    [(method_declaration) @def.method
     (constant_declaration) @def.field]))

(annotation_type_declaration
  body: (annotation_type_body
    [(annotation_type_element_declaration) @def.method
     (constant_declaration) @def.field]))

; What a type extends / implements (an interface's `extends` list counts as bases).
(class_declaration superclass: (superclass (_) @base)) @heritage
(class_declaration interfaces: (super_interfaces (type_list (_) @implements))) @heritage
(record_declaration interfaces: (super_interfaces (type_list (_) @implements))) @heritage
(enum_declaration interfaces: (super_interfaces (type_list (_) @implements))) @heritage
(interface_declaration (extends_interfaces (type_list (_) @base))) @heritage
