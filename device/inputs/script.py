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


def _time(d: dict[str, Any], name: str, where: str, default: int | None = None) -> int:
    if f"{name}_ns" in d:
        v = d[f"{name}_ns"]
        if isinstance(v, int) and not isinstance(v, bool) and v >= 0:
            return v
        raise PressFormatError(f"{where}: {name}_ns={v!r}: expected a whole number of nanoseconds >= 0")
    if f"{name}_ms" in d:
        v = d[f"{name}_ms"]
        if isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0:
            return round(v * MS)
        raise PressFormatError(f"{where}: {name}_ms={v!r}: expected milliseconds >= 0")
    if default is not None:
        return default
    raise PressFormatError(f"{where}: missing {name}_ms (or {name}_ns): when, after the game's start")


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
            start = d.get("start_ns", 0)
            continue
        if "k" in d:  # a journal record
            if d["k"] != "press" or d.get("source") == "bot":
                continue
            s0 = start or 0
            presses.append(ScriptedPress(d["t"] - s0, d.get("arrival", d["t"]) - s0, d["station"],
                                         d["button"], d["edge"]))
            continue
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
