"""The JSON Schema sampler behind ``JsonSchemaSpace`` (``action_space.sample()``), without gymnasium.

Offline tests use schemas in the exact shapes ``/schema`` publishes (``Space.toJSONSchema()``);
the live test samples SQLEnv-v0's own ``/schema`` (SQLENV_SQL_URL, set by the vitest runner)
and plays the samples on the server.
"""
import os
import random
import unittest

from sqlenv_client import connect
from sqlenv_client.errors import RemoteEnvError
from sqlenv_client.json_schema import JsonSchemaSampler, UnsupportedSchemaError, json_schema_errors, sample_json_schema

SQL_URL = os.environ.get("SQLENV_SQL_URL", "")


def tool(name, properties, required):
    """One branch of a ToolCallSpace schema, as ToolCallSpace.toJSONSchema() writes it."""
    return {
        "type": "object",
        "title": name,
        "description": f"The {name} tool.",
        "properties": {
            "name": {"const": name},
            "arguments": {"type": "object", "properties": properties, "required": required, "additionalProperties": False},
        },
        "required": ["name", "arguments"],
        "additionalProperties": False,
    }


TABLE = {"type": "string", "minLength": 1, "maxLength": 256, "description": "A table."}
#: SQLEnv-v0's action schema (GET /schema → action), tool by tool.
SQLENV_ACTION = {
    "oneOf": [
        tool("describe", {"table_name": TABLE}, ["table_name"]),
        tool("sample", {"table_name": TABLE, "n": {"type": "integer", "minimum": 1, "maximum": 20, "default": 5}}, ["table_name"]),
        tool("query", {"sql": {"type": "string", "minLength": 1, "maxLength": 100000}}, ["sql"]),
        tool("answer", {"value": {"type": ["string", "number", "boolean", "array", "object"]}}, ["value"]),
    ],
    "x-space": "ToolCallSpace",
}


def text(min_length=0, max_length=50, pattern=None):
    schema = {"type": "string", "minLength": min_length, "maxLength": max_length, "x-space": "Text", "x-charset": "any"}
    if pattern:
        schema["pattern"] = pattern
    return schema


DISCRETE = {"type": "integer", "minimum": 3, "maximum": 7, "x-space": "Discrete"}
#: One schema of each built-in space kind, as toJSONSchema() writes it.
SPACE_SCHEMAS = {
    "Discrete": DISCRETE,
    "Text(any)": text(2, 5000),
    "Text(charset)": text(1, 8, pattern="^[\\u0061\\u0062\\u0020]*$"),
    "Box(uniform)": {"type": "array", "items": {"type": "number", "minimum": -1, "maximum": 1}, "minItems": 3, "maxItems": 3, "x-space": "Box", "x-shape": [3], "x-low": [-1, -1, -1], "x-high": [1, 1, 1], "x-dtype": "float"},
    "Box(per-element, open sides)": {"type": "array", "items": {"type": "integer"}, "minItems": 3, "maxItems": 3, "x-space": "Box", "x-shape": [3], "x-low": [0, 10, None], "x-high": [1, 20, 5], "x-dtype": "int"},
    "Sequence": {"type": "array", "items": DISCRETE, "x-space": "Sequence"},
    "Tuple": {"type": "array", "prefixItems": [DISCRETE, text(0, 3)], "items": False, "minItems": 2, "maxItems": 2, "x-space": "Tuple"},
    "OneOf": {"oneOf": [{"type": "array", "prefixItems": [{"const": i}, s], "items": False, "minItems": 2, "maxItems": 2} for i, s in enumerate([DISCRETE, text()])], "x-space": "OneOf"},
    "Dict": {"type": "object", "properties": {"a": DISCRETE, "b": {"type": "array", "items": text(0, 4), "x-space": "Sequence"}}, "required": ["a", "b"], "additionalProperties": False, "x-space": "Dict"},
    "ToolCallSpace": SQLENV_ACTION,
    "state": {"type": "object", "properties": {"episode_id": {"type": ["string", "null"]}, "done": {"type": "boolean"}, "episode_return": {"type": "number"}, "step_count": {"type": "integer", "minimum": 0}}, "required": ["episode_id", "done"], "additionalProperties": False},
    "enum/anyOf/exclusive": {"anyOf": [{"enum": ["x", 2, None]}, {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}]},
}


class SamplerTest(unittest.TestCase):
    def test_every_space_kind_samples_valid_values(self) -> None:
        for kind, schema in SPACE_SCHEMAS.items():
            sampler = JsonSchemaSampler(schema, seed=1)
            for _ in range(200):
                value = sampler.sample()
                self.assertEqual(json_schema_errors(schema, value), [], f"{kind}: {value!r}")
                self.assertTrue(sampler.contains(value))

    def test_tool_calls_cover_every_tool_within_their_argument_schemas(self) -> None:
        sampler = JsonSchemaSampler(SQLENV_ACTION, seed=0)
        calls = [sampler.sample() for _ in range(400)]
        self.assertEqual({c["name"] for c in calls}, {"describe", "sample", "query", "answer"})
        for call in calls:
            self.assertEqual(set(call), {"name", "arguments"})
            args = call["arguments"]
            if call["name"] == "sample":
                self.assertLessEqual(set(args), {"table_name", "n"})
                if "n" in args:
                    self.assertIsInstance(args["n"], int)
                    self.assertTrue(1 <= args["n"] <= 20)
            if call["name"] in ("describe", "sample"):
                self.assertTrue(1 <= len(args["table_name"]) <= 256)
            if call["name"] == "answer":
                self.assertIn("value", args)
                self.assertIsNotNone(args["value"])
        # The optional `n` is sometimes given, sometimes left out.
        ns = [("n" in c["arguments"]) for c in calls if c["name"] == "sample"]
        self.assertIn(True, ns)
        self.assertIn(False, ns)

    def test_a_seed_fixes_the_draws(self) -> None:
        a = JsonSchemaSampler(SQLENV_ACTION, seed=42)
        b = JsonSchemaSampler(SQLENV_ACTION)
        self.assertEqual(b.seed(42), [42])
        first = [a.sample() for _ in range(20)]
        self.assertEqual(first, [b.sample() for _ in range(20)])
        a.seed(42)
        self.assertEqual(first, [a.sample() for _ in range(20)])
        a.seed(43)
        self.assertNotEqual(first, [a.sample() for _ in range(20)])
        self.assertEqual(sample_json_schema(DISCRETE, random.Random(5)), sample_json_schema(DISCRETE, random.Random(5)))

    def test_unseeded_samplers_still_sample(self) -> None:
        self.assertTrue(JsonSchemaSampler(SQLENV_ACTION).contains(JsonSchemaSampler(SQLENV_ACTION).sample()))

    def test_contains_rejects_what_the_schema_rejects(self) -> None:
        bad = [
            ({"name": "describe", "arguments": {}}, "missing required property 'table_name'"),
            ({"name": "describe", "arguments": {"table_name": "t", "sql": "x"}}, "unexpected property 'sql'"),
            ({"name": "sample", "arguments": {"table_name": "t", "n": 21}}, "greater than the maximum 20"),
            ({"name": "sample", "arguments": {"table_name": "t", "n": True}}, "expected integer"),
            ({"name": "describe", "arguments": {"table_name": ""}}, "shorter than minLength 1"),
            ({"name": "drop", "arguments": {}}, "matches 0"),
            ("query", "expected object"),
        ]
        for value, why in bad:
            errors = json_schema_errors(SQLENV_ACTION, value)
            self.assertTrue(errors, value)
            self.assertIn(why, " ".join(errors), value)
            self.assertFalse(JsonSchemaSampler(SQLENV_ACTION).contains(value))
        self.assertTrue(JsonSchemaSampler(SQLENV_ACTION).contains({"name": "answer", "arguments": {"value": [["a", 1]]}}))
        self.assertFalse(JsonSchemaSampler(SPACE_SCHEMAS["Text(charset)"]).contains("abc"))
        self.assertFalse(JsonSchemaSampler(SPACE_SCHEMAS["Box(per-element, open sides)"]).contains([0, 9, 0]))
        self.assertFalse(JsonSchemaSampler(SPACE_SCHEMAS["Tuple"]).contains([3, "", "extra"]))

    def test_schemas_outside_the_subset_raise_a_clear_error(self) -> None:
        for schema, why in [
            ({"type": "string", "pattern": "^a+b$"}, "pattern"),
            ({"$ref": "#/defs/x"}, "$ref"),
            ({"enum": []}, "empty enum"),
            ({"type": "integer", "minimum": 2, "maximum": 1}, "no integer"),
            ({"type": "object", "properties": {"x": False}, "required": ["x"]}, "admits no value"),
        ]:
            with self.assertRaises(UnsupportedSchemaError) as caught:
                sample_json_schema(schema, random.Random(0))
            self.assertIn(why, str(caught.exception))


@unittest.skipUnless(SQL_URL, "SQLENV_SQL_URL is not set (the vitest runner sets it)")
class LiveSqlEnvSchemaTest(unittest.TestCase):
    def test_samples_of_the_served_schema_are_valid_and_playable(self) -> None:
        with connect(SQL_URL, transport="http") as session:
            schema = session.schema()
            actions = JsonSchemaSampler(schema["action"], seed=3)
            observations = JsonSchemaSampler(schema["observation"], seed=3)
            for _ in range(50):
                self.assertTrue(observations.contains(observations.sample()))
            first = session.reset(seed=0)
            # What the server sends is valid against what it publishes.
            self.assertEqual(json_schema_errors(schema["observation"], first.observation), [])
            names = set()
            for _ in range(24):
                action = actions.sample()
                self.assertEqual(actions.errors(action), [], action)
                names.add(action["name"])
                try:
                    result = session.step(action)
                except RemoteEnvError as err:  # pragma: no cover - the failure message is the point
                    self.fail(f"the server refused a sampled action {action!r}: {err.code} {err.message}")
                self.assertEqual(json_schema_errors(schema["observation"], result.observation), [])
                if result.done:
                    session.reset()
            self.assertGreaterEqual(len(names), 3)


if __name__ == "__main__":
    unittest.main()
