"""Every word the screen shows, in French and English, and the sentences that tell the rules' events.

The rules emit typed events and never text (DESIGN.md); this module is the only place that turns
them into words. Catalogues are plain dicts of ``str.format`` templates; a key with a ``.one``
variant is used when the ``n`` placeholder is singular (English: 1; French: 0 and 1).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from string import Formatter
from typing import Any

from device.rules import events as ev
from device.rules.cards import ANY_NUMBER, JOKER, rank, suit

LANGUAGES = ("fr", "en")

_EN: dict[str, str] = {
    # names of things
    "seat.default": "Seat {n}",
    "list.two": "{a} and {b}",
    "list.sep": ", ",
    "ms": "{value} ms",
    "us": "{value} µs",
    "suit.0": "spades", "suit.1": "hearts", "suit.2": "diamonds", "suit.3": "clubs",
    "card.number": "the {n}",
    "card.rank.11": "the Jack", "card.rank.12": "the Queen", "card.rank.13": "the King",
    "card.rank.14": "the Ace",
    "card.of": "{rank} of {suit}",
    "card.joker": "a joker",
    "card.any": "a number card",
    "ranks.number": "{n}s",
    "ranks.11": "Jacks", "ranks.12": "Queens", "ranks.13": "Kings", "ranks.14": "Aces",
    "ranks.15": "jokers",
    "count.2": "two", "count.3": "three", "count.4": "four", "count.5": "five",
    "count.6": "six", "count.7": "seven", "count.8": "eight",
    "cards": "{n} cards", "cards.one": "{n} card",
    # events
    "event.laid": "{name} lays {card}",
    "event.laid.borrowed": "{name} borrows from {owner} and lays {card}",
    "event.laid.down": "{name} lays a card face down",
    "event.owes": "{name} owes {n} cards", "event.owes.one": "{name} owes {n} card",
    "event.collect_pending": "{name} wins the challenge",
    "event.won.challenge": "{name} wins the challenge and takes {cards}",
    "event.won.slap.doubles": "{name} slaps the double and takes {cards}",
    "event.won.slap.sandwich": "{name} slaps the sandwich and takes {cards}",
    "event.won.slap.top-bottom": "{name} slaps top and bottom and takes {cards}",
    "event.won.slap.marriage": "{name} slaps the marriage and takes {cards}",
    "event.won.slap.tens": "{name} slaps the sum of 10 and takes {cards}",
    "event.won.slap.big-mac": "{name} slaps the big mac and takes {cards}",
    "event.won.slap.divorce": "{name} slaps the divorce and takes {cards}",
    "event.won.slap.ten-on-top": "{name} slaps the 10 on top and takes {cards}",
    "event.won.slap.run": "{name} slaps the run and takes {cards}",
    "event.won.slap.flush": "{name} slaps the flush and takes {cards}",
    "event.won.gift": "The wrong slap gives the pile to {name}: {cards}",
    "event.won.slap": "{name} slaps and takes {cards}",
    "event.won.last-seat": "Nobody else is in play: {name} takes {cards}",
    "event.won.round": "{name} wins the round and takes {cards}",
    "event.won.forfeit": "The challenged seat cannot pay: {name} takes {cards}",
    "event.won": "{name} takes {cards}",
    "event.wrong_slap": "{name} slaps wrong and pays {n} cards to the pot",
    "event.wrong_slap.one": "{name} slaps wrong and pays {n} card to the pot",
    "event.wrong_slap.free": "{name} slaps wrong",
    "event.wrong_slap.locked": "{name} slaps wrong: no more slaps on this pile",
    "event.locked_out": "{name} may not slap until the pile is won",
    "event.locked_out.cards": "{name} may not slap for {n} cards",
    "event.wrong_slap.under": "{name} slaps wrong and puts {n} cards under the pile",
    "event.wrong_slap.under.one": "{name} slaps wrong and puts {n} card under the pile",
    "event.unlocked": "{name} may slap again",
    "event.wrong_flip": "{name} flips out of turn and pays {n} card to the pot",
    "event.stopped": "{name} lays a 10: the challenge stops",
    "slap.named.doubles": "Double!", "slap.named.sandwich": "Sandwich!", "slap.named.big-mac": "Big mac!",
    "slap.named.top-bottom": "Top and bottom!", "slap.named.marriage": "Marriage!",
    "slap.named.divorce": "Divorce!", "slap.named.tens": "Ten!", "slap.named.ten-on-top": "Ten on top!",
    "slap.named.run": "Run!", "slap.named.flush": "Flush!",
    "slap.not": "No {patterns} here",
    "event.seat_out": "{name} is out",
    "event.seat_back": "{name} is back in play",
    "event.joined": "{name} joins the game",
    "event.battle": "Battle! {names}",
    "event.battle.again": "Battle again ({stage})! {names}",
    "event.peace": "Peace! {names}",
    "event.peace.again": "Peace again ({stage})! {names}",
    "event.swapped": "{name} puts {hand} face up and takes {up}",
    "event.played": "{name} lays {cards}",
    "event.played.many": "{name} lays {count} {ranks}",
    "event.played.up": "{play} (face-up cards)",
    "event.played.down": "{play} (face down)",
    "event.took_up": "{name} takes the face-up cards into hand",
    "event.drew": "{name} draws {n} cards", "event.drew.one": "{name} draws {n} card",
    "event.picked_up": "{name} picks up the pile ({cards})",
    "event.burned.ten": "{name} burns the pile with a 10 ({cards})",
    "event.burned.four": "Four of a kind: {name} burns the pile ({cards})",
    "event.burned": "{name} burns the pile ({cards})",
    "event.skipped": "{names} are skipped", "event.skipped.one": "{names} is skipped",
    "event.ace_target": "{name} aims the Ace at {target}",
    "event.revealed.ok": "{name} turns up {card}: it plays",
    "event.revealed.no": "{name} turns up {card}: it does not play",
    "event.finished": "{name} has no cards left: place {place}",
    "event.over.win": "{name} wins the game!",
    "event.over.draw": "The game is a draw",
    "event.over.loop": "This deal never ends: a draw",
    "event.over.limit": "Round limit reached: {name} wins",
    "event.over.limit_draw": "Round limit reached: a draw",
    "event.over.time": "Time's up: {name} wins",
    "event.over.time_draw": "Time's up: a draw",
    "time.up": "Time! The game ends with this trick",
    "time.last_trick": "Last trick!",
    # presets
    "preset.bataille-corse": "Bataille Corse",
    "preset.bataille-corse.hint": "face cards challenge, slap the doubles",
    "preset.strip-jack-naked": "Strip Jack Naked",
    "preset.strip-jack-naked.hint": "face cards challenge, no slapping",
    "preset.egyptian-ratscrew": "Egyptian Ratscrew",
    "preset.egyptian-ratscrew.hint": "Strip Jack Naked with slapping",
    "preset.bataille": "War",
    "preset.bataille.hint": "the highest card takes the round",
    "preset.paix": "Peace",
    "preset.paix.hint": "the lowest card takes the round",
    "preset.norvegienne": "Palace",
    "preset.norvegienne.hint": "get rid of your cards; 2, 7, 8, 10 and Ace are special",
    # seat statuses
    "status.turn": "to play",
    "status.owes": "owes {n}",
    "status.out": "out",
    "status.locked": "locked out",
    "status.stuck": "stuck",
    "status.bot": "bot",
    "status.waiting": "waiting",
    "status.winner": "winner",
    "status.cards": "{n} cards", "status.cards.one": "{n} card",
    "stuck.note": "{name}: button held, ignored until released",
    # slaps
    "slap.first": "{name} first by {margin}",
    "slap.alone": "{name} slapped alone",
    "slap.runner": "{name} (+{margin})",
    "slap.runners_up": "then {names}",
    "slap.tie": "tie (< {window}): rotation chose {name}",
    "wrong.title": "Wrong slap!",
    "wrong.penalty": "{name} pays {n} cards to the pot",
    "wrong.penalty.one": "{name} pays {n} card to the pot",
    "wrong.locked": "{name} may not slap until the pile is won",
    "wrong.none": "{name}: no penalty",
    "pile.count": "{n} cards in the pile", "pile.count.one": "{n} card in the pile",
    "pot.count": "pot: {n}",
    # challenges
    "challenge.title": "Challenge",
    "challenge.left": "{n} left",
    # menus
    "menu.title": "Menu",
    "menu.game": "Game",
    "menu.seats": "Seats",
    "menu.bots": "Bots",
    "menu.difficulty": "Difficulty",
    "difficulty.easy": "easy", "difficulty.normal": "normal", "difficulty.hard": "hard",
    "menu.tempo": "Tempo",
    "tempo.slow": "slow", "tempo.normal": "normal", "tempo.fast": "fast", "tempo.custom": "as configured",
    "menu.house_rules": "House rules",
    "menu.language": "Language",
    "language.fr": "Français", "language.en": "English",
    "menu.volume": "Volume",
    "volume.value": "{n}%",
    "volume.off": "off",
    "menu.start": "Start",
    "menu.back": "Back",
    # the party: the button check, names, matches, settings bundles
    "menu.party": "Match and players", "menu.check": "Button check", "menu.names": "Forget a name",
    "menu.forget": "Forget", "value.name": "{name}",
    "menu.match": "Match", "value.single": "one game", "value.best_of": "best of {n}",
    "value.match_minutes": "{n} minutes",
    "menu.time_limit": "Time limit", "value.minutes": "{n} min", "value.minutes.one": "{n} min",
    "menu.bundle": "Settings bundles", "menu.apply": "Apply these settings",
    "bundle.family": "Family", "bundle.party": "Party", "bundle.tournament": "Tournament",
    "value.penalty.default": "the game's own", "value.penalty.n": "{n} {what}",
    "menu.resume": "Resume",
    "menu.quit": "Quit",
    "menu.shutdown": "Shut down",
    "menu.nav": "tap = next, hold = choose",
    "shutdown.hold": "Hold MENU for 5 s to shut down",
    "shutdown.now": "Shutting down…",
    "shutdown.dev": "Shutdown does nothing in developer mode",
    "resumed": "The game goes on where it stopped",
    "link.lost": "The buttons are disconnected ({reason}): the game waits for them",
    "link.back": "The buttons are back: choose Resume to go on",
    # house rules: option names and values
    "option.deck": "Deck",
    "option.slaps": "Slaps",
    "option.wrong_slap": "Wrong slap",
    "option.borrow": "Borrow when out of cards",
    "option.borrow_spares_last": "Lender keeps its last card",
    "option.out_when": "Out",
    "option.late_join": "Late arrivals may slap in",
    "option.max_rounds": "Round limit",
    "option.tie_cards_down": "Cards face down in a battle",
    "option.tie_joiners": "Who joins a battle",
    "option.shuffle_pickup": "Shuffle won cards",
    "option.voluntary_pickup": "Pick up the pile at will",
    "option.blind_chain": "Keep turning face-down cards",
    "option.ace_on_seven": "Ace on a 7",
    "option.rank_all": "Rank every seat",
    "option.run_wraps": "Runs wrap (K-A-2)",
    "option.marriage_colour": "Marriage of one colour",
    "option.wrong_flip": "Flip out of turn",
    "option.tens_stop": "Tens stop a challenge",
    "menu.rules.patterns": "Slap patterns", "menu.rules.penalties": "Penalties",
    "menu.rules.challenge": "Challenge and table", "menu.penalty.cards": "Cards",
    "value.penalty.pot": "cards to the pot", "value.penalty.bottom": "cards under the pile",
    "value.penalty.lockout": "no slapping until the pile is won",
    "value.penalty.lockout-cards": "no slapping for some cards",
    "value.penalty.gift": "the pile to the next seat", "value.penalty.none": "no penalty",
    "value.on": "on", "value.off": "off", "value.none": "none",
    "value.deck": "{n} cards",
    "value.wrong_slap.pot-2": "2 cards to the pot",
    "value.wrong_slap.pot-1": "1 card to the pot",
    "value.wrong_slap.lockout": "no slapping until the pile is won",
    "value.wrong_slap.none": "no penalty",
    "value.wrong_slap.pot-3": "3 cards to the pot",
    "value.wrong_slap.bottom-1": "1 card under the pile", "value.wrong_slap.bottom-2": "2 cards under the pile",
    "value.wrong_slap.bottom-3": "3 cards under the pile",
    **{f"value.wrong_slap.lockout-{n}": f"no slapping for {n} card{'s' if n > 1 else ''}" for n in range(1, 11)},
    "value.wrong_slap.gift": "the pile to the next seat",
    "value.wrong_flip.none": "no penalty", "value.wrong_flip.pot-1": "1 card to the pot",
    "value.out_when.last-card": "on laying the last card",
    "value.out_when.must-lay": "when it must lay and has none",
    "value.tie_joiners.tied": "the tied seats",
    "value.tie_joiners.all": "every seat",
    "pattern.doubles": "doubles",
    "pattern.sandwich": "sandwich",
    "pattern.top-bottom": "top and bottom",
    "pattern.marriage": "King and Queen",
    "pattern.tens": "adds up to 10",
    "pattern.big-mac": "big mac (X-a-b-X)",
    "pattern.divorce": "King, a card, Queen",
    "pattern.ten-on-top": "a 10 on top",
    "pattern.run": "three in a row",
    "pattern.flush": "four of a suit",
    # the rules card (device/screen/scene/rules_card.py)
    "menu.rules.card": "Rules card",
    "rulescard.title": "{game}: house rules",
    "rulescard.line": "{label}: {value}",
    "rulescard.time_limit": "Time limit: {n} min",
    "rulescard.page": "{page}/{pages}",
    "rulescard.hint": "Hold: back",
    "rulescard.hint.pages": "The pages turn by themselves · hold: back",
    # attract mode, pass the box, keyboard
    "attract.title": "slapbox",
    "attract.join": "Press any button to join",
    "attract.joined": "{n} players joined", "attract.joined.one": "{n} player joined",
    "attract.start": "Hold a button to start",
    "pass.to": "Pass the box to seat {n}, press to look",
    "pass.hide": "Press again to hide your cards",
    "keys.note": "Keys are stamped when read: keys in the same frame count as a tie",
    "keys.station": "{station}: slap {slap}, flip {flip}",
    "keys.station.flip": "{station}: flip {flip}",
    "keys.station.choose": "{station}: {slap} (tap: next, hold: choose)",
    "keys.menu": "Esc: menu, F1: help",
    # game over and statistics
    "over.title": "Game over",
    "over.winner": "{name} wins!",
    "over.draw": "Draw",
    "over.loop": "This deal never ends: a draw",
    "over.limit": "Round limit reached",
    "over.time": "Time's up: a draw",
    "over.again": "Hold: play again · tap: menu",
    "over.match": "Hold: next game · tap: standings",
    "over.rematch": "Hold: rematch · tap: standings",
    # the party screens (device/screen/scene/party.py): join, names, standings
    "party.ready": "ready",
    "join.title": "Press your button!",
    "join.station": "Station {n}",
    "join.stations": "Stations {list}",
    "join.empty": "—",
    "join.problem.stuck": "Stuck down", "join.fix.stuck": "free the button",
    "join.problem.chatter": "Bouncing", "join.fix.chatter": "check its wires",
    "join.problem.lost": "Presses lost", "join.fix.lost": "check the wiring",
    "join.problem.full": "Table full", "join.fix.full": "wait for a seat",
    "join.advice": "{problem}: {fix}",
    "join.advice.where": "{where} – {advice}",
    "join.bots": "{n} bots will take the free seats", "join.bots.one": "{n} bot will take the free seat",
    "join.bots.none": "No bots will play",
    "join.hint": "Everyone pressed? Hold your button to start · MENU:\u00a0back",
    "join.wait": "Press a button to join · MENU:\u00a0back",
    "names.title": "Your names",
    "names.footer": "The game starts when everyone is ready · MENU: start now",
    "names.hint": "tap: next · hold: choose",
    "names.new": "New name",
    "names.keep": "Keep {default}",
    "wheel.space": "Space", "wheel.delete": "Delete", "wheel.done": "Done",
    "standings.best_of": "Game {played} of {total}",
    "standings.timed": "Game {played} · {minutes} min left",
    "standings.timed.end": "Game {played} · time is up",
    "standings.game": "Game {played}",
    "standings.won": "{name} wins this game",
    "standings.draw": "Draw",
    "standings.leader": "leader",
    "standings.photo": "Closest photo finish: {winner} beat {runner} by {time}",
    "standings.next": "Hold: next game · MENU:\u00a0menu",
    "standings.match_won": "{winner} wins the match!",
    "standings.match_draw": "The match is a draw",
    "standings.rematch": "Hold: rematch · MENU:\u00a0menu",
    "stats.title": "Statistics",
    "stats.player": "Player",
    "stats.games": "Games",
    "stats.wins": "Wins",
    "stats.piles": "Piles won",
    "stats.slaps": "Slaps won",
    "stats.wrong_slaps": "Wrong slaps",
    "stats.fastest": "Fastest slap",
    "stats.reaction": "Average reaction",
    "stats.cards_laid": "Cards laid",
    "stats.rounds": "Rounds",
    "stats.duration": "Duration",
    "stats.leaderboard": "Leaderboard",
    "stats.none": "No games yet",
    # added for the scene model (device/screen/scene.py)
    "number": "{n}",
    "value.patterns": "{patterns}",
    "menu.flip": "Flip",
    "flip.auto": "automatic",
    "flip.buttons": "FLIP buttons",
    "help.title": "Help",
    "help.close": "Esc or F1 closes this help (the game waits)",
    "pile.bottom": "bottom",
    "table.count": "{n} cards on the table", "table.count.one": "{n} card on the table",
    "status.wrong": "wrong slap",
    "pile.taken": "{name} takes the pile",
    "stock.count": "stock: {n}",
    "burned.count": "burned: {n}",
    "ace.answer": "{name} must answer the Ace or pick up",
    "swap.phase": "{name} is swapping cards",
    "battle.title": "Battle!",
    "peace.title": "Peace!",
    "battle.stage": "stage {n}",
    "round.winner": "{name} takes the round",
    "over.chain": "Longest challenge chain: {n} face cards",
    "over.chain.one": "Longest challenge chain: {n} face card",
    "stats.short.slaps": "slaps",
    "stats.short.wrong": "wrong",
    "stats.short.reaction": "reaction",
    "stats.short.games": "games",
    "stats.short.wins": "wins",
    "stats.short.fastest": "best",
    "stats.short.cards": "cards",
    "chooser.title": "{name}, your move",
    "chooser.play": "Lay {cards}",
    "chooser.pickup": "Pick up the pile",
    "chooser.target": "Send the pile to {name}",
    "chooser.swap": "Swap {hand} for {up}",
    "chooser.ready": "Ready: start playing",
    "chooser.reveal": "Turn a face-down card",
    "chooser.more": "{n} more cards",
    "chooser.more.one": "{n} more card",
}

_FR: dict[str, str] = {
    "seat.default": "Place {n}",
    "list.two": "{a} et {b}",
    "list.sep": ", ",
    "ms": "{value} ms",
    "us": "{value} µs",
    "suit.0": "pique", "suit.1": "cœur", "suit.2": "carreau", "suit.3": "trèfle",
    "card.number": "le {n}",
    "card.rank.11": "le valet", "card.rank.12": "la dame", "card.rank.13": "le roi",
    "card.rank.14": "l'as",
    "card.of": "{rank} de {suit}",
    "card.joker": "un joker",
    "card.any": "une chaussette",
    "ranks.number": "{n}",
    "ranks.11": "valets", "ranks.12": "dames", "ranks.13": "rois", "ranks.14": "as",
    "ranks.15": "jokers",
    "count.2": "deux", "count.3": "trois", "count.4": "quatre", "count.5": "cinq",
    "count.6": "six", "count.7": "sept", "count.8": "huit",
    "cards": "{n} cartes", "cards.one": "{n} carte",
    "event.laid": "{name} pose {card}",
    "event.laid.borrowed": "{name} emprunte à {owner} et pose {card}",
    "event.laid.down": "{name} pose une carte face cachée",
    "event.owes": "{name} doit {n} cartes", "event.owes.one": "{name} doit {n} carte",
    "event.collect_pending": "{name} gagne le défi",
    "event.won.challenge": "{name} gagne le défi et ramasse {cards}",
    "event.won.slap.doubles": "{name} tape le doublé et ramasse {cards}",
    "event.won.slap.sandwich": "{name} tape le sandwich et ramasse {cards}",
    "event.won.slap.top-bottom": "{name} tape le haut et le bas et ramasse {cards}",
    "event.won.slap.marriage": "{name} tape le mariage et ramasse {cards}",
    "event.won.slap.tens": "{name} tape la somme de dix et ramasse {cards}",
    "event.won.slap.big-mac": "{name} tape le big mac et ramasse {cards}",
    "event.won.slap.divorce": "{name} tape le divorce et ramasse {cards}",
    "event.won.slap.ten-on-top": "{name} tape le 10 dessus et ramasse {cards}",
    "event.won.slap.run": "{name} tape la suite et ramasse {cards}",
    "event.won.slap.flush": "{name} tape la couleur et ramasse {cards}",
    "event.won.gift": "La fausse tape donne le tas à {name} : {cards}",
    "event.won.slap": "{name} tape et ramasse {cards}",
    "event.won.last-seat": "Plus personne d'autre en jeu : {name} ramasse {cards}",
    "event.won.round": "{name} gagne la manche et ramasse {cards}",
    "event.won.forfeit": "Le joueur défié ne peut pas payer : {name} ramasse {cards}",
    "event.won": "{name} ramasse {cards}",
    "event.wrong_slap": "{name} tape à tort et paie {n} cartes au pot",
    "event.wrong_slap.one": "{name} tape à tort et paie {n} carte au pot",
    "event.wrong_slap.free": "{name} tape à tort",
    "event.wrong_slap.locked": "{name} tape à tort : plus de tape sur ce tas",
    "event.locked_out": "{name} ne tape plus avant le prochain tas gagné",
    "event.locked_out.cards": "{name} ne tape plus pendant {n} cartes",
    "event.wrong_slap.under": "{name} tape à tort et glisse {n} cartes sous le tas",
    "event.wrong_slap.under.one": "{name} tape à tort et glisse {n} carte sous le tas",
    "event.unlocked": "{name} peut de nouveau taper",
    "event.wrong_flip": "{name} retourne hors de son tour et paie {n} carte au pot",
    "event.stopped": "{name} pose un 10 : le défi s'arrête",
    "slap.named.doubles": "Doublé !", "slap.named.sandwich": "Sandwich !", "slap.named.big-mac": "Big mac !",
    "slap.named.top-bottom": "Haut et bas !", "slap.named.marriage": "Mariage !",
    "slap.named.divorce": "Divorce !", "slap.named.tens": "Dix !", "slap.named.ten-on-top": "Dix dessus !",
    "slap.named.run": "Suite !", "slap.named.flush": "Couleur !",
    "slap.not": "Pas de {patterns} ici",
    "event.seat_out": "{name} est hors jeu",
    "event.seat_back": "{name} revient en jeu",
    "event.joined": "{name} rejoint la partie",
    "event.battle": "Bataille ! {names}",
    "event.battle.again": "Encore bataille ({stage}) ! {names}",
    "event.peace": "Paix ! {names}",
    "event.peace.again": "Encore la paix ({stage}) ! {names}",
    "event.swapped": "{name} met {hand} face visible et prend {up}",
    "event.played": "{name} pose {cards}",
    "event.played.many": "{name} pose {count} {ranks}",
    "event.played.up": "{play} (cartes visibles)",
    "event.played.down": "{play} (face cachée)",
    "event.took_up": "{name} prend ses cartes visibles en main",
    "event.drew": "{name} pioche {n} cartes", "event.drew.one": "{name} pioche {n} carte",
    "event.picked_up": "{name} ramasse le tas ({cards})",
    "event.burned.ten": "{name} brûle le tas avec un 10 ({cards})",
    "event.burned.four": "Carré : {name} brûle le tas ({cards})",
    "event.burned": "{name} brûle le tas ({cards})",
    "event.skipped": "{names} passent leur tour", "event.skipped.one": "{names} passe son tour",
    "event.ace_target": "{name} vise {target} avec l'as",
    "event.revealed.ok": "{name} retourne {card} : ça passe",
    "event.revealed.no": "{name} retourne {card} : ça ne passe pas",
    "event.finished": "{name} n'a plus de cartes : place {place}",
    "event.over.win": "{name} gagne la partie !",
    "event.over.draw": "Match nul",
    "event.over.loop": "Cette donne ne finit jamais : match nul",
    "event.over.limit": "Limite de tours atteinte : {name} gagne",
    "event.over.limit_draw": "Limite de tours atteinte : match nul",
    "event.over.time": "Temps écoulé : {name} gagne",
    "event.over.time_draw": "Temps écoulé : match nul",
    "time.up": "Temps ! La partie s'arrête à la fin de ce pli",
    "time.last_trick": "Dernier pli !",
    "preset.bataille-corse": "Bataille corse",
    "preset.bataille-corse.hint": "les figures défient, on tape les doublés",
    "preset.strip-jack-naked": "Bataille corse sans tape",
    "preset.strip-jack-naked.hint": "les figures défient, on ne tape pas",
    "preset.egyptian-ratscrew": "Ratscrew égyptien",
    "preset.egyptian-ratscrew.hint": "bataille corse à 52 cartes, sans emprunt",
    "preset.bataille": "Bataille",
    "preset.bataille.hint": "la plus forte carte gagne le pli",
    "preset.paix": "Paix",
    "preset.paix.hint": "la plus faible carte gagne le pli",
    "preset.norvegienne": "Bataille norvégienne",
    "preset.norvegienne.hint": "videz votre main ; 2, 7, 8, 10 et as sont spéciaux",
    "status.turn": "à jouer",
    "status.owes": "doit {n}",
    "status.out": "hors jeu",
    "status.locked": "sans tape",
    "status.stuck": "coincé",
    "status.bot": "robot",
    "status.waiting": "en attente",
    "status.winner": "vainqueur",
    "status.cards": "{n} cartes", "status.cards.one": "{n} carte",
    "stuck.note": "{name} : bouton enfoncé, ignoré jusqu'au relâchement",
    "slap.first": "{name} d'abord, avec {margin} d'avance",
    "slap.alone": "{name}, seule tape",
    "slap.runner": "{name} (+{margin})",
    "slap.runners_up": "puis {names}",
    "slap.tie": "égalité (< {window}) : la rotation a choisi {name}",
    "wrong.title": "Fausse tape !",
    "wrong.penalty": "{name} paie {n} cartes au pot",
    "wrong.penalty.one": "{name} paie {n} carte au pot",
    "wrong.locked": "{name} ne tape plus avant le prochain tas gagné",
    "wrong.none": "{name} : sans pénalité",
    "pile.count": "{n} cartes sur le tas", "pile.count.one": "{n} carte sur le tas",
    "pot.count": "pot : {n}",
    "challenge.title": "Défi",
    "challenge.left": "encore {n}",
    "menu.title": "Menu",
    "menu.game": "Jeu",
    "menu.seats": "Places",
    "menu.bots": "Robots",
    "menu.difficulty": "Difficulté",
    "difficulty.easy": "facile", "difficulty.normal": "normal", "difficulty.hard": "difficile",
    "menu.tempo": "Tempo",
    "tempo.slow": "lent", "tempo.normal": "normal", "tempo.fast": "rapide", "tempo.custom": "comme configuré",
    "menu.house_rules": "Règles maison",
    "menu.language": "Langue",
    "language.fr": "Français", "language.en": "English",
    "menu.volume": "Volume",
    "volume.value": "{n} %",
    "volume.off": "coupé",
    "menu.start": "Commencer",
    "menu.back": "Retour",
    # la fête : le test des boutons, les noms, les matchs, les réglages tout prêts
    "menu.party": "Match et joueurs", "menu.check": "Test des boutons", "menu.names": "Oublier un nom",
    "menu.forget": "Oublier", "value.name": "{name}",
    "menu.match": "Match", "value.single": "une partie", "value.best_of": "au meilleur des {n}",
    "value.match_minutes": "{n} minutes",
    "menu.time_limit": "Temps limite", "value.minutes": "{n} min", "value.minutes.one": "{n} min",
    "menu.bundle": "Réglages tout prêts", "menu.apply": "Appliquer ces réglages",
    "bundle.family": "Famille", "bundle.party": "Soirée", "bundle.tournament": "Tournoi",
    "value.penalty.default": "celle du jeu", "value.penalty.n": "{n} {what}",
    "menu.resume": "Reprendre",
    "menu.quit": "Quitter",
    "menu.shutdown": "Éteindre",
    "menu.nav": "appui = suivant, maintenir = choisir",
    "shutdown.hold": "Maintenez MENU 5 s pour éteindre",
    "shutdown.now": "Extinction…",
    "shutdown.dev": "Éteindre ne fait rien en mode développeur",
    "resumed": "La partie reprend là où elle s'était arrêtée",
    "link.lost": "Les boutons sont déconnectés ({reason}) : la partie les attend",
    "link.back": "Les boutons sont revenus : choisissez Reprendre pour continuer",
    "option.deck": "Jeu de cartes",
    "option.slaps": "Tapes",
    "option.wrong_slap": "Fausse tape",
    "option.borrow": "Emprunter sans cartes",
    "option.borrow_spares_last": "Le prêteur garde sa dernière carte",
    "option.out_when": "Hors jeu",
    "option.late_join": "Les retardataires entrent en tapant",
    "option.max_rounds": "Limite de tours",
    "option.tie_cards_down": "Cartes cachées par bataille",
    "option.tie_joiners": "Qui entre dans la bataille",
    "option.shuffle_pickup": "Mélanger les cartes gagnées",
    "option.voluntary_pickup": "Ramasser le tas à volonté",
    "option.blind_chain": "Enchaîner les cartes cachées",
    "option.ace_on_seven": "As sur un 7",
    "option.rank_all": "Classer tout le monde",
    "option.run_wraps": "Suites en boucle (R-A-2)",
    "option.marriage_colour": "Mariage d'une seule couleur",
    "option.wrong_flip": "Retourner hors de son tour",
    "option.tens_stop": "Un 10 arrête le défi",
    "menu.rules.patterns": "Motifs de tape", "menu.rules.penalties": "Pénalités",
    "menu.rules.challenge": "Défis et table", "menu.penalty.cards": "Cartes",
    "value.penalty.pot": "cartes au pot", "value.penalty.bottom": "cartes sous le tas",
    "value.penalty.lockout": "plus de tape avant le prochain tas gagné",
    "value.penalty.lockout-cards": "plus de tape pendant quelques cartes",
    "value.penalty.gift": "le tas au joueur suivant", "value.penalty.none": "sans pénalité",
    "value.on": "oui", "value.off": "non", "value.none": "aucune",
    "value.deck": "{n} cartes",
    "value.wrong_slap.pot-2": "2 cartes au pot",
    "value.wrong_slap.pot-1": "1 carte au pot",
    "value.wrong_slap.lockout": "plus de tape avant le prochain tas gagné",
    "value.wrong_slap.none": "sans pénalité",
    "value.wrong_slap.pot-3": "3 cartes au pot",
    "value.wrong_slap.bottom-1": "1 carte sous le tas", "value.wrong_slap.bottom-2": "2 cartes sous le tas",
    "value.wrong_slap.bottom-3": "3 cartes sous le tas",
    **{f"value.wrong_slap.lockout-{n}": f"plus de tape pendant {n} carte{'s' if n > 1 else ''}"
       for n in range(1, 11)},
    "value.wrong_slap.gift": "le tas au joueur suivant",
    "value.wrong_flip.none": "sans pénalité", "value.wrong_flip.pot-1": "1 carte au pot",
    "value.out_when.last-card": "en posant sa dernière carte",
    "value.out_when.must-lay": "quand il faut poser sans carte",
    "value.tie_joiners.tied": "les ex aequo",
    "value.tie_joiners.all": "tout le monde",
    "pattern.doubles": "doublé",
    "pattern.sandwich": "sandwich",
    "pattern.top-bottom": "haut et bas",
    "pattern.marriage": "roi et dame",
    "pattern.tens": "somme de 10",
    "pattern.big-mac": "big mac (X-a-b-X)",
    "pattern.divorce": "roi, une carte, dame",
    "pattern.ten-on-top": "un 10 dessus",
    "pattern.run": "trois qui se suivent",
    "pattern.flush": "quatre de la même enseigne",
    # la fiche des règles (device/screen/scene/rules_card.py)
    "menu.rules.card": "Fiche des règles",
    "rulescard.title": "{game} : règles maison",
    "rulescard.line": "{label} : {value}",
    "rulescard.time_limit": "Temps limite : {n} min",
    "rulescard.page": "{page}/{pages}",
    "rulescard.hint": "Maintenir : retour",
    "rulescard.hint.pages": "Les pages tournent toutes seules · maintenir : retour",
    "attract.title": "slapbox",
    "attract.join": "Appuyez sur un bouton pour jouer",
    "attract.joined": "{n} joueurs inscrits", "attract.joined.one": "{n} joueur inscrit",
    "attract.start": "Maintenez un bouton pour commencer",
    "pass.to": "Passez la boîte à la place {n}, appuyez pour regarder",
    "pass.hide": "Appuyez encore pour cacher vos cartes",
    "keys.note": "Les touches sont datées à la lecture : deux touches dans la même image "
                 "comptent comme une égalité",
    "keys.station": "{station} : taper {slap}, retourner {flip}",
    "keys.station.flip": "{station} : retourner {flip}",
    "keys.station.choose": "{station} : {slap} (appui : suivant, maintien : choisir)",
    "keys.menu": "Échap : menu, F1 : aide",
    "over.title": "Partie terminée",
    "over.winner": "{name} gagne !",
    "over.draw": "Match nul",
    "over.loop": "Cette donne ne finit jamais : match nul",
    "over.limit": "Limite de tours atteinte",
    "over.time": "Temps écoulé : match nul",
    "over.again": "Maintenez : rejouer · appuyez : menu",
    "over.match": "Maintenez : suivante · appuyez : classement",
    "over.rematch": "Maintenez : revanche · appuyez : classement",
    # the party screens (device/screen/scene/party.py): join, names, standings
    "party.ready": "prêt",
    "join.title": "Appuyez sur votre bouton !",
    "join.station": "Poste {n}",
    "join.stations": "Postes {list}",
    "join.empty": "—",
    "join.problem.stuck": "Coincé", "join.fix.stuck": "libérez le bouton",
    "join.problem.chatter": "Rebonds", "join.fix.chatter": "vérifiez ses fils",
    "join.problem.lost": "Appuis perdus", "join.fix.lost": "vérifiez le câblage",
    "join.problem.full": "Table complète", "join.fix.full": "attendez une place",
    "join.advice": "{problem} : {fix}",
    "join.advice.where": "{where} – {advice}",
    "join.bots": "{n} robots prendront les places libres", "join.bots.one": "{n} robot prendra la place libre",
    "join.bots.none": "Aucun robot ne jouera",
    "join.hint": "Tout le monde a appuyé ? Maintenez votre bouton pour commencer · MENU :\u00a0retour",
    "join.wait": "Appuyez sur un bouton pour jouer · MENU :\u00a0retour",
    "names.title": "Vos noms",
    "names.footer": "La partie commence quand tous sont prêts · MENU : tout de suite",
    "names.hint": "appui : suivant · maintien : choisir",
    "names.new": "Nouveau nom",
    "names.keep": "Garder {default}",
    "wheel.space": "Espace", "wheel.delete": "Effacer", "wheel.done": "Terminé",
    "standings.best_of": "Partie {played} sur {total}",
    "standings.timed": "Partie {played} · encore {minutes} min",
    "standings.timed.end": "Partie {played} · temps écoulé",
    "standings.game": "Partie {played}",
    "standings.won": "{name} gagne cette partie",
    "standings.draw": "Partie nulle",
    "standings.leader": "en tête",
    "standings.photo": "Photo-finish le plus serré : {winner} devance {runner} de {time}",
    "standings.next": "Maintien : partie suivante · MENU :\u00a0menu",
    "standings.match_won": "{winner} gagne le match !",
    "standings.match_draw": "Le match est nul",
    "standings.rematch": "Maintien : revanche · MENU :\u00a0menu",
    "stats.title": "Statistiques",
    "stats.player": "Joueur",
    "stats.games": "Parties",
    "stats.wins": "Victoires",
    "stats.piles": "Tas gagnés",
    "stats.slaps": "Tapes gagnantes",
    "stats.wrong_slaps": "Fausses tapes",
    "stats.fastest": "Tape la plus rapide",
    "stats.reaction": "Réaction moyenne",
    "stats.cards_laid": "Cartes posées",
    "stats.rounds": "Tours",
    "stats.duration": "Durée",
    "stats.leaderboard": "Classement",
    "stats.none": "Aucune partie pour l'instant",
    "number": "{n}",
    "value.patterns": "{patterns}",
    "menu.flip": "Retourner",
    "flip.auto": "automatique",
    "flip.buttons": "boutons RETOURNER",
    "help.title": "Aide",
    "help.close": "Échap ou F1 ferme cette aide (la partie attend)",
    "pile.bottom": "dessous",
    "table.count": "{n} cartes sur la table", "table.count.one": "{n} carte sur la table",
    "status.wrong": "fausse tape",
    "pile.taken": "{name} ramasse le tas",
    "stock.count": "pioche : {n}",
    "burned.count": "brûlées : {n}",
    "ace.answer": "{name} doit répondre à l'as ou ramasser",
    "swap.phase": "{name} échange ses cartes",
    "battle.title": "Bataille !",
    "peace.title": "Paix !",
    "battle.stage": "manche {n}",
    "round.winner": "{name} gagne le pli",
    "over.chain": "Plus longue chaîne de défis : {n} figures",
    "over.chain.one": "Plus longue chaîne de défis : {n} figure",
    "stats.short.slaps": "tapes",
    "stats.short.wrong": "fausses",
    "stats.short.reaction": "réaction",
    "stats.short.games": "parties",
    "stats.short.wins": "gagnées",
    "stats.short.fastest": "record",
    "stats.short.cards": "cartes",
    "chooser.title": "{name}, à vous",
    "chooser.play": "Poser {cards}",
    "chooser.pickup": "Ramasser le tas",
    "chooser.target": "Envoyer le tas à {name}",
    "chooser.swap": "Échanger {hand} contre {up}",
    "chooser.ready": "Prêt : on joue",
    "chooser.reveal": "Retourner une carte cachée",
    "chooser.more": "{n} cartes de plus",
    "chooser.more.one": "{n} carte de plus",
}


def _fr_typography(text: str) -> str:
    # French sets a (non-breaking) space before : ! ? ; so the sign never wraps onto its own line.
    for sign in ":!?;%":
        text = text.replace(" " + sign, "\u00a0" + sign)
    return text


CATALOGUES: dict[str, dict[str, str]] = {
    "en": _EN,
    "fr": {k: _fr_typography(v) for k, v in _FR.items()},
}


def placeholders(template: str) -> set[str]:
    """The ``{name}`` fields a template needs."""
    return {field for _, field, _, _ in Formatter().parse(template) if field}


def _singular(lang: str, n: int) -> bool:
    return abs(n) < 2 if lang == "fr" else n == 1


def _catalogue(lang: str) -> dict[str, str]:
    try:
        return CATALOGUES[lang]
    except KeyError:
        raise ValueError(f"language {lang!r}: expected one of {', '.join(LANGUAGES)}") from None


def tr(lang: str, key: str, **kw: object) -> str:
    """The text of ``key`` in ``lang`` with its placeholders filled; the ``.one`` form when
    ``n`` is singular."""
    cat = _catalogue(lang)
    n = kw.get("n")
    if isinstance(n, int) and _singular(lang, n) and key + ".one" in cat:
        key += ".one"
    try:
        template = cat[key]
    except KeyError:
        raise ValueError(f"i18n: no text {key!r} in the {lang!r} catalogue") from None
    try:
        return template.format(**kw)
    except KeyError as e:
        raise ValueError(f"i18n: text {key!r} needs {e.args[0]!r} "
                         f"(needs {', '.join(sorted(placeholders(template)))})") from None


def join_names(lang: str, names: Sequence[str]) -> str:
    """``Anna``, ``Anna and Ben``, ``Anna, Ben and Chloé``."""
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    head = tr(lang, "list.sep").join(names[:-1])
    return tr(lang, "list.two", a=head, b=names[-1])


def format_ns(lang: str, ns: int) -> str:
    """A duration for a slap margin: ``3.2 ms`` (``3,2 ms`` in French), ``420 µs`` below 1 ms."""
    if ns < 1_000_000:
        return tr(lang, "us", value=str(round(ns / 1000)))
    value = f"{ns / 1_000_000:.1f}".removesuffix(".0")
    if lang == "fr":
        value = value.replace(".", ",")
    return tr(lang, "ms", value=value)


def card_name(lang: str, c: int) -> str:
    """``the Queen of hearts`` / ``la dame de cœur``; jokers and any-number cards by kind."""
    r = rank(c)
    if r == JOKER:
        return tr(lang, "card.joker")
    if r == ANY_NUMBER:
        return tr(lang, "card.any")
    head = tr(lang, "card.number", n=r) if r <= 10 else tr(lang, f"card.rank.{r}")
    return tr(lang, "card.of", rank=head, suit=tr(lang, f"suit.{suit(c)}"))


def _cards(lang: str, n: int) -> str:
    return tr(lang, "cards", n=n)


Names = Sequence[str] | Mapping[int, str] | None


def seat_name(lang: str, names: Names, seat: int) -> str:
    """The player's name, or ``Seat 3`` (seats are numbered from 1 on screen)."""
    if names is not None:
        try:
            return names[seat]
        except (IndexError, KeyError):
            pass
    return tr(lang, "seat.default", n=seat + 1)


def _laid(e: ev.Laid, lang: str, nm: Callable[[int], str]) -> str:
    if not e.face_up:
        return tr(lang, "event.laid.down", name=nm(e.seat))
    if e.borrowed_from is not None:
        return tr(lang, "event.laid.borrowed", name=nm(e.seat), owner=nm(e.borrowed_from),
                  card=card_name(lang, e.card))
    return tr(lang, "event.laid", name=nm(e.seat), card=card_name(lang, e.card))


def _pile_won(e: ev.PileWon, lang: str, nm: Callable[[int], str]) -> str:
    key = "event.won." + e.reason.replace(":", ".")
    if key not in CATALOGUES[lang]:
        key = "event.won.slap" if e.reason.startswith("slap") else "event.won"
    return tr(lang, key, name=nm(e.seat), cards=_cards(lang, e.cards + e.pot))


def _wrong_slap(e: ev.WrongSlap, lang: str, nm: Callable[[int], str]) -> str:
    if e.to == "under" and e.paid:
        return tr(lang, "event.wrong_slap.under", name=nm(e.seat), n=e.paid)
    if e.locked_out:
        return tr(lang, "event.wrong_slap.locked", name=nm(e.seat))
    if e.paid == 0:
        return tr(lang, "event.wrong_slap.free", name=nm(e.seat))
    return tr(lang, "event.wrong_slap", name=nm(e.seat), n=e.paid)


def _battle(e: ev.Battle, lang: str, nm: Callable[[int], str]) -> str:
    key = "event.peace" if e.peace else "event.battle"
    names = join_names(lang, [nm(s) for s in e.seats])
    if e.stage > 1:
        return tr(lang, key + ".again", names=names, stage=e.stage)
    return tr(lang, key, names=names)


def _played(e: ev.Played, lang: str, nm: Callable[[int], str]) -> str:
    if len(e.cards) == 1:
        text = tr(lang, "event.played", name=nm(e.seat), cards=card_name(lang, e.cards[0]))
    else:
        r = rank(e.cards[0]) if e.cards else 0
        ranks = tr(lang, "ranks.number", n=r) if r <= 10 else tr(lang, f"ranks.{r}")
        k = len(e.cards)
        count = tr(lang, f"count.{k}") if 2 <= k <= 8 else str(k)
        text = tr(lang, "event.played.many", name=nm(e.seat), count=count, ranks=ranks)
    if e.source in ("up", "down"):
        text = tr(lang, f"event.played.{e.source}", play=text)
    return text


def _burned(e: ev.Burned, lang: str, nm: Callable[[int], str]) -> str:
    key = f"event.burned.{e.why}" if e.why in ("ten", "four") else "event.burned"
    return tr(lang, key, name=nm(e.seat), cards=_cards(lang, e.cards))


def _game_over(e: ev.GameOver, lang: str, nm: Callable[[int], str]) -> str:
    if e.termination == "time":
        if e.winner is None:
            return tr(lang, "event.over.time_draw")
        return tr(lang, "event.over.time", name=nm(e.winner))
    if e.termination == "loop":
        return tr(lang, "event.over.loop")
    if e.termination == "limit":
        if e.winner is None:
            return tr(lang, "event.over.limit_draw")
        return tr(lang, "event.over.limit", name=nm(e.winner))
    if e.termination == "win" and e.winner is not None:
        return tr(lang, "event.over.win", name=nm(e.winner))
    return tr(lang, "event.over.draw")


_Describer = Callable[[Any, str, Callable[[int], str]], str]

# One entry per event class of device/rules/events.py, by class name (so a class added there does
# not break this import); a test checks none is missing.
DESCRIBERS: dict[str, _Describer] = {
    "Laid": _laid,
    "Owes": lambda e, l, nm: tr(l, "event.owes", name=nm(e.seat), n=e.n),
    "CollectPending": lambda e, l, nm: tr(l, "event.collect_pending", name=nm(e.seat)),
    "PileWon": _pile_won,
    "WrongSlap": _wrong_slap,
    "LockedOut": lambda e, l, nm: (tr(l, "event.locked_out.cards", name=nm(e.seat), n=e.cards) if e.cards
                                   else tr(l, "event.locked_out", name=nm(e.seat))),
    "Unlocked": lambda e, l, nm: tr(l, "event.unlocked", name=nm(e.seat)),
    "WrongFlip": lambda e, l, nm: tr(l, "event.wrong_flip", name=nm(e.seat), n=e.paid),
    "ChallengeStopped": lambda e, l, nm: tr(l, "event.stopped", name=nm(e.seat)),
    "SeatOut": lambda e, l, nm: tr(l, "event.seat_out", name=nm(e.seat)),
    "SeatBack": lambda e, l, nm: tr(l, "event.seat_back", name=nm(e.seat)),
    "Joined": lambda e, l, nm: tr(l, "event.joined", name=nm(e.seat)),
    "Battle": _battle,
    "Swapped": lambda e, l, nm: tr(l, "event.swapped", name=nm(e.seat),
                                    hand=card_name(l, e.hand_card), up=card_name(l, e.up_card)),
    "Played": _played,
    "TookUp": lambda e, l, nm: tr(l, "event.took_up", name=nm(e.seat)),
    "Drew": lambda e, l, nm: tr(l, "event.drew", name=nm(e.seat), n=e.n),
    "PickedUp": lambda e, l, nm: tr(l, "event.picked_up", name=nm(e.seat), cards=_cards(l, e.cards)),
    "Burned": _burned,
    "Skipped": lambda e, l, nm: tr(l, "event.skipped", names=join_names(l, [nm(s) for s in e.seats]),
                                    n=len(e.seats)),
    "AceTarget": lambda e, l, nm: tr(l, "event.ace_target", name=nm(e.seat), target=nm(e.target)),
    "Revealed": lambda e, l, nm: tr(l, "event.revealed.ok" if e.playable else "event.revealed.no",
                                     name=nm(e.seat), card=card_name(l, e.card)),
    "Finished": lambda e, l, nm: tr(l, "event.finished", name=nm(e.seat), place=e.place),
    "GameOver": _game_over,
}


def describe(event: ev.Event, lang: str, names: Names = None) -> str:
    """One short sentence for the banner, e.g. ``Chloé slaps the double and takes 14 cards``.

    ``names``: the players' names by seat (a list or a dict); missing ones read ``Seat N``.
    """
    _catalogue(lang)
    fn = DESCRIBERS.get(type(event).__name__)
    if fn is None:
        # A new event class without words yet: still show something rather than crash the screen.
        text = type(event).__name__
    else:
        text = fn(event, lang, lambda s: seat_name(lang, names, s))
    return text[:1].upper() + text[1:]


def slap_result(lang: str, winner: str, margin_ns: int | None, runners_up: Sequence[tuple[str, int]] = (),
                tie_window_ns: int | None = None) -> str:
    """The slap line: ``Chloé first by 3.2 ms, then Ben (+3.2 ms)``, or the tie sentence.

    ``margin_ns`` None: nobody else slapped. ``runners_up``: (name, ns after the winner).
    ``tie_window_ns`` set: the tie rule decided (``tie (< 1 ms): rotation chose Chloé``).
    """
    if tie_window_ns is not None:
        text = tr(lang, "slap.tie", window=format_ns(lang, tie_window_ns), name=winner)
    elif margin_ns is None:
        text = tr(lang, "slap.alone", name=winner)
    else:
        text = tr(lang, "slap.first", name=winner, margin=format_ns(lang, margin_ns))
    if runners_up:
        others = [tr(lang, "slap.runner", name=n, margin=format_ns(lang, d)) for n, d in runners_up]
        text += tr(lang, "list.sep") + tr(lang, "slap.runners_up", names=join_names(lang, others))
    return text[:1].upper() + text[1:]
