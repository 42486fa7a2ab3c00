"""The configuration file: one TOML schema, one validator, sections owned by the parts of the program.

Every key is optional and has a documented default. A part of the program declares its section with
:func:`register_section` (a list of :class:`Field` and, if keys depend on each other, a ``validate``
hook); :func:`load_config` reads the file once, before anything starts, and reports *every* problem
at once as a :class:`ConfigError` whose lines name the file, the dotted key and the reason::

    /etc/slapbox/config.toml: game.options.wrong_slap: expected one of 'pot-2', 'pot-1', 'pot-3', 'bottom-1'..'bottom-3', 'lockout', 'lockout-1'..'lockout-10', 'gift', 'none', got 'pot-4'

Sections declared elsewhere are listed in :data:`SECTION_MODULES`; they are imported before a file
is validated, so their keys are known (a module missing from the checkout is skipped).
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import json
import math
import os
import re
import stat
import textwrap
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from device.errors import SlapboxError

DEFAULT_PATH = "/etc/slapbox/config.toml"
ENV_VAR = "SLAPBOX_CONFIG"

# Modules that call register_section() at import; add a line when a part of the program gets one.
SECTION_MODULES: list[str] = ["device.table.config", "device.screen.config", "device.inputs.config",
                              "device.service.config"]

Check = Callable[[Any], Any]
ErrorFn = Callable[[str, str], None]  # (key relative to the section, reason)
Validate = Callable[[dict[str, Any], ErrorFn], None]

KINDS = ("bool", "int", "number", "str", "list[str]", "list[int]", "table", "any")


class ConfigError(SlapboxError):
    """The configuration cannot be used; ``errors`` holds one line per problem."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("\n".join(errors))
        self.errors = list(errors)


MAX_DEPTH = 8          # values nested deeper than this (lists in lists ...) are refused
MAX_DIGITS = 19        # whole numbers beyond 64 bits are refused (no key needs them)
MAX_BYTES = 1 << 20    # a configuration file is small
SHOW_CHARS = 80        # a value quoted in a message is cut there


def show(value: Any, _depth: int = 0) -> str:
    """A value as the user wrote it in TOML (``true``, ``'pot-3'``, ``[1, 2]``), for messages;
    a long one is cut, a huge number is given by its digits."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    if hasattr(value, "isoformat"):  # TOML dates and times
        return str(value.isoformat())
    if is_int(value) and abs(value) >= 10 ** MAX_DIGITS:
        return f"a number of {len(str(abs(value))):,} digits"
    if isinstance(value, (list, tuple)):
        if _depth >= 3:
            return "[…]"
        text = "[" + ", ".join(show(v, _depth + 1) for v in value[:20]) + (", …]" if len(value) > 20 else "]")
    else:
        text = repr(value)
    return text if len(text) <= SHOW_CHARS else text[:SHOW_CHARS - 1] + "…"


def _shape(value: Any) -> tuple[int, Any]:
    """How deep ``value`` nests (a scalar is 0, ``[1]`` is 1), counted without recursion, and its
    first whole number beyond 64 bits (None if none)."""
    deepest, huge = 0, None
    stack = [(value, 0)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            v = list(v.values())
        if isinstance(v, list):
            deepest = max(deepest, d + 1)
            stack.extend((x, d + 1) for x in v)
        elif huge is None and is_int(v) and abs(v) >= 10 ** MAX_DIGITS:
            huge = v
    return deepest, huge


@dataclass(frozen=True)
class Field:
    """One key of a section: its TOML kind, default, doc line and optional extra check.

    ``choices``, ``low`` and ``high`` cover the common cases; ``check(value)`` returns the value to
    keep (normalised) or raises ValueError whose text is the reason shown to the user. A ``table``
    field is a sub-table (``[game.options]``) whose keys the section's ``validate`` hook checks;
    ``key_doc(key)`` gives the comment written above each of its keys by ``to_toml``.
    """

    name: str
    kind: str
    default: Any
    doc: str
    check: Check | None = None
    choices: tuple[Any, ...] = ()
    low: float | None = None
    high: float | None = None
    key_doc: Callable[[str], str] | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"field {self.name}: kind must be one of {', '.join(KINDS)}, not {self.kind!r}")

    def describe(self) -> str:
        """What the key accepts, in words (the ``expected ...`` part of an error)."""
        if self.choices:
            return "one of " + ", ".join(show(c) for c in self.choices)
        rng = ""
        if self.low is not None and self.high is not None:
            rng = f" from {num(self.low)} to {num(self.high)}"
        elif self.low is not None:
            rng = f" >= {num(self.low)}"
        return {
            "bool": "true or false",
            "int": "a whole number" + rng,
            "number": "a number" + rng,
            "str": "a string",
            "list[str]": "a list of strings",
            "list[int]": "a list of whole numbers" + rng,
            "table": "a table",
            "any": "a value",
        }[self.kind]

    def validate(self, value: Any) -> Any:
        """The value to keep, or ValueError with the reason."""
        if not self._type_ok(value):
            raise ValueError(f"expected {self.describe()}, got {show(value)}")
        if self.choices and value not in self.choices:
            raise ValueError(f"expected {self.describe()}, got {show(value)}")
        items = value if self.kind == "list[int]" else [value] if self.kind in ("int", "number") else []
        for v in items:
            if (self.low is not None and v < self.low) or (self.high is not None and v > self.high):
                raise ValueError(f"expected {self.describe()}, got {show(value)}")
        if isinstance(value, list):
            value = list(value)
        return self.check(value) if self.check is not None else value

    def _type_ok(self, value: Any) -> bool:
        k = self.kind
        if k == "bool":
            return isinstance(value, bool)
        if k == "int":
            return is_int(value)
        if k == "number":
            return (is_int(value) or isinstance(value, float)) and math.isfinite(value)
        if k == "str":
            return isinstance(value, str)
        if k == "list[str]":
            return isinstance(value, list) and all(isinstance(v, str) for v in value)
        if k == "list[int]":
            return isinstance(value, list) and all(is_int(v) for v in value)
        if k == "table":
            return isinstance(value, dict)
        return True


@dataclass(frozen=True)
class SectionSpec:
    """A registered section: ``[name]``, its doc, its fields in order, its cross-key check."""

    name: str
    fields: tuple[Field, ...]
    doc: str
    validate: Validate | None = None

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields if f.name == name), None)


class Schema:
    """The one schema: every registered section. Tests build their own; the program uses SCHEMA."""

    def __init__(self) -> None:
        self.sections: dict[str, SectionSpec] = {}

    def register_section(self, name: str, fields: Iterable[Field], doc: str, *,
                         validate: Validate | None = None) -> SectionSpec:
        """Declare ``[name]``; called once by the module that owns the section."""
        if name in self.sections:
            raise ValueError(f"config section [{name}] is already registered")
        fields = tuple(fields)
        names = [f.name for f in fields]
        if len(set(names)) != len(names):
            raise ValueError(f"config section [{name}] declares a key twice")
        spec = SectionSpec(name, fields, doc, validate)
        self.sections[name] = spec
        return spec

    def defaults(self) -> Config:
        """Every section with every default (what a missing default file gives)."""
        return self.validate({}, "<defaults>")

    def validate(self, data: Mapping[str, Any], path: str) -> Config:
        """Check parsed TOML against the schema; all problems at once as a ConfigError."""
        errors: list[str] = []

        def err(key: str, reason: str) -> None:
            errors.append(f"{path}: {key}: {reason}")

        for key, value in data.items():
            if key not in self.sections:
                err(key, self._unknown_top(key, value))
            elif not isinstance(value, dict):
                err(key, f"expected a table ([{key}]), got {show(value)}")
        sections = {}
        for spec in self.sections.values():
            raw = data.get(spec.name)
            raw = _refuse_shapes(spec, raw, err) if isinstance(raw, dict) else {}
            sections[spec.name] = _validate_section(spec, raw, err)
        if errors:
            raise ConfigError(errors)
        return Config(path, sections, self)

    def _unknown_top(self, key: str, value: Any) -> str:
        what = "section" if isinstance(value, dict) else "key"
        owners = [s.name for s in self.sections.values() if s.field(key) is not None]
        if owners:
            hint = f" (did you mean {owners[0]}.{key}, under [{owners[0]}]?)"
        else:
            hint = did_you_mean(key, self.sections) or f"; sections are: {', '.join(self.sections)}"
        return f"unknown {what}{hint}"


def expected(f: Field | None) -> str:
    """What a key accepts, for a value of no possible use (a huge number, a deep nesting)."""
    return f.describe() if f is not None and f.kind != "any" else "a value of the key's kind"


def _refuse_shapes(spec: SectionSpec, raw: dict[str, Any], err: ErrorFn) -> dict[str, Any]:
    """``raw`` without the values no key can use (nested over MAX_DEPTH levels, whole numbers
    over MAX_DIGITS digits), each reported once at its key; whatever shape the file gave."""
    kept: dict[str, Any] = {}
    for key, value in raw.items():
        f = spec.field(key)
        inner = value.items() if f is not None and f.kind == "table" and isinstance(value, dict) \
            else [(None, value)]
        ok = True
        for sub, v in inner:
            depth, huge = _shape(v)
            where = f"{spec.name}.{key}" if sub is None else f"{spec.name}.{key}.{sub}"
            want = expected(f) if sub is None else "an option value"
            if depth > MAX_DEPTH:
                err(where, f"expected {want}, got a value nested {depth} levels deep")
                ok = False
            elif huge is not None:
                err(where, f"expected {want}, got {show(huge)}")
                ok = False
        if ok:
            kept[key] = value
    return kept


def _validate_section(spec: SectionSpec, raw: dict[str, Any], err: ErrorFn) -> Section:
    values: dict[str, Any] = {}
    given: dict[str, Any] = {}
    for key, value in raw.items():
        f = spec.field(key)
        if f is None:
            err(f"{spec.name}.{key}", "unknown key" + did_you_mean(key, [g.name for g in spec.fields]))
            continue
        try:
            given[key] = f.validate(value)
        except ValueError as e:
            err(f"{spec.name}.{key}", str(e))
    for f in spec.fields:
        if f.name in given:
            values[f.name] = given[f.name]
        elif f.name not in raw:
            values[f.name] = _copy(f.default)
    if spec.validate is not None:
        # Keys that failed their own check are absent, so the hook never judges a bad value twice.
        spec.validate(values, lambda key, reason: err(f"{spec.name}.{key}", reason))
    for f in spec.fields:  # a failed key holds its default while the other sections are checked
        values.setdefault(f.name, _copy(f.default))
    return Section(spec.name, {f.name: values[f.name] for f in spec.fields}, given)


class Section(Mapping[str, Any]):
    """The effective values of one section: ``section["key"]`` or ``section.key``.

    ``given`` holds only the keys the file set, as written (``[game.options]`` before the preset's
    defaults are added), e.g. to resolve the options again when the command line picks another preset.
    """

    def __init__(self, name: str, values: dict[str, Any], given: dict[str, Any]) -> None:
        self._name = name
        self._values = values
        self.given = given

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __getattr__(self, key: str) -> Any:
        try:
            return self.__dict__["_values"][key]
        except KeyError:
            raise AttributeError(f"config section [{self._name}] has no key {key!r}") from None

    def __repr__(self) -> str:
        return f"Section({self._name!r}, {self._values!r})"


class Config:
    """The effective configuration: ``cfg.game.preset``, ``cfg.section("timing")["settle_ms"]``."""

    def __init__(self, path: str, sections: dict[str, Section], schema: Schema, found: bool = True) -> None:
        self.path = path
        self.found = found  # False: the default file does not exist, every key has its default
        self._sections = sections
        self._schema = schema

    def section(self, name: str) -> Section:
        return self._sections[name]

    def __getattr__(self, name: str) -> Section:
        try:
            section: Section = self.__dict__["_sections"][name]
            return section
        except KeyError:
            raise AttributeError(f"no config section [{name}]") from None

    def as_dict(self) -> dict[str, dict[str, Any]]:
        """Plain nested dicts of the effective values (for the journal header, for tests)."""
        return {name: dict(sec) for name, sec in self._sections.items()}

    def to_toml(self) -> str:
        """The effective configuration as a commented TOML file that loads back to the same values."""
        out = ["# slapbox configuration: the effective values, defaults filled in.",
               "# Every key is optional; delete a line to get its default back.",
               "# Seat and station numbers in this file count from 0: seat 0 is the screen's seat 1.", ""]
        for spec in self._schema.sections.values():
            sec = self._sections[spec.name]
            out += _comment(spec.doc)
            out.append(f"[{spec.name}]")
            tables = []
            for f in spec.fields:
                if f.kind == "table":
                    tables.append(f)
                    continue
                doc = f.doc if f.kind == "any" else f"{f.doc} ({f.describe()})"
                out += _comment(doc)
                out.append(f"{_key(f.name)} = {toml_value(sec[f.name])}")
            for f in tables:
                out.append("")
                out += _comment(f.doc)
                out.append(f"[{spec.name}.{_key(f.name)}]")
                for k, v in sec[f.name].items():
                    if f.key_doc is not None:
                        out += _comment(f.key_doc(k))
                    out.append(f"{_key(k)} = {toml_value(v)}")
            out.append("")
        return "\n".join(out)


def toml_value(value: Any) -> str:
    """A value in TOML syntax. ``None`` is written ``"none"``, the config's word for "no value"."""
    if value is None:
        return '"none"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        # A JSON string (non-ASCII kept) is a valid TOML basic string.
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)} = {toml_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"cannot write {value!r} as TOML")


def _key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k, ensure_ascii=False)


def _comment(doc: str) -> list[str]:
    lines: list[str] = []
    for para in doc.splitlines():
        lines += textwrap.wrap(para, width=98, break_on_hyphens=False) or [""]
    return [f"# {line}".rstrip() for line in lines]


def did_you_mean(key: str, candidates: Iterable[str]) -> str:
    close = difflib.get_close_matches(key, list(candidates), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _copy(v: Any) -> Any:
    if isinstance(v, list):
        return list(v)
    if isinstance(v, dict):
        return dict(v)
    return v


SCHEMA = Schema()
register_section = SCHEMA.register_section


def ms_to_ns(ms: float) -> int:
    """A config duration in milliseconds as the clock's integer nanoseconds."""
    return round(ms * 1_000_000)


def resolve_path(path: str | None) -> tuple[str, bool]:
    """The file to read and whether it was named explicitly (``--config`` or $SLAPBOX_CONFIG)."""
    if path:
        return path, True
    env = os.environ.get(ENV_VAR)
    if env:
        return env, True
    return DEFAULT_PATH, False


def load_config(path: str | None = None, *, schema: Schema | None = None) -> Config:
    """Read and check the configuration file; a missing *default* file means every default."""
    schema = schema if schema is not None else _program_schema()
    path, explicit = resolve_path(path)
    try:
        data = _read_small_file(path)
    except FileNotFoundError:
        if not explicit:
            cfg = schema.defaults()
            cfg.path, cfg.found = path, False
            return cfg
        raise ConfigError([f"{path}: no such file"]) from None
    except IsADirectoryError:
        raise ConfigError([f"{path}: is a directory, expected a TOML file"]) from None
    except _NotRegular as e:
        raise ConfigError([f"{path}: {e}"]) from None
    except OSError as e:
        raise ConfigError([f"{path}: cannot read: {e.strerror or e}"]) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise ConfigError([f"{path}: line {line}, column {col}: not UTF-8 text (save the file as UTF-8)"]) from None
    text = text.removeprefix("\ufeff")  # a byte-order mark, as some Windows editors write
    try:
        parsed = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError([f"{path}: {_syntax_error(str(e))}"]) from None
    except ValueError:  # Python's int() refuses over 4,300 digits
        raise ConfigError([f"{path}: {_long_number(text, schema)}"]) from None
    except RecursionError:
        raise ConfigError([f"{path}: {_too_deep(text, schema)}"]) from None
    return schema.validate(parsed, path)


class _NotRegular(OSError):
    """The path names a FIFO, a device or a socket: never read (a FIFO would block)."""


_FILE_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
               (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _read_small_file(path: str) -> bytes:
    """The bytes of a regular file of at most MAX_BYTES; opened without blocking, so that a
    FIFO is refused instead of waited on."""
    if os.path.realpath(path) == os.devnull:
        return b""  # /dev/null: the empty file (every default), as the shell idiom means it
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(path)
        if not stat.S_ISREG(st.st_mode):
            what = next((name for test, name in _FILE_KINDS if test(st.st_mode)), "not a file")
            raise _NotRegular(f"not a regular file ({what}), expected a TOML file")
        if st.st_size > MAX_BYTES:
            raise _NotRegular(f"{st.st_size:,} bytes, expected a TOML file of at most {MAX_BYTES:,}")
        with os.fdopen(fd, "rb") as fh:
            fd = -1
            return fh.read(MAX_BYTES + 1)
    finally:
        if fd >= 0:
            os.close(fd)


def _key_at(text: str, line_no: int, schema: Schema) -> tuple[str, Field | None]:
    """The dotted key written on line ``line_no`` (1-based) of ``text`` and its field, if known:
    the last ``[table]`` header above it and the key before its ``=``."""
    lines = text.splitlines()
    key = lines[line_no - 1].split("=", 1)[0].strip().strip("\"'") if line_no <= len(lines) else ""
    table = ""
    for line in reversed(lines[:line_no - 1]):
        m = re.match(r"\s*\[+\s*([^\]]+?)\s*\]", line)
        if m:
            table = m[1]
            break
    dotted = f"{table}.{key}" if table else key
    section, _, rest = dotted.partition(".")
    spec = schema.sections.get(section)
    return dotted, spec.field(rest) if spec is not None and rest else None


def _long_number(text: str, schema: Schema) -> str:
    m = re.search(r"[0-9][0-9_]{4299,}", text)
    if m is None:
        return "invalid TOML: a value Python cannot read"
    digits = len(m[0].replace("_", ""))
    line = text.count("\n", 0, m.start()) + 1
    key, f = _key_at(text, line, schema)
    return f"{key}: expected {expected(f)}, got a number of {digits:,} digits"


def _too_deep(text: str, schema: Schema) -> str:
    depth, line = 0, 1
    quote = ""
    for ch in text:  # brackets outside strings, line by line, until the nesting is absurd
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch == "\n":
            line += 1
        elif ch in "[{":
            depth += 1
            if depth > 100:
                break
        elif ch in "]}":
            depth = max(0, depth - 1)
    key, f = _key_at(text, line, schema)
    return f"{key}: expected {expected(f)}, got a value nested too deeply"


def _syntax_error(msg: str) -> str:
    m = re.fullmatch(r"(.*) \(at line (\d+), column (\d+)\)", msg)
    if m:
        return f"line {m[2]}, column {m[3]}: invalid TOML: {m[1][:1].lower()}{m[1][1:]}"
    if m := re.fullmatch(r"(.*) \(at end of document\)", msg):
        return f"end of file: invalid TOML: {m[1][:1].lower()}{m[1][1:]}"
    return f"invalid TOML: {msg}"


def _program_schema() -> Schema:
    for name in SECTION_MODULES:
        if importlib.util.find_spec(name) is not None:
            importlib.import_module(name)
    return SCHEMA
