; Attribute writes (`user.email = x`, `self.count += 1`): column accesses when the object is an instance
; of a mapped class (indexer/languages/python/frameworks/orm_attributes.py). The reads of `self.<name>`
; are orm_attribute_reads.scm's.
(assignment
  left: (attribute object: (identifier) @object attribute: (identifier) @attr) @target) @write
(augmented_assignment
  left: (attribute object: (identifier) @object attribute: (identifier) @attr) @target) @write
