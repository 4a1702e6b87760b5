; Definitions shared by JavaScript / JSX and TypeScript / TSX (each dialect adds its own in its
; folder). Every pattern captures the definition node under a capture named after its kind (@class,
; @function, @method, @field) and its name as @name.
; Anonymous `export default function () {}` / `export default class {}` have no @name ("default").

(class_declaration name: (_) @name) @class
(export_statement value: (class) @class)

(function_declaration name: (_) @name) @function
(generator_function_declaration name: (_) @name) @function
(export_statement value: [(function_expression) (generator_function) (arrow_function)] @function)

; `const f = () => ...`, `let f = function () {}`, `var g = function* () {}` (any scope).
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)]) @function

; Functions assigned to a property (any level). @owner is the object the function is reached through.
;   `X.prototype.m = function () {}`  -> method `X.m`, parent `X`
;   `obj.m = function () {}`          -> function `obj.m`, parent `obj` (a definition or not)
;   `exports.m = ...` / `module.exports.m = ...` (@exports) -> the module's exported function `m`
(assignment_expression
  left: (member_expression
    object: (member_expression
      object: (identifier) @owner
      property: (property_identifier) @_prototype)
    property: (property_identifier) @name)
  right: [(arrow_function) (function_expression) (generator_function)]
  (#eq? @_prototype "prototype")) @method

(assignment_expression
  left: (member_expression
    object: (identifier) @owner
    property: (property_identifier) @name)
  right: [(arrow_function) (function_expression) (generator_function)]
  (#not-match? @owner "^(exports|module)$")) @function

; `X.prototype = { m() {}, n: function () {} }` -> methods `X.m`, `X.n`, as `X.prototype.m = ...`
(assignment_expression
  left: (member_expression
    object: (identifier) @owner
    property: (property_identifier) @_prototype)
  right: (object
    [
      (pair
        key: (property_identifier) @name
        value: [(arrow_function) (function_expression) (generator_function)])
      (method_definition name: (property_identifier) @name)
    ] @method)
  (#eq? @_prototype "prototype"))

; `res.set = res.header = function header() {}` (express): both names are the one function; the
; outer name is a definition too (the inner one matches the pattern above).
(assignment_expression
  left: (member_expression
    object: (identifier) @owner
    property: (property_identifier) @name)
  right: (assignment_expression
    left: (member_expression)
    right: [(arrow_function) (function_expression) (generator_function)])
  (#not-match? @owner "^(exports|module)$")) @function

(assignment_expression
  left: (member_expression
    object: [
      (identifier) @exports
      (member_expression object: (identifier) @_module property: (property_identifier) @exports)
    ]
    property: (property_identifier) @name)
  right: [(arrow_function) (function_expression) (generator_function)]
  (#eq? @exports "exports")
  (#eq? @_module "module")) @function

(class_body (method_definition name: (_) @name) @method)

; Functions of an object literal bound to a name (any scope), like `obj.m = function () {}` above:
;   `const api = { list: () => ..., get: function () {}, post() {} }` -> functions `api.list`,
;   `api.get`, `api.post`, parent `api` (@owner). Other object literals (arguments, nested objects,
;   `module.exports = {...}`) are left alone.
(variable_declarator
  name: (identifier) @owner
  value: (object
    [
      (pair
        key: (property_identifier) @name
        value: [(arrow_function) (function_expression) (generator_function)])
      (method_definition name: (property_identifier) @name)
    ] @function))
;   `export default { setToken: t => ..., get() {} }` -> functions `default.setToken`, `default.get`,
;   parent `default` (@_default_object, the `default` keyword: the module's default export is that
;   object, bound and exported by objects.py), as `module.exports = {...}`'s functions are definitions.
(export_statement
  "default" @_default_object
  value: (object
    [
      (pair
        key: (property_identifier) @name
        value: [(arrow_function) (function_expression) (generator_function)])
      (method_definition name: (property_identifier) @name)
    ] @function))
; Functions of an object literal a function returns (a factory, returned_objects.py), like those of
; `const o = {...}` above under the object `F.return`:
;   `const F = () => ({ get() {}, put: () => ... })` / `function F() { return { get: function () {} } }`
;   -> functions `F.return.get`, `F.return.put`, parent `F.return` (@_returned; the extractor names the
;   function the literal is returned from, and leaves the literal alone when that is no definition).
; (an arrow's object body is always parenthesized: `() => { get() {} }` is no valid JavaScript)
(arrow_function
  body: (parenthesized_expression
    (object
      [
        (pair
          key: (property_identifier) @name
          value: [(arrow_function) (function_expression) (generator_function)])
        (method_definition name: (property_identifier) @name)
      ] @function))) @_returned
(return_statement
  [
    (object
      [
        (pair
          key: (property_identifier) @name
          value: [(arrow_function) (function_expression) (generator_function)])
        (method_definition name: (property_identifier) @name)
      ] @function)
    (parenthesized_expression
      (object
        [
          (pair
            key: (property_identifier) @name
            value: [(arrow_function) (function_expression) (generator_function)])
          (method_definition name: (property_identifier) @name)
        ] @function))
  ]) @_returned
; CommonJS, the module's value itself (@exports marks it exported):
;   `module.exports = function name() {}` -> the function `name` (also exported as "default",
;   exports.scm); an anonymous one (`module.exports = (app) => {...}`) is the function "default",
;   as TypeScript's `export default (app) => {...}` is.
;   `module.exports = { slug(s) {}, trim: function () {}, f: () => ... }` -> the exported top-level
;   functions `slug`, `trim`, `f`, as `exports.slug = function () {}` would define them.
(assignment_expression
  left: (member_expression
    object: (identifier) @_module
    property: (property_identifier) @exports)
  right: [
    (function_expression name: (identifier) @name)
    (generator_function name: (identifier) @name)
  ]
  (#eq? @_module "module")
  (#eq? @exports "exports")) @function
(assignment_expression
  left: (member_expression
    object: (identifier) @_module
    property: (property_identifier) @exports)
  right: [
    (arrow_function)
    (function_expression !name)
    (generator_function !name)
  ] @function
  (#eq? @_module "module")
  (#eq? @exports "exports"))
(assignment_expression
  left: (member_expression
    object: (identifier) @_module
    property: (property_identifier) @exports)
  right: (object
    [
      (pair
        key: (property_identifier) @name
        value: [(arrow_function) (function_expression) (generator_function)])
      (method_definition name: (property_identifier) @name)
    ] @function)
  (#eq? @_module "module")
  (#eq? @exports "exports"))

;   A top-level statement that is an object literal alone, `({ doInit: function (cmp) {}, refresh(cmp) {} });`
;   (the file format of Salesforce Aura bundles' controllers, helpers and renderers: the framework
;   evaluates the file as that object; no other code writes one) -> top-level functions `doInit`,
;   `refresh` (@_bundle), not exported, as those of `module.exports = {...}` are.
(program
  (expression_statement
    (parenthesized_expression
      (object
        [
          (pair
            key: (property_identifier) @name
            value: [(arrow_function) (function_expression) (generator_function)])
          (method_definition name: (property_identifier) @name)
        ] @function @_bundle))))

; A named function expression anywhere else (`return function inner() {}`, `run(function onDone() {})`):
; a function of its own under the definition around it (@_named_expression). The extractor drops it
; at module level (its name is no top-level name), when a pattern above already made that function a
; definition (`const f = function g() {}` is `f`) or when the file binds its name otherwise (an
; import, another definition of that qualname).
(function_expression name: (identifier) @name) @function @_named_expression
(generator_function name: (identifier) @name) @function @_named_expression
