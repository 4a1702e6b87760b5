; JavaScript-only definitions; the shared ECMAScript ones are in ../ecmascript/definitions.scm.

(class_body (field_definition property: (_) @name) @field)
