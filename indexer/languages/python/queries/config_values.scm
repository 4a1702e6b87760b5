; Values an application writes into its configuration (indexer/languages/python/frameworks/config_values.py):
; X.config["K"] = value, anywhere in the file.
(assignment
  left: (subscript value: (attribute attribute: (identifier) @_config)) @key
  right: (_) @value
  (#eq? @_config "config"))

; X.config.update(K=value, ...)
(call
  function: (attribute
    object: (attribute attribute: (identifier) @_config2)
    attribute: (identifier) @_update)
  arguments: (argument_list) @update
  (#eq? @_config2 "config")
  (#eq? @_update "update"))
