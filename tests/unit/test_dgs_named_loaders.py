"""DGS data loaders fetched by name (acc62, indexer/frameworks/named_loaders.py): ``getDataLoader("reviews")``
reaches the batch method of the ``@DgsDataLoader(name = "reviews")`` class, a constant name too, a loader
without a name by its simple class name. Exact edges, and what must not be linked: a name no loader
provides, a loader's other method, a ``getDataLoader`` of an unknown variable."""

from indexer.languages import extractor_for_path
from indexer.model import NamedLoader, Template
from tests.resolution_harness import edges, resolve_fixture

LOADERS = """package demo.loaders;

import com.netflix.graphql.dgs.DgsDataLoader;
import org.dataloader.BatchLoader;
import org.dataloader.MappedBatchLoader;

@DgsDataLoader(name = "reviews")
public class ReviewsDataLoader implements BatchLoader<Integer, String> {
    public Object load(java.util.List<Integer> keys) { return keys; }
    public Object other(java.util.List<Integer> keys) { return keys; }
}

@DgsDataLoader(name = Names.AUTHORS)
class AuthorsDataLoader implements MappedBatchLoader<Integer, String> {
    public Object load(java.util.Set<Integer> keys) { return keys; }
}

@DgsDataLoader
class TagsLoader implements BatchLoader<Integer, String> {
    public Object load(java.util.List<Integer> keys) { return keys; }
}

class Names {
    static final String AUTHORS = "authors";
}
"""

FIXTURE = f"""
// --- path: src/main/java/demo/loaders/Loaders.java ---
{LOADERS}
// --- path: src/main/java/demo/fetchers/ShowsDataFetcher.java ---
package demo.fetchers;

import com.netflix.graphql.dgs.DgsData;
import com.netflix.graphql.dgs.DgsDataFetchingEnvironment;
import demo.loaders.Names;

public class ShowsDataFetcher {{
    @DgsData(parentType = "Show", field = "reviews")
    public Object reviews(DgsDataFetchingEnvironment dfe) {{
        return dfe.getDataLoader("reviews").load(1);
    }}
    @DgsData(parentType = "Show", field = "authors")
    public Object authors(DgsDataFetchingEnvironment dfe) {{
        return dfe.getDataLoader(Names.AUTHORS).load(1);
    }}
    @DgsData(parentType = "Show", field = "tags")
    public Object tags(DgsDataFetchingEnvironment dfe) {{
        return dfe.getDataLoader("TagsLoader").load(1);
    }}
    public Object missing(DgsDataFetchingEnvironment dfe, String which) {{
        dfe.getDataLoader("nobody").load(1);
        return dfe.getDataLoader(which).load(1);
    }}
}}
"""


def test_loader_facts_exactly():
    ex = extractor_for_path("Loaders.java").extract("Loaders.java", LOADERS.encode())
    assert ex.named_loaders == [
        NamedLoader("provides", Template.of("reviews"), "ReviewsDataLoader", 7, 1),
        NamedLoader("provides", Template((("ref", "Names.AUTHORS"),)), "AuthorsDataLoader", 13, 1),
        NamedLoader("provides", Template.of("TagsLoader"), "TagsLoader", 18, 1),
    ]


def test_a_loader_fetched_by_name_reaches_its_batch_method():
    # not: `other` of the loader, the name nobody provides, `which` (a parameter: no known name)
    calls = [e for e in edges(resolve_fixture(FIXTURE)) if "/loaders/" in e.split(" -> ")[1]]
    assert calls == [
        "src/main/java/demo/fetchers/ShowsDataFetcher.ShowsDataFetcher.authors(DgsDataFetchingEnvironment)"
        " -> src/main/java/demo/loaders/Loaders.AuthorsDataLoader.load(Set) [inferred]",
        "src/main/java/demo/fetchers/ShowsDataFetcher.ShowsDataFetcher.reviews(DgsDataFetchingEnvironment)"
        " -> src/main/java/demo/loaders/Loaders.ReviewsDataLoader.load(List) [inferred]",
        "src/main/java/demo/fetchers/ShowsDataFetcher.ShowsDataFetcher.tags(DgsDataFetchingEnvironment)"
        " -> src/main/java/demo/loaders/Loaders.TagsLoader.load(List) [inferred]",
    ]
