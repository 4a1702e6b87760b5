; Calls of a plain name, `h(x)`: read only for the locals a scope fetched from a container
; (containers.ContainerCalls).
(call
  function: (identifier) @named.callee
  arguments: (_) @named.args) @named
