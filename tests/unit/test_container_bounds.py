"""brk44: functions held in containers (Python ``languages/python/containers.py``, JavaScript
``languages/ecmascript/containers.py``) on hostile sizes: each pass over a container is made once, not
once per call or element (a 100,000-element list display took over 300 s, a 20,000-key table with a
call per key 35 s in Python and 70 s as a JavaScript Map), and the sites are bounded per call and per
file in both languages. Exact site counts and targets."""

from indexer.languages import extractor_for_path
from indexer.languages.ecmascript import containers as js
from indexer.languages.python import containers as py


def _element_sites(path: str, source: str) -> list[tuple[str | None, str, int]]:
    ex = extractor_for_path(path).extract(path, source.encode())
    return [(c.caller, c.name, c.line) for c in ex.calls if c.via == "element"]


def test_a_100000_element_list_display_is_read_in_one_pass():
    n = 100_000
    source = "def f(): pass\n\nL = [\n" + "    f,\n" * n + "    *rest,\n    f,\n]\n\n\ndef use(k):\n    return L[k]()\n"
    assert _element_sites("big.py", source) == [("use", "f", n + 10)]


def test_a_table_of_20000_keys_called_per_key_reaches_one_function_each_up_to_the_file_bound():
    n = 20_000
    fns = "".join(f"def f{i}(): pass\n" for i in range(3))
    source = fns + "d = {}\n" + "".join(f"d['k{i}'] = f{i % 3}\n" for i in range(n)) + "d[name] = f2\n\n\ndef use(k):\n" \
        + "".join(f"    d['k{i}']()\n" for i in range(n))
    sites = _element_sites("t.py", source)
    first = n + 9  # the line of d['k0']()
    # its key's function and the unkeyed f2 (one site when that is f2): 5 sites per 3 calls, to the file bound
    assert len(sites) == py.MAX_ELEMENT_SITES
    assert sites[:4] == [("use", "f0", first), ("use", "f2", first), ("use", "f1", first + 1), ("use", "f2", first + 1)]
    assert sites[-3:] == [("use", "f1", first + 5998), ("use", "f2", first + 5998), ("use", "f2", first + 5999)]


def test_a_call_reaches_at_most_the_first_functions_stored():
    fns = "".join(f"def f{i}(): pass\n" for i in range(100))
    source = fns + "L = [" + ", ".join(f"f{i}" for i in range(100)) + "]\n\n\ndef use(k):\n    L[k]()\n"
    assert _element_sites("m.py", source) == [("use", f"f{i}", 105) for i in range(py.MAX_ELEMENT_TARGETS)]
    js_fns = "".join(f"function f{i}() {{}}\n" for i in range(100))
    js_source = js_fns + "const L = [" + ", ".join(f"f{i}" for i in range(100)) + "];\nfunction use(k) { L[k](); }\n"
    assert _element_sites("m.js", js_source) == [("use", f"f{i}", 102) for i in range(js.MAX_ELEMENT_TARGETS)]


def test_a_js_map_of_20000_keys_called_per_key_is_bounded_per_file():
    n = 20_000
    source = ("function f() {}\nconst m = new Map();\n" + "".join(f"m.set('k{i}', f);\n" for i in range(n))
              + "function use(k) {\n" + "".join(f"  m.get('k{i}')();\n" for i in range(n)) + "}\n")
    sites = _element_sites("m.js", source)
    assert len(sites) == js.MAX_ELEMENT_SITES
    assert sites[0] == ("use", "f", n + 4) and sites[-1] == ("use", "f", n + 3 + js.MAX_ELEMENT_SITES)


def test_a_name_a_function_binds_itself_is_not_the_container_of_an_enclosing_scope():
    # brk44: each call below reached f through the module's `handlers` (and the store put g into it)
    source = """def f(): pass
def g(): pass

handlers = {'a': f}


def by_param(handlers):
    handlers['a']()
    handlers['b'] = g


def by_local():
    handlers = make()
    handlers['a']()


def by_loop(xs):
    for handlers in xs:
        handlers['a']()


def by_global():
    global handlers
    handlers = other()
    handlers['a']()


def by_module():
    handlers['a']()


def outer(handlers):
    def inner():
        handlers['a']()
    return inner
"""
    assert _element_sites("s.py", source) == [("by_global", "f", 25), ("by_module", "f", 29)]  # not g
    # a parameter spelled as a container the file passes somewhere may be handed it (PyCG dicts/param)
    passed = "def g(): pass\n\n\ndef func1(d):\n    d['a']()\n\n\nd = {'a': g}\nfunc1(d)\n"
    assert _element_sites("p.py", passed) == [("func1", "g", 5)]
    js_source = """function f() {}
function g() {}
const handlers = [f];
function byParam(handlers) { handlers[0](); handlers.push(g); }
function byLocal() { let handlers = make(); handlers[0](); }
function byModule() { handlers[0](); }
function outer(handlers) { return () => handlers[0](); }
"""
    assert _element_sites("s.js", js_source) == [("byModule", "f", 6)]
