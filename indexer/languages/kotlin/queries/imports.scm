; Kotlin package and imports (assembled in extractor.py: _FileRun.imports).
(package_header (identifier) @package)

(import_header
  (identifier) @path
  [(wildcard_import) @wildcard
   (import_alias (type_identifier) @alias)]?) @import
