; NestJS microservices, TypeScript only (decorated fields and constructor parameters): see
; ../nest_microservices.scm and indexer/languages/ecmascript/frameworks/nest_microservices.py.

; @Client(options) on a field: the field is a client of that transport.
(public_field_definition
  decorator: (decorator
    (call_expression
      function: (identifier) @client_decorator
      arguments: (arguments . (_) @client_options)))
  name: (property_identifier) @client_field
  (#eq? @client_decorator "Client"))

; @Inject(token) on a constructor parameter or a field: the name holds the provider registered under the token.
(required_parameter
  decorator: (decorator
    (call_expression
      function: (identifier) @inject
      arguments: (arguments . (_) @token)))
  pattern: (identifier) @injected
  (#eq? @inject "Inject"))
(public_field_definition
  decorator: (decorator
    (call_expression
      function: (identifier) @inject
      arguments: (arguments . (_) @token)))
  name: (property_identifier) @injected
  (#eq? @inject "Inject"))
