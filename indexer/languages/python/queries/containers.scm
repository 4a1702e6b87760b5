; Functions held in containers and called through a subscript (CallSite.via "element"): a dict, list,
; tuple or set display assigned to a name or to `self.<attr>`, and the calls `name[k](...)` /
; `self.<attr>[k](...)`. The extractor pairs them by scope (extractor.container_calls).
(assignment
  left: (identifier) @container.name
  right: [(dictionary) (list) (tuple) (set)] @container.value) @container

(assignment
  left: (attribute
    object: (identifier) @container.self
    attribute: (identifier) @container.attr)
  right: [(dictionary) (list) (tuple) (set)] @container.value
  (#eq? @container.self "self")) @container

(call
  function: (subscript value: [(identifier) (attribute)] @element.container)
  arguments: (_) @element.args) @element
