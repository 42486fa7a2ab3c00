"""Render a sample screen to a PNG without a window (menus, a game, a photo finish, game over ...).

The sample states are bots' games played in virtual time to an interesting moment, so the same
command always draws the same picture. `--scene list` lists the scenes.
"""

from __future__ import annotations

import argparse
import os
import re
import struct
import sys
import zlib
from typing import Any

from device.screen.layout import MIN_SIZE

_SIZE = re.compile(r"^\s*(\d+)\s*[xX×]\s*(\d+)\s*$")


def parse_size(text: str) -> tuple[int, int]:
    """``800x480`` -> (800, 480), at least 320x240."""
    m = _SIZE.match(text)
    if not m:
        raise argparse.ArgumentTypeError(f"expected WIDTHxHEIGHT such as 800x480, got {text!r}")
    w, h = int(m.group(1)), int(m.group(2))
    if w < MIN_SIZE[0] or h < MIN_SIZE[1] or w > 8192 or h > 8192:
        raise argparse.ArgumentTypeError(
            f"size {w}x{h}: expected at least {MIN_SIZE[0]}x{MIN_SIZE[1]} and at most 8192x8192")
    return w, h


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--scene", required=True, metavar="NAME",
                        help="which screen to draw ('list' lists them)")
    parser.add_argument("--size", type=parse_size, default=(800, 480), metavar="WxH",
                        help="picture size in pixels (default 800x480; at least 320x240)")
    parser.add_argument("--lang", choices=["fr", "en"], default="en", help="language (default en)")
    parser.add_argument("out", nargs="?", metavar="OUT.png", help="the PNG file to write")


def run(args: argparse.Namespace) -> int:
    from device.screen import samples

    if args.scene == "list":
        print("\n".join(samples.NAMES))
        return 0
    if args.scene not in samples.NAMES:
        print(f"slapbox screenshot: error: unknown scene {args.scene!r} "
              f"(expected one of: list, {', '.join(samples.NAMES)})", file=sys.stderr)
        return 2
    if not args.out:
        print("slapbox screenshot: error: missing OUT.png (the file to write)", file=sys.stderr)
        return 2
    out_dir = os.path.dirname(os.path.abspath(args.out))
    if not os.path.isdir(out_dir):
        print(f"slapbox screenshot: error: {out_dir}: no such directory", file=sys.stderr)
        return 2
    # Headless: no window ever opens, whatever the desktop.
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from device.screen.render import render_scene

    scene = samples.build(args.scene, args.size, args.lang)
    surface = render_scene(scene)
    try:
        save_png(surface, args.out)
    except (pygame.error, OSError) as e:
        print(f"slapbox screenshot: error: cannot write {args.out}: {e}", file=sys.stderr)
        return 2
    print(f"{args.out}: {args.scene}, {args.size[0]}x{args.size[1]}, {args.lang}")
    return 0


def save_png(surface: Any, path: str) -> None:
    """``surface`` as an RGB PNG file: rows unfiltered, deflated at zlib's fastest level (a quarter
    of the instructions of SDL_image's encoder for a picture of the same size)."""
    import pygame

    w, h = surface.get_size()
    raw = pygame.image.tobytes(surface, "RGB")
    stride = w * 3
    rows = b"".join(b"\0" + raw[y * stride:(y + 1) * stride] for y in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b""))
    with open(path, "wb") as f:
        f.write(png)
