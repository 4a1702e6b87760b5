; TypeScript-only exports; the shared ECMAScript ones are in ../ecmascript/exports.scm.

; export default abstract class Foo {}
(export_statement "default" declaration: (abstract_class_declaration name: (_) @default_local))

; export = C (CommonJS export assignment)
(export_statement "=" (identifier) @default_local)
