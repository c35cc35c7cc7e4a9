#!/usr/bin/env python3
"""Fixture: an independent maximum likelihood of a Gauss-Markov error plus white noise on an unknown level.

For each case a still receiver's GPS altitude z_k = h + e_k + g_k is drawn (e a first-order Gauss-Markov process of
spread sigma_e and correlation time tau, g white of spread sigma_g, h = 250 m), sampled every `dt` seconds, and the
exact Gaussian likelihood (a two-state Kalman filter, the level diffuse) is maximised over ln sigma_e, ln tau,
ln sigma_g by scipy's Nelder-Mead from several starts. The standard errors of the log parameters come from the
curvature at the optimum (central differences, step 0.05 in ln). The series and the estimates go to
gauss_markov_ml.json, which `IdentificationTests` reads: `altimetry identify`'s maximum likelihood through the
filter must land where this one does.

Nothing here is shared with the package: numpy and scipy only. Usage: python3 make_gauss_markov_ml.py
(writes gauss_markov_ml.json beside this script).
"""
import json
import os

import numpy as np
from scipy.optimize import minimize

CASES = [  # sigma_e (m), tau (s), hours, sample interval (s), seed
    (25.0, 600.0, 8.0, 10.0, 1),
    (2.0, 30.0, 2.0, 2.0, 2),
    (10.0, 3600.0, 8.0, 10.0, 3),
    (10.0, 300.0, 4.0, 5.0, 4),
]
SIGMA_G = 1.0


def simulate(rng, n, dt, sigma_e, tau):
    phi = np.exp(-dt / tau)
    e = np.empty(n)
    e[0] = rng.normal() * sigma_e
    w = rng.normal(size=n) * sigma_e * np.sqrt(1 - phi * phi)
    for k in range(1, n):
        e[k] = phi * e[k - 1] + w[k]
    return 250.0 + e + rng.normal(size=n) * SIGMA_G


def negative_log_likelihood(x, z, dt):
    sigma_e, tau, sigma_g = np.exp(x)
    phi = np.exp(-dt / tau)
    q = sigma_e * sigma_e * (1 - phi * phi)
    r = sigma_g * sigma_g
    level, err = z[0], 0.0
    p = np.array([[1e8, 0.0], [0.0, sigma_e * sigma_e]])
    total = 0.0
    for k, zk in enumerate(z):
        if k > 0:
            err *= phi
            p[0, 1] *= phi
            p[1, 0] *= phi
            p[1, 1] = phi * phi * p[1, 1] + q
        s = p[0, 0] + 2 * p[0, 1] + p[1, 1] + r
        v = zk - level - err
        g0 = (p[0, 0] + p[0, 1]) / s
        g1 = (p[1, 0] + p[1, 1]) / s
        level += g0 * v
        err += g1 * v
        u = np.array([p[0, 0] + p[0, 1], p[1, 0] + p[1, 1]])
        p = p - np.outer(u, u) / s
        if k > 0:
            total += 0.5 * (np.log(2 * np.pi * s) + v * v / s)
    return total


def fit(z, dt):
    best = None
    for tau0 in (30.0, 300.0, 3000.0):
        x0 = np.log([np.std(z) + 0.1, tau0, 1.0])
        r = minimize(
            negative_log_likelihood, x0, args=(z, dt), method="Nelder-Mead",
            options={"xatol": 1e-4, "fatol": 1e-4, "maxiter": 4000})
        if best is None or r.fun < best.fun:
            best = r
    x = best.x
    h = 0.05
    k = len(x)
    hessian = np.zeros((k, k))
    f = lambda y: negative_log_likelihood(y, z, dt)
    for i in range(k):
        for j in range(k):
            a = np.zeros(k)
            b = np.zeros(k)
            a[i] = h
            b[j] = h
            hessian[i, j] = (f(x + a + b) - f(x + a - b) - f(x - a + b) + f(x - a - b)) / (4 * h * h)
    se = np.sqrt(np.diag(np.linalg.inv(hessian)))
    return np.exp(x), se, -best.fun


def main():
    out = []
    for sigma_e, tau, hours, dt, seed in CASES:
        rng = np.random.default_rng(seed)
        n = int(hours * 3600 / dt)
        z = simulate(rng, n, dt, sigma_e, tau)
        theta, se, loglik = fit(z, dt)
        out.append({
            "sigma_e_m": sigma_e, "tau_s": tau, "sigma_g_m": SIGMA_G, "interval_s": dt,
            "gps_alt_m": [round(v, 4) for v in z],
            "ml_sigma_e_m": theta[0], "ml_tau_s": theta[1], "ml_sigma_g_m": theta[2],
            "se_ln_sigma_e": se[0], "se_ln_tau": se[1], "se_ln_sigma_g": se[2], "log_likelihood": loglik,
        })
        print(f"{sigma_e} m / {tau} s, {hours} h: ML {theta[0]:.2f} m / {theta[1]:.0f} s / {theta[2]:.2f} m, "
              f"SE(ln) {se[0]:.3f} {se[1]:.3f} {se[2]:.3f}")
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gauss_markov_ml.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=0)


if __name__ == "__main__":
    main()
