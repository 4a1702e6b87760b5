; TypeScript-only imports; the shared ECMAScript ones are in ../ecmascript/imports.scm.

; import x = require("./m")
(import_statement
  (import_require_clause (identifier) @module_local source: (string (string_fragment) @module)))
