"""The box's sounds, synthesised at start-up (no files): flip, slap, wrong slap, win, game over.

A box without a sound card still plays: ``Sounds.open`` then returns a silent object and logs one
line, and nothing else reaches the terminal: where Linux has no sound card and no sound server
SDL is not asked to open audio at all (its ALSA, PulseAudio and PipeWire back ends each print
their own complaints on stderr), and elsewhere file descriptor 2 goes to a scratch file while
the mixer opens. Waveforms are computed with the standard library at the mixer's own rate and
format.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import sys
import tempfile
from array import array
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path
from random import Random

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402

log = logging.getLogger("slapbox.sound")

#: each station's own note (the button check plays it when the station presses): a pentatonic
#: scale, so any two sound well together
STATION_NOTES = (392.0, 440.0, 523.25, 587.33, 659.25, 783.99, 880.0, 1046.5)
NAMES = ("flip", "slap", "wrong", "win", "game_over", *(f"station{i + 1}" for i in range(len(STATION_NOTES))))

Wave = Callable[[float], float]  # time in seconds -> sample in -1..1


def _envelope(t: float, length: float, attack: float = 0.004, release: float = 0.03) -> float:
    """Linear fade in and out so no sound starts or stops with a click."""
    if t < attack:
        return t / attack
    if t > length - release:
        return max(0.0, (length - t) / release)
    return 1.0


def _tone(freq: float, t: float) -> float:
    return math.sin(2 * math.pi * freq * t)


def _notes(freqs: tuple[float, ...], each: float, last: float) -> tuple[Wave, float]:
    """An arpeggio: each note ``each`` seconds, the last one held ``last`` seconds."""
    length = each * (len(freqs) - 1) + last

    def wave(t: float) -> float:
        i = min(int(t / each), len(freqs) - 1)
        start = i * each
        dur = each if i < len(freqs) - 1 else last
        local = t - start
        decay = math.exp(-3 * local / dur)
        f = freqs[i]
        # A little of the octave makes a sine sound like a bell rather than a test tone.
        return decay * _envelope(local, dur, release=0.02) * (0.8 * _tone(f, t) + 0.2 * _tone(2 * f, t))

    return wave, length


@lru_cache(maxsize=4)
def _noise(rate: int) -> tuple[float, ...]:
    rng = Random(7)  # fixed: the same box always makes the same sounds
    return tuple(rng.random() * 2 - 1 for _ in range(rate))


def _waves(rate: int) -> dict[str, tuple[Wave, float]]:
    noise = _noise(rate)

    def flip(t: float) -> float:
        # A short filtered-noise swish.
        n = noise[int(t * rate) % rate]
        return 0.6 * n * math.exp(-t / 0.012) * _envelope(t, 0.06, attack=0.002, release=0.01)

    def slap(t: float) -> float:
        # A thump whose pitch drops, with a noise crack on top.
        thump = _tone(140 * math.exp(-t / 0.05) + 60, t) * math.exp(-t / 0.06)
        crack = noise[int(t * rate) % rate] * math.exp(-t / 0.008)
        return (0.7 * thump + 0.5 * crack) * _envelope(t, 0.16, attack=0.001)

    def wrong(t: float) -> float:
        # Two falling buzzer notes: odd harmonics of a square-ish wave.
        f = 220 if t < 0.15 else 165
        local = t if t < 0.15 else t - 0.15
        w = 2 * math.pi * f * t
        sq = math.sin(w) + math.sin(3 * w) / 3 + math.sin(5 * w) / 5 + math.sin(7 * w) / 7
        return 0.5 * sq * _envelope(local, 0.15, release=0.02)

    return {
        "flip": (flip, 0.06),
        "slap": (slap, 0.16),
        "wrong": (wrong, 0.30),
        "win": _notes((523.25, 659.25, 783.99, 1046.5), 0.08, 0.35),
        "game_over": _notes((392.0, 523.25, 659.25, 783.99, 1046.5), 0.12, 0.6),
        **{f"station{i + 1}": _notes((f,), 0.2, 0.2) for i, f in enumerate(STATION_NOTES)},
    }


@lru_cache(maxsize=16)
def _synth_bytes(name: str, rate: int, channels: int, cache: Path | None = None) -> bytes:
    """Sound ``name``'s samples; with ``cache`` (a folder), computed once and kept there (the
    synthesis costs a Pi Zero seconds at every start). The file's name holds this module's size
    and time, so an edited synthesis is never read from an older file."""
    if cache is None:
        return synthesize(name, rate, channels).tobytes()
    st = os.stat(__file__)
    path = cache / f"sound-{name}-{rate}-{channels}-{st.st_size}-{st.st_mtime_ns}.s16"
    try:
        data = path.read_bytes()
        if data and len(data) % (2 * channels) == 0:
            return data
    except OSError:
        pass
    data = synthesize(name, rate, channels).tobytes()
    try:  # atomic: a power cut leaves the file whole or absent; a read-only folder is no error
        cache.mkdir(parents=True, exist_ok=True)
        for old in cache.glob(f"sound-{name}-{rate}-{channels}-*.s16"):
            old.unlink(missing_ok=True)
        fd, tmp = tempfile.mkstemp(dir=cache, prefix=".sound-")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError as e:
        log.debug("sound cache %s: %s", cache, e)
    return data


def synthesize(name: str, rate: int, channels: int = 1) -> array:
    """Signed 16-bit samples of sound ``name`` at ``rate`` Hz, channels interleaved."""
    waves = _waves(rate)
    if name not in waves:
        raise ValueError(f"sound {name!r}: expected one of {', '.join(NAMES)}")
    wave, length = waves[name]
    mono = array("h", [int(max(-1.0, min(1.0, wave(i / rate))) * 28000) for i in range(int(length * rate))])
    if channels == 1:
        return mono
    out = array("h", bytes(2 * len(mono) * channels))
    for ch in range(channels):
        out[ch::channels] = mono
    return out


def no_audio_reason(cards: str = "/proc/asound/cards", runtime: str | None = None) -> str | None:
    """Why Linux certainly has no audio device (no ALSA card and no PulseAudio or PipeWire
    socket), or None where SDL may find one (other systems, an explicit SDL_AUDIODRIVER)."""
    if not sys.platform.startswith("linux") or os.environ.get("SDL_AUDIODRIVER"):
        return None
    runtime = runtime if runtime is not None else os.environ.get("XDG_RUNTIME_DIR", "")
    if runtime and any(os.path.exists(os.path.join(runtime, n)) for n in ("pulse/native", "pipewire-0")):
        return None
    if os.environ.get("PULSE_SERVER"):
        return None
    try:
        with open(cards, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    except OSError:
        return "no sound card, no sound server"
    return "no sound card, no sound server" if not text.strip() or "no soundcards" in text else None


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """File descriptor 2 into a scratch file (the C libraries' noise), put back afterwards."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):
        yield
        return
    with tempfile.TemporaryFile() as scratch:
        os.dup2(scratch.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)


def _check_volume(volume: float) -> float:
    if isinstance(volume, bool) or not isinstance(volume, (int, float)) or not 0 <= volume <= 1:
        raise ValueError(f"volume {volume!r}: expected a number from 0 to 1")
    return float(volume)


class Sounds:
    """The box's sounds; silent (``silent`` True) when no audio device could be opened."""

    def __init__(self, sounds: dict[str, pygame.mixer.Sound] | None, volume: float) -> None:
        self._sounds = sounds or {}
        self.silent = sounds is None
        self.volume = volume
        self.set_volume(volume)

    @classmethod
    def open(cls, volume: float = 0.8, cache: Path | None = None) -> Sounds:
        """Open the mixer and build every sound (kept in the folder ``cache`` when given, so the
        next start reads them); a silent object (one warning) if that fails."""
        volume = _check_volume(volume)
        reason = no_audio_reason() if not pygame.mixer.get_init() else None
        if reason is not None:
            log.warning("no audio device (%s): the box plays without sound", reason)
            return cls(None, volume)
        try:
            if not pygame.mixer.get_init():
                with _quiet_stderr():
                    pygame.mixer.init()
            init = pygame.mixer.get_init()
            if not init:
                raise pygame.error("mixer did not start")
            rate, fmt, channels = init
            if fmt != -16:
                # Our samples are signed 16-bit; ask again for that format on an odd device.
                pygame.mixer.quit()
                with _quiet_stderr():
                    pygame.mixer.init(frequency=rate, size=-16, channels=channels)
                again = pygame.mixer.get_init()
                if again is None:
                    raise pygame.error("the audio device closed while it was set up")
                rate, fmt, channels = again
            sounds = {n: pygame.mixer.Sound(buffer=_synth_bytes(n, rate, channels, cache)) for n in NAMES}
        except (pygame.error, NotImplementedError) as e:
            # NotImplementedError: a pygame built without SDL_mixer.
            log.warning("no audio device (%s): the box plays without sound", str(e).strip() or type(e).__name__)
            return cls(None, volume)
        return cls(sounds, volume)

    def play(self, name: str) -> None:
        """Play sound ``name`` (one of NAMES); nothing when silent."""
        if name not in NAMES:
            raise ValueError(f"sound {name!r}: expected one of {', '.join(NAMES)}")
        sound = self._sounds.get(name)
        if sound is not None and self.volume > 0:
            sound.play()

    def set_volume(self, volume: float) -> None:
        """0 (mute) to 1."""
        self.volume = _check_volume(volume)
        for s in self._sounds.values():
            s.set_volume(self.volume)

    def close(self) -> None:
        """Stop and release the mixer."""
        if not self.silent:
            pygame.mixer.quit()
        self._sounds = {}
        self.silent = True
