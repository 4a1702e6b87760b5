"""A URL built with a conditional expression (``c ? a : b``) is one HTTP client call per branch,
never one made-up URL with a hole where the conditional is (``/articles{}``); a URL with none is one
call as before; at most :data:`MAX_ALTERNATIVES` per call. Exact facts, positions included."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from indexer.languages.ecmascript.frameworks.common import MAX_ALTERNATIVES
from indexer.model import HttpCall, Template

SOURCE = """\
import { HttpClient } from '@angular/common/http';
export class ArticlesService {
  constructor(private readonly http: HttpClient) {}
  query(config: Config) {
    return this.http.get('/articles' + (config.type === 'feed' ? '/feed' : ''), {});
  }
  byKind(kind: string, admin: boolean) {
    const url = admin ? `/admin/${kind}` : '/users';
    return this.http.post(url + (kind ? '/one' : '/all'), {});
  }
  plain(id: string) {
    return this.http.delete(`/articles/${id}`);
  }
  many(a: boolean, b: boolean, c: boolean) {
    return fetch((a ? '/a' : '/b') + (b ? '/c' : '/d') + (c ? '/e' : '/f'));
  }
  same(a: boolean) {
    return fetch(a ? '/same' : '/same');
  }
}
"""


def test_a_conditional_url_is_one_call_per_branch() -> None:
    r = extractor_for_path("src/articles.service.ts").extract("src/articles.service.ts", SOURCE.encode())
    assert r.http_calls == [
        HttpCall("angular", "GET", Template.of("/articles/feed"), "ArticlesService.query", 5, 11),
        HttpCall("angular", "GET", Template.of("/articles"), "ArticlesService.query", 5, 11),
        # a local holding a conditional, and a conditional after it: every combination
        HttpCall("angular", "POST", Template((("lit", "/admin/"), ("ref", "kind"), ("lit", "/one"))),
                 "ArticlesService.byKind", 9, 11),
        HttpCall("angular", "POST", Template.of("/users/one"), "ArticlesService.byKind", 9, 11),
        HttpCall("angular", "POST", Template((("lit", "/admin/"), ("ref", "kind"), ("lit", "/all"))),
                 "ArticlesService.byKind", 9, 11),
        HttpCall("angular", "POST", Template.of("/users/all"), "ArticlesService.byKind", 9, 11),
        HttpCall("angular", "DELETE", Template((("lit", "/articles/"), ("ref", "id"))), "ArticlesService.plain", 12, 11),
        # three conditionals: the first MAX_ALTERNATIVES (4) of the eight
        HttpCall("fetch", "GET", Template.of("/a/c/e"), "ArticlesService.many", 15, 11),
        HttpCall("fetch", "GET", Template.of("/b/c/e"), "ArticlesService.many", 15, 11),
        HttpCall("fetch", "GET", Template.of("/a/d/e"), "ArticlesService.many", 15, 11),
        HttpCall("fetch", "GET", Template.of("/a/c/f"), "ArticlesService.many", 15, 11),
        HttpCall("fetch", "GET", Template.of("/same"), "ArticlesService.same", 18, 11),  # one, not two
    ]  # fmt: skip
    assert MAX_ALTERNATIVES == 4
    # no made-up URL with a hole where the conditional was
    assert not any(kind == "hole" for c in r.http_calls for kind, _ in c.url.parts)
