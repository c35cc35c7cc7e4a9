#!/usr/bin/env python3
"""Identifiability of a slow GPS error from one recording, checked outside the package.

An independent maximum-likelihood fit (numpy, scipy; not the package's filter) of a first-order Gauss-Markov error
with white noise on an unknown level: the GPS altitude of a still receiver, z_k = h + e_k + g_k, with e a
Gauss-Markov process of spread sigma_e and correlation time tau, g white of spread sigma_g, h unknown (a diffuse
prior). For each seed it finds the maximum of the exact Gaussian likelihood (a two-state Kalman filter) over ln
sigma_e, ln tau, ln sigma_g, and the standard error of ln tau from the curvature there, as `altimetry identify`
does (an estimate within 0.1 of a bound in ln, as the search's bounds there, counts as at the bound). It then
prints, per case, the estimates over the seeds off the bounds and over the seeds a threshold on SE(ln tau) would
call identifiable.

What it shows: on 8 h of a 3,600 s error the estimates over all seeds are nearly unbiased, but their SE(ln tau)
lies between about 0.4 and 0.8, so any threshold keeps the seeds whose error happened to look faster (biased low);
on 2 h, one seed in four to seven looks like a 400 to 1,000 s error with an SE(ln tau) as small as the 8 h
seeds', so no threshold that passes the 8 h seeds refuses those (its --check prints the figures).

Samples every 20 s (the white noise is then a small part of each sample, and a pure-Python filter fast enough).
Needs numpy and scipy (pip install numpy scipy). Usage: identifiability_study.py [SEEDS] (default 50), about
ten minutes for the default.
"""
import sys

import numpy as np
from scipy.optimize import minimize


def simulate(rng, n, dt, sigma_e, tau, sigma_g):
    phi = np.exp(-dt / tau)
    e = np.empty(n)
    e[0] = rng.normal() * sigma_e
    w = rng.normal(size=n) * sigma_e * np.sqrt(1 - phi * phi)
    for k in range(1, n):
        e[k] = phi * e[k - 1] + w[k]
    return 250.0 + e + rng.normal(size=n) * sigma_g


# The search's bounds, as `altimetry identify` has them (IdentifiableParameter.bounds): sigma_e, tau, sigma_g.
BOUNDS = np.log([[0.05, 500.0], [1.0, 1e7], [0.01, 200.0]])


def negative_log_likelihood(x, z, dt):
    if np.any(x < BOUNDS[:, 0]) or np.any(x > BOUNDS[:, 1]):
        return np.inf
    sigma_e, tau, sigma_g = np.exp(x)
    phi = np.exp(-dt / tau)
    q = sigma_e * sigma_e * (1 - phi * phi)
    r = sigma_g * sigma_g
    m = np.array([z[0], 0.0])
    p = np.array([[1e8, 0.0], [0.0, sigma_e * sigma_e]])
    f = np.array([[1.0, 0.0], [0.0, phi]])
    total = 0.0
    for k, zk in enumerate(z):
        if k > 0:
            m = f @ m
            p = f @ p @ f.T
            p[1, 1] += q
        s = p[0, 0] + 2 * p[0, 1] + p[1, 1] + r
        v = zk - m[0] - m[1]
        gain = (p[:, 0] + p[:, 1]) / s
        m = m + gain * v
        p = p - np.outer(gain, gain) * s
        if k > 0:  # the first sample only sets the level
            total += 0.5 * (np.log(2 * np.pi * s) + v * v / s)
    return total


def log_standard_errors(f, x, h=0.05):
    k = len(x)
    hessian = np.zeros((k, k))
    for i in range(k):
        for j in range(k):
            a = np.zeros(k)
            b = np.zeros(k)
            a[i] = h
            b[j] = h
            hessian[i, j] = (f(x + a + b) - f(x + a - b) - f(x - a + b) + f(x - a - b)) / (4 * h * h)
    try:
        covariance = np.linalg.inv(hessian)
    except np.linalg.LinAlgError:
        return np.full(k, np.inf)
    d = np.diag(covariance)
    return np.where(d > 0, np.sqrt(np.abs(d)), np.inf)


def study(hours, sigma_e, tau, seeds, dt=20.0):
    n = int(hours * 3600 / dt)
    rows = []
    for seed in range(seeds):
        rng = np.random.default_rng(seed + 1)
        z = simulate(rng, n, dt, sigma_e, tau, 1.0)
        f = lambda x: negative_log_likelihood(x, z, dt)
        fit = minimize(f, np.log([sigma_e, tau, 1.0]), method="Nelder-Mead", options={"xatol": 1e-3, "fatol": 1e-3})
        at_bound = np.any(fit.x - BOUNDS[:, 0] < 0.1) or np.any(BOUNDS[:, 1] - fit.x < 0.1)
        se = np.full(3, np.inf) if at_bound else log_standard_errors(f, fit.x)
        rows.append((np.exp(fit.x[0]), np.exp(fit.x[1]), se[1]))
    return np.array(rows)


def summary(rows, sigma_e, tau, threshold):
    keep = rows[:, 2] <= threshold
    chosen = rows[keep]
    if len(chosen) < 3:
        return f"{keep.sum():3d}/{len(rows)}"
    s, t = chosen[:, 0], chosen[:, 1]
    return (
        f"{keep.sum():3d}/{len(rows)}  sigma {s.mean():6.2f} (bias/spread {(s.mean() - sigma_e) / s.std(ddof=1):+.2f})"
        f"  tau {t.mean():6.0f} (bias/spread {(t.mean() - tau) / t.std(ddof=1):+.2f})"
    )


def main():
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    print(f"exact ML of Gauss-Markov + white on an unknown level, {seeds} seeds, a sample every 20 s")
    for hours, sigma_e in ((2, 2.0), (2, 10.0), (8, 2.0), (8, 10.0)):
        rows = study(hours, sigma_e, 3600.0, seeds)
        print(f"{hours} h, sigma_e {sigma_e:g} m, tau 3600 s; SE(ln tau) from {rows[:, 2].min():.2f} to "
              f"{np.median(rows[:, 2]):.2f} (median) to {rows[:, 2].max():.2f}")
        for label, threshold in (
            ("off the bounds", 1e300), ("SE(ln tau) <= 0.5", 0.5), ("SE(ln tau) <= ln 2", np.log(2))):
            print(f"  {label:20s} {summary(rows, sigma_e, 3600.0, threshold)}")
        fast = rows[(rows[:, 2] <= np.log(2))]
        if len(fast):
            print(f"  identified at ln 2: tau from {fast[:, 1].min():.0f} to {fast[:, 1].max():.0f} s")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
