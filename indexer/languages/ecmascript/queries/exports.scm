; Exports that are not just an `export` keyword on a definition (model.Export).
;   @exported (+ @local)         -> Export(exported, local=local or exported)
;   @exported + @name + @module  -> Export(exported, module=module, name=name)   (re-export)
;   @star + @module              -> Export("*", module=module)
;   @default_local               -> Export("default", local=default_local)
;   @var                         -> Export(var, local=var) unless the declarator is a definition
; Every pattern is matched anywhere; CommonJS assignments count wherever they are written.

; export { f as g, h }
(export_statement
  (export_clause (export_specifier name: (_) @local alias: (_)? @exported))
  !source)

; export { x as y } from "./m"
(export_statement
  (export_clause (export_specifier name: (_) @name alias: (_)? @exported))
  source: (string (string_fragment) @module))

; export * from "./m"
(export_statement "*" @star source: (string (string_fragment) @module))

; export * as ns from "./m"
(export_statement
  (namespace_export (_) @exported)
  source: (string (string_fragment) @module)) @namespace

; export default f
(export_statement value: (identifier) @default_local)

; export default wrap(f) / export default trace({ name })(f) / module.exports = wrap(f): the one argument
; of a wrapper call (a higher-order function: memo, observer, traceFunction) is exported as default
; when it names a function or class of the file (checked by the extractor)
(export_statement value: (call_expression arguments: (arguments . (identifier) @wrapped_local .)))
(assignment_expression
  left: (member_expression
    object: (identifier) @_module
    property: (property_identifier) @_exports)
  right: (call_expression arguments: (arguments . (identifier) @wrapped_local .))
  (#eq? @_module "module")
  (#eq? @_exports "exports"))

; export default F() / export default F(config) / module.exports = F(): what the call returns is the
; default export, read by returned_objects.py when F is a function of the file returning an object
; literal (a factory) or an imported name; export default new X() / module.exports = new X(): an
; instance of X, a class of the file or an imported name
(export_statement value: [
  (call_expression function: (identifier) @default_factory)
  (new_expression constructor: (identifier) @default_factory)
])
(assignment_expression
  left: (member_expression
    object: (identifier) @_module
    property: (property_identifier) @_exports)
  right: [
    (call_expression function: (identifier) @default_factory)
    (new_expression constructor: (identifier) @default_factory)
  ]
  (#eq? @_module "module")
  (#eq? @_exports "exports"))

; export default class Foo {} / export default function foo() {}: the definition is exported; the
; name it is imported by is "default".
(export_statement
  "default"
  declaration: [
    (class_declaration name: (_) @default_local)
    (function_declaration name: (_) @default_local)
    (generator_function_declaration name: (_) @default_local)
  ])

; export const g = f / export let a, b
(export_statement
  declaration: [
    (lexical_declaration (variable_declarator name: (identifier) @var))
    (variable_declaration (variable_declarator name: (identifier) @var))
  ])

; module.exports = f
(assignment_expression
  left: (member_expression
    object: (identifier) @_module
    property: (property_identifier) @_exports)
  right: (identifier) @default_local
  (#eq? @_module "module")
  (#eq? @_exports "exports"))

; module.exports = { a, b: c }
(assignment_expression
  left: (member_expression
    object: (identifier) @_module
    property: (property_identifier) @_exports)
  right: (object [
    (shorthand_property_identifier) @exported
    (pair key: (property_identifier) @exported value: (identifier) @local)
  ])
  (#eq? @_module "module")
  (#eq? @_exports "exports"))

; exports.a = f
(assignment_expression
  left: (member_expression
    object: (identifier) @_exports
    property: (property_identifier) @exported)
  right: (identifier) @local
  (#eq? @_exports "exports"))

; module.exports.a = f
(assignment_expression
  left: (member_expression
    object: (member_expression
      object: (identifier) @_module
      property: (property_identifier) @_exports)
    property: (property_identifier) @exported)
  right: (identifier) @local
  (#eq? @_module "module")
  (#eq? @_exports "exports"))

; exports.a = function () {} / module.exports.a = () => {}: the function defined as `a` (definitions.scm)
(assignment_expression
  left: (member_expression
    object: [
      (identifier) @_exports
      (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
    ]
    property: (property_identifier) @exported)
  right: [(arrow_function) (function_expression) (generator_function)]
  (#eq? @_exports "exports")
  (#eq? @_module "module"))

; TypeScript's CommonJS output for `export * from "./m"`: __exportStar(require("./m"), exports)
(call_expression
  function: (identifier) @_helper
  arguments: (arguments
    . (call_expression
      function: (identifier) @_require
      arguments: (arguments . (string (string_fragment) @module)) @star))
  (#eq? @_helper "__exportStar")
  (#eq? @_require "require"))

; module.exports = function name() {}: the function (definitions.scm) is the module's default
(assignment_expression
  left: (member_expression
    object: (identifier) @_module
    property: (property_identifier) @_exports)
  right: [
    (function_expression name: (identifier) @default_local)
    (generator_function name: (identifier) @default_local)
  ]
  (#eq? @_module "module")
  (#eq? @_exports "exports"))
