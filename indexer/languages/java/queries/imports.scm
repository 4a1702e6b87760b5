; Java package and import declarations.

(package_declaration [(scoped_identifier) (identifier)] @package)

(import_declaration
  "static"? @static
  [(scoped_identifier) (identifier)] @path
  (asterisk)? @wildcard) @import
