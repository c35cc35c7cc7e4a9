#!/usr/bin/env python3
"""Independent reference values for Sources/Altimetry/Statistics/GaussMarkovAveraging*.swift.

Builds the AR(1) covariance Sigma_ij = sigma^2 phi^|i-j|, phi = exp(-dt/tau), as a dense numpy matrix and
computes, without any of the Swift closed forms:
  - the variance of the plain mean, 1' Sigma 1 / N^2 (a dense quadratic form), and
  - the variance of the generalised-least-squares estimate of a constant, 1 / (1' Sigma^-1 1), with
    Sigma^-1 1 from numpy.linalg.solve (LAPACK dgesv).
For the long windows (N > 2,000, too big for a dense matrix here) the mean's variance comes from the
seed's series (sigma^2/N) [1 + 2 sum_{k=1}^{N-1} (1 - k/N) phi^k], summed in numpy, and no GLS value is given.

A second list, "high_precision", gives Var(mean)/sigma^2 for extreme windows (N up to 2^40, tau up to 1e14 dt)
from the closed form evaluated in 60-digit decimal arithmetic (Python's standard decimal module), where
double-precision evaluation of the same formula would cancel catastrophically.

Regenerate from the repository root with:
    python3 Tests/AltimetryTests/Fixtures/gauss_markov_averaging.py > Tests/AltimetryTests/Fixtures/gauss_markov_averaging.json
"""
import json
import sys
from decimal import Decimal, getcontext

import numpy as np

CASES = [
    # (sigma in m, tau in s, dt in s, N)
    (10.0, 60.0, 1.0, 1),
    (10.0, 60.0, 1.0, 2),
    (10.0, 60.0, 1.0, 60),
    (10.0, 60.0, 1.0, 600),
    (10.0, 60.0, 1.0, 1_500),
    (10.0, 60.0, 1.0, 3_600),
    (10.0, 60.0, 1.0, 100_000),
    (3.0, 5.0, 1.0, 400),
    (3.0, 5.0, 0.2, 1_000),
    (1.0, 1_000.0, 1.0, 50),
    (1.0, 1_000.0, 1.0, 2_000),
    (2.5, 0.5, 1.0, 300),
    (7.0, 120.0, 0.5, 1_200),
]


HIGH_PRECISION_CASES = [
    # (tau in s, dt in s, N); x = N dt / tau spans 1e-6 to 1e4
    (1e9, 1.0, 1_000_000),
    (1e7, 1.0, 1_000_000),
    (1e6, 1.0, 1_000_000),
    (1e5, 1.0, 1_000_000),
    (1.0, 1.0, 1_000_000),
    (60.0, 1.0, 59),
    (60.0, 1.0, 61),
    (60.0, 1.0, 2**40),
    (1e14, 1.0, 2**40),
    (3e11, 1.0, 2**40),
    (0.25, 1.0, 7),
    (1e4, 0.1, 123_457),
]


def high_precision_factor(tau, dt, n):
    """Var(mean)/sigma^2 from the closed form, in 60-digit decimals starting from the exact binary a = dt/tau."""
    getcontext().prec = 60
    a = Decimal(dt / tau)  # the double the Swift code also starts from, converted exactly
    phi = (-a).exp()
    one = Decimal(1)
    big_n = Decimal(n)
    bracket = big_n * (one + phi) / (one - phi) - 2 * phi * (one - (-(big_n * a)).exp()) / (one - phi) ** 2
    return bracket / big_n**2


def dense_covariance(sigma, phi, n):
    lags = np.abs(np.subtract.outer(np.arange(n), np.arange(n)))
    return sigma**2 * phi**lags


def case(sigma, tau, dt, n):
    phi = np.exp(-dt / tau)
    result = {"sigma": sigma, "tau": tau, "dt": dt, "n": n}
    if n <= 2_000:
        cov = dense_covariance(sigma, phi, n)
        ones = np.ones(n)
        result["mean_variance"] = float(ones @ cov @ ones) / n**2
        result["gls_variance"] = float(1.0 / (ones @ np.linalg.solve(cov, ones)))
    else:
        k = np.arange(1, n, dtype=np.float64)
        series = 1.0 + 2.0 * np.sum((1.0 - k / n) * phi**k)
        result["mean_variance"] = float(sigma**2 * series / n)
    return result


def main():
    fixture = {
        "generator": "Tests/AltimetryTests/Fixtures/gauss_markov_averaging.py",
        "numpy": np.__version__,
        "cases": [case(*c) for c in CASES],
        "high_precision": [
            {"tau": tau, "dt": dt, "n": n, "mean_variance_factor": float(high_precision_factor(tau, dt, n))}
            for tau, dt, n in HIGH_PRECISION_CASES
        ],
    }
    json.dump(fixture, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
