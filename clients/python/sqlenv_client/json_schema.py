"""Sample and check values of the JSON Schemas a server's ``/schema`` publishes (standard library only).

``/schema`` describes each space with the JSON Schema its ``toJSONSchema()`` writes: objects
(``properties``/``required``/``additionalProperties``), strings (``minLength``/``maxLength``,
and a ``^[...]*$`` ``pattern`` for Text spaces with a charset), integers and numbers
(``minimum``/``maximum`` and the exclusive forms), booleans, ``null``, ``const``/``enum``,
arrays (``items``, ``prefixItems``, ``minItems``/``maxItems``; Box's per-element ``x-low``/``x-high``)
and ``oneOf``/``anyOf`` (tool calls: one branch per tool). :func:`sample_json_schema` draws a
value valid against such a schema; :func:`json_schema_errors` checks one.

:class:`JsonSchemaSampler` holds a schema and a seeded generator; the Gymnasium adapter's
``JsonSchemaSpace`` (``sqlenv_client.gym_env``) delegates to it.
"""
import math
import random
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

__all__ = ["JsonSchemaSampler", "UnsupportedSchemaError", "json_schema_errors", "sample_json_schema"]

#: Span used for numbers bounded on one side or none, so generated values stay readable.
DEFAULT_NUMBER_SPAN = 100
#: Generated strings have at most ``minLength`` + this many characters.
DEFAULT_STRING_SLACK = 12
#: Generated arrays have at most ``minItems`` + this many items (beyond ``prefixItems``).
DEFAULT_ARRAY_SLACK = 3
STRING_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ "
#: The pattern Text spaces with a charset publish: ``^[\\uXXXX...]*$``.
_CHARSET_PATTERN = re.compile(r"^\^\[((?:\\u[0-9a-fA-F]{4})*)\]\*\$$")
_UNSUPPORTED = ("$ref", "allOf", "not", "if", "patternProperties", "uniqueItems")


class UnsupportedSchemaError(ValueError):
    """A schema :func:`sample_json_schema` cannot generate values for (with the path of the part)."""

    def __init__(self, message: str, path: str):
        super().__init__(
            f"{message} (at {path or '/'}). The sampler supports type, const, enum, oneOf/anyOf, "
            "minimum/maximum (and exclusive), minLength/maxLength, Text charset patterns, "
            "items/prefixItems/minItems/maxItems, properties/required."
        )
        self.path = path


def sample_json_schema(schema: Any, rng: random.Random, path: str = "") -> Any:
    """A random value valid against ``schema`` (see the module docstring for the subset).

    Optional object properties are included with probability ½; strings are drawn from
    letters, digits, ``_`` and space (or the Text charset); open numeric ranges span 100.

    Example::

        sample_json_schema({"type": "integer", "minimum": 1, "maximum": 6}, random.Random(0))  # 4
    """
    if schema is True or (isinstance(schema, dict) and not _has_constraints(schema)):
        return rng.choice([0, "x", True, None])
    if schema is False or not isinstance(schema, dict):
        raise UnsupportedSchemaError(f"the schema {schema!r} admits no value", path)
    if "const" in schema:
        return _copy(schema["const"])
    if isinstance(schema.get("enum"), list):
        if not schema["enum"]:
            raise UnsupportedSchemaError("an empty enum admits no value", path)
        return _copy(rng.choice(schema["enum"]))
    for keyword in ("oneOf", "anyOf"):
        branches = schema.get(keyword)
        if isinstance(branches, list) and branches:
            index = rng.randrange(len(branches))
            return sample_json_schema(branches[index], rng, f"{path}/{keyword}/{index}")
    for keyword in _UNSUPPORTED:
        if schema.get(keyword) not in (None, False):
            raise UnsupportedSchemaError(f"keyword '{keyword}' is not supported", path)
    kind = _pick_type(schema, rng, path)
    if kind == "string":
        return _sample_string(schema, rng, path)
    if kind == "integer":
        return _sample_integer(schema, rng, path)
    if kind == "number":
        return _sample_number(schema, rng, path)
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "null":
        return None
    if kind == "array":
        return _sample_array(schema, rng, path)
    if kind == "object":
        return _sample_object(schema, rng, path)
    raise UnsupportedSchemaError(f"unknown type {kind!r}", path)


def json_schema_errors(schema: Any, value: Any, path: str = "$") -> List[str]:
    """What is wrong with ``value`` against ``schema`` (an empty list when it is valid).

    Checks the same subset :func:`sample_json_schema` generates, plus ``allOf``.

    Example::

        json_schema_errors({"type": "integer", "maximum": 3}, 5)  # ['$: 5 is greater than the maximum 3']
    """
    if schema is True or schema == {}:
        return []
    if schema is False or not isinstance(schema, dict):
        return [f"{path}: no value is allowed here"]
    errors: List[str] = []
    if "const" in schema and not _same(value, schema["const"]):
        errors.append(f"{path}: must be {schema['const']!r}")
    if isinstance(schema.get("enum"), list) and not any(_same(value, v) for v in schema["enum"]):
        errors.append(f"{path}: must be one of {schema['enum']!r}")
    kinds = schema.get("type")
    if kinds is not None:
        kinds = kinds if isinstance(kinds, list) else [kinds]
        if not any(_is_type(value, k) for k in kinds):
            errors.append(f"{path}: expected {' or '.join(map(str, kinds))}, got {type(value).__name__}")
            return errors
    if isinstance(value, str):
        errors += _string_errors(schema, value, path)
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        errors += _number_errors(schema, value, path)
    elif isinstance(value, (list, tuple)):
        errors += _array_errors(schema, list(value), path)
    elif isinstance(value, dict):
        errors += _object_errors(schema, value, path)
    if isinstance(schema.get("oneOf"), list):
        matches = [i for i, s in enumerate(schema["oneOf"]) if not json_schema_errors(s, value, path)]
        if len(matches) != 1:
            errors.append(f"{path}: must match exactly one oneOf branch, matches {len(matches)}{_branch_hint(schema['oneOf'], value)}")
    if isinstance(schema.get("anyOf"), list):
        if all(json_schema_errors(s, value, path) for s in schema["anyOf"]):
            errors.append(f"{path}: matches no anyOf branch{_branch_hint(schema['anyOf'], value)}")
    if isinstance(schema.get("allOf"), list):
        for s in schema["allOf"]:
            errors += json_schema_errors(s, value, path)
    return errors


class JsonSchemaSampler:
    """A space known by its JSON Schema: seeded :meth:`sample` and strict :meth:`contains`.

    Example::

        actions = JsonSchemaSampler(schema["action"], seed=0)   # schema = GET /schema
        action = actions.sample()      # e.g. {"name": "sample", "arguments": {"table_name": "k3 x", "n": 7}}
        actions.contains(action)       # True
    """

    def __init__(self, schema: Dict[str, Any], seed: Optional[int] = None):
        self.schema = schema
        self._rng = random.Random()
        self.seed(seed)

    def seed(self, seed: Optional[int] = None) -> List[int]:
        """Seed the generator (a random seed when ``None``); returns ``[seed]`` as Gymnasium does."""
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        self._rng = random.Random(int(seed))
        return [int(seed)]

    def sample(self) -> Any:
        """A value valid against the schema (raises :class:`UnsupportedSchemaError` outside the subset)."""
        return sample_json_schema(self.schema, self._rng)

    def contains(self, x: Any) -> bool:
        """Whether ``x`` is valid against the schema."""
        return not json_schema_errors(self.schema, x)

    def errors(self, x: Any) -> List[str]:
        """Why ``x`` is not valid (empty when it is)."""
        return json_schema_errors(self.schema, x)


# ---- sampling -------------------------------------------------------------------------------


def _has_constraints(schema: Dict[str, Any]) -> bool:
    annotations = {"title", "description", "default", "examples", "$schema", "$id", "$comment"}
    return any(k not in annotations and not k.startswith("x-") for k in schema)


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


def _pick_type(schema: Dict[str, Any], rng: random.Random, path: str) -> str:
    kind = schema.get("type")
    if isinstance(kind, str):
        return kind
    if isinstance(kind, list) and kind:
        return str(rng.choice(kind))
    if kind is not None:
        raise UnsupportedSchemaError("`type` must be a string or a non-empty list", path)
    # Untyped: infer from the keywords present, as validators would accept.
    if "properties" in schema or "required" in schema:
        return "object"
    if "items" in schema or "prefixItems" in schema or "minItems" in schema:
        return "array"
    if any(k in schema for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")):
        return "number"
    return "string"


def _sample_string(schema: Dict[str, Any], rng: random.Random, path: str) -> str:
    alphabet: Sequence[str] = STRING_ALPHABET
    pattern = schema.get("pattern")
    if pattern is not None:
        match = _CHARSET_PATTERN.match(str(pattern))
        if not match:
            raise UnsupportedSchemaError(f"pattern {pattern!r} is not supported (only Text charsets ^[...]*$)", path)
        alphabet = [chr(int(h, 16)) for h in re.findall(r"\\u([0-9a-fA-F]{4})", match.group(1))]
    low = int(_number_or(schema.get("minLength"), 0))
    high = int(min(_number_or(schema.get("maxLength"), float("inf")), low + DEFAULT_STRING_SLACK))
    if high < low:
        raise UnsupportedSchemaError(f"no string has between {low} and {high} characters", path)
    length = rng.randint(low, high)
    if length > 0 and not alphabet:
        raise UnsupportedSchemaError("an empty charset admits only the empty string", path)
    return "".join(rng.choice(alphabet) for _ in range(length))


def _bounds(schema: Dict[str, Any]) -> Tuple[Tuple[float, bool], Tuple[float, bool]]:
    """(value, exclusive) for each side, closing an open side with DEFAULT_NUMBER_SPAN."""
    lo: Optional[Tuple[float, bool]] = None
    hi: Optional[Tuple[float, bool]] = None
    if _is_number(schema.get("exclusiveMinimum")):
        lo = (schema["exclusiveMinimum"], True)
    elif _is_number(schema.get("minimum")):
        lo = (schema["minimum"], False)
    if _is_number(schema.get("exclusiveMaximum")):
        hi = (schema["exclusiveMaximum"], True)
    elif _is_number(schema.get("maximum")):
        hi = (schema["maximum"], False)
    if lo is None and hi is None:
        return (-DEFAULT_NUMBER_SPAN, False), (DEFAULT_NUMBER_SPAN, False)
    if lo is None:
        assert hi is not None
        lo = (hi[0] - DEFAULT_NUMBER_SPAN, False)
    if hi is None:
        hi = (lo[0] + DEFAULT_NUMBER_SPAN, False)
    return lo, hi


def _sample_integer(schema: Dict[str, Any], rng: random.Random, path: str) -> int:
    (lo, lo_ex), (hi, hi_ex) = _bounds(schema)
    low = math.floor(lo) + 1 if lo_ex else math.ceil(lo)
    high = math.ceil(hi) - 1 if hi_ex else math.floor(hi)
    if low > high:
        raise UnsupportedSchemaError(f"no integer lies in [{low}, {high}]", path)
    return rng.randint(low, high)


def _sample_number(schema: Dict[str, Any], rng: random.Random, path: str) -> float:
    (lo, lo_ex), (hi, hi_ex) = _bounds(schema)
    if lo > hi or (lo == hi and (lo_ex or hi_ex)):
        raise UnsupportedSchemaError(f"no number lies between {lo} and {hi}", path)
    while True:
        x = lo + (hi - lo) * rng.random()
        if (not lo_ex or x > lo) and (not hi_ex or x < hi):
            return float(x)


def _sample_array(schema: Dict[str, Any], rng: random.Random, path: str) -> List[Any]:
    prefix = schema.get("prefixItems") if isinstance(schema.get("prefixItems"), list) else []
    items = schema.get("items", True)
    if isinstance(items, list):
        raise UnsupportedSchemaError("tuple-form `items` is not supported (use prefixItems)", path)
    low = int(_number_or(schema.get("minItems"), 0))
    high = int(min(_number_or(schema.get("maxItems"), float("inf")), max(low, len(prefix)) + DEFAULT_ARRAY_SLACK))
    if items is False:
        high = min(high, len(prefix))
    if high < low:
        raise UnsupportedSchemaError(f"no array has between {low} and {high} items", path)
    length = rng.randint(max(low, 0), high)
    out = []
    for i in range(length):
        sub = prefix[i] if i < len(prefix) else _element_schema(schema, items, i)
        out.append(sample_json_schema(sub, rng, f"{path}/items/{i}"))
    return out


def _element_schema(schema: Dict[str, Any], items: Any, i: int) -> Any:
    """``items``, narrowed by Box's per-element ``x-low``/``x-high`` bounds when published."""
    low, high = schema.get("x-low"), schema.get("x-high")
    if not isinstance(items, dict) or not isinstance(low, list) or not isinstance(high, list) or i >= min(len(low), len(high)):
        return items
    sub = dict(items)
    if _is_number(low[i]):
        sub["minimum"] = max(low[i], sub["minimum"]) if _is_number(sub.get("minimum")) else low[i]
    if _is_number(high[i]):
        sub["maximum"] = min(high[i], sub["maximum"]) if _is_number(sub.get("maximum")) else high[i]
    return sub


def _sample_object(schema: Dict[str, Any], rng: random.Random, path: str) -> Dict[str, Any]:
    properties = schema.get("properties") or {}
    required = [k for k in (schema.get("required") or []) if isinstance(k, str)]
    out: Dict[str, Any] = {}
    for key, sub in properties.items():
        if key in required or rng.random() < 0.5:
            out[key] = sample_json_schema(sub, rng, f"{path}/properties/{key}")
    extra = schema.get("additionalProperties", True)
    for key in required:
        if key not in out:
            out[key] = sample_json_schema(extra if isinstance(extra, dict) else True, rng, f"{path}/required/{key}")
    return out


# ---- checking -------------------------------------------------------------------------------


def _string_errors(schema: Dict[str, Any], value: str, path: str) -> List[str]:
    errors = []
    if _is_number(schema.get("minLength")) and len(value) < schema["minLength"]:
        errors.append(f"{path}: shorter than minLength {schema['minLength']}")
    if _is_number(schema.get("maxLength")) and len(value) > schema["maxLength"]:
        errors.append(f"{path}: longer than maxLength {schema['maxLength']}")
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        try:
            if re.search(pattern, value) is None:
                errors.append(f"{path}: does not match the pattern {pattern!r}")
        except re.error:
            pass  # a JavaScript-only pattern: the server judges it
    return errors


def _number_errors(schema: Dict[str, Any], value: float, path: str) -> List[str]:
    errors = []
    if _is_number(schema.get("minimum")) and value < schema["minimum"]:
        errors.append(f"{path}: {value} is less than the minimum {schema['minimum']}")
    if _is_number(schema.get("maximum")) and value > schema["maximum"]:
        errors.append(f"{path}: {value} is greater than the maximum {schema['maximum']}")
    if _is_number(schema.get("exclusiveMinimum")) and value <= schema["exclusiveMinimum"]:
        errors.append(f"{path}: {value} is not greater than {schema['exclusiveMinimum']}")
    if _is_number(schema.get("exclusiveMaximum")) and value >= schema["exclusiveMaximum"]:
        errors.append(f"{path}: {value} is not less than {schema['exclusiveMaximum']}")
    return errors


def _array_errors(schema: Dict[str, Any], value: List[Any], path: str) -> List[str]:
    errors = []
    if _is_number(schema.get("minItems")) and len(value) < schema["minItems"]:
        errors.append(f"{path}: fewer than minItems {schema['minItems']} items")
    if _is_number(schema.get("maxItems")) and len(value) > schema["maxItems"]:
        errors.append(f"{path}: more than maxItems {schema['maxItems']} items")
    prefix = schema.get("prefixItems") if isinstance(schema.get("prefixItems"), list) else []
    items = schema.get("items", True)
    for i, element in enumerate(value):
        sub = prefix[i] if i < len(prefix) else (_element_schema(schema, items, i) if not isinstance(items, list) else True)
        errors += json_schema_errors(sub, element, f"{path}[{i}]")
    return errors


def _object_errors(schema: Dict[str, Any], value: Dict[str, Any], path: str) -> List[str]:
    errors = []
    properties = schema.get("properties") or {}
    for key in schema.get("required") or []:
        if key not in value:
            errors.append(f"{path}: missing required property {key!r}")
    extra = schema.get("additionalProperties", True)
    for key, element in value.items():
        if key in properties:
            errors += json_schema_errors(properties[key], element, f"{path}.{key}")
        elif extra is False:
            errors.append(f"{path}: unexpected property {key!r}")
        elif isinstance(extra, dict):
            errors += json_schema_errors(extra, element, f"{path}.{key}")
    return errors


def _branch_hint(branches: List[Any], value: Any) -> str:
    """For tool calls: the errors of the branch whose ``name`` const matches (or why none can)."""
    if not isinstance(value, dict):
        if branches and all(isinstance(b, dict) and b.get("type") == "object" for b in branches):
            return f" (expected object, got {type(value).__name__})"
        return ""
    for branch in branches:
        name = ((branch or {}).get("properties") or {}).get("name") if isinstance(branch, dict) else None
        if isinstance(name, dict) and "const" in name and _same(value.get("name"), name["const"]):
            return f" ({'; '.join(json_schema_errors(branch, value))})"
    return ""


def _is_type(value: Any, kind: str) -> bool:
    if kind == "null":
        return value is None
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        return (isinstance(value, int) and not isinstance(value, bool)) or (isinstance(value, float) and value.is_integer())
    if kind == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if kind == "string":
        return isinstance(value, str)
    if kind == "array":
        return isinstance(value, (list, tuple))
    if kind == "object":
        return isinstance(value, dict)
    return True  # unknown type names: the server judges


def _same(a: Any, b: Any) -> bool:
    """JSON equality: ``True`` is not ``1``."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _number_or(value: Any, fallback: float) -> float:
    return value if _is_number(value) else fallback
