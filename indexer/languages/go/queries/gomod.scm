; go.mod: the module path.

(module_directive (module_path) @module)
