; Annotations on the declarations the framework detectors read (types, methods, fields), each with
; the declaration it sits on. One match per annotation; detectors filter by annotation name.

(class_declaration (modifiers [(annotation) (marker_annotation)] @annotation)) @decl
(interface_declaration (modifiers [(annotation) (marker_annotation)] @annotation)) @decl
(record_declaration (modifiers [(annotation) (marker_annotation)] @annotation)) @decl
(enum_declaration (modifiers [(annotation) (marker_annotation)] @annotation)) @decl
(method_declaration (modifiers [(annotation) (marker_annotation)] @annotation)) @decl
(field_declaration (modifiers [(annotation) (marker_annotation)] @annotation)) @decl
