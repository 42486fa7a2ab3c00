"""The microcontroller bridge: its wire protocol, the host-side link, the emulator and benchmarks.

For boxes wired to an RP2040 Pico instead of the Pi's GPIO. `protocol` is the one pure module both
ends run (CPython and MicroPython); `PROTOCOL.md` specifies it; `clocksync` maps the Pico's µs
counter onto the host clock; `link` is the host's session and supervised reader thread;
`emulator` runs the firmware's logic behind a socket or a pty; `bench` measures all of it.
"""
