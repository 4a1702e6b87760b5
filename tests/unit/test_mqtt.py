"""MQTT (session 65): MQTT.js and paho-mqtt publishes and subscriptions, and NestJS patterns on an MQTT
transport, are topics of broker ``mqtt``; a subscription's topic filter with ``+`` / ``#`` wildcards is
reached by every publish it matches (``inferred``), never the reverse. The shapes are MQTT.js's README
(``mqtt.connect``, ``client.subscribe``, ``client.on('message', ...)``), paho-mqtt's (``on_connect``
subscribing, ``client.on_message = on_message``), Eclipse Paho Java's (``MqttCallback.messageArrived``, a lambda
listener) and Nest's MQTT transport docs."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.frameworks.queues import mqtt_filter, mqtt_matches
from tests.index_dump import dump
from tests.resolution_harness import edges, extract_fixture, resolve_fixture, split_fixture
from tests.unit.test_incremental import Workspace

MQTT = """
// --- path: sensors/publisher.js ---
const mqtt = require('mqtt');
const TEMP = 'home/kitchen/temp';
const client = mqtt.connect('mqtt://broker:1883');

function report(value) {
  client.publish(TEMP, String(value));
  client.publish('home/kitchen/light/level', String(value));
  client.publish(`home/${value}/temp`, 'x');
}
// --- path: dashboard/subscriber.ts ---
import * as mqtt from 'mqtt';

const client = mqtt.connect('mqtt://broker:1883');
client.on('connect', () => {
  client.subscribe(['home/+/temp', 'home/kitchen/light/#']);
  client.subscribe({ '$share/dash/alarms/+': { qos: 1 } });
});
client.on('message', (topic, payload) => {
  render(topic, payload);
});

function render(topic: string, payload: Buffer) { return [topic, payload]; }
// --- path: gateway/src/main.ts ---
import { NestFactory } from '@nestjs/core';
import { Transport } from '@nestjs/microservices';

async function bootstrap() {
  const app = await NestFactory.createMicroservice(GatewayModule, { transport: Transport.MQTT, options: { url: 'mqtt://broker:1883' } });
  await app.listen();
}
// --- path: gateway/src/alarms.controller.ts ---
import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';

@Controller()
export class AlarmsController {
  @EventPattern('alarms/#')
  raised(data: object) { return data; }
}
// --- path: station/reader.py ---
import paho.mqtt.client as mqtt

TOPIC = "home/garden/temp"


def on_connect(client, userdata, flags, rc):
    client.subscribe([("home/garden/+", 0), ("alarms/fire", 1)])


def on_message(client, userdata, msg):
    handle(msg.payload)


def handle(payload):
    return payload


def main():
    c = mqtt.Client()
    c.on_connect = on_connect
    c.on_message = on_message
    c.connect("broker")
    c.publish(TOPIC, "21")
    c.publish("alarms/fire", "1")
    c.publish(topic="home/garden/soil/moisture", payload="3")
"""

OWNER = "message home/+/temp|home/kitchen/light/#|$share/dash/alarms/+"
HANDLER = f"dashboard/subscriber.{OWNER}(2)"


@pytest.mark.parametrize(("pattern", "topic", "matches"), [
    ("home/+/temp", "home/kitchen/temp", True),
    ("home/+/temp", "home/kitchen/a/temp", False),  # `+` is one level, never two
    ("home/+", "home/a/b", False),
    ("home/+", "home/", True),  # an empty level is a level
    ("home/#", "home", True),  # `#` matches the parent level too
    ("home/#", "home/a/b", True),
    ("home/#/temp", "home/a/temp", False),  # `#` not last: invalid
    ("#", "$SYS/broker/load", False),  # a wildcard first never matches a `$` topic
    ("$SYS/#", "$SYS/broker/load", True),
    ("home/kitchen/temp", "home/kitchen/temp", True),
    ("home/kitchen/temp", "home/kitchen", False),
])
def test_mqtt_topic_filters(pattern: str, topic: str, matches: bool) -> None:
    assert mqtt_matches(pattern, topic) is matches


def test_shared_subscriptions_drop_their_prefix() -> None:
    assert [mqtt_filter(f) for f in ("$share/dash/alarms/+", "$queue/jobs", "$SYS/#", "a/b")] == [
        "alarms/+", "jobs", "$SYS/#", "a/b"]


def test_mqtt_uses_are_read_with_their_owners() -> None:
    found = sorted((ex.path, t.framework, t.role, t.topic.parts, t.owner, t.broker, t.line)
                   for ex, _, _ in extract_fixture(MQTT) for t in ex.topics)
    assert found == [
        ("dashboard/subscriber.ts", "mqtt.js", "consumes", (("lit", "$share/dash/alarms/+"),), OWNER, "mqtt", 6),
        ("dashboard/subscriber.ts", "mqtt.js", "consumes", (("lit", "home/+/temp"),), OWNER, "mqtt", 5),
        ("dashboard/subscriber.ts", "mqtt.js", "consumes", (("lit", "home/kitchen/light/#"),), OWNER, "mqtt", 5),
        ("gateway/src/alarms.controller.ts", "nestjs-microservices", "consumes", (("lit", "alarms/#"),),
         "AlarmsController.raised", "nest", 7),
        ("sensors/publisher.js", "mqtt.js", "produces", (("lit", "home/"), ("ref", "value"), ("lit", "/temp")), "report",
         "mqtt", 8),
        ("sensors/publisher.js", "mqtt.js", "produces", (("lit", "home/kitchen/light/level"),), "report", "mqtt", 7),
        ("sensors/publisher.js", "mqtt.js", "produces", (("ref", "TEMP"),), "report", "mqtt", 6),
        ("station/reader.py", "paho-mqtt", "consumes", (("lit", "alarms/fire"),), "on_message", "mqtt", 7),
        ("station/reader.py", "paho-mqtt", "consumes", (("lit", "home/garden/+"),), "on_message", "mqtt", 7),
        ("station/reader.py", "paho-mqtt", "produces", (("lit", "alarms/fire"),), "main", "mqtt", 24),
        ("station/reader.py", "paho-mqtt", "produces", (("lit", "home/garden/soil/moisture"),), "main", "mqtt", 25),
        ("station/reader.py", "paho-mqtt", "produces", (("ref", "TOPIC"),), "main", "mqtt", 23),
    ]


def test_a_publish_reaches_its_topic_and_every_wildcard_filter_matching_it() -> None:
    result = resolve_fixture(MQTT)
    assert edges(result, "CONSUMES") == [
        f"{HANDLER} -> topic:mqtt:alarms/+",  # $share/dash/ dropped
        f"{HANDLER} -> topic:mqtt:home/+/temp",
        f"{HANDLER} -> topic:mqtt:home/kitchen/light/#",
        "gateway/src/alarms.controller.AlarmsController.raised(1) -> topic:mqtt:alarms/#",  # Nest on MQTT
        "station/reader.on_message(3) -> topic:mqtt:alarms/fire",  # subscribed in on_connect, run by on_message
        "station/reader.on_message(3) -> topic:mqtt:home/garden/+",
    ]
    produced = sorted((e.src.rsplit("/", 1)[-1], e.line, e.dst, e.props.get("match"))
                      for f in result.files for e in f.edges if e.kind == "PRODUCES")
    assert produced == [
        ("publisher.report(1)", 6, "topic:mqtt:home/+/temp", "inferred"),
        ("publisher.report(1)", 6, "topic:mqtt:home/kitchen/temp", "exact"),
        ("publisher.report(1)", 7, "topic:mqtt:home/kitchen/light/#", "inferred"),  # `#`: the level below
        ("publisher.report(1)", 7, "topic:mqtt:home/kitchen/light/level", "exact"),
        # line 8's `home/${value}/temp` has a hole: no destination
        ("reader.main(0)", 23, "topic:mqtt:home/+/temp", "inferred"),
        ("reader.main(0)", 23, "topic:mqtt:home/garden/+", "inferred"),
        ("reader.main(0)", 23, "topic:mqtt:home/garden/temp", "exact"),
        ("reader.main(0)", 24, "topic:mqtt:alarms/#", "inferred"),
        ("reader.main(0)", 24, "topic:mqtt:alarms/+", "inferred"),
        ("reader.main(0)", 24, "topic:mqtt:alarms/fire", "exact"),
        # two levels below home/garden: neither home/garden/+ nor home/+/temp
        ("reader.main(0)", 25, "topic:mqtt:home/garden/soil/moisture", "exact"),
    ]
    # a filter never produces: no edge from a subscriber to a publish
    assert not [e for f in result.files for e in f.edges if e.kind == "PRODUCES" and "subscriber" in e.src]


PAHO_JAVA = """
// --- path: sensor/src/main/java/iot/Sensor.java ---
package iot;

import org.eclipse.paho.client.mqttv3.MqttClient;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.MqttMessage;

public class Sensor {
    private static final String TOPIC = "home/cellar/temp";
    private final MqttClient client;

    public Sensor(MqttClient client) { this.client = client; }

    public void report(double v) throws MqttException {
        client.publish(TOPIC, new MqttMessage(String.valueOf(v).getBytes()));
        client.publish("alarms/flood", "1".getBytes(), 1, false);
        client.publish("home/cellar/a/temp", "1".getBytes(), 1, false);
    }
}
// --- path: hub/src/main/java/iot/Listener.java ---
package iot;

import org.eclipse.paho.client.mqttv3.*;

public class Listener implements MqttCallback {
    private IMqttClient mqtt;

    public void start() throws MqttException {
        mqtt.setCallback(this);
        mqtt.subscribe("home/+/temp");
        mqtt.subscribe(new String[]{"alarms/fire", "alarms/flood"}, new int[]{1, 1});
    }

    public void messageArrived(String topic, MqttMessage message) { handle(message); }

    void handle(MqttMessage m) { }

    public void connectionLost(Throwable t) { }

    public void deliveryComplete(IMqttDeliveryToken token) { }
}
// --- path: hub/src/main/java/iot/Alarms.java ---
package iot;

import org.eclipse.paho.client.mqttv3.MqttAsyncClient;
import org.eclipse.paho.client.mqttv3.MqttException;
import org.eclipse.paho.client.mqttv3.MqttMessage;

public class Alarms {
    public void run(MqttAsyncClient c) throws MqttException {
        c.subscribe("alarms/#", 1, (topic, msg) -> process(msg));
    }

    void process(MqttMessage m) { }
}
"""


def test_eclipse_paho_in_java_publishes_and_subscribes_filters() -> None:
    # Listener's subscriptions are run by its MqttCallback.messageArrived (setCallback(this)); Alarms' by the
    # lambda listener handed to subscribe, i.e. in run. Sensor's publishes reach the filters matching them;
    # home/cellar/a/temp (two levels under home/) does not reach home/+/temp.
    result = resolve_fixture(PAHO_JAVA)
    assert edges(result, "CONSUMES") == [
        "hub/src/main/java/iot/Alarms.Alarms.run(MqttAsyncClient) -> topic:mqtt:alarms/#",
        "hub/src/main/java/iot/Listener.Listener.messageArrived(String,MqttMessage) -> topic:mqtt:alarms/fire",
        "hub/src/main/java/iot/Listener.Listener.messageArrived(String,MqttMessage) -> topic:mqtt:alarms/flood",
        "hub/src/main/java/iot/Listener.Listener.messageArrived(String,MqttMessage) -> topic:mqtt:home/+/temp",
    ]
    produced = sorted((e.src.rsplit("/", 1)[-1], e.line, e.dst, e.props.get("match"))
                      for f in result.files for e in f.edges if e.kind == "PRODUCES")
    assert produced == [
        ("Sensor.Sensor.report(double)", 14, "topic:mqtt:home/+/temp", "inferred"),
        ("Sensor.Sensor.report(double)", 14, "topic:mqtt:home/cellar/temp", "exact"),  # the constant TOPIC
        ("Sensor.Sensor.report(double)", 15, "topic:mqtt:alarms/#", "inferred"),
        ("Sensor.Sensor.report(double)", 15, "topic:mqtt:alarms/flood", "exact"),
        ("Sensor.Sensor.report(double)", 16, "topic:mqtt:home/cellar/a/temp", "exact"),
    ]


CALLBACKS = """
// --- path: monitor.py ---
import paho.mqtt.client as mqtt


def on_message(client, userdata, msg):
    return msg


def on_bytes(client, userdata, msg):
    return msg


def on_fire(client, userdata, msg):
    return msg


def on_unused(client, userdata, msg):
    return msg


c = mqtt.Client()
c.message_callback_add("$SYS/broker/bytes/#", on_bytes)
c.message_callback_add("alarms/fire", on_fire)
c.on_message = on_message
c.subscribe("$SYS/#")
c.subscribe("alarms/fire")
// --- path: broker_stats.py ---
import paho.mqtt.client as mqtt

c = mqtt.Client()


def report():
    c.publish("$SYS/broker/bytes/sent", "1")
    c.publish("$SYS/uptime", "1")
"""


def test_paho_callbacks_for_a_filter_consume_it() -> None:
    # message_callback_add's callback gets the messages matching its filter: on_fire its own subscription's,
    # on_bytes those of $SYS/broker/bytes/# under the $SYS/# subscription; on_message the rest.
    result = resolve_fixture(CALLBACKS)
    assert edges(result, "CONSUMES") == [
        "monitor.on_bytes(3) -> topic:mqtt:$SYS/broker/bytes/#",
        "monitor.on_fire(3) -> topic:mqtt:alarms/fire",
        "monitor.on_message(3) -> topic:mqtt:$SYS/#",
    ]
    produced = sorted((e.line, e.dst, e.props.get("match")) for f in result.files for e in f.edges if e.kind == "PRODUCES")
    assert produced == [
        (7, "topic:mqtt:$SYS/#", "inferred"), (7, "topic:mqtt:$SYS/broker/bytes/#", "inferred"),
        (7, "topic:mqtt:$SYS/broker/bytes/sent", "exact"),
        (8, "topic:mqtt:$SYS/#", "inferred"), (8, "topic:mqtt:$SYS/uptime", "exact"),  # not bytes/#
    ]


def test_a_new_wildcard_subscription_in_another_file_reaches_the_unedited_publishers(tmp_path: Path) -> None:
    """Only the subscriber changes: the publisher's inferred edges to the filters follow (the watcher's and the
    one-shot run's index equal a full index at each step)."""
    files = split_fixture(MQTT)
    ws = Workspace(tmp_path, files)
    try:
        def reached(db: Path) -> list[str]:
            return sorted({dst for kind, src, dst, *_ in dump(db)["edges"] if kind == "PRODUCES" and "publisher" in src})

        assert reached(ws.db) == ["topic:mqtt:home/+/temp", "topic:mqtt:home/kitchen/light/#",
                                  "topic:mqtt:home/kitchen/light/level", "topic:mqtt:home/kitchen/temp"]
        sub = files["dashboard/subscriber.ts"]
        ws.edit({"dashboard/subscriber.ts": sub.replace("['home/+/temp', 'home/kitchen/light/#']", "['home/#']")})
        assert reached(ws.db) == ["topic:mqtt:home/#", "topic:mqtt:home/kitchen/light/level",
                                  "topic:mqtt:home/kitchen/temp"]
    finally:
        ws.close()
