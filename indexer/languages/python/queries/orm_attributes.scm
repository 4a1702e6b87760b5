; Attribute writes (`user.email = x`, `self.count += 1`) and reads of `self.<name>`: column accesses
; when the object is an instance of a mapped class (indexer/languages/python/frameworks/orm_attributes.py).
(assignment
  left: (attribute object: (identifier) @object attribute: (identifier) @attr) @target) @write
(augmented_assignment
  left: (attribute object: (identifier) @object attribute: (identifier) @attr) @target) @write
((attribute object: (identifier) @object attribute: (identifier) @attr) @read
  (#eq? @object "self"))
