#!/usr/bin/env python3
"""How rough is the weather over minutes to hours: real station pressure, the simulator's, and the model's.

The roughness at lag L is the root mean square of the pressure's second difference,

    D2(L) = rms( p(t + L) - 2 p(t) + p(t - L) ),

which a steady trend does not move (a linear tendency is what the filter's tendency state follows) and which a
random walk of variance rate q raises to sqrt(2 q L). It is computed on

- the static stretches of the real Bergen recordings (a logger that does not move: its pressure is the weather's,
  plus the sensor's noise, which dominates at the shortest lags), read from ../shared/data/real, skipped with a
  message where that folder is absent;
- simulated recordings given on the command line (`altimetry simulate static --seed S --duration 43200 --out F`),
  whose barometer stands still at 250 m;
- the model's quiet weather in closed form: the sea-level pressure's random walk q_b plus the integral of the
  Gauss-Markov tendency (stationary spread s, correlation time tau), for which

      E[D2(L)^2] = 2 q_b L + 4 s^2 tau^2 (L/tau - 1 + exp(-L/tau)) - 2 s^2 tau^2 (1 - exp(-L/tau))^2.

Usage: python3 Scripts/weather_roughness.py [--data DIR] [--walk Q] [--check] SIMULATED.csv ...
(`--walk Q` adds a row: the simulated recordings' roughness with a random walk of Q hPa^2/s added, as
`altimetry-bench adaptive --weather-walk Q` adds it; `--check` compares the closed form with 200 simulated days of
the model's weather.) Needs numpy.
"""
import argparse
import csv
import math
import os
import sys

import numpy as np

LAGS_S = [60, 300, 900, 1800, 3600, 7200, 14400]
GRID_S = 30.0

# The model's defaults (AltitudeModelParameters): q_b 1/3600 hPa^2/s; tendency noise 2/3 (hPa/h)^2/h, tau 3 h.
WEATHER_Q = 1 / 3600
TENDENCY_Q = (2 / 3) / 3600**3  # (hPa/s)^2 per s
TENDENCY_TAU_S = 3 * 3600.0

# Static stretches (t from, t to), as the real-data benchmark scores them.
REAL = [
    ("Bergen 9.8-day logger", "ola_m10s_lps28dfw_bergen_static_2weeks", 340_000, None),
    ("Bergen indoor desk 4.8 h", "ola_m10s_lps28dfw_bergen_desk_indoor_5h", None, None),
    ("Bergen 7.3 h, outdoor hours", "ola_m10s_lps28dfw_bergen_indoor_car_outdoor_7h", 9_600, None),
]


def load_pressure(path, t_from=None, t_to=None):
    times, pressures = [], []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            value = row.get("pressure_hpa") or ""
            if not value:
                continue
            t = float(row["t"])
            if (t_from is not None and t < t_from) or (t_to is not None and t > t_to):
                continue
            times.append(t)
            pressures.append(float(value))
    return np.array(times), np.array(pressures)


def second_difference_rms(times, pressures):
    """D2 at each lag on a regular 30 s grid (the loggers' interval; gaps of a few samples interpolated)."""
    grid = np.arange(times[0], times[-1], GRID_S)
    x = np.interp(grid, times, pressures)
    out = []
    for lag in LAGS_S:
        k = int(round(lag / GRID_S))
        if 2 * k >= len(x):
            out.append(math.nan)
            continue
        d = x[2 * k :] - 2 * x[k:-k] + x[: -2 * k]
        out.append(float(np.sqrt(np.mean(d * d))))
    return out


def model_roughness(lag):
    s2 = TENDENCY_Q * TENDENCY_TAU_S / 2
    u = lag / TENDENCY_TAU_S
    tendency = 4 * s2 * TENDENCY_TAU_S**2 * (u - 1 + math.exp(-u)) - 2 * s2 * TENDENCY_TAU_S**2 * (1 - math.exp(-u)) ** 2
    return math.sqrt(2 * WEATHER_Q * lag + tendency)


def monte_carlo_roughness(days=200, seed=1):
    """D2 of the model's quiet weather drawn exactly on the 30 s grid: the check of the closed form."""
    rng = np.random.default_rng(seed)
    n = int(days * 86400 / GRID_S)
    a = math.exp(-GRID_S / TENDENCY_TAU_S)
    spread = math.sqrt(TENDENCY_Q * TENDENCY_TAU_S / 2 * (1 - a * a))
    innovations = rng.standard_normal(n) * spread
    tendency = np.empty(n)
    tendency[0] = rng.standard_normal() * math.sqrt(TENDENCY_Q * TENDENCY_TAU_S / 2)
    for i in range(1, n):
        tendency[i] = a * tendency[i - 1] + innovations[i]
    # The walk's increments, and the tendency integrated over each step (trapezoid: its error is far below the
    # sampling noise of the rms at these lags).
    walk = np.cumsum(rng.standard_normal(n) * math.sqrt(WEATHER_Q * GRID_S))
    integrated = np.concatenate(([0.0], np.cumsum((tendency[1:] + tendency[:-1]) / 2 * GRID_S)))
    return second_difference_rms(np.arange(n) * GRID_S, walk + integrated)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", default=os.path.join(here, "..", "..", "shared", "data", "real"))
    parser.add_argument("--walk", type=float, default=None)
    parser.add_argument("--check", action="store_true")
    parser.add_argument("simulated", nargs="*")
    args = parser.parse_args()

    rows = []
    if os.path.isdir(args.data):
        for label, folder, t_from, t_to in REAL:
            path = os.path.join(args.data, folder, "data.csv")
            if os.path.exists(path):
                rows.append((label, second_difference_rms(*load_pressure(path, t_from, t_to))))
            else:
                print(f"skipped {label}: no {path}", file=sys.stderr)
    else:
        print(f"skipped the real recordings: no folder {args.data}", file=sys.stderr)
    if args.simulated:
        each = np.array([second_difference_rms(*load_pressure(p)) for p in args.simulated])
        simulated = np.sqrt(np.nanmean(each**2, axis=0))
        rows.append((f"simulator, {len(args.simulated)} static logs", list(simulated)))
        if args.walk is not None:
            walked = [math.sqrt(d * d + 2 * args.walk * lag) for d, lag in zip(simulated, LAGS_S)]
            rows.append((f"simulator + walk {args.walk:g} hPa²/s", walked))
    rows.append(("model's quiet weather", [model_roughness(lag) for lag in LAGS_S]))
    if args.check:
        rows.append(("the same, 200 days drawn", monte_carlo_roughness()))

    print("rms second difference of pressure, hPa, at lag L")
    print(f"{'':34}" + "".join(f"{lag:>8d}" for lag in LAGS_S) + "  s")
    for label, values in rows:
        print(f"{label:34}" + "".join("     —  " if math.isnan(v) else f"{v:8.3f}" for v in values))


if __name__ == "__main__":
    main()
