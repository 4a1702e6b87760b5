; Reads of `self.<name>`: column accesses in a method of a mapped class
; (indexer/languages/python/frameworks/orm_attributes.py). The extractor's walk of value_reads.scm meets
; the same nodes and hands them over (frameworks/common.py, self_attribute_reads): this query runs only
; for a detector run without the extractor's walk.
((attribute object: (identifier) @object attribute: (identifier) @attr) @read
  (#eq? @object "self"))
