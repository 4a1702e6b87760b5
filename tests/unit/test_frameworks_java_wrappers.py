"""The Java wrapper detectors (:mod:`indexer.languages.java.frameworks.spring_wrappers`, and the
``@WebFilter`` / ``@Provider`` parts of ``servlet`` and ``jaxrs``): the exact Wrapper facts and
per-route WrapperRefs of small sources, and what is not a wrapper."""

from __future__ import annotations

import textwrap

from indexer.languages.java import EXTRACTOR
from indexer.model import FileExtraction, Template, Wrapper, WrapperRef


def extract(code: str) -> FileExtraction:
    fx = EXTRACTOR.extract("src/Example.java", textwrap.dedent(code).lstrip("\n").encode("utf-8"))
    assert [e for e in fx.errors if "detector" in e or "internal" in e] == []
    return fx


def W(framework: str, kind: str, owner: str | None, line: int, col: int, owner_ref: str | None = None,
      path: str | None = None) -> Wrapper:
    return Wrapper(framework, kind, owner, line, col, owner_ref, None, Template.of(path) if path else Template())


FILTERS = """
@Component
public class JwtFilter extends OncePerRequestFilter {
    protected void doFilterInternal(HttpServletRequest req, HttpServletResponse res, FilterChain chain) {}
}

@Service
class Audit implements jakarta.servlet.Filter {
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) {}
}

@Component
class Indirect extends BaseAuthFilter {
    protected void doFilterInternal(HttpServletRequest req, HttpServletResponse res, FilterChain chain) {}
}

@Component
class NotAFilter {
    public void run() {}
}

class NotABean extends OncePerRequestFilter {
    protected void doFilterInternal(HttpServletRequest req, HttpServletResponse res, FilterChain chain) {}
}
"""


def test_filter_beans_by_type_or_filter_method_not_plain_beans_or_plain_classes() -> None:
    assert extract(FILTERS).wrappers == [
        W("spring", "filter", "JwtFilter", 1, 1),
        W("spring", "filter", "Audit", 6, 1),
        W("spring", "filter", "Indirect", 11, 1),
    ]


CONFIG = """
@Configuration
public class SecurityConfig {
    private final JwtFilter jwtFilter;

    @Bean
    public SecurityFilterChain chain(HttpSecurity http, RateFilter rate) throws Exception {
        http.csrf(c -> c.disable())
            .addFilterBefore(jwtFilter, UsernamePasswordAuthenticationFilter.class)
            .addFilterAfter(new LogFilter(props), JwtFilter.class);
        http.addFilterAt(rate, BasicAuthenticationFilter.class);
        http.addFilter(tokenFilter());
        list.addFilter("not security", x);
        return http.build();
    }

    @Bean
    public CorsFilter corsFilter() {
        return new CorsFilter(source());
    }

    @Bean
    public DataSource dataSource() {
        return new HikariDataSource();
    }

    @Bean
    public FilterRegistrationBean<TraceFilter> trace() {
        FilterRegistrationBean<TraceFilter> reg = new FilterRegistrationBean<>(new TraceFilter());
        reg.addUrlPatterns("/api/*", "/admin/*");
        return reg;
    }

    @Bean
    public FilterRegistrationBean<AuditFilter> audit(AuditFilter auditFilter) {
        FilterRegistrationBean<AuditFilter> reg = new FilterRegistrationBean<>();
        reg.setFilter(auditFilter);
        reg.setUrlPatterns(List.of("/orders/*"));
        return reg;
    }

    @Bean
    public FilterRegistrationBean<MetricsFilter> metrics() {
        return new FilterRegistrationBean<>();
    }
}
"""


def test_security_chain_bean_filters_and_registration_beans() -> None:
    fx = extract(CONFIG)
    assert fx.wrappers == [
        W("spring", "filter", None, 16, 5, owner_ref="new CorsFilter()"),  # @Bean returning a filter
        W("spring", "filter", None, 26, 5, owner_ref="new TraceFilter()", path="/api/*"),
        W("spring", "filter", None, 26, 5, owner_ref="new TraceFilter()", path="/admin/*"),
        W("spring", "filter", None, 33, 5, owner_ref="auditFilter", path="/orders/*"),
        W("spring", "filter", None, 41, 5, owner_ref="MetricsFilter"),  # from the type argument; no pattern
        W("spring", "filter", None, 8, 13, owner_ref="jwtFilter"),
        W("spring", "filter", None, 9, 13, owner_ref="new LogFilter()"),
        W("spring", "filter", None, 10, 13, owner_ref="rate"),
        W("spring", "filter", None, 11, 13, owner_ref="tokenFilter()"),
    ]  # not dataSource (no filter), not list.addFilter("...", x) (two arguments: not HttpSecurity.addFilter)


INTERCEPTORS = """
@Configuration
public class WebConfig implements WebMvcConfigurer {
    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(new TimingInterceptor()).addPathPatterns("/api/**", "/v2/**").order(1);
        registry.addInterceptor(authInterceptor).excludePathPatterns("/login");
        registry.addInterceptor(localeInterceptor()).order(2).addPathPatterns(List.of("/shop/**"));
    }
}
"""


def test_interceptors_with_their_path_patterns() -> None:
    assert extract(INTERCEPTORS).wrappers == [
        W("spring", "interceptor", None, 5, 17, owner_ref="new TimingInterceptor()", path="/api/**"),
        W("spring", "interceptor", None, 5, 17, owner_ref="new TimingInterceptor()", path="/v2/**"),
        W("spring", "interceptor", None, 6, 17, owner_ref="authInterceptor"),
        W("spring", "interceptor", None, 7, 17, owner_ref="localeInterceptor()", path="/shop/**"),
    ]


ADVICE = """
@RestControllerAdvice
public class GlobalErrors {
    @ExceptionHandler(IllegalStateException.class)
    public ResponseEntity<String> onState(IllegalStateException e) { return null; }

    @ModelAttribute("user")
    public String user() { return "u"; }

    public void plain() {}
}

@RestController
@RequestMapping("/owners")
class OwnerController {
    @GetMapping
    public List<Owner> list() { return null; }

    @PostMapping
    public Owner create(@ModelAttribute Owner owner) { return owner; }

    @ExceptionHandler
    public String onMissing(MissingException e) { return "x"; }

    @InitBinder
    public void binder(WebDataBinder b) {}
}

class Helper {
    @ExceptionHandler
    public String notInAController(Exception e) { return "x"; }
}
"""


def test_controller_advice_is_app_wide_and_a_controllers_own_handlers_wrap_its_routes() -> None:
    fx = extract(ADVICE)
    assert fx.wrappers == [
        W("spring", "error_handler", "GlobalErrors.onState", 3, 5),
        W("spring", "hook", "GlobalErrors.user", 6, 5),
    ]  # not plain(), not Helper's handler (neither advice nor controller)
    assert [(r.handler, r.wrappers) for r in fx.routes] == [
        ("OwnerController.list", [WrapperRef("error_handler", "onMissing"), WrapperRef("hook", "binder")]),
        ("OwnerController.create", [WrapperRef("error_handler", "onMissing"), WrapperRef("hook", "binder")]),
    ]  # @ModelAttribute on a parameter is no hook


SERVLET_AND_JAXRS = """
@WebFilter(urlPatterns = {"/api/*", "/admin/*"})
public class ApiFilter implements Filter {
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) {}
}

@WebFilter(filterName = "all", servletNames = "dispatcher")
class AllFilter implements Filter {
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain) {}
}

@Provider
@Priority(Priorities.AUTHENTICATION)
class TokenFilter implements ContainerRequestFilter, ContainerResponseFilter {
    public void filter(ContainerRequestContext req) {}
}

@Provider
class JsonProvider implements MessageBodyReader<Object> {
}

@Provider
class NotFoundMapper implements ExceptionMapper<NotFoundException>, WriterInterceptor {
    public Response toResponse(NotFoundException e) { return null; }
}

@Component
class TraceWebFilter implements WebFilter {
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) { return null; }
}

@Service
class Sorter {
    public List<String> filter(List<String> in) { return in; }
}
"""


def test_web_filters_jaxrs_providers_and_webflux_filters() -> None:
    fx = extract(SERVLET_AND_JAXRS)
    assert sorted(fx.wrappers, key=lambda w: w.line) == [
        W("servlet", "filter", "ApiFilter", 1, 1, path="/api/*"),
        W("servlet", "filter", "ApiFilter", 1, 1, path="/admin/*"),
        W("servlet", "filter", "AllFilter", 6, 1),
        W("jaxrs", "filter", "TokenFilter", 11, 1),
        W("jaxrs", "error_handler", "NotFoundMapper.toResponse", 21, 1),
        W("spring", "filter", "TraceWebFilter", 26, 1),
    ]  # not JsonProvider (a provider that is no filter), not NotFoundMapper's missing aroundWriteTo, not
    # Sorter (a bean whose method is named filter but is no filter type)
