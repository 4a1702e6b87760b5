; Reads of `self.<name>`: column accesses in a method of a mapped class
; (indexer/languages/python/frameworks/orm_attributes.py). Run only for a file that declares a mapped
; class (few do), so not in the shared pass with orm_attributes.scm's writes.
((attribute object: (identifier) @object attribute: (identifier) @attr) @read
  (#eq? @object "self"))
