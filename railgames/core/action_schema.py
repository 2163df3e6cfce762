"""A game's union of actions, read by pydantic-core from a schema written here.

Each game reads actions from outside (a saved game, a message, a person) as one
discriminated union on ``type`` of its Action models. pydantic's ``TypeAdapter``
works the schema of that union out of the models when it is made, and loads its
plugin machinery (``importlib.metadata`` and the e-mail parser with it) on the
way: most of what a short command such as ``railgames replay`` spends on the
actions before the first one is played. ``ActionAdapter`` writes the same schema
itself from the models' fields, for the kinds of field actions have (text,
whole numbers and truth values with their bounds, literals, optional values,
lists and tuples of those, a before-validator taking the value alone), and has
pydantic-core validate with it: the same actions, the same checks and the same
messages (tests/test_action_schema.py holds the two to each other). A union
with any other kind of field is handed to a ``TypeAdapter`` as before, and so
is anything else asked of it (its JSON schema).
"""

from __future__ import annotations

import types
import typing
from typing import Any

_UNIONS = (typing.Union, types.UnionType)
_SCALARS = {str: "str", int: "int", bool: "bool"}
# annotated_types constraints (as pydantic keeps them in a field's metadata) -> the
# keyword of the core schema, for the kinds of value each applies to.
_BOUNDS = {"Ge": "ge", "Gt": "gt", "Le": "le", "Lt": "lt"}
_LENGTHS = {"MinLen": "min_length", "MaxLen": "max_length"}


class Unsupported(Exception):
    """A model or field this module does not write a schema for."""


def _constrained(schema: dict[str, Any], metadata: list[Any]) -> dict[str, Any]:
    for item in metadata:
        name = type(item).__name__
        if name in _BOUNDS and schema["type"] == "int":
            key = _BOUNDS[name]
            schema[key] = getattr(item, key)
        elif name in _LENGTHS and schema["type"] in ("str", "list", "tuple"):
            key = _LENGTHS[name]
            schema[key] = getattr(item, key)
        else:
            raise Unsupported(repr(item))
    return schema


def _type_schema(tp: Any) -> dict[str, Any]:
    if tp in _SCALARS:
        return {"type": _SCALARS[tp]}
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Literal:
        return {"type": "literal", "expected": list(args)}
    if origin in _UNIONS:
        rest = [a for a in args if a is not type(None)]
        if len(rest) != 1 or len(args) != 2:
            raise Unsupported(str(tp))
        return {"type": "nullable", "schema": _type_schema(rest[0])}
    if origin is list and len(args) == 1:
        return {"type": "list", "items_schema": _type_schema(args[0])}
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return {"type": "tuple", "items_schema": [_type_schema(args[0])], "variadic_item_index": 0}
    if origin is tuple and args and Ellipsis not in args:
        return {"type": "tuple", "items_schema": [_type_schema(a) for a in args]}
    raise Unsupported(str(tp))


def model_schema(cls: Any) -> dict[str, Any]:
    """The core schema pydantic makes for the Action model ``cls`` (as part of a union),
    without the parts that only serve its JSON schema."""
    from railgames.compat import before_validators, custom_serializers, plain_model

    config = dict(cls.model_config)
    extra = config.pop("extra", None)
    config.pop("frozen", None)
    config.pop("defer_build", None)
    if config or extra not in (None, "forbid", "ignore") or not plain_model(cls) \
            or custom_serializers(cls):
        raise Unsupported(f"{cls.__name__}: a model setting of its own")
    validators = before_validators(cls)
    if validators is None:
        raise Unsupported(f"{cls.__name__}: validators, serializers or an __init__ of its own")
    fields: dict[str, Any] = {}
    for name, info in cls.model_fields.items():
        if (info.alias is not None or info.validation_alias is not None
                or info.discriminator is not None or info.validate_default
                or info.default_factory is not None or info.frozen is not None):
            raise Unsupported(f"{cls.__name__}.{name}")
        schema = _constrained(_type_schema(info.annotation), list(info.metadata))
        for func in reversed(validators.pop(name, [])):
            schema = {"type": "function-before",
                      "function": {"type": "no-info", "function": func}, "schema": schema}
        if not info.is_required():
            schema = {"type": "default", "default": info.default, "schema": schema}
        fields[name] = {"type": "model-field", "schema": schema}
    if validators:
        raise Unsupported(f"{cls.__name__}: a validator of fields it does not have")
    model_config: dict[str, Any] = {"title": cls.__name__}
    if extra is not None:
        model_config["extra_fields_behavior"] = extra
    return {"type": "model", "cls": cls, "config": model_config, "custom_init": False,
            "root_model": False,
            "schema": {"type": "model-fields", "model_name": cls.__name__, "fields": fields,
                       "computed_fields": []}}


def union_schema(union: Any) -> dict[str, Any]:
    """The core schema of ``Annotated[A | B | ..., Field(discriminator="type")]``."""
    if typing.get_origin(union) is not typing.Annotated:
        raise Unsupported(str(union))
    inner, *extras = typing.get_args(union)
    if len(extras) != 1 or getattr(extras[0], "discriminator", None) != "type" \
            or typing.get_origin(inner) not in _UNIONS:
        raise Unsupported(str(union))
    choices: dict[Any, Any] = {}
    for cls in typing.get_args(inner):
        tag = cls.model_fields["type"]
        if typing.get_origin(tag.annotation) is not typing.Literal:
            raise Unsupported(f"{cls.__name__}: its type is not a literal")
        for value in typing.get_args(tag.annotation):
            if value in choices:
                raise Unsupported(f"two actions of type {value!r}")
            choices[value] = model_schema(cls)
    return {"type": "tagged-union", "choices": choices, "discriminator": "type",
            "strict": False, "from_attributes": True}


class ActionAdapter:
    """``TypeAdapter(union)`` for a game's discriminated union of actions, validating
    through the schema ``union_schema`` writes (or pydantic's own where it writes
    none); anything else asked of it is asked of a ``TypeAdapter``."""

    def __init__(self, union: Any) -> None:
        self.union = union
        self._validator: Any = None
        self._adapter: Any = None

    @property
    def type_adapter(self) -> Any:
        """pydantic's ``TypeAdapter`` of the union, made when first asked for."""
        if self._adapter is None:
            from pydantic import TypeAdapter

            self._adapter = TypeAdapter(self.union)
        return self._adapter

    @property
    def validator(self) -> Any:
        if self._validator is None:
            try:
                schema = union_schema(self.union)
            except Unsupported:
                self._validator = self.type_adapter.validator
            else:
                from pydantic_core import SchemaValidator

                self._validator = SchemaValidator(schema)  # type: ignore[arg-type]
        return self._validator

    def validate_python(self, obj: Any, /, *, strict: bool | None = None) -> Any:
        return self.validator.validate_python(obj, strict=strict)

    def validate_json(self, data: str | bytes, /, *, strict: bool | None = None) -> Any:
        return self.validator.validate_json(data, strict=strict)

    def json_schema(self, **kwargs: Any) -> dict[str, Any]:
        schema: dict[str, Any] = self.type_adapter.json_schema(**kwargs)
        return schema

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.type_adapter, name)
