"""Spring Security's user lookup runs for every authenticated request: a bean class implementing
``UserDetailsService`` (its ``loadUserByUsername``) or a ``@Bean`` method returning one (macrozheng/mall's
``MallSecurityConfig.userDetailsService``: ``return username -> adminService.loadUserByUsername(username)``)
wraps the application's endpoints (newcomer round 50: ``impact UmsAdminService.getAdminByUsername``
stopped at the bean method)."""

from __future__ import annotations

import textwrap

import pytest

from indexer.languages.java import EXTRACTOR
from indexer.model import Template, Wrapper
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore

LOOKUPS = """
@Service
public class AccountDetails implements UserDetailsService {
    public UserDetails loadUserByUsername(String name) { return null; }
}

@Configuration
class SecurityConfig {
    @Bean
    public UserDetailsService userDetailsService() {
        return username -> null;
    }

    @Bean
    public PasswordEncoder passwordEncoder() { return null; }
}

class NotABean implements UserDetailsService {
    public UserDetails loadUserByUsername(String name) { return null; }
}

@Service
class Unrelated {
    public UserDetails loadUserByUsername(String name) { return null; }
}
"""


def test_user_lookup_beans_are_app_wide_filters_and_nothing_else() -> None:
    fx = EXTRACTOR.extract("src/Example.java", textwrap.dedent(LOOKUPS).lstrip("\n").encode("utf-8"))
    assert fx.wrappers == [
        Wrapper("spring", "filter", "AccountDetails.loadUserByUsername", 1, 1, None, None, Template()),
        Wrapper("spring", "filter", "SecurityConfig.userDetailsService", 8, 5, None, None, Template()),
    ]


FILES = {
    "src/main/java/shop/AdminService.java": (
        "package shop;\n\npublic interface AdminService {\n    Object getAdmin(String name);\n}\n"),
    "src/main/java/shop/SecurityConfig.java": (
        "package shop;\n\n"
        "import org.springframework.context.annotation.Bean;\n"
        "import org.springframework.context.annotation.Configuration;\n"
        "import org.springframework.security.core.userdetails.UserDetailsService;\n\n"
        "@Configuration\npublic class SecurityConfig {\n"
        "    private AdminService adminService;\n\n"
        "    @Bean\n    public UserDetailsService userDetailsService() {\n"
        "        return username -> adminService.getAdmin(username);\n    }\n}\n"),
    "src/main/java/shop/OrderController.java": (
        "package shop;\n\n"
        "import org.springframework.web.bind.annotation.*;\n\n"
        "@RestController\n@RequestMapping(\"/orders\")\npublic class OrderController {\n"
        "    @GetMapping(\"/{id}\")\n    public String show(@PathVariable long id) {\n        return \"\";\n    }\n}\n"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    root = tmp_path_factory.mktemp("uds") / "shop"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    s = EmbeddedStore(root.parent / "x.db")
    index_repository(root, s, s, IndexOptions(repo="shop", jobs=1))
    yield s
    s.close()


def test_the_bean_method_wraps_the_endpoints(store):
    nodes = {n.qualname: n for n in store.find_symbols(["userDetailsService"])["userDetailsService"]}
    bean = nodes["SecurityConfig.userDetailsService"].id
    wraps = store.outgoing([bean], ["WRAPS"]).get(bean, [])
    assert [(e.dst, e.props.get("kind"), e.props.get("scope")) for e in wraps] == [
        ("endpoint:GET /orders/{}", "filter", "app")]
    # the service the lookup calls is reached from the endpoint through the wrapper: nothing else wraps it
    getter = store.find_symbols(["getAdmin"])["getAdmin"][0].id
    assert store.outgoing([getter], ["WRAPS"]).get(getter, []) == []
