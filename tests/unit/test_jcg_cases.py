"""bench/jcg_cases.py: JCG's markdown cases read into sources and expected links, exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench.jcg_cases import read_cases, write_case

_MARKDOWN = '''# Closures

Intro prose.

## CL1
[//]: # (MAIN: global)
Test a closure.

```json
{
  "directLinks": [
    ["<global>", "CL1.inner"],
  ],
  "indirectLinks": []
}
```
```js
// cl/CL1.js

function outer() { return function inner() {}; }
outer()();
```
[//]: # (END)

## LIB1
[//]: # (LIBRARY)
A partial program.
```java
// lib1/Demo.java
package lib1;
class Demo {}
```
```java
// lib1/Type.java
package lib1;
class Type {}
```
[//]: # (END)

## CL9
A listing run outside the infrastructure: no directive, no path line.
```java
package demo;
```
'''


def test_read_cases_exact(tmp_path: Path) -> None:
    md = tmp_path / "Closures.md"
    md.write_text(_MARKDOWN, encoding="utf-8")
    cases = read_cases(md)
    assert [c.name for c in cases] == ["CL1", "LIB1"]  # CL9 has no END and no named file
    cl1, lib1 = cases
    assert (cl1.category, cl1.main, cl1.description) == ("Closures", "global", "Test a closure.")
    assert cl1.expected == {"directLinks": [["<global>", "CL1.inner"]], "indirectLinks": []}
    assert cl1.files == {"cl/CL1.js": "// cl/CL1.js\n\nfunction outer() { return function inner() {}; }\nouter()();\n"}
    assert lib1.main is None and lib1.expected is None
    assert list(lib1.files) == ["lib1/Demo.java", "lib1/Type.java"]
    written = write_case(lib1, tmp_path / "out")
    assert [p.relative_to(tmp_path / "out").as_posix() for p in written] == list(lib1.files)
    assert written[1].read_text(encoding="utf-8").splitlines()[1] == "package lib1;"


def test_read_cases_refuses_a_path_out_of_the_case(tmp_path: Path) -> None:
    md = tmp_path / "Bad.md"
    md.write_text("## X1\n[//]: # (MAIN: global)\n```python\n# ../../etc/x.py\npass\n```\n[//]: # (END)\n",
                  encoding="utf-8")
    with pytest.raises(ValueError, match="leaves the case's folder"):
        read_cases(md)
