; Requests of Spring's test clients to the application under test (MockMvc request builders,
; RestAssured). Which class a verb belongs to (a static import, a qualifier, the head of the chain)
; is checked in Python: a query cannot follow an import.

; `get("/owners/{id}", 1)`, `MockMvcRequestBuilders.post(url)`, `given().when().put("/x")`,
; `RestAssured.get("/x")`, `request(HttpMethod.GET, url)`, `multipart("/upload")`.
(method_invocation
  object: (_)? @receiver
  name: (identifier) @verb
  arguments: (argument_list) @args
  (#any-of? @verb "get" "post" "put" "delete" "patch" "head" "options" "request" "multipart")) @verb_call
