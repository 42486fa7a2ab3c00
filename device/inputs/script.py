"""Scripted presses: press records with times relative to the game's start, replayed on the clock.

For tests, demos and reproducing a bug seen on a box. A script is a JSON-lines file; each line is
``{"t_ms": 1520.25, "station": 0, "button": "slap"}`` (``edge`` defaults to "press"; ``t_ns`` may
be given instead of ``t_ms``; an ``arrival_ms``/``arrival_ns`` delays its delivery, to script a
press in flight). A journal is a script too: its press records are taken, relative to its start.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.inputs.press import BUTTONS, EDGES, Press, PressFormatError

MS = 1_000_000


@dataclass(frozen=True)
class ScriptedPress:
    at_ns: int       # stamp, relative to the game's start
    arrival_ns: int  # when it reaches the table, relative to the game's start
    station: int
    button: str
    edge: str

    def press(self, start_ns: int) -> Press:
        return Press(self.station, self.button, self.edge, start_ns + self.at_ns, "script")


#: the latest a scripted press may come, after the game's start (a day)
MAX_NS = 86_400 * 1000 * MS


def _time(d: dict[str, Any], name: str, where: str, default: int | None = None) -> int:
    limit = f"from 0 to {MAX_NS // MS:,} ms (a day)"
    if f"{name}_ns" in d:
        v = d[f"{name}_ns"]
        if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_NS:
            return v
        raise PressFormatError(f"{where}: {name}_ns={v!r}: expected a whole number of nanoseconds "
                               f"{limit}")
    if f"{name}_ms" in d:
        v = d[f"{name}_ms"]
        if isinstance(v, (int, float)) and not isinstance(v, bool) and 0 <= v <= MAX_NS // MS:
            return round(v * MS)  # the bounds also refuse NaN and infinities
        raise PressFormatError(f"{where}: {name}_ms={v!r}: expected milliseconds {limit}")
    if default is not None:
        return default
    raise PressFormatError(f"{where}: missing {name}_ms (or {name}_ns): when, after the game's start")


def _from_journal(d: dict[str, Any], start: int, where: str) -> dict[str, Any]:
    """A journal's press record (absolute ``t`` and ``arrival`` in ns) as a script record."""
    out: dict[str, Any] = {k: d[k] for k in ("station", "button", "edge") if k in d}
    for key, name in (("t", "t"), ("arrival", "arrival")):
        if key not in d:
            if key == "t":
                raise PressFormatError(f"{where}: press record without its time 't' (expected "
                                       "nanoseconds on the journal's clock)")
            continue
        v = d[key]
        if not isinstance(v, int) or isinstance(v, bool) or v < start:
            raise PressFormatError(f"{where}: {key}={v!r}: expected whole nanoseconds on the "
                                   f"journal's clock, at or after its start ({start})")
        out[f"{name}_ns"] = v - start
    return out


def load_script(path: str | Path) -> list[ScriptedPress]:
    """Read a script or a journal; errors name the file, the line and what was expected."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise PressFormatError(f"{path}: cannot read the script: {e}") from None
    presses: list[ScriptedPress] = []
    start: int | None = None
    for i, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        where = f"{path}: line {i}"
        try:
            d = json.loads(line)
        except ValueError:
            if i == len(lines):
                break  # a torn last line (a journal cut off by a power cut)
            raise PressFormatError(f"{where}: expected one JSON object per line") from None
        if not isinstance(d, dict):
            raise PressFormatError(f"{where}: expected a JSON object, got {type(d).__name__}")
        if d.get("k") == "header":
            s0 = d.get("start_ns", 0)
            if not isinstance(s0, int) or isinstance(s0, bool) or s0 < 0:
                raise PressFormatError(f"{where}: start_ns={s0!r}: expected whole nanoseconds >= 0")
            start = s0
            continue
        if "k" in d:  # a journal record
            if d["k"] != "press" or d.get("source") == "bot":
                continue
            d = _from_journal(d, start or 0, where)
        station = d.get("station")
        if not isinstance(station, int) or isinstance(station, bool) or not -1 <= station < 8:
            raise PressFormatError(f"{where}: station={station!r}: expected 0 to 7 (or -1, the MENU button)")
        button = d.get("button", "slap")
        edge = d.get("edge", "press")
        if button not in BUTTONS:
            raise PressFormatError(f"{where}: button={button!r}: expected one of {', '.join(BUTTONS)}")
        if edge not in EDGES:
            raise PressFormatError(f"{where}: edge={edge!r}: expected one of {', '.join(EDGES)}")
        at = _time(d, "t", where)
        arrival = _time(d, "arrival", where, default=at)
        if arrival < at:
            raise PressFormatError(f"{where}: arrives before it was stamped (arrival < t)")
        presses.append(ScriptedPress(at, arrival, station, button, edge))
    return sorted(presses, key=lambda p: (p.arrival_ns, p.at_ns))
