; Test-framework callbacks (indexer/languages/ecmascript/frameworks/test_callbacks.py): mocha, jest,
; vitest, jasmine and Playwright suites, tests and hooks, `describe(title, fn)`, `it.only(title, fn)`,
; `beforeEach(fn)`, `test.describe(title, fn)`, `test.each(table)(title, fn)`. Which argument is the
; callback is decided in Python.
(call_expression
  function: [(identifier) (member_expression)] @callee
  arguments: (arguments . (_) @first)
  (#match? @callee "^(describe|context|suite|it|test|specify|xit|xdescribe|xcontext|xspecify|fit|fdescribe|xtest|beforeEach|afterEach|beforeAll|afterAll|before|after)([.](only|skip|todo|concurrent|serial|failing|fails|sequential|describe|parallel|fixme|slow|step|beforeEach|afterEach|beforeAll|afterAll))*$")) @call

(call_expression
  function: (call_expression
    function: (member_expression) @callee)
  arguments: (arguments . (_) @first)
  (#match? @callee "^(describe|it|test)([.](only|skip|concurrent))*[.]each$")) @call
