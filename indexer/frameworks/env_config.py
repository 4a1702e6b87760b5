"""Environment variables a front end or Node service reads at build time, from its ``.env`` files.

``import.meta.env.VITE_API_URL`` (Vite), ``process.env.REACT_APP_API`` (Create React App, Node) name a
value set in ``.env`` files beside the package's ``package.json``. Like Spring's ``application.yml``
(:mod:`indexer.frameworks.spring_config`) they are configuration files read by the linker, not
source: :func:`load_env_files` reads them once per run, per *package folder*: a folder holding a
``package.json``, and the repository root. A variable is looked up in the package folder innermost
around the file that names it (:func:`env_for`), and only there: an ``.env`` of a parent folder, of
another package or outside the repository is never read. Files are read in :data:`ENV_FILES` order
and the first that sets a variable wins (a development value before the example's), which is the
value a developer's build sees. Parsing is python-dotenv's (its parser, as ``dotenv_values`` uses it), without
``${VAR}`` interpolation, which would read the indexing machine's own environment. Only URL bases and
paths are kept, without credentials or query strings (:func:`url_base`), and plain names given to a
variable naming a messaging destination (``KAFKA_TOPIC=orders``, :func:`config_value`): every other
value (a token, a key) is never read into the index.
"""

from __future__ import annotations

import io
import logging
import os
import re
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit

from dotenv.parser import parse_stream

from indexer.frameworks.spring_config import SKIP_DIRS
from indexer.fsguard import read_inside

__all__ = ["DESTINATION_WORDS", "ENV_FILES", "ENV_READ", "ENV_REF", "config_value", "env_for", "env_values",
           "load_env_files", "url_base"]

log = logging.getLogger(__name__)

ENV_FILES = (".env.development.local", ".env.local", ".env.development", ".env", ".env.example")
"""The files read in each package folder, the first setting a variable winning (Vite's and Create React
App's development build read the first four in this precedence; ``.env.example`` documents the rest)."""
ENV_REF = re.compile(r"^(?:process\.env|import\.meta\.env)\.([A-Za-z_][A-Za-z0-9_]*)$")
"""A template ``ref`` naming an environment variable; group 1 is its name."""
ENV_READ = re.compile(r"^(?:(?:java\.lang\.)?System\.getenv|(?:System\.)?Environment\.GetEnvironmentVariable)\(")
"""The start of an expression reading one environment variable of the running process: Java and Kotlin
``System.getenv("X")``, C# ``Environment.GetEnvironmentVariable("X")``. The indexer never reads the
variable; the value is the default the code falls back to when it is unset (Kotlin
``System.getenv("KAFKA_TOPIC") ?: "orders"``, C# ``... ?? "orders"``), the value a deployment that sets
nothing sees. Go's ``os.Getenv`` is read through a helper function instead (its own rule)."""
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
DESTINATION_WORDS = re.compile(r"topic|queue|exchange|routing_?key|subscription|channel|subject|stream",
                               re.IGNORECASE)
"""A configuration key or variable whose last part holds one of these words names a messaging
destination (``KAFKA_TOPIC``, ``EventBus:QueueName``): a plain name given to it is no secret and is kept."""
SECRET_WORDS = re.compile(r"pass|secret|token|credential|pwd|apikey|api_key|private|cert|salt|username|login",
                          re.IGNORECASE)
"""A key whose last part holds one of these words is never kept as a name, even under a destination
section (``Kafka:Topics:Password``)."""
_NAME_VALUE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._\-/:]{0,199}$")
MAX_FILE_BYTES = 200_000
MAX_PACKAGES = 2_000
"""At most this many package folders are read per repository (a repository of vendored packages)."""


def load_env_files(repo_root: str | Path) -> dict[str, dict[str, str]]:
    """``{package_dir: {NAME: value}}`` for the repository at ``repo_root``: ``package_dir`` is
    repository-relative POSIX (``""``: the root), one entry per package folder (a folder holding a
    ``package.json``: its variables, possibly none, so that it hides the root's) and the root when its
    files set any variable. Variables without a value
    (``API_URL=`` or ``API_URL``) and names no code can spell are left out. Build output and dependency folders are skipped
    (``spring_config.SKIP_DIRS``); a file that is a link out of the root, not regular or larger than
    :data:`MAX_FILE_BYTES` is skipped with a warning. Never raises."""
    root = Path(repo_root)
    real_root = os.path.realpath(root)
    out: dict[str, dict[str, str]] = {}
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        here = Path(folder)
        if here != root and "package.json" not in files:
            continue
        seen += 1
        if seen > MAX_PACKAGES:
            break
        values: dict[str, str] = {}
        for name in ENV_FILES:
            if name in files:
                for key, value in _read(here / name, real_root).items():
                    values.setdefault(key, value)
        if values or here != root:  # a package without .env shadows the root's
            out[here.relative_to(root).as_posix().removeprefix(".")] = values
    return out


def env_for(envs: Mapping[str, Mapping[str, str]], path: str) -> Mapping[str, str]:
    """The variables a file at repository-relative ``path`` sees: those of the innermost package
    folder of ``envs`` (:func:`load_env_files`) holding it, else none."""
    best = max((d for d in envs if not d or path.startswith(d + "/")), key=len, default=None)
    return envs[best] if best is not None else {}


def _read(path: Path, root: str) -> dict[str, str]:
    data = read_inside(path, MAX_FILE_BYTES, root)
    if data is None:
        return {}
    parsed = env_values(data.decode("utf-8", errors="replace"), str(path))
    if parsed is None:
        log.warning("%s ignored: python-dotenv cannot parse it", path)
        return {}
    out = {}
    for k, v in parsed.items():
        kept = config_value(k, v) if _NAME.match(k) else None
        if kept is not None:
            out[k] = kept
    return out


def config_value(key: str, value: str) -> str | None:
    """What of a configuration ``value`` (an ``.env`` variable's, an ``appsettings.json`` key's) under
    ``key`` may be kept: its URL base (:func:`url_base`), else the value itself when a part of ``key``
    (split at ``:`` / ``.``: ``KafkaTopics:Customer``, ``KAFKA_TOPIC``, an array's ``Queues:0``) names a messaging
    destination (:data:`DESTINATION_WORDS`), its last part names no secret (:data:`SECRET_WORDS`) and the value
    is a plain name (letters, digits, ``._-/:``, at most 200 characters); ``None`` otherwise: never stored."""
    base = url_base(value)
    if base is not None:
        return base
    v = value.strip()
    named = [p for p in re.split(r"[:.]", key) if p and not p.isdigit()]  # Queues:0, an array's item: Queues
    if named and any(DESTINATION_WORDS.search(p) for p in named) and not SECRET_WORDS.search(named[-1]) \
            and _NAME_VALUE.match(v):
        return v
    return None


def env_values(text: str, where: str | None = None) -> dict[str, str] | None:
    """The variables an ``.env`` file's ``text`` sets, ``{NAME: value}``, parsed by python-dotenv's
    parser (``dotenv.parser.parse_stream``, what ``dotenv_values`` reads with) without ``${VAR}``
    interpolation (which would read the indexing machine's own environment); a variable with no value
    (``API_URL`` alone) is left out, and so is a statement the parser cannot read: the file's other
    variables stay, and the statement is logged at INFO (``ripple -v``) as ``<where> line N ignored``
    (``where`` names the file; python-dotenv's own warning named no file and was printed on every
    run). ``None`` when the parser fails on the text as a whole: a malformed file costs its values,
    never the run."""
    out: dict[str, str] = {}
    try:
        for binding in parse_stream(io.StringIO(text)):
            if binding.error:
                log.info("%s line %d ignored: python-dotenv cannot parse it", where or ".env text",
                         binding.original.line)
            elif binding.key is not None:
                if binding.value is None:
                    out.pop(binding.key, None)  # a later `NAME` alone unsets it, as dotenv_values reads it
                else:
                    out[binding.key] = binding.value
    except Exception:  # noqa: BLE001 - see above
        return None
    return out


def url_base(value: str) -> str | None:
    """What of an ``.env`` value may be kept as a URL piece: ``scheme://host[:port][/path]`` of an
    absolute URL, or ``/path`` of a rooted one, with credentials (``user:password@``), query string and
    fragment dropped; ``None`` for anything else (a token, a key, a password: never stored, so the
    variable stays an unknown piece of the URL). ``.env`` files hold secrets; only what a client's
    URL needs of them reaches the index."""
    v = value.strip()
    if v.startswith("/") and not v.startswith("//"):
        return v.split("?", 1)[0].split("#", 1)[0] or None
    try:
        parts = urlsplit(v)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https", "ws", "wss") or not parts.hostname:
        return None
    host = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
    try:
        port = f":{parts.port}" if parts.port is not None else ""
    except ValueError:
        return None
    return f"{parts.scheme.lower()}://{host}{port}{parts.path}"
