"""The party screens: the button check that is also the join screen, the name pickers and a match's
standings, drawn from the view data of device.screen.scene.model (JoinView, NamesView, StandingsView).

Catalogue keys the app puts in the views (each translated here, in both catalogues):

- ``PickerView.current_key``: ``"names.new"`` ("New name") and ``"names.keep"`` ("Keep {default}",
  filled with ``PickerView.default``); any other key is translated with ``default`` too;
- ``PickerView.letter_key``, and an entry of ``PickerView.upcoming`` that is a key rather than a
  letter: ``"wheel.space"``, ``"wheel.delete"``, ``"wheel.done"``;
- ``StationTile.problem``: ``"stuck"``, ``"chatter"`` or ``"lost"`` (named with ``join.problem.*`` and
  what to do with ``join.fix.*``).

The words are the ``party.*``, ``join.*``, ``names.*``, ``wheel.*`` and ``standings.*`` keys.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from device.journal.names import WIDEST_NAME
from device.screen import i18n, palette
from device.screen.layout import Rect, compute_layout
from device.screen.scene.model import (
    RGB,
    Bar,
    Box,
    JoinView,
    NamesView,
    PickerView,
    Scene,
    StandingsView,
    StationTile,
    Text,
)
from device.screen.scene.text import fit, line_height, text_width, wrap

MAX_STATIONS = 8
PROBLEMS = ("stuck", "chatter", "lost", "full")
_CURSOR = "_"
_LETTER = 1.5      # the letter under the wheel's cursor: up to this times the big font


def _line(scene: Scene, text: str, px: int, floor: int, colour: RGB, bg: RGB, cx: int, y: int,
          width: int, layer: int = 0) -> int:
    """One centred line, shrunk to ``width`` (down to ``floor``); returns its height."""
    t, tpx = fit(text, px, width, floor)
    scene.texts.append(Text(cx, y, tpx, t, colour, bg, "center", width, layer))
    return line_height(tpx)


def _footer(scene: Scene, lines: Sequence[tuple[str, RGB]], px: int, m: int) -> int:
    """Centred lines at the bottom of the screen, each wrapped (at most two lines); returns the top
    of the first."""
    w, h = scene.size
    wrapped = [(ln, c) for text, c in lines if text for ln in wrap(text, px, w - 2 * m)[:2]]
    y = h - m - len(wrapped) * line_height(px)
    top = y
    for ln, c in wrapped:
        scene.texts.append(Text(w // 2, y, px, ln, c, palette.TABLE, "center", w - 2 * m))
        y += line_height(px)
    return top


# --- the button check / join screen ----------------------------------------------------------------

def _advice(lang: str, problem: str) -> str:
    return i18n.tr(lang, "join.advice", problem=i18n.tr(lang, f"join.problem.{problem}"),
                   fix=i18n.tr(lang, f"join.fix.{problem}"))


def _advice_lines(lang: str, tiles: Sequence[StationTile]) -> list[str]:
    """Under the grid: each problem once, with the stations that have it and what to do."""
    out = []
    for problem in PROBLEMS:
        stations = [str(t.station + 1) for t in tiles if t.problem == problem]
        if not stations:
            continue
        where = (i18n.tr(lang, "join.station", n=stations[0]) if len(stations) == 1
                 else i18n.tr(lang, "join.stations", list=i18n.join_names(lang, stations)))
        out.append(i18n.tr(lang, "join.advice.where", where=where, advice=_advice(lang, problem)))
    return out


@dataclass
class _Tile:
    """One station's tile, measured: its lines, before it is placed."""

    label: str
    name: list[str]
    name_px: int
    status: list[str]        # "ready", or the problem (with its advice when it fits on the tile)
    warn: bool               # status is a problem: drawn in a dark band
    fill: RGB
    ink: RGB
    lit: bool


def _measure_tile(lang: str, st: StationTile, tile_w: int, pad: int, body: int, small: int,
                  on_tile: bool, two_lines: bool) -> _Tile:
    """``on_tile``: the advice on the tile (else only the problem's name); ``two_lines``: a long
    name wraps (else it takes one line, shortened to its first name when it must)."""
    inner_w, band_w = tile_w - 2 * pad, tile_w - 3 * pad
    name_w = tile_w - 2  # a name may reach into the tile's padding (no border on a joined tile)
    fill = palette.seat_colour(st.seat) if st.joined and st.seat is not None else palette.PANEL_BG
    ink = palette.ink_on(fill) if fill != palette.PANEL_BG else palette.TEXT
    label = fit(i18n.tr(lang, "join.station", n=st.station + 1), small, inner_w, small)[0]
    if st.joined:
        whole = st.name
        if not two_lines and text_width(st.name, small) > name_w:
            whole = st.name.replace("-", " ").split()[0]  # its first name
        name, px = fit(whole, body, name_w, small)
        lines = [name] if text_width(whole, small) <= name_w else wrap(whole, small, name_w)[:2]
        if len(lines) > 1:
            px = small
    else:
        lines, px = [i18n.tr(lang, "join.empty")], body
    if st.problem in PROBLEMS:
        text = _advice(lang, st.problem) if on_tile else i18n.tr(lang, f"join.problem.{st.problem}")
        status, warn = wrap(text, small, band_w), True
    else:
        status, warn = ([i18n.tr(lang, "party.ready")] if st.joined else []), False
    return _Tile(label, lines, px, status, warn, fill, ink, st.lit)


def _tile_height(t: _Tile, small: int, pad: int) -> int:
    lh = line_height(small)
    status = len(t.status) * lh + (pad if t.warn else 0)
    return 2 * pad + lh + pad // 2 + len(t.name) * line_height(t.name_px) + pad // 2 + status


def join_scene(view: JoinView, size: tuple[int, int], lang: str) -> Scene:
    """The button check that doubles as the join screen: "Press your button!", a tile per station
    (its seat colour, its player's name and "ready" once it pressed; a grey dash before; a frame
    while its LED is lit; its problem and what to do), how many bots take the free seats and how
    to start."""
    scene = Scene(size, "join")
    lay = compute_layout(*size)
    m, f = lay.margin, lay.fonts
    w = size[0]
    width = w - 2 * m
    top = m + _line(scene, i18n.tr(lang, "join.title"), f.title, f.small, palette.TEXT, palette.TABLE,
                    w // 2, m, width) + m
    bots = i18n.tr(lang, "join.bots", n=view.bots) if view.bots > 0 else i18n.tr(lang, "join.bots.none")
    hint = i18n.tr(lang, "join.hint" if view.can_start else "join.wait")
    bottom = _footer(scene, [(bots, palette.TEXT), (hint, palette.TEXT_MUTED)], f.small, m) - m
    tiles = list(view.tiles[:MAX_STATIONS])
    if not tiles:
        return scene
    rows = 1 if len(tiles) <= 4 else 2
    cols = math.ceil(len(tiles) / rows)
    tile_w = min((width - (cols - 1) * m) // cols, width // 3 if cols < 3 else width)
    pad = max(3, m // 2)
    lh = line_height(f.small)
    said = [wrap(a, f.small, width)[:2] for a in _advice_lines(lang, tiles)]

    def grid(tile_h: int, below: list[list[str]]) -> int:
        """The height of the tiles and of the advice under them."""
        return rows * tile_h + (rows - 1) * m + (m // 2 + sum(map(len, below)) * lh if below else 0)

    # The advice on the tiles; else under the grid; else names on one line too; else less advice.
    for on_tile, two_lines in ((True, True), (False, True), (False, False)):
        measured = [_measure_tile(lang, t, tile_w, pad, f.body, f.small, on_tile, two_lines) for t in tiles]
        tile_h = max(_tile_height(t, f.small, pad) for t in measured)
        below = [] if on_tile else said
        if grid(tile_h, below) <= bottom - top:
            break
    else:
        while below and grid(tile_h, below) > bottom - top:
            below = below[:-1]  # no room for the last sentence: its tiles still name their problem
    advice = [ln for lines in below for ln in lines]
    grid_h = rows * tile_h + (rows - 1) * m
    room = bottom - top - grid_h - (m // 2 + len(advice) * lh if advice else 0)
    y0 = top + max(0, room // 2)
    for i, t in enumerate(measured):
        r, c = divmod(i, cols)
        in_row = min(cols, len(measured) - r * cols)
        x0 = (w - (in_row * tile_w + (in_row - 1) * m)) // 2
        rect = Rect(x0 + c * (tile_w + m), y0 + r * (tile_h + m), tile_w, tile_h)
        _draw_tile(scene, t, rect, f.small, pad, m)
    y = y0 + grid_h + m // 2
    for ln in advice:
        scene.texts.append(Text(w // 2, y, f.small, ln, palette.TEXT_WARN, palette.TABLE, "center", width))
        y += lh
    return scene


def _draw_tile(scene: Scene, t: _Tile, rect: Rect, small: int, pad: int, m: int) -> None:
    if t.lit:  # just pressed: a bright frame around the tile
        ring = max(2, m // 2)
        scene.boxes.append(Box(Rect(rect.x - ring, rect.y - ring, rect.w + 2 * ring, rect.h + 2 * ring), None,
                               palette.TEXT, ring, pad + ring))
    border = palette.TEXT_MUTED if t.fill == palette.PANEL_BG else None
    scene.boxes.append(Box(rect, t.fill, border, 1 if border else 0, pad))
    cx, inner_w, lh = rect.x + rect.w // 2, rect.w - 2 * pad, line_height(small)
    label_colour = t.ink if t.fill != palette.PANEL_BG else palette.TEXT_MUTED
    scene.texts.append(Text(cx, rect.y + pad, small, t.label, label_colour, t.fill, "center", inner_w))
    status_h = len(t.status) * lh + (pad if t.warn else 0)
    name_top, name_bottom = rect.y + pad + lh + pad // 2, rect.bottom - pad - status_h - pad // 2
    nh = len(t.name) * line_height(t.name_px)
    y = name_top + max(0, (name_bottom - name_top - nh) // 2)
    name_colour = t.ink if t.fill != palette.PANEL_BG else palette.TEXT_MUTED
    for ln in t.name:
        scene.texts.append(Text(cx, y, t.name_px, ln, name_colour, t.fill, "center", rect.w - 2))
        y += line_height(t.name_px)
    y = rect.bottom - pad - status_h
    if t.warn:
        band = Rect(rect.x + pad, y, rect.w - 2 * pad, status_h)
        scene.boxes.append(Box(band, palette.BANNER_BG, radius=pad // 2))
        y += pad // 2
        for ln in t.status:
            scene.texts.append(Text(cx, y, small, ln, palette.TEXT_WARN, palette.BANNER_BG, "center",
                                    band.w - pad))
            y += lh
    else:
        for ln in t.status:
            scene.texts.append(Text(cx, y, small, ln, t.ink, t.fill, "center", inner_w))
            y += lh


# --- the name pickers ------------------------------------------------------------------------------

@dataclass
class _Row:
    """One line of a picker's panel: ``main`` shrinks from ``px`` to fit (and wraps at the floor);
    ``tail`` (the upcoming letters) follows it small, losing its last items when there is no room;
    rows of a higher ``rank`` are left out first when the panel is too short."""

    main: str
    px: int
    colour: RGB
    rank: int = 0
    tail: tuple[str, ...] = ()


def _key_or_text(lang: str, item: str, **kw: object) -> str:
    return i18n.tr(lang, item, **kw) if item in i18n.CATALOGUES[lang] else item


def _picker_rows(lang: str, p: PickerView, big: int, body: int, small: int, hint: bool) -> list[_Row]:
    if p.stage == "wheel":
        letter = i18n.tr(lang, p.letter_key) if p.letter_key else p.letter
        upcoming = tuple(_key_or_text(lang, u) for u in p.upcoming)
        return [_Row(p.typed + _CURSOR, body, palette.TEXT),
                _Row(letter, round(big * _LETTER), palette.TEXT, 0, upcoming)]
    if p.stage == "done":
        return [_Row(p.name or p.default, big, palette.TEXT), _Row(i18n.tr(lang, "party.ready"), body,
                                                                   palette.TEXT_GOOD, 1)]
    current = p.current or (i18n.tr(lang, p.current_key, default=p.default) if p.current_key else p.default)
    rows = [_Row(current, big, palette.TEXT)]
    if hint:
        rows.append(_Row(i18n.tr(lang, "names.hint"), small, palette.TEXT_MUTED, 2))
    return rows


def _tail_fit(tail: tuple[str, ...], px: int, room: int) -> str:
    while tail and text_width(" ".join(tail), px) > room:
        tail = tail[:-1]
    return " ".join(tail)


def _row_lines(row: _Row, px: int, small: int, width: int) -> tuple[list[str], str]:
    """The row's main lines at ``px`` (wrapped only when even the floor is too wide) and its tail."""
    gap = text_width(" ", small)
    if text_width(row.main, px) > width:
        return wrap(row.main, px, width), ""
    return [row.main], _tail_fit(row.tail, small, width - text_width(row.main, px) - 2 * gap)


def _solve(rows: list[_Row], inner: Rect, floor: int, gap: int) -> list[tuple[_Row, int]]:
    """Each row's size: as large as its width allows, then the largest shrunk until they all stand
    in ``inner``; at the floor, rows of the highest rank go."""
    rows = list(rows)
    sizes = [r.px for r in rows]

    def height() -> int:
        total = 0
        for r, px in zip(rows, sizes):
            total += len(_row_lines(r, px, floor, inner.w)[0]) * line_height(px)
        return total + gap * (len(rows) - 1)

    for i, r in enumerate(rows):
        while sizes[i] > floor and text_width(r.main, sizes[i]) > inner.w:
            sizes[i] -= 1
    while rows and height() > inner.h:
        above = [i for i, px in enumerate(sizes) if px > floor]
        if above:
            sizes[max(above, key=lambda i: sizes[i])] -= 1
        elif max(r.rank for r in rows) > 0:
            drop = max(range(len(rows)), key=lambda i: (rows[i].rank, i))
            del rows[drop], sizes[drop]
        else:
            break
    return list(zip(rows, sizes))


def _grid(n: int, area: Rect, gap: int, need_w: int, need_h: int) -> tuple[int, int]:
    """(rows, columns) of ``n`` panels that give the content the most room for its reference size."""
    best, best_score = (n, 1), -1.0
    for rows in range(1, n + 1):
        cols = math.ceil(n / rows)
        if (rows - 1) * cols >= n:
            continue  # an empty row
        pw = (area.w - (cols - 1) * gap) / cols
        ph = (area.h - (rows - 1) * gap) / rows
        score = min(pw / need_w, ph / need_h)
        if score > best_score + 1e-9:
            best, best_score = (rows, cols), score
    return best


def names_scene(view: NamesView, size: tuple[int, int], lang: str) -> Scene:
    """Everyone picks a name at once, each in a panel of their seat colour: in the list the name
    under the cursor and "tap: next · hold: choose" (in the footer when the panels are too narrow),
    on the wheel the name typed so far, the letter under the cursor big and the next ones small,
    then the chosen name and "ready"."""
    scene = Scene(size, "names")
    lay = compute_layout(*size)
    m, f = lay.margin, lay.fonts
    w = size[0]
    width = w - 2 * m
    top = m + _line(scene, i18n.tr(lang, "names.title"), f.title, f.small, palette.TEXT, palette.TABLE,
                    w // 2, m, width) + m
    pickers = list(view.pickers[:MAX_STATIONS])
    pad = max(3, m // 2)
    tag_w = max(6, round(line_height(f.small) * 0.5))
    need_w = tag_w + 3 * pad + text_width(WIDEST_NAME, f.small)  # the widest name a player can pick
    need_h = 2 * pad + line_height(f.small) + line_height(f.body) + pad
    hint = i18n.tr(lang, "names.hint")
    foot = [(i18n.tr(lang, "names.footer"), palette.TEXT_MUTED)]
    for hint_in_panels in (True, False):
        scratch = Scene(size, "names")
        bottom = _footer(scratch, foot if hint_in_panels else [(hint, palette.TEXT)] + foot, f.small, m) - m
        area = Rect(m, top, width, bottom - top)
        rows, cols = _grid(max(1, len(pickers)), area, m, need_w, need_h)
        pw = (area.w - (cols - 1) * m) // cols
        ph = min((area.h - (rows - 1) * m) // rows, 4 * need_h)
        inner = Rect(0, 0, pw - tag_w - 3 * pad, ph - 2 * pad)
        if not hint_in_panels or (text_width(hint, f.small) <= inner.w and all(
                any(r.rank == 2 for r, _ in _solve(_picker_rows(lang, p, f.big, f.body, f.small, True),
                                                  inner, f.small, pad // 2))
                for p in pickers if p.stage == "list")):
            break
    scene.texts += scratch.texts
    y0 = top + max(0, (area.h - rows * ph - (rows - 1) * m) // 2)
    for i, p in enumerate(pickers):
        r, c = divmod(i, cols)
        in_row = min(cols, len(pickers) - r * cols)
        x0 = (w - (in_row * pw + (in_row - 1) * m)) // 2
        panel = Rect(x0 + c * (pw + m), y0 + r * (ph + m), pw, ph)
        _draw_picker(scene, lang, p, panel, tag_w, pad, f.big, f.body, f.small, hint_in_panels)
    return scene


def _draw_picker(scene: Scene, lang: str, p: PickerView, panel: Rect, tag_w: int, pad: int, big: int,
                 body: int, small: int, hint: bool) -> None:
    colour = palette.seat_colour(p.seat) if p.seat is not None else palette.TEXT_MUTED
    bg = palette.PANEL_BG
    scene.boxes.append(Box(panel, bg, colour, max(1, pad // 2), pad))
    scene.bars.append(Bar(Rect(panel.x, panel.y, tag_w, panel.h), colour))
    inner = Rect(panel.x + tag_w + 2 * pad, panel.y + pad, panel.w - tag_w - 3 * pad, panel.h - 2 * pad)
    gap = pad // 2
    solved = _solve(_picker_rows(lang, p, big, body, small, hint), inner, small, gap)
    total = sum(len(_row_lines(r, px, small, inner.w)[0]) * line_height(px) for r, px in solved)
    y = inner.y + max(0, (inner.h - total - gap * (len(solved) - 1)) // 2)
    cx = inner.x + inner.w // 2
    for row, px in solved:
        lines, tail = _row_lines(row, px, small, inner.w)
        if tail:  # the letter under the cursor, then the next ones small, centred together
            lw, sp, tw = text_width(lines[0], px), text_width(" ", small), text_width(tail, small)
            x = cx - (lw + 2 * sp + tw) // 2
            scene.texts.append(Text(x, y, px, lines[0], row.colour, bg, "left", lw))
            ty = y + line_height(px) - line_height(small)
            scene.texts.append(Text(x + lw + 2 * sp, ty, small, tail, palette.TEXT_MUTED, bg, "left", tw))
            y += line_height(px)
        else:
            for ln in lines:
                scene.texts.append(Text(cx, y, px, ln, row.colour, bg, "center", inner.w))
                y += line_height(px)
        y += gap


# --- a match's standings ---------------------------------------------------------------------------

def _standings_title(view: StandingsView, lang: str) -> str:
    if view.over:
        return (i18n.tr(lang, "standings.match_won", winner=view.winner) if view.winner
                else i18n.tr(lang, "standings.match_draw"))
    if view.total is not None:
        return i18n.tr(lang, "standings.best_of", played=view.played, total=view.total)
    if view.minutes_left is not None:
        if view.minutes_left <= 0:
            return i18n.tr(lang, "standings.timed.end", played=view.played)
        return i18n.tr(lang, "standings.timed", played=view.played, minutes=view.minutes_left)
    return i18n.tr(lang, "standings.game", played=view.played)


def standings_scene(view: StandingsView, size: tuple[int, int], lang: str) -> Scene:
    """Between two games of a match: which game of how many (or the minutes left), who won the
    game just played, the table of games won (and cards, in a timed match) with the leader marked,
    and the closest photo finish so far; at the end the match's winner over the same table."""
    scene = Scene(size, "standings")
    lay = compute_layout(*size)
    m, f = lay.margin, lay.fonts
    w = size[0]
    width = w - 2 * m
    y = m + _line(scene, _standings_title(view, lang), f.title, f.small, palette.TEXT, palette.TABLE,
                  w // 2, m, width)
    if not view.over:
        if view.last_winner:
            said, colour = i18n.tr(lang, "standings.won", name=view.last_winner), palette.TEXT_GOOD
        else:
            said, colour = i18n.tr(lang, "standings.draw"), palette.TEXT_MUTED
        y += _line(scene, said, f.body, f.small, colour, palette.TABLE, w // 2, y, width)
    y += m
    foot: list[tuple[str, RGB]] = []
    if view.photo is not None:
        winner, runner, margin = view.photo
        foot.append((i18n.tr(lang, "standings.photo", winner=winner, runner=runner,
                             time=i18n.format_ns(lang, margin)), palette.TEXT))
    foot.append((i18n.tr(lang, "standings.rematch" if view.over else "standings.next"), palette.TEXT_MUTED))
    bottom = _footer(scene, foot, f.small, m) - m
    area = Rect(m, y, width, bottom - y)
    for px in (f.body, f.small):  # the larger size when every row and every name fits whole
        if _standings_table(scene, view, lang, area, m, px, force=px == f.small):
            break
    return scene


def _standings_table(scene: Scene, view: StandingsView, lang: str, area: Rect, m: int, px: int, *,
                     force: bool) -> bool:
    """Name (after its seat colour), games won, cards when some row has them, and "leader"; the
    leaders' rows highlighted. False (and nothing drawn) when, unless ``force``, a row or a whole
    name would not fit at ``px``; with ``force`` the rows that do not fit are left out and a long
    name is shortened to its first name."""
    with_cards = any(r.cards is not None for r in view.rows)
    header = ["", i18n.tr(lang, "stats.short.wins")]
    if with_cards:
        header.append(i18n.tr(lang, "stats.short.cards"))
    leader = i18n.tr(lang, "standings.leader")
    cells = [[r.name, str(r.wins)] + ([str(r.cards) if r.cards is not None else "-"] if with_cards else [])
             for r in view.rows]
    widths = [max(text_width(row[i], px) for row in [header] + cells) for i in range(1, len(header))]
    lead_w = text_width(leader, px) if any(r.leader for r in view.rows) else 0
    lh = line_height(px)
    pitch = lh + max(2, m // 3)
    tag_w = max(6, round(lh * 0.5))
    name_x = area.x + tag_w + m
    nums_w = sum(widths) + m * len(widths) + (lead_w + m if lead_w else 0)
    name_w = area.w - (name_x - area.x) - nums_w
    # The table is centred when it is narrower than the screen: names as wide as the longest.
    longest = max([text_width(c[0], px) for c in cells] + [0])
    if not force and (longest > name_w or pitch * (len(cells) + 1) > area.h):
        return False
    spare = max(0, name_w - longest - 2 * m)
    x0 = area.x + spare // 2
    name_x, name_w = name_x + spare // 2, name_w - spare
    y = area.y + max(0, (area.h - pitch * (len(cells) + 1)) // 2)
    for ri, (row, cell) in enumerate(zip([None] + list(view.rows), [header] + cells)):
        if y + lh > area.bottom:
            break
        bg = palette.TABLE
        colour = palette.TEXT_MUTED if row is None else palette.TEXT
        if row is not None and row.leader:
            bg = palette.HIGHLIGHT_BG
            half = (pitch - lh) // 2
            band = Rect(x0 - m // 2, y - half, area.w - spare + m, lh + 2 * half)
            scene.boxes.append(Box(band, bg, radius=half))
        if row is not None:
            bh = max(4, lh * 2 // 3)
            scene.bars.append(Bar(Rect(x0, y + (lh - bh) // 2, tag_w, bh), palette.seat_colour(row.seat)))
            label = cell[0]
            if text_width(label, px) > name_w:
                label = label.replace("-", " ").split(" ")[0]  # a long name: its first name
            name, npx = fit(label, px, name_w, px)
            scene.texts.append(Text(name_x, y, npx, name, colour, bg, "left", name_w))
        x = name_x + name_w
        for i, wdt in enumerate(widths):
            x += m + wdt
            scene.texts.append(Text(x, y, px, cell[i + 1], colour, bg, "right", wdt))
        if row is not None and row.leader:
            scene.texts.append(Text(x + m, y, px, leader, palette.TEXT_GOOD, bg, "left", lead_w))
        y += pitch
    return True
