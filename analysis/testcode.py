"""What counts as test code: the one rule the blast radius (:mod:`analysis.impact`) uses to keep tests
apart from production callers. A node is test code when the file holding it is a test file by the path
conventions of its language's usual tools (see :func:`is_test_path`); nothing else (function names,
decorators) is looked at, so the answer is the same for every node of a file.
"""

from __future__ import annotations

import re
from functools import lru_cache

__all__ = ["is_test_path"]

# Folders whose whole content is tests (any level of the path).
_TEST_DIRS = frozenset({"test", "tests", "__tests__", "testing", "spec", "specs", "e2e", "__mocks__"})
# .NET test projects, named after the project they test: Catalog.FunctionalTests, Ordering.UnitTests, Api.Tests.
_DOTNET_TEST_PROJECT = re.compile(r"^[\w.-]+\.(?:[A-Z]\w*)?Tests?$")
# File names, per convention: pytest (test_x.py, x_test.py, conftest.py), Django (an app's tests.py), Go (x_test.go),
# Jest / Vitest / Mocha / Jasmine (x.test.ts, x.spec.js, ...), JUnit / TestNG / Spock (XTest.java,
# XTests.java, XIT.java, TestX.java, XSpec.groovy), RSpec (x_spec.rb), Apex (XTest.cls, X_Test.cls,
# TestX.cls, Test_X.cls: Salesforce's naming convention for @IsTest classes).
_TEST_FILE = re.compile(
    r"^(?:test_.+\.py|.+_test\.py|conftest\.py|tests\.py|.+_test\.go|.+_spec\.rb"
    r"|(?:.+\.)?(?:test|tests|spec|e2e-spec|e2e-test)\.(?:[cm]?[jt]sx?)"
    r"|(?:.+(?:Tests?|IT|ITCase|Spec)|Test[A-Z].*)\.(?:java|kt|groovy|scala)"
    r"|.+Tests?\.cs"
    r"|(?:.+_?Tests?|Test_?[A-Z].*)\.cls)$"
)


@lru_cache(maxsize=1 << 16)
def is_test_path(path: str) -> bool:
    """Whether ``path`` (a repository-relative file path, ``/`` or ``\\`` separated) holds test code:
    a folder of the path is a test folder (``test/``, ``tests/``, ``__tests__/``, ``testing/``,
    ``spec/``, ``specs/``, ``e2e/``, ``__mocks__/``; this covers Maven / Gradle ``src/test/java/``
    and ``src/test/kotlin/``) or a .NET test project's (``Catalog.FunctionalTests/``, ``Ordering.UnitTests/``,
    ``Api.Tests/``: a dotted name whose last part ends with ``Test`` / ``Tests``), or the file name follows a test-file convention: Python ``test_*.py``,
    ``*_test.py``, ``conftest.py``, ``tests.py`` (a Django app's); Go ``*_test.go``; JavaScript / TypeScript ``*.test.*`` and
    ``*.spec.*``, and ``test.*`` / ``tests.*`` / ``spec.*`` beside the code they test (date-fns'
    ``src/addDays/test.ts``) (``js``, ``jsx``, ``ts``, ``tsx``, ``mjs``, ``cjs``, ``mts``, ``cts``); Java / Kotlin /
    Groovy / Scala ``*Test``, ``*Tests``, ``*IT``, ``*ITCase``, ``*Spec`` and ``Test*`` (a capital
    after ``Test``: ``TestUtils.java`` is a test, ``Testimonial.java`` is not); C# ``*Test.cs`` / ``*Tests.cs``; Ruby ``*_spec.rb``;
    Apex ``*Test.cls``, ``*_Test.cls``, ``*Tests.cls``, ``Test*.cls`` / ``Test_*.cls`` (an ``@IsTest``
    class named otherwise is not seen: the rule reads paths only).
    Folder names compare case-insensitively; file names as written. The empty path is no test.
    Memoised (the last 65,536 paths): an identifier query's exact definitions ask it of every
    same-name definition's path, thousands for a test name such as ``test_openapi_schema``."""
    parts = [p for p in path.replace("\\", "/").split("/") if p]
    if not parts:
        return False
    if any(p.lower() in _TEST_DIRS or _DOTNET_TEST_PROJECT.match(p) for p in parts[:-1]):
        return True
    return _TEST_FILE.match(parts[-1]) is not None
