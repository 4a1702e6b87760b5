; Registrations of cross-cutting code the Spring wrapper detector reads: Spring Security's
; `http.addFilterBefore(f, X.class)` / `addFilterAfter` / `addFilterAt` / `addFilter(f)`, MVC
; interceptors `registry.addInterceptor(i)` (their `.addPathPatterns(...)` are read up the chain in
; Python), and a FilterRegistrationBean's filter and URL patterns (`new FilterRegistrationBean<>(f)`,
; `setFilter(f)`, `addUrlPatterns(...)`, `setUrlPatterns(...)`).

(method_invocation
  name: (identifier) @name
  arguments: (argument_list) @args
  (#any-of? @name "addFilterBefore" "addFilterAfter" "addFilterAt" "addFilter" "addInterceptor" "setFilter"
    "addUrlPatterns" "setUrlPatterns")) @call

(object_creation_expression
  type: (_) @type
  arguments: (argument_list) @args
  (#match? @type "FilterRegistrationBean")) @new
