"""Project checks that run with the tests: lint (ruff, docstring rules included) and the import
layers of ARCHITECTURE.md (import-linter)."""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _tool(name: str) -> str:
    found = shutil.which(name, path=str(Path(sys.executable).parent)) or shutil.which(name)
    assert found, f"{name} is not installed: pip install -e '.[test]'"
    return found


def test_ruff_is_clean() -> None:
    result = subprocess.run([_tool("ruff"), "check", "analysis", "indexer", "stores", "lsp_server", "bench", "tests"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_import_layers_are_kept() -> None:
    result = subprocess.run([_tool("lint-imports")], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "9 kept, 0 broken" in result.stdout
