"""Session 63, brk63: a newcomer on GoogleCloudPlatform/microservices-demo and
Denrox/nestjs-microservices-example, and session 62's additions attacked. Each class is one defect
found, with exact expectations and what must not be linked or kept. Every input is generated here.

- :class:`TestDotenvWarning`: nestjs-microservices-example's ``.env.example`` has a line python-dotenv
  cannot parse (``MAILER_FROM="Test mail" <someusername@denrox.com>``); every ``ripple index`` printed
  ``WARNING python-dotenv could not parse statement starting at line 21`` naming no file, and a
  newcomer could not tell which of the repository's files it meant.
"""

from __future__ import annotations

import logging

import pytest

from indexer.frameworks.env_config import env_values, load_env_files

# -- a .env line python-dotenv cannot parse --------------------------------------------------------------


class TestDotenvWarning:
    TEXT = 'API=http://api.local\nMAILER_FROM="Test mail" <someone@example.com>\nBASE=/v1\nGONE=/x\nGONE\n'

    def test_the_other_values_stay_and_the_line_is_named_with_its_file_at_info(
            self, caplog: pytest.LogCaptureFixture) -> None:
        caplog.set_level(logging.DEBUG)
        assert env_values(self.TEXT, "web/.env.example") == {"API": "http://api.local", "BASE": "/v1"}
        records = [(r.name, r.levelname, r.getMessage()) for r in caplog.records]
        assert records == [("indexer.frameworks.env_config", "INFO",
                            "web/.env.example line 2 ignored: python-dotenv cannot parse it")]

    def test_a_repository_index_logs_no_warning_for_it(self, tmp_path, caplog: pytest.LogCaptureFixture) -> None:
        (tmp_path / ".env.example").write_text(self.TEXT)
        caplog.set_level(logging.WARNING)
        assert load_env_files(tmp_path) == {"": {"API": "http://api.local", "BASE": "/v1"}}
        assert caplog.records == []
