; Go definitions: functions, methods (a receiver makes them members of the receiver's type, wherever
; the file), named types (an interface type is an interface, every other named type a class), the
; fields of a struct type (an embedded field is a base) and the methods of an interface type.

(function_declaration name: (identifier) @name) @def.function
(method_declaration name: (field_identifier) @name) @def.method
(type_spec name: (type_identifier) @name type: (interface_type)) @def.interface
(type_spec name: (type_identifier) @name type: [(struct_type) (type_identifier) (qualified_type)
  (pointer_type) (slice_type) (map_type) (function_type) (channel_type) (array_type) (generic_type)]) @def.class

(type_spec
  name: (type_identifier) @owner
  type: (struct_type (field_declaration_list (field_declaration) @field)))

(type_spec
  name: (type_identifier) @owner
  type: (interface_type (method_elem) @elem))
