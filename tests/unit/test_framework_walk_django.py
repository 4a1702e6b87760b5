"""brk44: seeded random edits of a two-app Django project that the walk of test_framework_walk.py
does not make: a model renamed, a field moved between models, a urls include deleted, two files'
contents swapped, the file a route names deleted, a second model of the same name in another app
(and its table named like the first's). The watcher's and one-shot runs' index equals a full
index at every step (Workspace checks it). RIPPLE_FUZZ_STEPS sets the steps per seed."""

import os
import random
from pathlib import Path

import pytest

from tests.unit.test_incremental import Workspace

D = "from django.db import models\n\n\n"
NOTE = D + "class Note(models.Model):\n    title = models.CharField(max_length=9)\n\n\nclass Memo(models.Model):\n    body = models.TextField()\n"
MOVED = D + "class Note(models.Model):\n    pass\n\n\nclass Memo(models.Model):\n    body = models.TextField()\n    title = models.CharField(max_length=9)\n"
RENAMED = D + "class Jot(models.Model):\n    title = models.CharField(max_length=9)\n\n\nclass Memo(models.Model):\n    body = models.TextField()\n"
TWIN = D + "class Note(models.Model):\n    title = models.CharField(max_length=9)\n\n    class Meta:\n        db_table = 'app_note'\n"
TWIN2 = D + "class Note(models.Model):\n    words = models.IntegerField()\n"
VIEWS = "from app.models import Note\n\n\ndef show(request):\n    return Note.objects.filter(title='a')\n"
VIEWS_B = "from blog.models import Note\n\n\ndef show(request):\n    return Note.objects.filter(words=1)\n"
VIEWS_MEMO = "from app.models import Memo\n\n\ndef show(request):\n    return Memo.objects.filter(title='a')\n"
URLS = "from django.urls import path\nfrom app import views\n\nurlpatterns = [path('n/', views.show)]\n"
URLS_B = "from django.urls import path\nfrom blog import views\n\nurlpatterns = [path('b/', views.show)]\n"
ROOT = ("from django.urls import path, include\n\nurlpatterns = [path('app/', include('app.urls')), "
        "path('blog/', include('blog.urls'))]\n")
ROOT_ONE = "from django.urls import path, include\n\nurlpatterns = [path('app/', include('app.urls'))]\n"
ROOT_DIRECT = "from django.urls import path\nfrom blog.views import show\n\nurlpatterns = [path('s/', show)]\n"
SETTINGS = "ROOT_URLCONF = 'proj.urls'\nINSTALLED_APPS = ['app', 'blog']\n"

V: dict[str, list[str | None]] = {
    "proj/__init__.py": [""],
    "proj/settings.py": [SETTINGS],
    "proj/urls.py": [ROOT, ROOT_ONE, ROOT_DIRECT, None],
    "app/__init__.py": [""],
    "app/models.py": [NOTE, MOVED, RENAMED, TWIN, None],
    "app/views.py": [VIEWS, VIEWS_MEMO, VIEWS_B, None],
    "app/urls.py": [URLS, URLS_B, None],
    "blog/__init__.py": [""],
    "blog/models.py": [None, TWIN, TWIN2, NOTE],
    "blog/views.py": [None, VIEWS_B, VIEWS],
    "blog/urls.py": [None, URLS_B, URLS],
}
PAIRS = [("app/models.py", "blog/models.py"), ("app/views.py", "blog/views.py"), ("app/urls.py", "blog/urls.py")]


@pytest.mark.parametrize("seed", [2, 5])
def test_random_django_edits_keep_the_index_equal_to_a_full_index(tmp_path: Path, seed: int) -> None:
    steps = int(os.environ.get("RIPPLE_FUZZ_STEPS", "10"))
    rng = random.Random(4400 + seed)
    cur = {rel: rng.choice(versions) for rel, versions in V.items()}
    w = Workspace(tmp_path, {k: v for k, v in cur.items() if v is not None})
    try:
        for _ in range(steps):
            if rng.random() < 0.3:  # swap two files' contents
                a, b = rng.choice(PAIRS)
                edit = {a: cur[b], b: cur[a]}
            else:
                edit = {rel: rng.choice(V[rel]) for rel in rng.sample(sorted(V), rng.choice([1, 1, 2, 3]))}
            cur.update(edit)
            w.edit(edit)
    finally:
        w.close()
