; Ariadne (indexer/languages/python/frameworks/ariadne.py): `x = ObjectType("Owner")` / `QueryType()`
; bindings (@var, @ctor, @args) and `x.set_field("owner", resolver)` calls (@receiver, @field, @resolver).
(assignment
  left: (identifier) @var
  right: (call function: [(identifier) (attribute)] @ctor arguments: (argument_list) @args))
(call
  function: (attribute object: (identifier) @receiver attribute: (identifier) @method)
  arguments: (argument_list . (string) @field . (_) @resolver .)
  (#eq? @method "set_field")) @call
