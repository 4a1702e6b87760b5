"""Display names (:func:`analysis.navigation.dotted_name`, ``container_name``, ``symbol_label``): the
module and qualname for dotted-module languages, the module-relative name for file-module ones
(TypeScript / JavaScript), the path for a File; never the path joined by dots."""

from __future__ import annotations

from analysis.navigation import container_name, dotted_name, symbol_label
from stores.contracts import Node

PY = Node("dj:django/db/models/base.Model.save(0)", "Method", "save", "Model.save", "dj", "django/db/models/base.py",
          10, 4, 20, 0, {"module": "django.db.models.base"})
TS = Node("z:src/app/routes/x/x.service.XService.fn(0)", "Method", "fn", "XService.fn", "z",
          "src/app/routes/x/x.service.ts", 3, 2, 5, 3)
TS_TOP = Node("z:src/v4/core/util.joinValues(2)", "Function", "joinValues", "joinValues", "z", "src/v4/core/util.ts",
              284, 0, 290, 1)
FILE = Node("z:src/v4/core/util.ts", "File", "src/v4/core/util.ts", "src/v4/core/util.ts", "z", "src/v4/core/util.ts",
            1, 0, 400, 0, {"module": "src/v4/core/util"})


def test_dotted_name_per_language():
    assert dotted_name(PY) == "django.db.models.base.Model.save"
    assert dotted_name(TS) == "XService.fn"
    assert dotted_name(TS_TOP) == "joinValues"
    assert dotted_name(FILE) == "src/v4/core/util.ts"  # was "src.v4.core.util.src/v4/core/util.ts"
    assert "src.app" not in dotted_name(TS) and "/" not in dotted_name(TS)


def test_container_and_label_say_the_file_only_where_the_name_does_not():
    assert container_name(PY) == "django.db.models.base.Model"
    assert container_name(TS) == "src/app/routes/x/x.service.ts · XService"
    assert container_name(TS_TOP) == "src/v4/core/util.ts"
    assert container_name(FILE) == "src/v4/core"
    assert symbol_label(PY) == "django.db.models.base.Model.save"
    assert symbol_label(TS_TOP) == "joinValues (src/v4/core/util.ts)"
    assert symbol_label(FILE) == "src/v4/core/util.ts"
