"""The menus as plain data: which items, which values, where the cursor is (no drawing, no pygame).

Driven the same way by every input: a station's tap moves to the next item, a hold chooses it (an
action runs, a setting steps to its next value); in developer mode the keyboard's arrows, Enter and
Esc and the mouse do the same. The screen draws `Menu.view()`.

House rules of a slapping game come in three short pages (slap patterns, penalties, challenge and
table) so that a tap never has to walk past twenty items: each slap pattern is one on/off item, and
the wrong-slap penalty is a kind (pot, under the pile, lockout, gift...) and a number of cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from device.rules.presets import OPTIONS, PRESET_NAMES, PRESETS, SLAP_PATTERNS, WRONG_SLAPS
from device.table.series import MATCH_CHOICES

TEMPOS = {"slow": 1300, "normal": 900, "fast": 550}  # ms between two cards
LEVELS = ("easy", "normal", "hard")
LANGS = ("fr", "en")
VOLUMES = tuple(range(0, 101, 20))
SLAP_CHOICES = (("doubles",), ("doubles", "sandwich"), ("doubles", "sandwich", "top-bottom"),
                ("doubles", "sandwich", "top-bottom", "marriage"), SLAP_PATTERNS)
#: the house-rule groups of a slapping game, each a page: (page, title key)
GROUPS = (("rules:patterns", "menu.rules.patterns"), ("rules:penalties", "menu.rules.penalties"),
          ("rules:challenge", "menu.rules.challenge"))
#: the rules card's page (device.screen.scene.rules_card draws it): its only item goes back
CARD_PAGE = "rules:card"
PATTERN_OPTIONS = ("run_wraps", "marriage_colour")  # on the patterns page, after the patterns
PENALTY_OPTIONS = ("wrong_flip",)  # on the penalties page, after the penalty and its cards
#: the wrong-slap penalty's kinds, each with its numbers of cards (none: it takes no number)
PENALTY_KINDS: dict[str, tuple[int, ...]] = {
    "pot": (1, 2, 3), "bottom": (1, 2, 3), "lockout": (), "lockout-cards": tuple(range(1, 11)),
    "gift": (), "none": ()}
_PENALTY_DEFAULT_N = {"pot": 2, "bottom": 1, "lockout-cards": 3}
TIME_LIMITS = (None, 3, 5, 10, 15, 20, 30)  # a game's time limit in minutes (None: none)
#: the settings bundles: each a named set of the ordinary settings (shown before it is applied,
#: and every one of them can be changed after); "wrong_slap" applies to the games that have it
BUNDLES: dict[str, dict[str, Any]] = {
    "family": {"tempo": "slow", "wrong_slap": "none", "level": "easy", "time_limit_min": None,
               "match": "single"},
    "party": {"tempo": "normal", "wrong_slap": None, "level": "normal", "time_limit_min": 10,
              "match": "single"},  # wrong_slap None: the game's own default
    "tournament": {"tempo": "fast", "wrong_slap": "pot-2", "level": "hard", "time_limit_min": None,
                   "match": "best-of-5"},
}


def penalty_parts(rule: str) -> tuple[str, int | None]:
    """``pot-2`` -> (pot, 2), ``lockout-5`` -> (lockout-cards, 5), ``gift`` -> (gift, None)."""
    stem, _, n = rule.rpartition("-")
    if n.isdigit():
        return ("lockout-cards" if stem == "lockout" else stem), int(n)
    return rule, None


def penalty_rule(kind: str, n: int | None) -> str:
    """The ``wrong_slap`` value of a kind and a number (the inverse of ``penalty_parts``)."""
    if not PENALTY_KINDS[kind]:
        return kind
    return f"{'lockout' if kind == 'lockout-cards' else kind}-{n}"


@dataclass
class Settings:
    """What the menus set; `slapbox play` starts from the config and the command line."""

    preset: str = "bataille-corse"
    players: int = 4
    level: str = "normal"
    tempo: str = "normal"
    flip_mode: str = "auto"
    lang: str = "fr"
    volume: int = 60
    #: a game's time limit in minutes (None: none): a table setting, not a rule (RULES.md options)
    time_limit_min: int | None = None
    #: "single", "best-of-N" (N games: 3, 5, 7) or "minutes-M" (games until M minutes have passed)
    match: str = "single"
    options: dict[str, Any] = field(default_factory=dict)  # house rules that differ from the preset
    #: the settings the command line fixed for this run: never restored nor remembered (prefs.py)
    pinned: frozenset[str] = field(default=frozenset(), compare=False)

    def option_value(self, name: str) -> Any:
        return self.options.get(name, PRESETS[self.preset].defaults.get(name))


@dataclass(frozen=True)
class ItemView:
    """One line: an i18n key for the label, the value's key or text (None for an action)."""

    label: str
    value: str | None
    value_args: tuple[tuple[str, Any], ...] = ()
    selected: bool = False


@dataclass(frozen=True)
class MenuView:
    title: str
    items: tuple[ItemView, ...]
    hint: str = "menu.nav"


def _cycle(values: tuple, current: Any, step: int = 1) -> Any:
    try:
        i = values.index(current)
    except ValueError:
        return values[0]
    return values[(i + step) % len(values)]


def option_values(name: str) -> tuple:
    """The values a house-rule option steps through in the menu."""
    spec = OPTIONS[name]
    if spec.kind == "bool":
        return (False, True)
    if spec.kind == "choice":
        return spec.choices
    if spec.kind == "patterns":
        return SLAP_CHOICES
    if spec.kind == "int":
        return tuple(range(spec.low or 0, (spec.high or 0) + 1))
    return (None, 100, 300, 1000, 3000)  # max_rounds


class Menu:
    """A list of items with a cursor. ``page`` is "main", "rules" or "pause"."""

    def __init__(self, settings: Settings, page: str = "main", *, dev_mode: bool = True,
                 names: list[str] | None = None) -> None:
        self.settings = settings
        self.page = page
        self.dev_mode = dev_mode
        self.cursor = 0
        #: the names the box remembers (the "forget a name" page)
        self.known_names = list(names or [])

    # --- the items of each page ----------------------------------------------------------
    def items(self) -> list[str]:
        if self.page == "pause":
            return ["resume", "quit_game"] + ([] if self.dev_mode else ["shutdown"])
        preset = self.settings.preset
        mine = [o for o in OPTIONS if preset in OPTIONS[o].presets]
        grouped = "slaps" in mine
        if self.page == "rules":
            if grouped:
                return [page for page, _ in GROUPS] + [CARD_PAGE, "back"]
            return [f"option:{o}" for o in mine] + [CARD_PAGE, "back"]
        if self.page == CARD_PAGE:
            return ["up"]
        if self.page == "rules:patterns":
            return ([f"pattern:{p}" for p in SLAP_PATTERNS[1:]]
                    + [f"option:{o}" for o in PATTERN_OPTIONS if o in mine] + ["up"])
        if self.page == "rules:penalties":
            kind, _ = penalty_parts(self.settings.option_value("wrong_slap"))
            return (["penalty:kind"] + (["penalty:n"] if PENALTY_KINDS[kind] else [])
                    + [f"option:{o}" for o in PENALTY_OPTIONS if o in mine] + ["up"])
        if self.page == "rules:challenge":
            skip = {"slaps", "wrong_slap", *PATTERN_OPTIONS, *PENALTY_OPTIONS}
            return [f"option:{o}" for o in mine if o not in skip] + ["up"]
        if self.page == "party":
            return ["match", "time_limit", "check", "names", "up"]
        if self.page == "names":
            return [f"forget:{n}" for n in self.known_names] + ["up"]
        if self.page == "bundle":
            return [f"bundle:{b}" for b in BUNDLES] + ["up"]
        if self.page.startswith("bundle:"):
            bundle = self.page.split(":", 1)[1]
            has_penalty = "wrong_slap" in PRESETS[self.settings.preset].defaults
            return (["apply"] + [f"shows:{bundle}:{k}" for k in BUNDLES[bundle]
                                 if k != "wrong_slap" or has_penalty] + ["up"])
        items = ["start", "preset", "players", "level", "tempo", "flip_mode", "rules", "party", "bundle",
                 "lang", "volume"]
        items.append("quit" if self.dev_mode else "shutdown")
        return items

    def current(self) -> str:
        items = self.items()
        self.cursor %= len(items)
        return items[self.cursor]

    # --- moving --------------------------------------------------------------------------
    def next(self) -> None:
        self.cursor = (self.cursor + 1) % len(self.items())

    def prev(self) -> None:
        self.cursor = (self.cursor - 1) % len(self.items())

    def choose(self, step: int = 1) -> str | None:
        """Hold / Enter / click: an action's name ("start", "resume", "quit", ...), or None
        after a setting stepped to its next value (``step`` -1 steps back)."""
        item = self.current()
        s = self.settings
        if item in ("start", "resume", "quit_game", "quit", "shutdown", "check"):
            return item
        if item.startswith("forget:"):
            self.known_names.remove(item.split(":", 1)[1])
            return item  # the app forgets it for good
        if item in ("party", "names", "bundle") or item.startswith("bundle:"):
            self.page, self.cursor = item, 0
            return None
        if item == "apply":
            self.apply_bundle(self.page.split(":", 1)[1])
            self.page = "main"
            self.cursor = self.items().index("bundle")
            return None
        if item.startswith("shows:"):
            return None  # a line of the bundle's list: it is shown, applying sets it
        if item == "rules":
            self.page, self.cursor = "rules", 0
            return None
        if item == "back":
            self.page = "main"
            self.cursor = self.items().index("rules")
            return None
        if item.startswith("rules:"):
            self.page, self.cursor = item, 0
            return None
        if item == "up":
            self.back()
            return None
        if item == "preset":
            s.preset = _cycle(PRESET_NAMES, s.preset, step)
            s.options = {}
            spec = PRESETS[s.preset]
            s.players = min(max(s.players, spec.min_players), spec.max_players)
        elif item == "players":
            spec = PRESETS[s.preset]
            s.players = _cycle(tuple(range(spec.min_players, spec.max_players + 1)), s.players, step)
        elif item == "level":
            s.level = _cycle(LEVELS, s.level, step)
        elif item == "tempo":
            s.tempo = _cycle(tuple(TEMPOS), s.tempo, step)
        elif item == "flip_mode":
            s.flip_mode = _cycle(("auto", "buttons"), s.flip_mode, step)
        elif item == "lang":
            s.lang = _cycle(LANGS, s.lang, step)
        elif item == "volume":
            s.volume = _cycle(VOLUMES, s.volume, step)
        elif item == "match":
            s.match = _cycle(MATCH_CHOICES, s.match, step)
        elif item == "time_limit":
            s.time_limit_min = _cycle(TIME_LIMITS, s.time_limit_min, step)
        elif item.startswith("pattern:"):
            p = item.split(":", 1)[1]
            on = set(s.option_value("slaps")) ^ {p}
            self._set_option("slaps", tuple(q for q in SLAP_PATTERNS if q == "doubles" or q in on))
        elif item in ("penalty:kind", "penalty:n"):
            kind, n = penalty_parts(s.option_value("wrong_slap"))
            if item == "penalty:kind":
                kind = _cycle(tuple(PENALTY_KINDS), kind, step)
                ns = PENALTY_KINDS[kind]
                n = (n if n in ns else _PENALTY_DEFAULT_N.get(kind)) if ns else None
            else:
                n = _cycle(PENALTY_KINDS[kind], n, step)
            rule = penalty_rule(kind, n)
            assert rule in WRONG_SLAPS, rule
            self._set_option("wrong_slap", rule)
        elif item.startswith("option:"):
            name = item.split(":", 1)[1]
            value = _cycle(option_values(name), s.option_value(name), step)
            default = PRESETS[s.preset].defaults.get(name)
            if value == default:
                s.options.pop(name, None)
            else:
                s.options[name] = list(value) if isinstance(value, tuple) else value
        return None

    def apply_bundle(self, name: str) -> None:
        """Set the bundle's settings (each can still be changed after)."""
        s = self.settings
        for key, value in BUNDLES[name].items():
            if key == "wrong_slap":
                if "wrong_slap" in PRESETS[s.preset].defaults:
                    self._set_option("wrong_slap", value if value is not None
                                     else PRESETS[s.preset].defaults["wrong_slap"])
            else:
                setattr(s, key, value)

    def back(self) -> None:
        """Esc / "back": a house-rule group's page goes up to the groups, the groups to the main
        menu (the cursor on where it came from)."""
        up = {"names": "party", "party": "main", "bundle": "main"}
        if self.page in up or self.page.startswith("bundle:"):
            came = self.page
            self.page = up.get(came, "bundle")
            self.cursor = self.items().index(came)
            return
        if self.page.startswith("rules:"):
            came = self.page
            self.page = "rules"
            self.cursor = self.items().index(came)
        elif self.page == "rules":
            self.page = "main"
            self.cursor = self.items().index("rules")

    def _set_option(self, name: str, value: Any) -> None:
        s = self.settings
        default = PRESETS[s.preset].defaults.get(name)
        if value == default or (isinstance(value, tuple) and default is not None
                                and tuple(value) == tuple(default)):
            s.options.pop(name, None)
        else:
            s.options[name] = list(value) if isinstance(value, tuple) else value

    # --- what the screen draws -----------------------------------------------------------
    def view(self) -> MenuView:
        s = self.settings
        out = []
        current = self.current()
        for item in self.items():
            label, value, args = _describe(item, s)
            out.append(ItemView(label, value, args, item == current))
        title = {"main": "menu.title", "rules": "menu.house_rules", "pause": "menu.title",
                 "party": "menu.party", "names": "menu.names", "bundle": "menu.bundle",
                 **dict(GROUPS)}.get(self.page, "menu.bundle")
        if self.page.startswith("bundle:"):
            title = f"bundle.{self.page.split(':', 1)[1]}"
        return MenuView(title, tuple(out))


def _describe(item: str, s: Settings) -> tuple[str, str | None, tuple]:
    """(label key, value key, value arguments) of one item."""
    if item == "start":
        return "menu.start", None, ()
    if item == "resume":
        return "menu.resume", None, ()
    if item in ("quit", "quit_game"):
        return "menu.quit", None, ()
    if item == "shutdown":
        return "menu.shutdown", None, ()
    if item in ("back", "up"):
        return "menu.back", None, ()
    if item in ("party", "names", "bundle", "check", "apply"):
        return f"menu.{item}", None, ()
    if item.startswith("forget:"):
        return "menu.forget", "value.name", (("name", item.split(":", 1)[1]),)
    if item.startswith("bundle:"):
        return f"bundle.{item.split(':', 1)[1]}", None, ()
    if item in ("match", "time_limit", "level", "tempo"):
        key = "time_limit_min" if item == "time_limit" else item
        return _setting(key, getattr(s, key))
    if item.startswith("shows:"):
        return _bundle_line(item.split(":", 1)[1], s)
    if item == CARD_PAGE:
        return "menu.rules.card", None, ()
    if item.startswith("rules:"):
        return dict(GROUPS)[item], None, ()
    if item.startswith("pattern:"):
        p = item.split(":", 1)[1]
        return f"pattern.{p}", "value.on" if p in s.option_value("slaps") else "value.off", ()
    if item in ("penalty:kind", "penalty:n"):
        kind, n = penalty_parts(s.option_value("wrong_slap"))
        if item == "penalty:kind":
            return "option.wrong_slap", f"value.penalty.{kind}", ()
        return "menu.penalty.cards", "number", (("n", n),)
    if item == "rules":
        return "menu.house_rules", None, ()
    if item == "preset":
        return "menu.game", f"preset.{s.preset}", ()
    if item == "players":
        return "menu.seats", "number", (("n", s.players),)
    if item == "flip_mode":
        return "menu.flip", f"flip.{s.flip_mode}", ()
    if item == "lang":
        return "menu.language", f"language.{s.lang}", ()
    if item == "volume":
        return "menu.volume", "volume.off" if s.volume == 0 else "volume.value", (("n", s.volume),)
    name = item.split(":", 1)[1]
    value = s.option_value(name)
    label = f"option.{name}"
    if isinstance(value, bool):
        return label, "value.on" if value else "value.off", ()
    if value is None:
        return label, "value.none", ()
    if name == "deck":
        return label, "value.deck", (("n", value),)
    if name == "slaps":
        return label, "value.patterns", (("patterns", tuple(value)),)
    if isinstance(value, int):
        return label, "number", (("n", value),)
    return label, f"value.{name}.{value}", ()


def _setting(key: str, value: Any) -> tuple[str, str | None, tuple]:
    """(label key, value key, value arguments) of a setting with ``value``: the menu's item and
    a bundle's line say it the same way."""
    if key == "tempo":
        return "menu.tempo", f"tempo.{value}", ()
    if key == "level":
        return "menu.difficulty", f"difficulty.{value}", ()
    if key == "time_limit_min":
        return "menu.time_limit", "value.none" if value is None else "value.minutes", (("n", value),)
    stem, _, n = value.rpartition("-")  # match: a single game, best of N, or M minutes
    if stem == "best-of":
        return "menu.match", "value.best_of", (("n", int(n)),)
    if stem == "minutes":
        return "menu.match", "value.match_minutes", (("n", int(n)),)
    return "menu.match", "value.single", ()


def _bundle_line(item: str, s: Settings) -> tuple[str, str | None, tuple]:
    """One line of a bundle's list (``bundle:setting``): the setting and the value the bundle
    gives it."""
    bundle, key = item.split(":", 1)
    value = BUNDLES[bundle][key]
    if key != "wrong_slap":
        return _setting(key, value)
    if value is None:
        return "option.wrong_slap", "value.penalty.default", ()
    kind, n = penalty_parts(value)
    if n is None:
        return "option.wrong_slap", f"value.penalty.{kind}", ()
    return "option.wrong_slap", "value.penalty.n", (("n", n), ("what", f"value.penalty.{kind}"))
