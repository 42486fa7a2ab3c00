"""The Raspberry Pi's 40-pin header as data: BCM GPIO -> physical pin, what else uses each pin, and
the box's pin map drawn on it (rows for `slapbox wiring`, an SVG picture). Pure: no hardware.

The same header on every 40-pin Pi (the Zero 2 W, 3, 4 and 5). "What else uses a pin" is the
pin's other functions (I2C, SPI, UART, I2S/PCM, PWM), its pull at boot, and the pins a panel or an
audio HAT takes when the box has one (``ATTACHED``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape

from device.inputs.pins import BOOT_PULL_UP, NO_LED_PINS

__all__ = [
    "ATTACHED",
    "BCM_AT",
    "OTHER_USES",
    "PHYSICAL",
    "POWER",
    "Row",
    "conflicts",
    "notes",
    "physical_pin",
    "rows_from_pins",
    "svg",
    "wiring_rows",
]

#: physical pin -> BCM GPIO number (None: power or ground)
BCM_AT: dict[int, int | None] = {
    1: None, 2: None, 3: 2, 4: None, 5: 3, 6: None, 7: 4, 8: 14, 9: None, 10: 15,
    11: 17, 12: 18, 13: 27, 14: None, 15: 22, 16: 23, 17: None, 18: 24, 19: 10, 20: None,
    21: 9, 22: 25, 23: 11, 24: 8, 25: None, 26: 7, 27: 0, 28: 1, 29: 5, 30: None,
    31: 6, 32: 12, 33: 13, 34: None, 35: 19, 36: 16, 37: 26, 38: 20, 39: None, 40: 21}
#: BCM GPIO -> physical pin
PHYSICAL: dict[int, int] = {bcm: phys for phys, bcm in BCM_AT.items() if bcm is not None}
#: the header's power and ground pins
POWER: dict[int, str] = {1: "3V3", 17: "3V3", 2: "5V", 4: "5V",
                         **{p: "GND" for p in (6, 9, 14, 20, 25, 30, 34, 39)}}

#: the other functions of each BCM pin (Raspberry Pi's pinout, ALT functions the box meets)
OTHER_USES: dict[int, str] = {
    0: "ID_SD (HAT EEPROM)", 1: "ID_SC (HAT EEPROM)",
    2: "I2C1 SDA, 1.8 kOhm board pull-up", 3: "I2C1 SCL, 1.8 kOhm board pull-up",
    4: "GPCLK0, 1-Wire", 5: "GPCLK1", 6: "GPCLK2", 7: "SPI0 CE1", 8: "SPI0 CE0",
    9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK", 12: "PWM0", 13: "PWM1",
    14: "UART TXD (serial console)", 15: "UART RXD (serial console)", 16: "SPI1 CE2",
    17: "SPI1 CE1", 18: "I2S BCLK (PCM_CLK), PWM0, SPI1 CE0", 19: "I2S LRCLK (PCM_FS), PWM1, SPI1 MISO",
    20: "I2S DIN (PCM_DIN), SPI1 MOSI", 21: "I2S DOUT (PCM_DOUT), SPI1 SCLK", 22: "", 23: "",
    24: "", 25: "", 26: "", 27: ""}

#: what an attached board takes: name -> {BCM pin: its use}
ATTACHED: dict[str, dict[int, str]] = {
    "spi-panel": {7: "panel touch CS", 8: "panel LCD CS", 9: "panel SPI MISO",
                  10: "panel SPI MOSI", 11: "panel SPI SCLK", 24: "panel D/C",
                  25: "panel reset", 17: "panel touch IRQ"},
    "i2s": {18: "I2S HAT BCLK", 19: "I2S HAT LRCLK", 20: "I2S HAT DIN", 21: "I2S HAT DOUT"},
    "i2s-i2c": {18: "I2S HAT BCLK", 19: "I2S HAT LRCLK", 20: "I2S HAT DIN",
                21: "I2S HAT DOUT", 2: "I2S HAT control (I2C SDA)", 3: "I2S HAT control (I2C SCL)"},
}

_ROLE_WORD = {"slap": "SLAP", "flip": "FLIP", "led": "LED driver", "menu": "MENU"}


def physical_pin(bcm: int) -> int:
    """The header pin (1-40) of BCM GPIO ``bcm``; KeyError if it is not on the header."""
    return PHYSICAL[bcm]


@dataclass(frozen=True)
class Row:
    """One wired pin: who uses it, its numbers, and everything else that uses the same pin."""

    station: str   # "1".."8", "MENU", "loopback"
    role: str      # SLAP, FLIP, LED driver, MENU, drive, reference
    gpio: int
    header: int
    also: str      # the pin's other functions and pull at boot
    conflict: str  # "" or why this pin cannot be used so
    note: str = ""  # "" or what this use of the pin needs (config.txt, no serial console)

    def to_dict(self) -> dict[str, Any]:
        return {"station": self.station, "role": self.role, "gpio": self.gpio,
                "header": self.header, "also": self.also, "conflict": self.conflict,
                "note": self.note}


def _also(pin: int, attached: Iterable[str]) -> tuple[str, str]:
    """(what else uses ``pin``, which attached board takes it or "")."""
    bits = [OTHER_USES.get(pin, "")]
    bits.append("pull-up at boot" if pin in BOOT_PULL_UP else "pull-down at boot")
    taken = [f"{ATTACHED[a][pin]} ({a})" for a in attached if pin in ATTACHED.get(a, {})]
    return ", ".join(b for b in bits + taken if b), "; ".join(taken)


def wiring_rows(stations: Sequence[Mapping[str, Any]], menu: int | None = None,
                loopback: Mapping[str, int] | None = None,
                attached: Iterable[str] = ()) -> list[Row]:
    """Every wired pin in station order (then MENU, then the loopback), with its conflicts."""
    attached = tuple(attached)
    rows: list[Row] = []

    def add(station: str, role: str, pin: int) -> None:
        also, taken = _also(pin, attached)
        why, needs = [], []
        if taken:
            why.append(f"also taken by {taken}")
        if role == "LED driver" and pin in NO_LED_PINS:
            why.append("no LED on GPIO 2/3: the board pull-up lights the lamp when undriven")
        elif role == "LED driver" and pin in BOOT_PULL_UP:
            needs.append(f"pulled up at boot: the lamp glows until slapbox starts unless "
                         f"config.txt says gpio={pin}=op,dl")
        if pin in (14, 15):
            needs.append("UART pin: enable_uart=0 in config.txt (and no serial console)")
        rows.append(Row(station, role, pin, PHYSICAL.get(pin, 0), also, "; ".join(why),
                        "; ".join(needs)))

    for i, st in enumerate(stations):
        for key in ("slap", "flip", "led"):
            pin = st.get(key)
            if isinstance(pin, int):
                add(str(i + 1), _ROLE_WORD[key], pin)
    if menu is not None:
        add("MENU", "MENU", menu)
    for key in ("drive", "reference"):
        pin = (loopback or {}).get(key)
        if isinstance(pin, int):
            add("loopback", key, pin)
    seen: dict[int, str] = {}
    out: list[Row] = []
    for r in rows:  # a pin used twice is the worst conflict: name both users
        if r.gpio in seen:
            r = Row(r.station, r.role, r.gpio, r.header, r.also,
                    "; ".join(x for x in (f"GPIO {r.gpio} is also {seen[r.gpio]}", r.conflict) if x),
                    r.note)
        else:
            seen[r.gpio] = f"station {r.station} {r.role}"
        out.append(r)
    return out


def conflicts(rows: Iterable[Row]) -> list[str]:
    """One line per row that has a conflict (a pin that cannot be used so)."""
    return [f"GPIO {r.gpio} (header pin {r.header}, station {r.station} {r.role}): {r.conflict}"
            for r in rows if r.conflict]


def notes(rows: Iterable[Row]) -> list[str]:
    """One line per row whose use needs something set (config.txt lines)."""
    return [f"GPIO {r.gpio} (header pin {r.header}, station {r.station} {r.role}): {r.note}"
            for r in rows if r.note]


# --- the picture -----------------------------------------------------------------------------
_COLOURS = {"SLAP": "#d62728", "FLIP": "#1f77b4", "LED driver": "#ff7f0e", "MENU": "#9467bd",
            "drive": "#2ca02c", "reference": "#17becf"}
_POWER_COLOURS = {"3V3": "#f2c14e", "5V": "#e4572e", "GND": "#333333"}


def svg(rows: Sequence[Row], title: str = "slapbox wiring", attached: Iterable[str] = ()) -> str:
    """An SVG of the 40-pin header (pin 1 top left, as seen from above with the USB ports at the
    bottom), every wired pin labelled, the loopback wire drawn from its drive pin to every input."""
    attached = tuple(attached)
    by_pin = {r.header: r for r in rows}
    pitch, top, left_x, right_x = 24, 70, 330, 354
    width, height = 720, top + 20 * pitch + 90
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
           f"<title>{escape(title)}</title>",
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
           f'<text x="{width // 2}" y="24" text-anchor="middle" font-size="15" '
           f'font-weight="bold">{escape(title)}</text>',
           f'<text x="{width // 2}" y="42" text-anchor="middle">40-pin header seen from above; '
           f'BCM GPIO numbers; buttons to GND through 1 kOhm{escape(" + " + ", ".join(attached)) if attached else ""}</text>',
           f'<rect x="{left_x - 14}" y="{top - 14}" width="{right_x - left_x + 28}" '
           f'height="{20 * pitch + 4}" rx="4" fill="#1b3d1b"/>']
    centres: dict[int, tuple[int, int]] = {}
    for phys in range(1, 41):
        row, col = (phys - 1) // 2, (phys - 1) % 2
        x, y = (left_x if col == 0 else right_x), top + row * pitch
        centres[phys] = (x, y)
        bcm = BCM_AT[phys]
        r = by_pin.get(phys)
        if bcm is None:
            fill = _POWER_COLOURS[POWER[phys]]
        elif r is not None:
            fill = _COLOURS.get(r.role, "#888888")
        else:
            fill = "#bbbbbb"
        shape = "rect" if phys == 1 else "circle"
        if shape == "rect":
            out.append(f'<rect x="{x - 7}" y="{y - 7}" width="14" height="14" fill="{fill}" '
                       f'stroke="#ffffff"/>')
        else:
            out.append(f'<circle cx="{x}" cy="{y}" r="7" fill="{fill}" stroke="#ffffff"/>')
        label = POWER.get(phys) if bcm is None else f"GPIO{bcm}"
        if r is not None:
            who = r.role if r.station in ("MENU", "loopback") else f"station {r.station} {r.role}"
            if r.station == "loopback":
                who = f"loopback {r.role}"
            label = f"{label}: {who}"
            if r.conflict:
                label += " (!)"
            elif r.note:
                label += " (*)"
        anchor, tx = ("end", x - 44) if col == 0 else ("start", x + 44)
        colour = "#b00000" if r is not None and r.conflict else "#000000"
        out.append(f'<text x="{tx}" y="{y + 4}" text-anchor="{anchor}" fill="{colour}" '
                   f'data-gpio="{"" if bcm is None else bcm}">{escape(label or "")}</text>')
        out.append(f'<text x="{x}" y="{y + 3}" text-anchor="middle" font-size="7" '
                   f'fill="#ffffff">{phys}</text>')
    drive = next((r for r in rows if r.station == "loopback" and r.role == "drive"), None)
    if drive is not None and drive.header in centres:
        # the loopback: one wire from the drive pin, a 1 kOhm resistor to each input
        # buses in the gutters beside the header, so no wire crosses a label
        gutter = {left_x: left_x - 30, right_x: right_x + 30}
        dx, dy = centres[drive.header]
        bus_x = gutter[dx]
        out.append(f'<path d="M{dx} {dy} H{bus_x}" stroke="#2ca02c" stroke-width="2" fill="none"/>')
        ys = [dy]
        for r in rows:
            if r.role in ("SLAP", "FLIP", "MENU", "reference") and r.header in centres:
                x, y = centres[r.header]
                side_x = gutter[x]
                ys.append(y)
                out.append(f'<path d="M{side_x} {y} H{x}" stroke="#2ca02c" stroke-width="1" '
                           f'stroke-dasharray="4 3" fill="none" data-loopback="{r.gpio}"/>')
                if side_x != bus_x:
                    out.append(f'<path d="M{bus_x} {dy} V{top + 20 * pitch} H{side_x} V{y}" '
                               f'stroke="#2ca02c" stroke-width="1" stroke-dasharray="4 3" '
                               f'fill="none"/>')
        out.append(f'<path d="M{bus_x} {min(ys)} V{max(ys)}" stroke="#2ca02c" stroke-width="2" '
                   f'fill="none"/>')
    ly = height - 40
    for i, (name, colour) in enumerate(list(_COLOURS.items()) + list(_POWER_COLOURS.items())):
        x = 20 + i * 78
        out.append(f'<circle cx="{x}" cy="{ly}" r="6" fill="{colour}"/>')
        out.append(f'<text x="{x + 10}" y="{ly + 4}">{escape(name)}</text>')
    out.append(f'<text x="20" y="{height - 14}">loopback (dashed): the drive pin to each input '
               f'through its own 1 kOhm resistor, for slapbox selftest only.</text>')
    out.append(f'<text x="20" y="{height - 2}">(!) a conflict, (*) needs a config.txt line: '
               f'see slapbox wiring</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def rows_from_pins(pins: Mapping[str, Any], attached: Iterable[str] = ()) -> list[Row]:
    """`wiring_rows` from a ``[pins]`` section (``stations``, ``menu``, ``loopback``)."""
    stations = pins.get("stations") or []
    lb = pins.get("loopback") or {}
    lb = dict(lb) if isinstance(lb, dict) else {}
    # without a reference pin the MENU input is the reference: it is wired to the loopback anyway
    return wiring_rows(stations, pins.get("menu"), lb, attached)
