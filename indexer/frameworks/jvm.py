"""What the JVM languages' framework detectors share (Java and Kotlin read the same Spring, Kafka
and Retrofit annotations from different syntax trees): the annotation vocabularies, the rule that
makes a class a controller, and the path composition Spring applies. Each language folder reads its
own tree into names, argument templates and positions, then applies these rules, so a rule is written
once for both languages. Not a detector (no ``detect``): imported by detectors and extractors.
"""

from __future__ import annotations

import re

from indexer.model import Template

__all__ = [
    "CTOR_INJECT",
    "FIELD_INJECT",
    "GENERATED_API",
    "HTTP_METHODS",
    "KAFKA_CLIENTS_PACKAGE",
    "KAFKA_STREAMS_PACKAGE",
    "URI_BUILDERS",
    "URI_BUILDER_KEEPS",
    "URI_BUILDER_ROOTS",
    "KAFKA_STREAMS_SINKS",
    "KAFKA_STREAMS_SOURCES",
    "KAFKA_STREAMS_TYPES",
    "KAFKA_CONSUMERS",
    "KAFKA_LISTENERS",
    "KAFKA_PRODUCERS",
    "KAFKA_TEMPLATES",
    "MAPPINGS",
    "RETROFIT_VERBS",
    "STEREOTYPES",
    "VERB_MAPPINGS",
    "annotation_name",
    "is_controller",
    "join_path",
    "rooted",
]

HTTP_METHODS = frozenset({"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "TRACE"})
FIELD_INJECT = frozenset({"Autowired", "Inject", "Resource"})
"""Annotations (last dotted segment) that mark an injected field or setter."""
CTOR_INJECT = frozenset({"Autowired", "Inject"})
"""Annotations that mark an injected constructor."""
STEREOTYPES = frozenset(
    {"Component", "Service", "Repository", "Controller", "RestController", "Configuration", "Named", "Singleton"}
)
"""Class annotations that make the class a container-managed bean (single-constructor injection)."""
VERB_MAPPINGS = {
    "GetMapping": "GET",
    "PostMapping": "POST",
    "PutMapping": "PUT",
    "DeleteMapping": "DELETE",
    "PatchMapping": "PATCH",
}
"""Spring's verb-specific mapping annotations and their HTTP method."""
MAPPINGS = frozenset({"RequestMapping", *VERB_MAPPINGS})
"""Every Spring request-mapping annotation."""
KAFKA_LISTENERS = frozenset({"KafkaListener"})
"""Annotations of a Spring Kafka consumer method."""
KAFKA_TEMPLATES = frozenset({"KafkaTemplate", "KafkaOperations", "RoutingKafkaTemplate", "ReplyingKafkaTemplate",
                             "ReactiveKafkaProducerTemplate"})
"""Declared types of a Spring Kafka producer (``send(topic, ...)``)."""
KAFKA_CONSUMERS = frozenset({"KafkaConsumer", "Consumer", "MockConsumer"})
"""Types of an Apache Kafka client consumer (``org.apache.kafka.clients.consumer``: ``subscribe``, ``poll``)."""
KAFKA_PRODUCERS = frozenset({"KafkaProducer", "Producer", "MockProducer"})
"""Types of an Apache Kafka client producer (``send(ProducerRecord(topic, ...))``)."""
KAFKA_CLIENTS_PACKAGE = "org.apache.kafka.clients"
"""The package of the Apache Kafka clients; a file importing nothing from it uses none of them."""
URI_BUILDERS = frozenset({"UriComponentsBuilder", "ServletUriComponentsBuilder"})
"""Spring's URI builder classes: a chain starting at one of their factories builds a request's URL."""
URI_BUILDER_ROOTS = frozenset({"fromHttpUrl", "fromUriString", "fromPath"})
"""The factories of :data:`URI_BUILDERS` taking the URL (or path) the chain starts from."""
URI_BUILDER_KEEPS = frozenset({"queryParam", "queryParams", "queryParamIfPresent", "query", "fragment", "encode",
                               "build", "buildAndExpand", "expand", "toUriString", "toUri", "toString", "uriVariables"})
"""The calls of a ``UriComponentsBuilder`` chain that leave its path as it is (Java and Kotlin readers)."""
KAFKA_STREAMS_PACKAGE = "org.apache.kafka.streams"
"""The package of Kafka Streams; a file importing nothing from it builds no topology."""
KAFKA_STREAMS_SOURCES = frozenset({"stream", "table", "globalTable"})
"""A ``StreamsBuilder``'s methods reading a topic (the topology's builder consumes it)."""
KAFKA_STREAMS_SINKS = frozenset({"to", "through"})
"""A stream's methods writing a topic (the topology's builder produces it)."""
KAFKA_STREAMS_TYPES = frozenset({"KStream", "KTable", "KGroupedStream", "KGroupedTable"})
"""The Kafka Streams types whose ``to`` / ``through`` write a topic."""
RETROFIT_VERBS = frozenset({"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"})
"""Retrofit's request annotations (``@GET("users/{id}")``), named like the method they send;
``@HTTP(method = "X", path = "...")`` is read apart."""

GENERATED_API = re.compile(r"^[A-Z]\w*Api(?:Delegate)?$")
"""The simple name of an openapi-generator interface (``PetsApi``) or delegate (``PetsApiDelegate``),
as its ``spring`` (Java) and ``kotlin-spring`` generators name them."""

_merge = Template.merged


def annotation_name(text: str) -> str:
    """``GetMapping("/x")`` -> ``GetMapping``; ``org.x.Autowired`` -> ``Autowired``."""
    return text.split("(", 1)[0].strip().rsplit(".", 1)[-1]


def is_controller(annotation_names: list[str]) -> bool:
    """Whether a class with these annotations is a Spring controller: a stereotype whose name ends in
    ``Controller`` (``@RestController``, ``@Controller``) or a class-level ``@RequestMapping``."""
    return any(a.endswith("Controller") or a == "RequestMapping" for a in annotation_names)


def join_path(a: Template, b: Template) -> Template:
    """``a`` followed by ``b`` with exactly one ``/`` between them where both meeting ends are literal
    (``/owners`` + ``{id}`` -> ``/owners/{id}``; ``/api/`` + ``/x`` -> ``/api/x``), as Spring combines a
    class-level and a method-level pattern. A literal ``b`` after a ref or hole gets a leading ``/``
    unless it has one (or starts a query ``?``); a ref or hole ``b`` is appended as it is."""
    if not a.parts:
        return b
    if not b.parts:
        return a
    (ak, at), (bk, bt) = a.parts[-1], b.parts[0]
    if bk != "lit":
        return _merge(list(a.parts + b.parts))
    head, tail = list(a.parts), list(b.parts)
    if ak == "lit" and at.endswith("/") and bt.startswith("/"):
        tail[0] = ("lit", bt[1:])
    elif not (ak == "lit" and at.endswith("/")) and not bt.startswith(("/", "?")):
        head.append(("lit", "/"))
    return _merge(head + tail)


def rooted(path: Template) -> Template:
    """``path`` with a leading ``/`` when it starts with a literal lacking one (Spring and JAX-RS
    patterns are absolute); ``/`` when empty."""
    if not path.parts:
        return Template.of("/")
    kind, text = path.parts[0]
    if kind == "lit" and not text.startswith("/"):
        return _merge([("lit", "/"), *path.parts])
    return path
