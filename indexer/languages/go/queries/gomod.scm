; go.mod: the module path and the modules it requires.

(module_directive (module_path) @module)
(require_spec (module_path) @require)
