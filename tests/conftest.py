"""Shared test set-up: assertion rewriting for the helpers so failures show the diff; the indexer's
state folders (``stores.factory.state_dir``: extraction caches, write journals) in a folder of the
test session instead of the user's ``~/.cache``."""

import os

import pytest

pytest.register_assert_rewrite("tests.resolution_harness")


@pytest.fixture(scope="session", autouse=True)
def _session_cache_home(tmp_path_factory):
    """``$XDG_CACHE_HOME`` of this session (inherited by the ripple processes tests start)."""
    before = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("xdg-cache"))
    yield
    if before is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = before
