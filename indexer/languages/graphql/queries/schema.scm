; GraphQL schema (indexer/languages/graphql/extractor.py): object and interface types, their
; extensions, and each of their fields. @type is the type's name, @field a field's name, @def the
; field definition, @decl the type definition or extension.
(object_type_definition (name) @type (fields_definition (field_definition (name) @field) @def)) @decl
(object_type_extension (name) @type (fields_definition (field_definition (name) @field) @def)) @decl
(interface_type_definition (name) @type (fields_definition (field_definition (name) @field) @def)) @decl
(interface_type_extension (name) @type (fields_definition (field_definition (name) @field) @def)) @decl
