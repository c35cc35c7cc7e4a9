"""Fixtures for AllanDeviation: the overlapping Allan deviation, its equivalent degrees of freedom and its
confidence interval, computed by allantools (an independent implementation, on PyPI).

    python3 -m pip install allantools numpy scipy
    python3 Tests/AltimetryTests/Fixtures/allan_deviation.py > Tests/AltimetryTests/Fixtures/allan_deviation.json

The series are a first-order Gauss-Markov error plus white noise, as a GPS altitude's, drawn with numpy.
"""
import json
import math

import allantools
import numpy as np

CONFIDENCE = math.erf(1 / math.sqrt(2))  # one sigma, 0.6827


def series(seed, count, tau0, sigma_e, tau_c, sigma_w):
    rng = np.random.default_rng(seed)
    phi = math.exp(-tau0 / tau_c)
    e = np.empty(count)
    e[0] = rng.normal(0, sigma_e)
    for k in range(1, count):
        e[k] = phi * e[k - 1] + rng.normal(0, sigma_e * math.sqrt(1 - phi * phi))
    return 250.0 + e + rng.normal(0, sigma_w, count)


def case(name, seed, count, tau0, sigma_e, tau_c, sigma_w):
    y = series(seed, count, tau0, sigma_e, tau_c, sigma_w)
    phase_count = count + 1
    ms = []
    m = 1
    while phase_count - 2 * m >= 2:
        ms.append(m)
        m *= 2
    taus = np.array(ms, dtype=float) * tau0
    taus_out, devs, _, ns = allantools.oadev(y, rate=1.0 / tau0, data_type="freq", taus=taus)
    points = []
    for tau, dev, n in zip(taus_out, devs, ns):
        m = int(round(tau / tau0))
        edf = allantools.edf_simple(phase_count, m, 0)
        edf = max(edf, 1.0)
        lo, hi = allantools.confidence_interval(dev, edf, ci=CONFIDENCE)
        points.append({"m": m, "tau": float(tau), "deviation": float(dev), "lower": float(lo), "upper": float(hi),
                       "edf": float(edf), "terms": int(n)})
    return {"name": name, "sampling_interval": tau0, "series": [float(v) for v in y], "points": points}


cases = [
    case("gauss_markov_60s_plus_white_1Hz", 1, 1200, 1.0, 10.0, 60.0, 1.0),
    case("gauss_markov_3600s_30s_samples", 2, 333, 30.0, 20.0, 3600.0, 0.5),
]
print(json.dumps({"confidence": CONFIDENCE, "cases": cases}, indent=1))
