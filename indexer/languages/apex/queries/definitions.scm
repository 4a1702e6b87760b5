; Apex definitions. Types are definitions wherever they appear (top level and inner types); members
; only directly in the body of a named type. A trigger is a definition of its own (its body is code).

(class_declaration name: (identifier) @name) @def.class
(interface_declaration name: (identifier) @name) @def.interface
(enum_declaration name: (identifier) @name) @def.enum
(trigger_declaration name: (identifier) @name) @def.trigger

(class_declaration
  body: (class_body
    [(method_declaration) @def.method
     (constructor_declaration) @def.constructor
     (field_declaration) @def.field]))

(interface_declaration
  body: (interface_body (method_declaration) @def.method))

(enum_declaration
  body: (enum_body (enum_constant) @def.constant))

; What a type extends / implements (an interface's `extends` list counts as bases).
(class_declaration superclass: (superclass (_) @base)) @heritage
(class_declaration interfaces: (interfaces (type_list (_) @implements))) @heritage
(interface_declaration (extends_interfaces (type_list (_) @base))) @heritage
