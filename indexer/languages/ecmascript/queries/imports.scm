; Imports. @module is the specifier text (the string's fragment). What binds what:
;   @default                    -> Import(default, module, "default")
;   @namespace / @module_local  -> Import(local, module, None)
;   @name (+ optional @alias)   -> Import(alias or name, module, name)
; `import "./side-effect"` binds nothing and is not matched.

(import_statement
  (import_clause (identifier) @default)
  source: (string (string_fragment) @module))

(import_statement
  (import_clause (namespace_import (identifier) @namespace))
  source: (string (string_fragment) @module))

(import_statement
  (import_clause (named_imports (import_specifier name: (_) @name alias: (_)? @alias)))
  source: (string (string_fragment) @module))

; CommonJS: const x = require("./m")
(variable_declarator
  name: (identifier) @module_local
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string (string_fragment) @module)))
  (#eq? @_require "require"))

; const x = require("./m").y
(variable_declarator
  name: (identifier) @alias
  value: (member_expression
    object: (call_expression
      function: (identifier) @_require
      arguments: (arguments . (string (string_fragment) @module)))
    property: (property_identifier) @name)
  (#eq? @_require "require"))

; const {a, b: c} = require("./m")
(variable_declarator
  name: (object_pattern (shorthand_property_identifier_pattern) @name)
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string (string_fragment) @module)))
  (#eq? @_require "require"))

(variable_declarator
  name: (object_pattern (pair_pattern key: (property_identifier) @name value: (identifier) @alias))
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string (string_fragment) @module)))
  (#eq? @_require "require"))

; TypeScript's CommonJS output: var x = __importStar(require("./m")) / __importDefault(require("./m"))
(variable_declarator
  name: (identifier) @module_local
  value: (call_expression
    function: (identifier) @_helper
    arguments: (arguments
      . (call_expression
        function: (identifier) @_require
        arguments: (arguments . (string (string_fragment) @module)))))
  (#match? @_helper "^__import(Star|Default)$")
  (#eq? @_require "require"))
