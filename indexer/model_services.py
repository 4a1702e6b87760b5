"""The extraction IR's records of links between services and to data, beside HTTP: message topics and
queues (:class:`TopicUse`, :class:`QueueBinding`: Kafka, RabbitMQ, ...), entry points a runtime calls
(:class:`EntryRegistration`: schedulers, command lines, triggers), RPC (:class:`RpcService`,
:class:`RpcUse`: gRPC), GraphQL client documents and their uses (:class:`GraphqlDocument`,
:class:`GraphqlUse`), and database tables (:class:`TableDef`, :class:`TableUse`).

Found by the detectors of :mod:`indexer.frameworks`; the framework linker joins them across files into
Topic, Endpoint and Table nodes and their edges. :mod:`indexer.model` re-exports every name.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from indexer.model_pickling import pickle_records
from indexer.string_templates import Template

__all__ = [
    "TopicUse", "QueueBinding", "MessageTransport", "ENTRY_KINDS", "EntryRegistration", "RpcService", "RPC_ROLES", "RpcUse",
    "GRAPHQL_CLIENT_OPERATIONS", "GraphqlOperation", "GraphqlFragment", "GraphqlDocument", "GraphqlUse",
    "TABLE_ROLES", "ORM_ATTRIBUTE", "TableDef", "TableUse", "NamedLoader",
]


@dataclass(slots=True)
class TopicUse:
    """A topic, queue, channel or task produced to or consumed from: ``role`` is ``produces`` or ``consumes``;
    ``framework``: ``spring-kafka``, ``kafka-python``, ``confluent-kafka``, ``kafkajs``, ``spring-rabbit``, ``pika``,
    ``amqplib``, ``spring-jms``, ``spring-cloud-stream``, ``celery``, ...; ``owner`` the qualname of the producing /
    consuming function or method (the listener method); ``broker`` one of :data:`stores.contracts.BROKERS`. ``topic``
    is the destination's name: a Kafka topic, a RabbitMQ queue (consumers) or routing key (producers, with
    ``exchange`` the exchange they publish to: ``Template()`` for the default exchange, whose routing key is the
    queue's name; ``None`` for a use that names a queue directly), a JMS destination, a Celery task name. ``target``:
    an expression naming the consumer itself (Celery ``cleanup.delay()``: ``cleanup``), which the linker resolves to
    the task's function and its task name; ``topic`` is then empty. ``binding``: a Spring Cloud Stream binding name
    (``orders-in-0``, a ``StreamBridge.send`` name) the linker maps to its configured destination. ``handed_as``: the
    message is handed to the callee ``target`` names (a wrapper, an outbox: ``service.AddAndSaveEventAsync(e)``); the
    use holds only when that callee declares a parameter of one of these types (the bus's message base types).
    ``needs_consumer``: a produce use that holds only when a file of the repository consumes its destination (an
    Apex DML write raises its sObject's record events, which matter only to the triggers on that sObject). ``transport``
    / ``client``: a NestJS microservice use (broker ``nest``) whose transport its own file names (``transport``: a
    ``Transport`` member lower-cased, ``kafka``, ``rmq``, ``tcp``), or the injection token of the client it sends through
    (``client``), whose :class:`MessageTransport` registration the linker reads; both ``None``: a handler, whose
    transports are those of its application's server bootstrap. ``transport_via``: a send through a client the
    file creates from options written in another module (``ClientProxyFactory.create(kafkaOptions as any)``): a
    ``ref`` to the transport constant those options record (as :attr:`MessageTransport.via`)."""

    framework: str
    role: str
    topic: Template
    owner: str | None
    line: int
    col: int
    broker: str = "kafka"
    exchange: Template | None = None
    target: str | None = None
    binding: str | None = None
    handed_as: tuple[str, ...] = ()
    needs_consumer: bool = False
    transport: str | None = None
    client: Template | None = None
    transport_via: Template | None = None


@dataclass(slots=True)
class QueueBinding:
    """A RabbitMQ binding declared in code: messages published to ``exchange`` with a routing key matching ``key``
    (``#`` / ``*`` wildcards of a topic exchange; empty for a fanout exchange) go to ``queue``. From Spring
    ``BindingBuilder.bind(queue).to(exchange).with(key)`` beans and ``@QueueBinding``, pika ``queue_bind``, amqplib
    ``bindQueue``. ``queue`` / ``exchange`` are templates of names, or of expressions naming a ``Queue`` /
    ``Exchange`` bean (``("ref", ...)`` resolved like constants; a bean method's ``new Queue("orders")`` is recorded
    as a constant of the method's qualname)."""

    framework: str
    queue: Template
    exchange: Template
    key: Template
    line: int
    col: int
    owner: str | None = None
    """The enclosing method's qualname: where ``ref`` pieces are looked up (a bean parameter
    ``Queue ordersQueue`` resolves to the class's ``ordersQueue`` bean)."""


@dataclass(slots=True)
class MessageTransport:
    """The transport a message framework's server or named client is configured with (NestJS: the options
    of ``NestFactory.createMicroservice`` / ``app.connectMicroservice``, role ``server``; of a
    ``ClientsModule.register`` / ``registerAsync`` entry or a ``{provide, useFactory}`` provider, role
    ``client``, ``name`` the injection token). ``transport`` the ``Transport`` member lower-cased (``kafka``,
    ``rmq``, ``nats``, ``redis``, ``mqtt``, ``tcp``; ``tcp`` when the options name none, Nest's default;
    ``""`` when they name it by an expression not read); ``queue`` the RabbitMQ queue of an ``rmq``
    transport (``options.queue``; empty when not named). The linker gives a server's transports to the
    handlers of the files in and below its folder, a client's to the sends through its token."""

    framework: str
    role: str
    transport: str
    name: Template
    queue: Template
    line: int
    col: int
    via: Template = Template()
    """A client's transport named elsewhere (``transport`` empty): a ``ref`` to the constant
    ``<X>.transport`` the options' provider records (``registerAsync`` with ``useClass: X`` /
    ``useExisting: X``, a ``useFactory`` returning ``X(...)``), rendered by the linker through the
    imports; empty when the entry's options are read here or not at all."""


ENTRY_KINDS = frozenset({"scheduled", "cli", "main", "runtime", "trigger", "async"})
"""Kinds of :class:`EntryRegistration`: ``scheduled`` (run by a scheduler), ``cli`` (a command of a command-line
interface), ``main`` (a program's entry: a ``__main__`` block, a console script or package ``bin``, a Spring Boot
``CommandLineRunner``), ``runtime`` (run by the language runtime itself: a JVM static initialiser or serialization
hook), ``trigger`` (run when records change: an Apex trigger), ``async`` (a job the platform runs in its own
transaction once enqueued: an Apex ``Queueable`` / ``Batchable`` / ``Finalizer``)."""


@dataclass(slots=True)
class NamedLoader:
    """A batch loader registered under a name and fetched by it (Netflix DGS: ``@DgsDataLoader(name =
    "reviews") class ReviewsDataLoader implements BatchLoader``, then ``dfe.getDataLoader("reviews")``
    in a data fetcher). ``role`` ``"provides"``: ``owner`` is the loader class's qualname in this file;
    ``"uses"``: ``owner`` is the function calling ``getDataLoader`` (its ``load`` queues keys the library
    hands the loader's batch method later). ``name`` the registered name (a literal or a constant);
    ``line`` / ``col`` the annotation's or the call's name. The linker makes each use a CALLS edge
    (``inferred``) to the batch method (``load``) of the loader providing that name."""

    role: str
    name: Template
    owner: str
    line: int
    col: int


@dataclass(slots=True)
class EntryRegistration:
    """Code that something outside the code runs, registered by a call or a configuration entry
    rather than by a decorator on the code itself (decorators and annotations, ``@Scheduled``,
    ``@click.command``, ``@Cron``, are read from ``Definition.decorators`` by the analysis; this is
    the one mechanism for everything else). The linker turns each into an ``ENTRY`` self-edge on
    the code that runs (:data:`stores.contracts.EDGE_KINDS`), owned by this file, with ``kind``,
    ``framework`` and ``name`` as properties, so the analysis sees an entry point wherever it was
    registered.

    ``kind`` among :data:`ENTRY_KINDS`; ``framework``: ``celery-beat``, ``apscheduler``,
    ``node-cron``, ``cron``, ``node-schedule``, ``argparse``, ``python-main``, ``spring-boot``, ...
    What runs is ``owner``, the qualname in this file of the function or method (an inline function
    made a definition of its own, :mod:`indexer.symbols`), else ``owner_ref``, an expression naming it,
    resolved like a call's callee from ``scope`` (``cleanup`` of ``cleanup.s()``; a dotted path
    string such as Celery's ``"pkg.tasks.cleanup"`` is resolved as a module path when it is not a
    name of this file); both ``None``: the file's module-level code (a ``__main__`` block). ``name``:
    the schedule, command or script name, or the schedule expression (``"*/5 * * * *"``).
    """

    framework: str
    kind: str
    owner: str | None
    line: int
    col: int
    owner_ref: str | None = None
    scope: str | None = None
    name: str = ""


@dataclass(slots=True)
class RpcService:
    """A gRPC service a ``.proto`` file declares: ``package`` its ``package`` (``""``: none),
    ``name`` the service, ``rpcs`` its rpc names in order, ``qualname`` the service's definition
    (the rpcs are ``<qualname>.<rpc>``), ``java_package`` its ``option java_package`` (``None``: not
    set; the generated ``<name>Grpc`` class then lies in ``package``), ``csharp_namespace`` its
    ``option csharp_namespace`` (``None``: not set; the C# code then lies in ``package`` PascalCased).
    ``http``: the HTTP bindings its rpcs declare (``option (google.api.http) = { get: "/v1/beers/{id}" }``,
    additional bindings too; grpc-gateway, kratos' protoc-gen-go-http, Envoy's transcoder serve them),
    as ``(rpc, METHOD, path)`` in source order, the path with ``{id=pattern}`` variables written
    ``{id}`` per segment and any ``:verb`` suffix kept."""

    package: str
    name: str
    rpcs: list[str]
    qualname: str
    line: int
    java_package: str | None = None
    csharp_namespace: str | None = None
    http: list[tuple[str, str, str]] = field(default_factory=list)


RPC_ROLES = ("serves", "calls")
"""Roles of an :class:`RpcUse`: ``serves`` (a server implementation EXPOSES the rpc) or ``calls``
(a client stub CALLS it)."""


@dataclass(slots=True)
class RpcUse:
    """Code serving or calling a gRPC service, as one file sees it (the linker finds the ``.proto``).

    ``framework``: ``grpc-java``, ``grpc-python``, ``grpc-js``. ``role`` among :data:`RPC_ROLES`.
    ``service``: the service name the code writes (``OrderService`` of ``OrderServiceGrpc.
    OrderServiceImplBase``, ``order_pb2_grpc.OrderServiceStub``, ``proto.OrderService``). ``rpc``: the
    method name as written (``getOrder``, ``GetOrder``; the linker matches it to the rpc ``GetOrder``
    by the framework's naming rule), ``None`` for a server class: every rpc the class (``owner``)
    implements. ``owner``: qualname in this file of the implementing class or method, or of the
    calling function; ``owner_ref``: an expression naming the implementation instead (Python
    ``add_OrderServiceServicer_to_server(Impl(), server)``, a Node handler named by reference),
    resolved from ``scope``. ``package``: the proto package when the code names it (a Node
    ``loadPackageDefinition(def).shop.v1`` chain); ``module``: where the generated code is imported
    from (the Java package of ``OrderServiceGrpc``, the Python module of ``order_pb2_grpc``; in C# the
    namespaces the code sees, its own and enclosing ones and its ``using``s, space-separated), matched to
    the ``.proto``'s ``java_package`` / file path / C# namespace. Without either, the link is made by service name
    (certainty ``name``)."""

    framework: str
    role: str
    service: str
    rpc: str | None
    owner: str | None
    line: int
    col: int
    owner_ref: str | None = None
    scope: str | None = None
    package: str | None = None
    module: str | None = None


GRAPHQL_CLIENT_OPERATIONS = ("QUERY", "MUTATION", "SUBSCRIPTION")
"""Operation types of a GraphQL client document (:class:`GraphqlOperation`): the shorthand ``{ a }`` is a ``QUERY``."""

SelectionTree = list[tuple[int, str]]
"""A GraphQL selection set in pre-order, one ``(level, entry)`` per selection: ``entry`` a field's name (not its
alias), ``...Name`` a fragment spread, or ``on Type`` an inline fragment with a type condition. The selections of a
field or of an ``on Type`` fragment follow it one level deeper; an inline fragment without a type condition is
flattened into its parent's level. Level 0 is the selection set's own level (an operation's root fields)."""


@dataclass(slots=True)
class GraphqlOperation:
    """One operation of a GraphQL executable document: ``operation`` among :data:`GRAPHQL_CLIENT_OPERATIONS`, ``name``
    its name (``None``: anonymous), ``fields`` the fields it selects at the root in order (an alias ``x: orders``
    selects ``orders``; ``__typename`` and other introspection fields left out; the fields of an inline fragment at
    the root included), ``spreads`` the names of the fragments spread at the root (the linker expands them). ``line``
    / ``col``: where it starts in the host file. ``tree``: the whole selection in pre-order (:data:`SelectionTree`),
    so the linker can follow nested fields to their types' resolvers; left out of equality."""

    operation: str
    name: str | None
    fields: list[str]
    spreads: list[str]
    line: int
    col: int
    tree: SelectionTree = field(default_factory=list, compare=False)


@dataclass(slots=True)
class GraphqlFragment:
    """A fragment definition of a GraphQL document: its ``name``, the type it is ``on``, and (as for
    :class:`GraphqlOperation`) the ``fields`` and ``spreads`` of its own top-level selection, and its whole
    selection ``tree`` (left out of equality)."""

    name: str
    on: str
    fields: list[str]
    spreads: list[str]
    tree: SelectionTree = field(default_factory=list, compare=False)


@dataclass(slots=True)
class GraphqlDocument:
    """A GraphQL executable document written in this file: a ``gql`` / ``graphql`` tagged template or
    call (JS / TS), a ``gql("...")`` call (Python ``gql``), a literal handed to a Java GraphQL client,
    or a ``.graphql`` / ``.gql`` operations file (then ``framework`` ``graphql-documents``).

    ``name``: the module-level constant holding it (``GET_ORDERS`` of ``const GET_ORDERS = gql`...```,
    ``Queries.ORDERS`` of a Java ``static final``), ``None`` when it is written elsewhere; ``owner``:
    the qualname of the code it is written in (the enclosing function or method, the operation's
    definition in a ``.graphql`` file), ``None`` at module level. ``includes``: the expressions
    interpolated into it (``${ORDER_FIELDS}``), whose fragments the linker adds; ``errors``: how many
    syntax errors the text has (what parsed is kept). ``run``: a use in this file runs it where it is
    written (``useQuery(gql`...`)``). ``types``: the schema SDL the text declares (``typeDefs = gql`type User {
    posts: [Post] }```), one ``(type, field, named type)`` per field of an object or interface type or extension
    (``("User", "posts", "Post")``), so the linker knows what a nested selection's field returns."""

    framework: str
    name: str | None
    owner: str | None
    operations: list[GraphqlOperation]
    fragments: list[GraphqlFragment]
    line: int
    col: int
    includes: list[str] = field(default_factory=list)
    errors: int = 0
    run: bool = False
    types: list[tuple[str, str, str]] = field(default_factory=list)


@dataclass(slots=True)
class GraphqlUse:
    """Code running a GraphQL document (``useQuery(GET_ORDERS)``, ``client.mutate({mutation: M})``,
    ``request(url, doc)``, ``client.execute(query)``, Spring ``graphQlClient.documentName("x")``,
    DGS ``new GraphQLQueryRequest(new ShowsGraphQLQuery())``).

    ``owner``: qualname of the running function or method (``None``: module-level code, the File
    node). The document is one of: ``document``, the index in :attr:`FileExtraction.graphql_documents`
    of one written in the call; ``ref``, an expression naming a constant that holds one (resolved
    from ``scope`` like a constant, across imports); ``path``, a document file named by path
    (``graphql-documents/x``: any ``.graphql`` / ``.gql`` file of the repository whose path, without
    suffix, ends with it; ``operation`` then picks the operation of that name when the file has it);
    ``root_field``, a root field named by generated code (DGS ``ShowsGraphQLQuery`` -> ``shows``), whose
    operation type the schema says. ``strict``: the call surely runs a GraphQL document (a GraphQL
    hook or client), so a ``ref`` resolving to nothing is counted as unlinked rather than ignored."""

    framework: str
    owner: str | None
    line: int
    col: int
    document: int | None = None
    ref: str | None = None
    scope: str | None = None
    path: str | None = None
    operation: str | None = None
    root_field: str | None = None
    strict: bool = True


TABLE_ROLES = ("reads", "writes", "repository", "sql", "jpql")
ORM_ATTRIBUTE = "orm_attribute"
"""The :attr:`TableUse.framework` of an access through an ORM instance's attribute (``user.email = x``): the
linker keeps only the names that are columns of the table the object's class maps to."""
""":attr:`TableUse.role`: the code reads or writes the table; ``repository`` marks a Spring Data repository interface
(``owner``) managing the entity ``entity`` (its inherited CRUD methods); ``sql`` / ``jpql``: the statement in
:attr:`TableUse.sql` decides (parsed by the linker once its constants are known; JPQL names entities, not tables)."""


@dataclass(slots=True)
class TableDef:
    """A database table a file declares: a ``CREATE TABLE`` (or ``ALTER TABLE ... ADD``) in SQL, an ORM model (Django,
    SQLAlchemy, JPA, TypeORM, Prisma). ``name`` / ``schema`` as the source spells them (case kept; ``schema`` ``None``
    when unqualified); ``columns`` ``(name, type)`` in order (``type`` ``None`` when unknown); ``entity``: the qualname
    in this file of the class (or module variable, SQLAlchemy ``Table(...)``) that maps to the table, ``None`` for SQL.
    ``alter``: the statement adds columns to a table declared elsewhere (declares no table alone)."""

    framework: str
    name: str
    schema: str | None
    columns: list[tuple[str, str | None]]
    line: int
    col: int
    entity: str | None = None
    alter: bool = False
    kind: str = "table"
    """``table``: declares the table; ``abstract``: the class declares columns for the tables of its subclasses (a JPA
    ``@MappedSuperclass``, a Django ``abstract`` model; ``name`` empty); ``proxy``: the class uses its base's table (a
    Django proxy model); ``candidate``: a class that declares ``name`` only if one of its bases is a model (the linker
    decides: a Django class in a models module whose base is another module's class). A migration's schema change:
    ``drop`` (the table), ``rename`` / ``rename_column`` (``renamed`` = ``(old, new)``), ``drop_column``
    (``columns``); the linker replays them in migration order. ``m2m`` / ``m2m-ref``: a SQLAlchemy ``relationship(
    secondary=...)`` field (``entity`` ``Model.field``) whose join table is ``name`` (``m2m``) or the ``Table(...)``
    variable ``name`` refers to (``m2m-ref``). EF Core's ``mapped`` (``ToTable``), then ``default`` (a ``DbSet``'s
    name) map the type text ``entity`` (file top level) to ``name`` unless mapped already."""
    renamed: tuple[str, str] | None = None
    cascades: tuple[str, ...] = ()
    """Type texts of the entities a JPA write of this one cascades to (relationship fields with a
    ``cascade`` that persists, merges or removes, or ``orphanRemoval``): their tables are written too."""
    model: str | None = None
    """A name its framework derives from the repository rather than the file (Django's default
    ``<app_label>_<model>``, whose app label an ``AppConfig`` or a base class's ``Meta`` may set): the
    model name the rule starts from (a model class, a migration's ``CreateModel`` / ``AddField``
    model, the model of a ``ManyToManyField`` whose join table is ``<model table>_<field>``); the
    linker asks the file's language (its module system's optional ``table_name`` hook) for the
    name, ``name`` standing for it when the hook has no answer. ``None``: ``name`` is as written."""


@dataclass(slots=True)
class TableUse:
    """Code reading or writing a table (``role`` one of :data:`TABLE_ROLES`). The table is named by ``table`` (a name
    from SQL, ``schema.name`` allowed) or by ``entity``: an expression text, resolved by the linker in the scope
    ``owner`` to a mapped class or an instance of one (``Owner``, ``owner``, ``self.model``). ``columns``: the columns
    the access names (empty: unknown or every column). ``owner``: qualname of the enclosing function or method
    (``None``: module level). ``resolution``: ``exact`` when the source names the table or entity itself, ``inferred``
    when a naming rule or a receiver's type led to it."""

    framework: str
    role: str
    owner: str | None
    line: int
    col: int
    table: str | None = None
    entity: str | None = None
    columns: list[str] = field(default_factory=list)
    resolution: str = "exact"
    sql: Template | None = None
    """The statement of a ``sql`` / ``jpql`` use: literals and constant references (``ref``)."""
    receiver: str | None = None
    """A Spring Data call (``owners.findById(id)``): the receiver expression, resolved in ``owner``'s
    scope; when it is an instance of a repository interface (a ``repository`` use), the access is to
    that repository's entity's table (inherited CRUD methods nobody declares in the code)."""
    relation: str | None = None
    """A TypeORM relation path from ``entity`` (``photos``, ``photos.tags``: ``.leftJoinAndSelect("u.photos",
    "p")``): the access is to the table of the entity the last relation property's declared type names,
    each property looked up on the previous one's entity class."""


pickle_records(globals(), __name__)
