"""Maps the bridge's µs counter onto the host's clock, with an error bar: ping/pong, fastest trips kept.

Each ping/pong gives four stamps: host ``t1`` (ping sent), device ``t2`` (ping received), device
``t3`` (pong sent), host ``t4`` (pong received). With H(x) the host time at device time x and f the
minimum one-way latency, ``H(t2) >= t1 + f`` and ``H(t3) <= t4 - f``: every ping is a lower bound
on the line H, every pong an upper bound. The line is fitted as Moon, Skelly and Towsley's
linear-programming skew estimator does ("Estimation and removal of clock skew from network delay
measurements", 1999): the supporting line of the pings' upper convex hull and of the pongs' lower
convex hull at the window's mean time, then their mean. Only the fastest trips of each direction
touch a hull, so queueing and jitter drop out without choosing a threshold (Klipper's
``clocksync.py`` keeps the minimum half round trip for the same reason), and offset and drift come
out of one fit. Integer stamps, exact integer hull arithmetic.

What cannot be seen: a fixed difference between the two directions' minimum latencies biases the
offset by half of it and looks exactly like an offset. The error bar ASSUMES the two minima are
equal (PROTOCOL.md, "Clock sync"). Under that assumption the error is half the difference of the
two hulls' gaps above the true floor; each gap is about the spacing of the fastest trips, which the
fit measures from its own residuals (``gap``), so the bar is ``K x gap`` grown with the distance
from the fit's centre, plus the µs quantisation.

The host side: the fit is made against CLOCK_MONOTONIC_RAW (never slewed: the pair of crystals
drifts slowly), then moved onto CLOCK_MONOTONIC at the moment of use by reading both clocks
together (`HostClocks`), so NTP's slewing of the monotonic clock (up to 500 ppm, changed in steps)
is followed exactly instead of being fitted as drift.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from typing import NamedTuple

__all__ = ["ClockSync", "Mapping", "NotSynced", "HostClocks", "MAX_SLEW_PPM"]

#: the most Linux slews CLOCK_MONOTONIC (adjtimex's frequency limit); bounds the hand-over error
MAX_SLEW_PPM = 500
#: error bar = K x the measured gap of the fastest trips (calibrated by `firmware_bridge.bench`)
K = 6
#: device stamps are whole µs: the true instant is anywhere in the µs
QUANT_NS = 1_000


class NotSynced(RuntimeError):
    """Too few ping/pong samples yet to map a device time."""


class Mapping(NamedTuple):
    """A device time mapped onto the host clock: ``t_ns`` and its error bar ``err_ns``."""

    t_ns: int
    err_ns: int


def _cross(o: tuple[int, int], a: tuple[int, int], b: tuple[int, int]) -> int:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def _hull(points: list[tuple[int, int]], upper: bool) -> list[tuple[int, int]]:
    """Upper (or lower) convex hull of points sorted by x, left to right (Andrew's monotone chain)."""
    h: list[tuple[int, int]] = []
    for p in points:
        while len(h) >= 2:
            c = _cross(h[-2], h[-1], p)
            if (c >= 0) if upper else (c <= 0):
                h.pop()
            else:
                break
        h.append(p)
    return h


def _support(h: list[tuple[int, int]], x: float) -> tuple[float, float]:
    """(value at x, slope) of the hull edge over x (the end edges extended beyond the ends)."""
    if len(h) == 1:
        return float(h[0][1]), 1000.0
    i = 0
    while i < len(h) - 2 and h[i + 1][0] < x:
        i += 1
    (x0, y0), (x1, y1) = h[i], h[i + 1]
    k = (y1 - y0) / (x1 - x0)
    return y0 + (x - x0) * k, k


class ClockSync:
    """Device µs -> host raw ns, from ping/pong samples (see module doc). Not thread-safe."""

    def __init__(self, max_samples: int = 512, max_age_ns: int = 30_000_000_000,
                 min_samples: int = 16, min_span_ns: int = 200_000_000, refit_every: int = 8,
                 k: float = K) -> None:
        self.max_samples = max_samples
        self.max_age_ns = max_age_ns
        self.min_samples = min_samples
        self.min_span_ns = min_span_ns
        self.refit_every = refit_every
        self.k = k
        self.centre = None
        self.chord = 0.25
        self._pings: deque[tuple[int, int]] = deque(maxlen=max_samples)
        self._pongs: deque[tuple[int, int]] = deque(maxlen=max_samples)
        self._x0 = 0
        self._y0 = 0
        self._since_fit = 0
        self._fit: tuple[float, float, float, float, float] | None = None  # x*, H(x*), slope, gap, span
        self.samples = 0
        self.rejected = 0
        self.restarts = 0
        self.min_rtt_ns: int | None = None

    def reset(self) -> None:
        """Forget everything (a new boot of the device: its counter started again)."""
        self._pings.clear()
        self._pongs.clear()
        self._fit = None
        self._since_fit = 0
        self.min_rtt_ns = None

    def add(self, t1_ns: int, t2_us: int, t3_us: int, t4_ns: int) -> bool:
        """One ping/pong; False if it cannot be a real round trip (it is counted, not used)."""
        rtt = (t4_ns - t1_ns) - (t3_us - t2_us) * 1000
        if t4_ns < t1_ns or t3_us < t2_us or rtt < -(t4_ns - t1_ns) // 500:
            self.rejected += 1
            return False
        if self._pings and t2_us < self._pings[-1][0] + self._x0:
            # the device's counter went back without a new boot id: start again
            self.restarts += 1
            self.reset()
        if not self._pings:
            self._x0, self._y0 = t2_us, t1_ns
        self._pings.append((t2_us - self._x0, t1_ns - self._y0))
        self._pongs.append((t3_us - self._x0, t4_ns - self._y0))
        newest = t4_ns - self._y0
        while self._pings and newest - self._pings[0][1] > self.max_age_ns:
            self._pings.popleft()
            self._pongs.popleft()
        self.samples += 1
        if self.min_rtt_ns is None or rtt < self.min_rtt_ns:
            self.min_rtt_ns = rtt
        self._since_fit += 1
        if self._fit is None or self._since_fit >= self.refit_every:
            self.fit()
        return True

    @property
    def ready(self) -> bool:
        return self._fit is not None

    def fit(self) -> None:
        """Fit the line again from the samples in the window."""
        self._since_fit = 0
        pings, pongs = sorted(self._pings), sorted(self._pongs)
        n = len(pings)
        if n < self.min_samples or pongs[-1][1] - pings[0][1] < self.min_span_ns:
            self._fit = None
            return
        xs = (sum(p[0] for p in pings) + sum(p[0] for p in pongs)) / (2 * n)
        if self.centre is not None:
            xs = pings[0][0] + self.centre * (pings[-1][0] - pings[0][0])
        lo_h, up_h = _hull(pings, True), _hull(pongs, False)
        lo, k_lo = _support(lo_h, xs)
        up, k_up = _support(up_h, xs)
        k = (k_lo + k_up) / 2
        if self.chord:
            # the slope of a chord across the window: a single hull edge can be short and steep
            q = self.chord * (pings[-1][0] - pings[0][0])
            if q > 0:
                k = ((_support(lo_h, xs + q)[0] - _support(lo_h, xs - q)[0])
                     + (_support(up_h, xs + q)[0] - _support(up_h, xs - q)[0])) / (4 * q)
        gap = max(self._gap(pings, lo, k_lo, xs, 1), self._gap(pongs, up, k_up, xs, -1))
        span = max(1.0, float(pings[-1][0] - pings[0][0]))
        self._fit = (xs, (lo + up) / 2, k, gap, span)

    @staticmethod
    def _gap(points: list[tuple[int, int]], at: float, k: float, xs: float, sign: int) -> float:
        """The spacing of the fastest trips above the fitted bound: the k-th smallest residual / k."""
        res = sorted(sign * (at + (x - xs) * k - y) for x, y in points)
        res = [r for r in res if r > 0.5]
        if not res:
            return float(QUANT_NS)
        j = min(len(res), max(1, len(points) // 16), 8)
        return max(res[j - 1] / j, 1.0)

    def to_raw(self, t_us: int) -> Mapping:
        """Host raw ns at device time ``t_us``, and the error bar (ns)."""
        if self._fit is None:
            raise NotSynced(f"bridge clock: {len(self._pings)} ping/pong samples, expected "
                            f"at least {self.min_samples} over {self.min_span_ns // 1_000_000} ms")
        xs, hs, k, gap, span = self._fit
        x = t_us - self._x0
        t = hs + (x - xs) * k + self._y0
        err = self.k * gap * (1 + 2 * abs(x - xs) / span) + QUANT_NS
        return Mapping(round(t), round(err))

    def state(self) -> dict[str, float | int | None]:
        """For the screen and the logs: drift (ppm), error bar at the fit's centre, samples."""
        if self._fit is None:
            return {"synced": 0, "samples": len(self._pings), "min_rtt_ns": self.min_rtt_ns}
        xs, _, k, gap, _ = self._fit
        return {"synced": 1, "samples": len(self._pings), "drift_ppm": (k / 1000 - 1) * 1e6,
                "err_ns": round(self.k * gap + QUANT_NS), "min_rtt_ns": self.min_rtt_ns,
                "rejected": self.rejected}


class HostClocks:
    """The two host clocks read together: the raw one the fit uses, the one the box runs on.

    ``to_host(raw_ns)`` moves a raw time onto the box's clock using a pair read now, so only the
    slew between ``raw_ns`` and now (at most `MAX_SLEW_PPM` of it) is not known; it is in the bar.
    """

    def __init__(self, raw_ns: Callable[[], int], host_ns: Callable[[], int]) -> None:
        self.raw_ns = raw_ns
        self.host_ns = host_ns

    @classmethod
    def system(cls, host_ns: Callable[[], int] = time.monotonic_ns) -> HostClocks:
        """CLOCK_MONOTONIC_RAW for the fit, ``host_ns`` (the box's clock) for the stamps."""
        raw = getattr(time, "CLOCK_MONOTONIC_RAW", None)
        if raw is None:  # no raw clock: fit against the box's clock itself
            return cls(host_ns, host_ns)
        return cls(lambda: time.clock_gettime_ns(raw), host_ns)

    def to_host(self, raw_t_ns: int) -> tuple[int, int]:
        """(host ns, extra error ns) of raw time ``raw_t_ns``."""
        if self.raw_ns is self.host_ns:
            return raw_t_ns, 0
        r0 = self.raw_ns()
        h = self.host_ns()
        r1 = self.raw_ns()
        raw_now = (r0 + r1) // 2
        dt = raw_now - raw_t_ns
        return h - dt, abs(dt) * MAX_SLEW_PPM // 1_000_000 + (r1 - r0) // 2
