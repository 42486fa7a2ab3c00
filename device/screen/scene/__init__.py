"""Decides what the screen shows: a pure scene model (boxes, texts, cards, bars) built from the table
and the feed, apart from drawing it (device.screen.render draws a Scene with pygame).

Pure: no pygame, no clock. One module per job:

- ``model``: the Scene and what it holds (Box, Text, CardSprite, Bar, ChooserView);
- ``text``: text measuring, fitting and wrapping, and a column of wrapped lines;
- ``checks``: the legibility checks (contrast, glyph size) every scene must pass;
- ``frame``: the game screen's rectangles, the card fan and the info panel;
- ``game``: the game screen (banner, seat strip, note), handing the pile area to its family's
  module: ``challenge``, ``battle`` or ``norvegienne`` (with the norvégienne chooser);
- ``menus``: menus, attract mode, pass the box, help and messages; ``over``: the game-over screen.
- ``rules_card``: the house rules of a game, each slap pattern with a drawn example, in pages.
- ``party``: the button check / join screen, the name pickers and a match's standings.
"""

from device.screen.scene.checks import check_contrast, check_glyphs, check_text_clear, check_text_fits, glyph_px, text_rect
from device.screen.scene.game import game_scene
from device.screen.scene.menus import attract_scene, help_scene, menu_scene, message_scene, pass_scene
from device.screen.scene.model import Bar, Box, CardSprite, ChooserView, Scene, Text
from device.screen.scene.norvegienne import chooser_view, norvegienne_chooser
from device.screen.scene.over import over_scene
from device.screen.scene.party import join_scene, names_scene, standings_scene
from device.screen.scene.rules_card import rules_card_pages, rules_card_scene
from device.screen.scene.text import ELLIPSIS, ellipsize, fit, line_height, text_width, wrap

__all__ = [
    "ELLIPSIS", "Bar", "Box", "CardSprite", "ChooserView", "Scene", "Text", "attract_scene", "check_contrast",
    "check_glyphs", "check_text_clear", "check_text_fits", "chooser_view", "ellipsize", "fit", "game_scene", "glyph_px", "help_scene", "join_scene",
    "line_height", "menu_scene", "message_scene", "names_scene", "norvegienne_chooser", "over_scene", "pass_scene", "rules_card_pages", "rules_card_scene",
    "standings_scene", "text_rect", "text_width", "wrap",
]
