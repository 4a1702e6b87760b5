; Base URLs set outside the request (indexer/languages/ecmascript/frameworks/base_urls.py).

; A development server's proxy table: { proxy: { ... } } / { proxy: [ ... ] } (Vite server.proxy,
; webpack devServer.proxy); Python keeps those of configuration files inside a server block.
(pair
  key: (property_identifier) @_proxy
  value: [(object) (array)] @proxy
  (#eq? @_proxy "proxy"))

; module.exports = X / export default X: the table of an Angular proxy.conf.js.
(assignment_expression
  left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
  right: (_) @exported
  (#eq? @_module "module")
  (#eq? @_exports "exports"))

(export_statement value: (_) @exported)

; req.clone({ url: ... }) (an Angular HttpInterceptor rewriting the request's URL).
(call_expression
  function: (member_expression object: (identifier) @clone_receiver property: (property_identifier) @_clone)
  arguments: (arguments . (object) @clone_config)
  (#eq? @_clone "clone")) @clone
