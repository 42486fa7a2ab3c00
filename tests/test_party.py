"""The party through the screen app's public interface, in virtual time: the button check that seats
players, names picked on the arcade buttons (two at once, the letter wheel, forgetting one), a
best-of-3 match to its end and its rematch, a late joiner between games, settings bundles."""

from __future__ import annotations

import json
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"

import pygame  # noqa: E402
import pytest  # noqa: E402

from device.box import Options  # noqa: E402
from device.clock import VirtualClock  # noqa: E402
from device.inputs.press import MENU_STATION, Press, Stuck, Unstuck  # noqa: E402
from device.journal.names import CAP, NameBook, check_name  # noqa: E402
from device.screen.app import HOLD_NS, App  # noqa: E402
from device.screen.display import open_display  # noqa: E402
from device.screen.menu import BUNDLES, Menu, Settings  # noqa: E402
from device.screen.picker import DONE, KEEP, NEW, WHEEL, NamePicker, unique_names  # noqa: E402
from device.table.series import MatchPlan, Series  # noqa: E402

MS = 1_000_000
# strip-jack-naked, 2 seats: seat 0 lays a Jack, seat 1 pays its only card and is out: seat 0 wins
QUICK = [[44, 20], [24]]


class Hands:
    """The players' arcade buttons, pressed in virtual time (each step moves the clock on)."""

    def __init__(self, app: App) -> None:
        self.app = app

    def _at(self, dt_ms: int) -> int:
        self.app.clock.advance_by(dt_ms * MS)
        return self.app.clock.now_ns()

    def tap(self, station: int) -> None:
        t = self._at(50)
        self.app.press(Press(station, "slap", "press", t, "gpio"), t)
        t = self._at(80)
        self.app.press(Press(station, "slap", "release", t, "gpio"), t)
        self.app.draw()

    def hold(self, station: int) -> None:
        t = self._at(50)
        self.app.press(Press(station, "slap", "press", t, "gpio"), t)
        t = self._at(HOLD_NS // MS + 1)
        self.app.tick(t)  # held long enough: chosen while still down
        t = self._at(40)
        self.app.press(Press(station, "slap", "release", t, "gpio"), t)
        self.app.draw()

    def menu(self) -> None:
        t = self._at(50)
        self.app.press(Press(MENU_STATION, "menu", "press", t, "gpio"), t)
        t = self._at(80)
        self.app.press(Press(MENU_STATION, "menu", "release", t, "gpio"), t)

    def play_out(self, limit_s: int = 600) -> None:
        """Let the game run (bots and the table) until it ends."""
        for _ in range(limit_s * 4):
            if self.app.mode != "game":
                return
            self.app.tick(self._at(250))
            self.app.draw()
        raise AssertionError("the game did not end")

    def spell(self, station: int, name: str) -> None:
        """Pick "new name", then turn the wheel to each letter and take it, then done."""
        app = self.app
        picker = app.party.pickers[station]
        while picker.options(app.party.taken(station))[picker.cursor] != NEW:
            self.tap(station)
        self.hold(station)
        assert picker.stage == "wheel"
        for ch in name.upper() + "\n":
            target = WHEEL.index(DONE if ch == "\n" else " " if ch == " " else ch)
            while picker.letter != target:
                self.tap(station)
            self.hold(station)


def to_join(app: App, hands: Hands, first: int = 0) -> None:
    hands.tap(first)  # attract: the first press seats this station and opens the menu
    assert app.mode == "menu"
    app.menu_action("start")
    assert app.mode == "join"


def test_the_button_check_seats_who_pressed_lights_them_and_names_a_stuck_button(make_app):
    pins = {"factory": "mock", "menu": 26, "stations": [{"slap": 17, "led": 22}, {"slap": 5, "led": 13},
                                                        {"slap": 6, "led": 19}]}
    app = make_app(source="gpio", pins=pins)
    hands = Hands(app)
    factory = app.inputs.gpio._factory
    to_join(app, hands, first=1)
    scene = app.scene()
    assert scene.kind == "join"
    view = app.party.join_view(app.clock.now_ns())
    assert [(t.station, t.joined) for t in view.tiles] == [(0, False), (1, True), (2, False)]
    assert factory.pin(13).state == 1 and factory.pin(22).state == 0  # the seated station's LED is on
    hands.tap(2)  # station 3 presses: seated, lit, shown with its seat
    view = app.party.join_view(app.clock.now_ns())
    tile = view.tiles[2]
    assert tile.joined and tile.seat == 1 and tile.lit and factory.pin(19).state == 1
    assert view.bots == 1  # 3 seats, 2 players: a bot takes the third
    assert "Station 3" in app.scene().all_text() or "3" in app.scene().all_text()
    # a button held down is named on screen with what to do, and no longer once freed
    now = app.clock.now_ns()
    app.inputs.inbox.put(Stuck(2, "slap", now))
    app.step()
    assert app.party.join_view(now).tiles[2].problem == "stuck"
    assert "free the button" in app.scene().all_text().replace("\n", " ").lower()
    app.inputs.inbox.put(Unstuck(2, "slap", now + 10 * MS))
    app.step()
    assert app.party.join_view(now).tiles[2].problem is None
    # a bouncing button: presses closer than a finger can make them
    for _ in range(4):
        t = app.clock.now_ns()
        app.press(Press(1, "slap", "press", t, "gpio"), t)
        app.press(Press(1, "slap", "release", t + 5 * MS, "gpio"), t + 5 * MS)
        app.clock.advance_by(20 * MS)
    assert app.party.join_view(app.clock.now_ns()).tiles[1].problem == "chatter"
    hands.menu()  # MENU goes back to the menu
    assert app.mode == "menu"


def test_a_station_that_never_pressed_is_not_seated(make_app):
    app = make_app()
    hands = Hands(app)
    to_join(app, hands, first=3)
    hands.hold(3)  # station 4's hold: on to the names
    assert app.mode == "names" and list(app.party.pickers) == [3]
    hands.hold(3)  # keeps its default name
    assert app.mode == "game"
    seats = app.match.table.seats
    assert [s.station for s in seats if not s.bot] == [3]
    assert seats[0].name == app.opts.names[3]  # a player who skips keeps the default name


def test_two_players_pick_names_at_once_one_on_the_letter_wheel_and_the_leaderboard_has_it(make_app, tmp_path):
    app = make_app(settings=Settings(preset="strip-jack-naked", players=2, lang="en"), packs=QUICK)
    hands = Hands(app)
    to_join(app, hands, first=0)
    hands.tap(1)
    hands.hold(1)
    assert app.mode == "names" and sorted(app.party.pickers) == [0, 1]
    # station 2 moves first, then station 1 spells a name while station 2 waits on its choice
    hands.tap(1)  # station 2: from "keep Ben" to "new name"
    assert app.party.pickers[1].view().current_key == "names.new"
    hands.spell(0, "Zoé")
    assert app.party.pickers[0].done and app.party.pickers[0].name == "Zoé"
    assert app.mode == "names"  # station 2 has not chosen yet
    names = app.scene()
    assert names.kind == "names" and "Zoé" in names.all_text()
    hands.tap(1)  # back round to "keep Ben"
    hands.hold(1)
    assert app.mode == "game"
    assert [s.name for s in app.match.table.seats] == ["Zoé", "Ben"]
    hands.play_out()
    board = json.loads((tmp_path / "journal" / "leaderboard.json").read_text())
    assert "Zoé" in [p["name"] for p in board["players"]]
    assert json.loads((tmp_path / "journal" / "names.json").read_text())["names"] == ["Zoé"]


def test_a_remembered_name_is_offered_most_recent_first_and_not_twice(make_app, tmp_path):
    book = NameBook(tmp_path / "journal" / "names.json")
    for n in ("Old", "Mid", "New"):
        book.use(n)
    book.save()
    app = make_app(settings=Settings(preset="strip-jack-naked", players=2, lang="en"), packs=QUICK)
    hands = Hands(app)
    to_join(app, hands, first=0)
    hands.tap(1)
    hands.hold(0)
    p0, p1 = app.party.pickers[0], app.party.pickers[1]
    assert p0.options() == [KEEP, "New", "Mid", "Old", NEW]
    hands.tap(0)
    hands.hold(0)  # station 1 takes "New"
    assert p0.name == "New"
    assert p1.options(app.party.taken(1)) == [KEEP, "Mid", "Old", NEW]  # not offered twice
    hands.tap(1)
    hands.hold(1)
    assert [s.name for s in app.match.table.seats] == ["New", "Mid"]
    assert NameBook(tmp_path / "journal" / "names.json").names[:2] == ["Mid", "New"]


def test_forgetting_a_name_from_the_menu(make_app, tmp_path):
    book = NameBook(tmp_path / "journal" / "names.json")
    book.use("Keep")
    book.use("Gone")
    book.save()
    app = make_app()
    hands = Hands(app)
    hands.tap(0)
    menu = app.menu
    for page_item in ("party", "names"):
        menu.cursor = menu.items().index(page_item)
        hands.hold(0)
    assert menu.page == "names" and menu.items() == ["forget:Gone", "forget:Keep", "up"]
    assert "Gone" in app.scene().all_text()
    menu.cursor = 0
    hands.hold(0)
    assert menu.items() == ["forget:Keep", "up"]
    assert NameBook(tmp_path / "journal" / "names.json").names == ["Keep"]


def test_a_best_of_3_match_to_its_end_then_a_rematch(make_app, tmp_path):
    app = make_app(settings=Settings(preset="strip-jack-naked", players=2, lang="en", match="best-of-3"),
                   packs=QUICK)
    hands = Hands(app)
    to_join(app, hands, first=0)
    hands.tap(1)
    hands.hold(0)
    hands.hold(0)
    hands.hold(1)
    assert app.mode == "game"
    hands.play_out()
    assert app.mode == "standings"
    view = app.party.standings_view(app.clock.now_ns())
    assert (view.played, view.total, view.over, view.last_winner) == (1, 3, False, "Anna")
    assert [(r.name, r.wins) for r in view.rows] == [("Anna", 1), ("Ben", 0)]
    assert "Anna" in app.scene().all_text()
    hands.tap(0)  # a tap shows the last game's statistics, another comes back
    assert app.mode == "over"
    hands.tap(0)
    assert app.mode == "standings"
    hands.hold(1)  # next game on one hold
    assert app.mode == "game"
    hands.play_out()
    view = app.party.standings_view(app.clock.now_ns())
    assert view.over and view.winner == "Anna" and view.played == 2  # 2 of 3 won: it is decided
    assert "Anna" in app.scene().all_text()
    hands.hold(0)  # the rematch: same players, same settings, nobody asked for a name again
    assert app.mode == "game"
    assert [s.name for s in app.match.table.seats] == ["Anna", "Ben"]
    assert app.party.standings_view(app.clock.now_ns()).played == 0
    hands.play_out()
    assert app.party.standings_view(app.clock.now_ns()).played == 1
    hands.menu()  # MENU from the standings: back to the menu, the match is over
    assert app.mode == "menu" and app.party.series is None
    board = json.loads((tmp_path / "journal" / "leaderboard.json").read_text())
    assert {p["name"]: p["wins"] for p in board["players"]} == {"Anna": 3, "Ben": 0}


def test_a_late_joiner_enters_between_games_with_a_name_and_no_wins(make_app):
    app = make_app(settings=Settings(preset="strip-jack-naked", players=3, lang="en", match="best-of-5"),
                   packs=[[44, 20, 28], [24], [32]])
    hands = Hands(app)
    to_join(app, hands, first=0)
    hands.hold(0)
    hands.hold(0)
    seats = app.match.table.seats
    assert [(s.station, s.bot) for s in seats] == [(0, False), (None, True), (None, True)]
    hands.play_out()
    assert app.mode == "standings"
    hands.tap(4)  # station 5 arrives: seated for the next game
    assert 4 in app.joined and app.mode == "standings"
    hands.hold(0)  # next game: the newcomer names itself first
    assert app.mode == "names" and list(app.party.pickers) == [4]
    hands.spell(4, "Lou")
    assert app.mode == "game"
    seats = app.match.table.seats
    assert [(s.station, s.name) for s in seats if not s.bot] == [(0, "Anna"), (4, "Lou")]
    view = app.party.standings_view(app.clock.now_ns())
    assert ("Lou", 0) in [(r.name, r.wins) for r in view.rows]


def test_menu_on_the_names_screen_lets_the_others_keep_their_default(make_app):
    app = make_app()
    hands = Hands(app)
    to_join(app, hands, first=0)
    hands.tap(2)
    hands.hold(0)
    hands.spell(0, "Max")
    hands.menu()  # station 3 is away: MENU starts with its default name
    assert app.mode == "game"
    assert [s.name for s in app.match.table.seats if not s.bot] == ["Max", app.opts.names[2]]


def test_developer_mode_types_a_name(make_app):
    app = make_app()
    key = pygame.KEYDOWN

    def press_key(k, text=""):
        app.handle_event(pygame.event.Event(key, key=k, unicode=text), app.clock.now_ns())

    press_key(pygame.K_RETURN)  # attract -> menu
    press_key(pygame.K_RETURN)  # Start: the button check
    press_key(pygame.K_RETURN)  # the laptop's station joins: the names
    picker = app.party.pickers[0]
    press_key(pygame.K_F2)  # F2: the keyboard types
    assert picker.stage == "wheel"
    for ch in "élodie":
        press_key(pygame.K_a, ch)  # even a station's key types a letter now
    press_key(pygame.K_BACKSPACE)
    press_key(pygame.K_e, "e")
    assert picker.view().typed == "Élodie"
    press_key(pygame.K_RETURN)
    assert app.mode == "game" and app.match.table.seats[0].name == "Élodie"


def test_a_settings_bundle_is_shown_before_it_is_applied_and_stays_changeable(make_app):
    app = make_app()
    hands = Hands(app)
    hands.tap(0)
    menu = app.menu
    menu.cursor = menu.items().index("bundle")
    hands.hold(0)
    assert menu.page == "bundle"
    menu.cursor = menu.items().index("bundle:tournament")
    hands.hold(0)
    text = app.scene().all_text()
    assert menu.page == "bundle:tournament" and "fast" in text and "best of 5" in text and "hard" in text
    assert app.opts.settings.tempo == "normal"  # shown, not yet applied
    menu.cursor = menu.items().index("apply")
    hands.hold(0)
    s = app.opts.settings
    assert (s.tempo, s.level, s.match, s.option_value("wrong_slap")) == ("fast", "hard", "best-of-5", "pot-2")
    assert menu.page == "main"
    menu.cursor = menu.items().index("tempo")
    hands.hold(0)  # changeable after
    assert s.tempo == "slow"
    # family: no wrong-slap penalty, easy bots, no time limit
    Menu(s).apply_bundle("family")
    assert (s.tempo, s.level, s.time_limit_min, s.option_value("wrong_slap")) == ("slow", "easy", None, "none")
    Menu(s).apply_bundle("party")
    assert (s.tempo, s.time_limit_min, s.option_value("wrong_slap")) == ("normal", 10, "pot-2")
    assert set(BUNDLES) == {"family", "party", "tournament"}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_party_menu_page_reads_as_words_and_is_legible(make_app, lang):
    from device.screen.scene import check_contrast, check_text_clear, check_text_fits
    app = make_app(settings=Settings(lang=lang))
    for page in ("party", "names", "bundle", "bundle:family", "bundle:party", "bundle:tournament"):
        app.mode, app.menu = "menu", Menu(app.opts.settings, page, names=["Zoé", "Marie-Hélène Dup"])
        scene = app.scene()
        text = scene.all_text()
        assert "menu." not in text and "value." not in text and "bundle." not in text, (page, text)
        assert not (check_contrast(scene) + check_text_fits(scene) + check_text_clear(scene)), page


# --- the parts, alone ----------------------------------------------------------------------------
def test_the_letter_wheel_round_trip_capitals_delete_and_space():
    p = NamePicker(0, 0, "Anna", [])
    p.hold()  # keep... no: the first choice is keep the default
    assert p.done and p.name == "Anna"
    p = NamePicker(0, 0, "Anna", ["Bob"])
    p.tap()
    p.tap()
    p.hold()
    assert p.stage == "wheel"

    def take(ch):
        p.letter = WHEEL.index(ch)
        p.hold()

    for ch in ("J", "E", "A", "N", " ", "-"):
        take(ch)
    assert p.typed == "Jean -"
    take("delete")
    take("delete")
    assert p.typed == "Jean"
    for ch in ("-", "L", "U", "C"):
        take(ch)
    assert p.typed == "Jean-Luc"
    take(DONE)
    assert p.done and p.name == "Jean-Luc"
    # deleting an empty name goes back to the list; an empty done too
    q = NamePicker(1, 1, "Ben", [])
    q.tap()
    q.hold()
    q.letter = WHEEL.index("delete")
    q.hold()
    assert q.stage == "list"
    # a name someone else took is not accepted
    r = NamePicker(2, 2, "Chloé", [])
    r.type_text("Bob")
    r.enter(taken={"Bob"})
    assert r.stage == "wheel"


def test_names_are_capped_and_checked(tmp_path):
    book = NameBook(tmp_path / "names.json")
    for i in range(CAP + 5):
        book.use(f"P{i}")
    assert len(book.names) == CAP and book.names[0] == f"P{CAP + 4}"
    book.save()
    assert NameBook(tmp_path / "names.json").names == book.names
    with pytest.raises(ValueError, match="at most 16"):
        check_name("A" * 17)
    with pytest.raises(ValueError, match="empty"):
        check_name("   ")
    (tmp_path / "names.json").write_text("{not json")
    damaged = NameBook(tmp_path / "names.json")
    assert damaged.names == [] and "unreadable name list" in damaged.warning
    assert (tmp_path / "names.damaged").exists()
    assert unique_names(["Anna", "Anna", "Ben"]) == ["Anna", "Anna 2", "Ben"]


def test_a_match_plan_and_its_series():
    assert str(MatchPlan.parse("best-of-5")) == "best-of-5"
    for bad in ("best-of-4", "minutes-2", "twice"):
        with pytest.raises(ValueError, match="expected"):
            MatchPlan.parse(bad)
    s = Series(MatchPlan.parse("minutes-10"), 0)
    s.add_game(["A", "B"], 0, [30, 22], 4 * 60 * 10**9, timed=True)
    assert not s.over() and s.minutes_left(4 * 60 * 10**9) == 6
    assert not s.over(8 * 60 * 10**9) and s.over(int(9.5 * 60 * 10**9))  # no game with < 1 min left
    s.add_game(["A", "B"], 1, [20, 32], 11 * 60 * 10**9, timed=True)
    assert s.over() and s.leaders() == ["B"] and s.winner() == "B"  # 1-1: most cards at the end
    s.photo_finish("A", "B", 900_000)
    s.photo_finish("B", "A", 2_000_000)
    assert s.photo == ("A", "B", 900_000)
    draw = Series(MatchPlan.parse("best-of-3"), 0)
    draw.add_game(["A", "B"], None, [26, 26], 1)
    draw.add_game(["A", "B"], None, [26, 26], 2)
    draw.add_game(["A", "B"], None, [26, 26], 3)
    assert draw.over() and draw.winner() is None


def test_slapbox_stats_prints_the_board_by_name_and_forgets_a_name(tmp_path):
    import subprocess
    import sys

    from device.journal.stats import Leaderboard
    board = Leaderboard(tmp_path / "leaderboard.json")
    board.add_game([{"seat": 0, "name": "Zoé", "bot": False, "slaps_won": 3, "wrong_slaps": 1, "reactions": 3,
                     "mean_reaction_ms": 250.0, "fastest_reaction_ms": 180.0},
                    {"seat": 1, "name": "Ben", "bot": True, "slaps_won": 1, "wrong_slaps": 0, "reactions": 1,
                     "mean_reaction_ms": 300.0, "fastest_reaction_ms": 300.0}], winner=0)
    board.save()
    book = NameBook(tmp_path / "names.json")
    book.use("Zoé")
    book.use("Lou")
    book.save()

    def stats(*args):
        return subprocess.run([sys.executable, "-m", "device.cli", "stats", "--journal", str(tmp_path), *args],
                              capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)

    out = stats()
    assert out.returncode == 0, out.stderr
    rows = [line.split() for line in out.stdout.splitlines()]
    assert ["Zoé", "1", "1", "3", "1", "250", "ms", "180", "ms"] in rows  # the bot is not on the board
    assert "Ben" not in out.stdout.split("remembered")[0]
    assert "remembered names, most recent first: Lou, Zoé" in out.stdout
    gone = stats("--forget", "Lou")
    assert gone.returncode == 0 and NameBook(tmp_path / "names.json").names == ["Zoé"]
    bad = stats("--forget", "Nobody")
    assert bad.returncode == 2 and "no remembered name 'Nobody'" in bad.stderr and "Zoé" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_a_tempo_set_in_milliseconds_reads_as_words_in_the_menu(make_app):
    app = make_app(settings=Settings(tempo="custom", lang="en"))
    app.mode = "menu"
    assert "as configured" in app.scene().all_text()


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("size", [(480, 320), (800, 480)])
def test_the_screens_of_a_match_say_what_a_hold_and_a_tap_do_and_stay_legible(tmp_path, lang, size):
    from device.screen.scene import check_contrast, check_text_clear, check_text_fits
    settings = Settings(preset="strip-jack-naked", players=2, lang=lang, match="best-of-3")
    opts = Options(settings=settings, journal=str(tmp_path / "journal"), packs=QUICK)
    clock = VirtualClock(10**12)
    app = App(opts, open_display(size, now=clock.now_ns), clock=clock)
    try:
        hands = Hands(app)
        to_join(app, hands, first=0)
        hands.tap(1)
        hands.hold(0)
        hands.spell(0, "Marie-Hélène")
        hands.hold(1)
        hands.play_out()
        seen = {}
        for mode in ("standings", "over"):
            assert app.mode == mode
            scene = app.scene()
            seen[mode] = scene.all_text().replace("\n", " ")
            assert not (check_contrast(scene) + check_text_fits(scene) + check_text_clear(scene)), mode
            hands.tap(0)  # standings <-> the last game's statistics
        assert "Marie-Hélène" in seen["standings"]
        assert ("Hold: next game" if lang == "en" else "suivante") in seen["over"]
    finally:
        if app.match is not None:
            app.match.close()
        app.box.close()
        pygame.display.quit()


def test_a_photo_finish_names_seats_not_stations():
    """Station 3 alone at seat 0, a bot at seat 1 (its hand is station BOT_STATION + 1): the photo
    finish names the players of those seats (it once read the station numbers as seats)."""
    from device.inputs.press import BOT_STATION
    from device.screen.feed import Feed
    from device.table.arbiter import Award
    from device.table.table import Judged

    feed = Feed(lang="en", names=["Zoé", "Ben"])
    seat_of = {2: 0, BOT_STATION + 1: 1}
    award = Award(5, 2, 1_000_000, ((2, 1_000_000), (BOT_STATION + 1, 1_900_000)), (), 900_000, False)
    feed.push(Judged(0, award, seat_of), 2_000_000)
    assert feed.photo.winner == 0 and feed.photo.runners_up == ((1, 900_000),)


# --- what a review found: each a test ---------------------------------------------------------------
def test_a_late_joiner_cannot_take_a_seated_players_name_and_scores_stay_with_their_owners(make_app, tmp_path):
    book = NameBook(tmp_path / "journal" / "names.json")
    book.use("Ben")
    book.save()
    app = make_app(settings=Settings(preset="strip-jack-naked", players=3, lang="en", match="best-of-5"),
                   packs=[[44, 20, 28], [24], [32]])
    hands = Hands(app)
    to_join(app, hands, first=1)
    hands.tap(2)
    hands.hold(1)
    hands.hold(1)  # station 2 keeps "Ben", station 3 keeps "Chloé"
    hands.hold(2)
    assert [s.name for s in app.match.table.seats] == ["Ben", "Chloé", "Robot 1"]
    hands.play_out()
    wins = {r.name: r.wins for r in app.party.standings_view(app.clock.now_ns()).rows}
    hands.tap(0)  # station 1 arrives; the remembered "Ben" is another player's: not offered
    hands.hold(1)
    picker = app.party.pickers[0]
    assert "Ben" not in picker.options(app.party.taken(0))
    hands.hold(0)  # keeps "Anna"
    seats = app.match.table.seats
    assert [(s.station, s.name) for s in seats] == [(0, "Anna"), (1, "Ben"), (2, "Chloé")]
    after = {r.name: r.wins for r in app.party.standings_view(app.clock.now_ns()).rows}
    assert after["Ben"] == wins["Ben"] and after["Anna"] == 0


def test_a_bot_is_a_robot_so_a_guest_at_its_station_later_does_not_inherit_its_wins(make_app):
    app = make_app(settings=Settings(preset="strip-jack-naked", players=4, lang="en", match="best-of-5"))
    hands = Hands(app)
    to_join(app, hands, first=0)
    hands.hold(0)
    hands.hold(0)
    assert [s.name for s in app.match.table.seats] == ["Anna", "Robot 1", "Robot 2", "Robot 3"]
    assert app.opts.names[3] not in [s.name for s in app.match.table.seats]


def test_another_players_choice_does_not_move_my_cursor(make_app, tmp_path):
    book = NameBook(tmp_path / "journal" / "names.json")
    for n in ("Zoé", "Max"):
        book.use(n)
    book.save()  # most recent first: Max, Zoé
    app = make_app()
    hands = Hands(app)
    to_join(app, hands, first=0)
    hands.tap(1)
    hands.hold(0)
    hands.tap(0)
    hands.tap(0)
    assert app.party.pickers[0].view(app.party.taken(0)).current == "Zoé"
    hands.tap(1)
    hands.hold(1)  # station 2 takes "Max", which was before "Zoé" in station 1's list
    assert app.party.pickers[1].name == "Max"
    assert app.party.pickers[0].view(app.party.taken(0)).current == "Zoé"  # still under station 1's cursor
    hands.hold(0)
    assert [s.name for s in app.match.table.seats if not s.bot] == ["Zoé", "Max"]


def test_a_timed_match_is_over_once_its_minutes_pass_even_on_the_standings(make_app):
    app = make_app(settings=Settings(preset="strip-jack-naked", players=2, lang="en", match="minutes-10"),
                   packs=QUICK)
    hands = Hands(app)
    to_join(app, hands, first=0)
    hands.hold(0)
    hands.hold(0)
    table = app.match.table
    assert 0 < table.settings.time_limit_ns <= 10 * 60 * 10**9  # its game ends with the match
    hands.play_out()
    view = app.party.standings_view(app.clock.now_ns())
    assert not view.over and view.minutes_left == 10
    app.clock.advance_by(11 * 60 * 10**9)  # they chat for 11 minutes
    app.tick(app.clock.now_ns())
    view = app.party.standings_view(app.clock.now_ns())
    assert view.over and view.winner == "Anna" and "wins the match" in app.scene().all_text().replace("\n", " ")
    hands.hold(0)  # the hold is the rematch: a new match
    assert app.mode == "game" and app.party.standings_view(app.clock.now_ns()).played == 0


def test_a_button_stuck_before_the_check_is_named_on_it(make_app):
    app = make_app()
    hands = Hands(app)
    hands.tap(0)
    app.inputs.inbox.put(Stuck(2, "slap", app.clock.now_ns()))  # held down since the box started
    app.step()
    app.menu_action("start")
    assert app.party.join_view(app.clock.now_ns()).tiles[2].problem == "stuck"


def test_more_stations_than_seats_the_last_are_told_the_table_is_full(make_app):
    app = make_app(settings=Settings(preset="bataille", players=2, lang="en"))
    hands = Hands(app)
    to_join(app, hands, first=0)
    for st in range(1, 6):
        hands.tap(st)
    assert sorted(app.joined) == [0, 1, 2, 3]  # bataille seats 4
    tiles = app.party.join_view(app.clock.now_ns()).tiles
    assert [t.problem for t in tiles[4:6]] == ["full", "full"] and not tiles[4].joined
    assert "Table full" in app.scene().all_text().replace("\n", " ")
    hands.hold(0)
    assert sorted(app.party.pickers) == [0, 1, 2, 3]


def test_leds_go_out_when_the_check_times_out_and_a_match_waits_on_its_last_games_statistics(make_app):
    pins = {"factory": "mock", "menu": 26, "stations": [{"slap": 17, "led": 22}, {"slap": 5, "led": 13}]}
    app = make_app(source="gpio", pins=pins)
    factory = app.inputs.gpio._factory
    hands = Hands(app)
    to_join(app, hands, first=0)
    hands.tap(1)
    assert (factory.pin(22).state, factory.pin(13).state) == (1, 1)
    app.clock.advance_by(app.opts.idle_attract_ns + 1)
    app.tick(app.clock.now_ns())
    assert app.mode == "attract" and (factory.pin(22).state, factory.pin(13).state) == (0, 0)
    # a match's game-over statistics wait for the players (the match is not thrown away)
    app2 = make_app(settings=Settings(preset="strip-jack-naked", players=2, lang="en", match="best-of-3"),
                    packs=QUICK)
    hands2 = Hands(app2)
    to_join(app2, hands2, first=0)
    hands2.hold(0)
    hands2.hold(0)
    hands2.play_out()
    hands2.tap(0)
    assert app2.mode == "over"
    app2.clock.advance_by(app2.opts.idle_attract_ns + 1)
    app2.tick(app2.clock.now_ns())
    assert app2.mode == "over" and app2.party.series is not None


def test_one_bad_entry_in_names_json_is_skipped_not_the_list(tmp_path):
    (tmp_path / "names.json").write_text(json.dumps({"names": ["Ok", 5, "   ", "x" * 40, "Ok", "Lou"]}))
    book = NameBook(tmp_path / "names.json")
    assert book.names == ["Ok", "Lou"] and book.warning is None


def test_the_wheel_stops_a_name_that_would_not_fit_the_small_screen():
    p = NamePicker(0, 0, "Anna", [])
    p.type_text("W" * 16)
    assert 8 <= len(p.typed) < 16  # wide letters: fewer of them
    q = NamePicker(1, 1, "Ben", [])
    q.type_text("Marie-Hélène Dupont")
    assert q.typed == "Marie-Hélène Dup"


def test_a_host_seats_four_guests_names_them_plays_a_best_of_3_and_a_rematch_with_the_buttons_alone(make_app, tmp_path):
    """The issue's "done when", pressed: nothing but station buttons (taps and holds), from attract
    mode to the rematch; the test only reads the screen's state to know where the cursor is."""
    app = make_app(settings=Settings(preset="strip-jack-naked", players=2, lang="en"))
    hands = Hands(app)

    def walk_to(item: str) -> None:
        for _ in range(40):
            if app.menu.current() == item:
                return
            hands.tap(0)
        raise AssertionError(f"no {item} in {app.menu.items()}")

    def choose(item: str) -> None:
        walk_to(item)
        hands.hold(0)

    hands.tap(0)  # the host's press: the menu
    choose("party")
    choose("match")  # one game -> best of 3
    assert app.opts.settings.match == "best-of-3"
    choose("time_limit")  # none -> 3 minutes a game
    assert app.opts.settings.time_limit_min == 3
    choose("up")
    choose("start")  # the button check
    assert app.mode == "join"
    for guest in (1, 2, 3):
        hands.tap(guest)
    assert sorted(app.joined) == [0, 1, 2, 3]
    hands.hold(2)  # anyone seated goes on
    assert app.mode == "names"
    hands.hold(1)  # keeps "Ben"
    hands.spell(0, "Host")
    hands.spell(2, "Ida")
    hands.hold(3)  # keeps "David"
    assert app.mode == "game"
    assert [s.name for s in app.match.table.seats] == ["Host", "Ben", "Ida", "David"]
    assert not any(s.bot for s in app.match.table.seats)
    games = 0
    while True:
        hands.play_out(limit_s=400)
        games += 1
        assert app.mode == "standings"
        view = app.party.standings_view(app.clock.now_ns())
        assert view.played == games and games <= 3
        if view.over:
            break
        hands.hold(3)  # next game on one hold
        assert app.mode == "game"
    text = app.scene().all_text().replace("\n", " ")
    assert ("wins the match" in text) or ("draw" in text)
    hands.hold(1)  # the rematch, on one hold: same players, same names, same settings
    assert app.mode == "game"
    assert [s.name for s in app.match.table.seats] == ["Host", "Ben", "Ida", "David"]
    assert app.match.table.settings.time_limit_ns == 3 * 60 * 10**9
    assert app.party.series.plan == MatchPlan("best", 3) and not app.party.series.games
    board = json.loads((tmp_path / "journal" / "leaderboard.json").read_text())
    assert sorted(p["name"] for p in board["players"]) == ["Ben", "David", "Host", "Ida"]
    assert all(p["games"] == games for p in board["players"])


def test_a_bundle_shows_a_wrong_slap_penalty_only_for_a_game_that_has_one():
    slapping = Menu(Settings(preset="egyptian-ratscrew"), "bundle:tournament")
    plain = Menu(Settings(preset="bataille"), "bundle:tournament")
    assert "shows:tournament:wrong_slap" in slapping.items()
    assert "shows:tournament:wrong_slap" not in plain.items()
    plain.apply_bundle("tournament")
    assert "wrong_slap" not in plain.settings.options and plain.settings.match == "best-of-5"


def test_a_match_survives_a_crash_in_its_second_game(make_app, tmp_path):
    settings = Settings(preset="strip-jack-naked", players=2, lang="en", match="best-of-5")
    app = make_app(settings=settings, packs=QUICK)
    hands = Hands(app)
    to_join(app, hands, first=0)
    hands.hold(0)
    hands.spell(0, "Zed")
    hands.play_out()
    hands.hold(0)  # game 2 starts ...
    assert app.mode == "game" and len(app.party.series.games) == 1
    app.match.close()  # ... and the box dies
    app.match = None
    again = make_app(settings=Settings(preset="strip-jack-naked", players=2, lang="en", match="best-of-5"),
                     packs=QUICK, resume=True)
    assert again.mode == "pause" and again.party.series is not None
    assert again.party.series.wins == {"Zed": 1, "Robot 1": 0}
    again.menu_action("resume")
    Hands(again).play_out()
    view = again.party.standings_view(again.clock.now_ns())
    assert again.mode == "standings" and view.played == 2 and ("Zed", 2) in [(r.name, r.wins) for r in view.rows]
    Hands(again).hold(0)  # the names are kept: game 3 at once
    assert again.mode == "game" and again.match.table.seats[0].name == "Zed"
    Hands(again).menu()
    Hands(again).menu()  # pause, then (on the pause menu) ... back to the game
    again.menu_action("quit_game")
    assert not (tmp_path / "journal" / "match.json").exists()  # the match is over: nothing kept


def test_with_bots_all_a_press_opens_the_menu_and_start_lets_the_bots_play(make_app):
    app = make_app(all_bots=True)
    hands = Hands(app)
    hands.tap(0)
    assert app.mode == "menu" and app.joined == []
    app.menu_action("start")
    assert app.mode == "game" and all(s.bot for s in app.match.table.seats)


def test_the_config_takes_slap_patterns_separated_by_commas_and_names_a_wrong_one(tmp_path):
    from device.config.schema import ConfigError, load_config
    good = tmp_path / "good.toml"
    good.write_text('[game]\npreset = "egyptian-ratscrew"\n[game.options]\nslaps = "doubles, sandwich"\n')
    assert load_config(str(good)).section("game")["options"]["slaps"] == ("doubles", "sandwich")
    bad = tmp_path / "bad.toml"
    bad.write_text('[game]\npreset = "egyptian-ratscrew"\n[game.options]\nslaps = "doubles,sandwhich"\n')
    with pytest.raises(ConfigError, match="game.options.slaps: 'sandwhich' is not a slap pattern .did you mean 'sandwich'"):
        load_config(str(bad))


def test_f1_in_a_timed_matchs_game_shows_that_games_time_limit(make_app):
    app = make_app(settings=Settings(preset="strip-jack-naked", players=2, lang="en", match="minutes-5",
                                     time_limit_min=None))
    hands = Hands(app)
    to_join(app, hands, first=0)
    hands.hold(0)
    hands.hold(0)
    assert app.mode == "game"
    app.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_F1), app.clock.now_ns())
    pages = []
    for _ in range(8):  # the card's pages turn by themselves
        pages.append(app.scene().all_text().replace("\n", " "))
        app.clock.advance_by(6_100 * MS)
    assert any("5 min" in p for p in pages)
