; Express (indexer/frameworks/express.py). Which receivers are Express applications or routers is
; decided in Python (created by express() / Router() in the file, typed Express / Router, or named
; like one); these patterns only select the candidates.

; app.get("/x", h) / router.post(...) / app.all(...) / app.use("/api", router) / router.route("/x")
; / router.prefix("/api") (koa-router)
; and every link of a chain router.route("/x").get(h).post(h2): @object is what the verb is called on.
(call_expression
  function: (member_expression
    object: (_) @object
    property: (property_identifier) @verb)
  arguments: (arguments) @args
  (#any-of? @verb "get" "post" "put" "delete" "patch" "all" "options" "head" "use" "prefix")) @call

; const app = express() / const router = express.Router() / Router() / require("express").Router()
; / require("koa-router")() (also `const app = module.exports = express()`): @factory is the callee.
(variable_declarator
  name: (identifier) @name
  value: [
    (call_expression function: (_) @factory)
    (assignment_expression right: (call_expression function: (_) @factory))
  ]
  (#match? @factory "(^|[.)])(express|Router)$|^require\\([\"'](koa-router|@koa/router)[\"']\\)$")) @declarator

; const router = new Router({ prefix: "/api" }) (koa-router, @koa/router) / new express.Router() / new Koa()
(variable_declarator
  name: (identifier) @name
  value: (new_expression constructor: (_) @factory)
  (#match? @factory "(Router|Koa)$")) @declarator

; this.router = new Router({ prefix: "/api" }) / this.app = new Koa() (an application written as a class)
(assignment_expression
  left: [(identifier) (member_expression)] @name
  right: (new_expression constructor: (_) @factory)
  (#match? @factory "(Router|Koa)$"))

; this.app = express() / app = express()
(assignment_expression
  left: [(identifier) (member_expression)] @name
  right: (call_expression function: (_) @factory)
  (#match? @factory "(^|[.)])(express|Router)$"))

; f(app) / routes.register(router, x) / require("./routes")(app): a call handing a name on (@arg), a
; router when Python finds it is one (a function's router parameter, indexer/frameworks/mounts.py).
(call_expression
  function: [(identifier) (member_expression) (call_expression)] @callee
  arguments: (arguments (identifier) @arg)) @handing
