"""Shared test set-up: assertion rewriting for the helpers so failures show the diff."""

import pytest

pytest.register_assert_rewrite("tests.resolution_harness")
