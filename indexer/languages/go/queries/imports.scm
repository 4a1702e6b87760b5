; The package clause and the import specs (`"a/b"`, `x "a/b"`, `. "a/b"`, `_ "a/b"`).

(package_clause (package_identifier) @package)
(import_spec name: (_)? @alias path: (_) @path) @import
