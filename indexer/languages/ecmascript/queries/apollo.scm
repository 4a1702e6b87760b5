; Apollo-style resolver maps (indexer/languages/ecmascript/frameworks/apollo.py): an object literal
; with a `Query`, `Mutation` or `Subscription` key whose value is an object literal. @map is the
; whole map; which of its entries are resolvers is read in Python.
(object
  (pair
    key: [(property_identifier) (string)] @root
    value: (object))
  (#match? @root "^[\"']?(Query|Mutation|Subscription)[\"']?$")) @map
