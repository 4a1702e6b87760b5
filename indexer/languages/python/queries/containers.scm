; Functions held in containers and called through a subscript (CallSite.via "element"): a dict, list,
; tuple or set display assigned to a name or to `self.<attr>`, what is stored into it later, and the
; calls `name[k](...)` / `self.<attr>[k](...)` / `name[a][b](...)`. The extractor pairs them by scope
; (implied.container_calls).
(assignment
  left: (identifier) @container.name
  right: [(dictionary) (list) (tuple) (set)] @container.value) @container

(assignment
  left: (attribute
    object: (identifier) @container.self
    attribute: (identifier) @container.attr)
  right: [(dictionary) (list) (tuple) (set)] @container.value
  (#eq? @container.self "self")) @container

; `a, *rest, z = f, g, h, k`: the starred name is a list of the values between (`[g, h]`).
(assignment
  left: [(pattern_list) (tuple_pattern) (list_pattern)] @starred.target
  right: [(expression_list) (tuple) (list)] @starred.value) @starred

; `d["k"] = f`, `d["a"]["b"] = f`, `self.handlers[k] = f`: stored into a container.
(assignment
  left: (subscript) @store.target
  right: (_) @store.value) @store

; `ls.append(f)`, `s.add(f)`, `ls.insert(i, f)`, `d.setdefault(k, f)`, `d.update({...})`,
; `ls.extend([...])`: stored into a container (the extractor keeps those it knows as containers).
(call
  function: (attribute
    object: [(identifier) (attribute) (subscript)] @add.container
    attribute: (identifier) @add.method)
  arguments: (argument_list) @add.args
  (#any-of? @add.method "append" "add" "insert" "setdefault" "update" "extend")) @add

(call
  function: (subscript) @element.target
  arguments: (_) @element.args) @element

; `d.get("k")(x)`, `ls.pop()(x)`: a call of a value taken out of a container.
(call
  function: (call
    function: (attribute attribute: (identifier) @element.method)) @element.target
  arguments: (_) @element.args
  (#any-of? @element.method "get" "pop" "popleft" "setdefault")) @element

; `h = d.get(kind)`, `h = d[kind]`: a local holding a value taken out of a container (its calls,
; `h(x)`, are the extractor's bare calls of calls.scm).
(assignment
  left: (identifier) @fetch.name
  right: [
    (subscript)
    (call function: (attribute attribute: (identifier) @fetch.method)
      (#any-of? @fetch.method "get" "pop" "popleft" "setdefault"))
  ] @fetch.value) @fetch

; `b = make()`, `ls2 = ls[1:3]`: a name assigned what a function of the file returns (a container it
; builds: containers.py's returned containers) or a slice of a container.
(assignment
  left: (identifier) @derived.name
  right: [
    (call function: (identifier))
    (subscript subscript: (slice))
  ] @derived.value) @derived
