"""Draws a Scene with pygame onto any Surface, redrawing only what changed since the last scene.

No ``pygame.display`` here (device.screen.display owns the window): the renderer draws off-screen
just as well, which is what the tests, ``slapbox screenshot`` and the frame benchmark use.
"""

from __future__ import annotations

import os
from typing import Union

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

from device.screen import cardart  # noqa: E402
from device.screen.scene import Bar, Box, CardSprite, Scene, Text  # noqa: E402

Item = Union[Box, Bar, CardSprite, Text]
FULL_REDRAW_SHARE = 0.5   # when more than this share of the window changed, redraw all of it
_TEXT_CACHE = 1024


def ordered(scene: Scene) -> list[Item]:
    """The scene's items in drawing order: per layer, boxes, bars, cards, then texts."""
    items: list[Item] = [*scene.boxes, *scene.bars, *scene.cards, *scene.texts]
    layers = sorted({i.layer for i in items} or {0})
    out: list[Item] = []
    for layer in layers:
        out += [b for b in scene.boxes if b.layer == layer]
        out += [b for b in scene.bars if b.layer == layer]
        out += [c for c in scene.cards if c.layer == layer]
        out += [t for t in scene.texts if t.layer == layer]
    return out


class Renderer:
    """Draws scenes; keeps fonts, rendered texts and the last scene's items between calls."""

    def __init__(self) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self._fonts: dict[int, pygame.font.Font] = {}
        self._texts: dict[Text, pygame.Surface] = {}
        self._last_key: tuple | None = None
        self._last_rects: dict[Item, pygame.Rect] = {}

    # --- resources -------------------------------------------------------------------------
    def font(self, px: int) -> pygame.font.Font:
        f = self._fonts.get(px)
        if f is None:
            f = self._fonts[px] = pygame.font.Font(None, px)
        return f

    def text_surface(self, t: Text) -> pygame.Surface:
        """The rendered line (opaque on its ``bg``); squeezed to ``max_w`` if it would overflow."""
        surf = self._texts.get(t)
        if surf is None:
            surf = self.font(t.px).render(t.text, True, t.colour, t.bg)
            if t.max_w is not None and surf.get_width() > t.max_w > 0:
                surf = pygame.transform.smoothscale(surf, (t.max_w, surf.get_height()))
            if len(self._texts) >= _TEXT_CACHE:
                self._texts.clear()
            self._texts[t] = surf
        return surf

    def rect_of(self, item: Item) -> pygame.Rect:
        """Where ``item`` lands on the surface."""
        if isinstance(item, (Box, Bar)):
            return pygame.Rect(*item.rect.as_tuple())
        if isinstance(item, CardSprite):
            return pygame.Rect(item.x, item.y, *cardart.card_size(item.height))
        w, h = self.text_surface(item).get_size()
        x = {"left": item.x, "center": item.x - w // 2, "right": item.x - w}[item.align]
        return pygame.Rect(x, item.y, w, h)

    # --- drawing ---------------------------------------------------------------------------
    def _draw_item(self, surface: pygame.Surface, item: Item, rect: pygame.Rect) -> None:
        if isinstance(item, Box):
            if item.alpha < 255 and item.fill is not None:
                veil = pygame.Surface(rect.size)
                veil.fill(item.fill)
                veil.set_alpha(item.alpha)
                surface.blit(veil, rect.topleft)
            elif item.fill is not None:
                pygame.draw.rect(surface, item.fill, rect, border_radius=item.radius)
            if item.border is not None and item.width > 0:
                pygame.draw.rect(surface, item.border, rect, item.width, border_radius=item.radius)
        elif isinstance(item, Bar):
            surface.fill(item.fill, rect)
        elif isinstance(item, CardSprite):
            art = (cardart.render_card(item.card, item.height) if item.face_up and item.card is not None
                   else cardart.render_back(item.height))
            surface.blit(art, rect.topleft)
        else:
            surface.blit(self.text_surface(item), rect.topleft)

    def draw(self, scene: Scene, surface: pygame.Surface) -> list[pygame.Rect]:
        """Draw ``scene``; returns the rectangles that changed (the whole surface on the first
        call, after a size or background change, or when most of it changed)."""
        items = ordered(scene)
        rects = {item: self.rect_of(item) for item in items}
        size = surface.get_size()
        key = (size, scene.background)
        full = pygame.Rect(0, 0, *size)
        if key != self._last_key:
            dirty = [full]
        else:
            old, new = set(self._last_rects), set(rects)
            changed = [self._last_rects[i] for i in old - new] + [rects[i] for i in new - old]
            dirty = _merge([r.clip(full) for r in changed if r.w and r.h])
            if sum(r.w * r.h for r in dirty) > FULL_REDRAW_SHARE * full.w * full.h:
                dirty = [full]
        self._last_key = key
        self._last_rects = rects
        if not dirty:
            return []
        if dirty == [full]:
            surface.fill(scene.background)
            for item in items:
                self._draw_item(surface, item, rects[item])
            return [full]
        for area in dirty:
            surface.set_clip(area)
            surface.fill(scene.background, area)
            for item in items:
                r = rects[item]
                if r.colliderect(area):
                    self._draw_item(surface, item, r)
        surface.set_clip(None)
        return dirty

    def forget(self) -> None:
        """Make the next ``draw`` a full redraw (e.g. after the window was exposed again)."""
        self._last_key = None
        self._last_rects = {}


def _merge(rects: list[pygame.Rect]) -> list[pygame.Rect]:
    """Union overlapping rectangles until none overlap (few rectangles per frame)."""
    out: list[pygame.Rect] = []
    for r in rects:
        r = r.copy()
        merged = True
        while merged:
            merged = False
            for o in out:
                if o.colliderect(r):
                    out.remove(o)
                    r.union_ip(o)
                    merged = True
                    break
        out.append(r)
    return out


def render_scene(scene: Scene, surface: pygame.Surface | None = None) -> pygame.Surface:
    """``scene`` drawn once on a new off-screen surface (or ``surface``)."""
    if surface is None:
        surface = pygame.Surface(scene.size)
    Renderer().draw(scene, surface)
    return surface
