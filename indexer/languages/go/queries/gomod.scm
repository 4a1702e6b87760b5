; go.mod: the module path, the modules it requires and its replace directives.

(module_directive (module_path) @module)
(require_spec (module_path) @require)
(replace_spec) @replace
