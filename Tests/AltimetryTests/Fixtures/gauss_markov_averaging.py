#!/usr/bin/env python3
"""Independent reference values for Sources/Altimetry/Statistics/GaussMarkovAveraging*.swift.

Builds the AR(1) covariance Sigma_ij = sigma^2 phi^|i-j|, phi = exp(-dt/tau), as a dense numpy matrix and
computes, without any of the Swift closed forms:
  - the variance of the plain mean, 1' Sigma 1 / N^2 (a dense quadratic form), and
  - the variance of the generalised-least-squares estimate of a constant, 1 / (1' Sigma^-1 1), with
    Sigma^-1 1 from numpy.linalg.solve (LAPACK dgesv).
For the long windows (N > 2,000, too big for a dense matrix here) the mean's variance comes from the
seed's series (sigma^2/N) [1 + 2 sum_{k=1}^{N-1} (1 - k/N) phi^k], summed in numpy, and no GLS value is given.

Regenerate from the repository root with:
    python3 Tests/AltimetryTests/Fixtures/gauss_markov_averaging.py > Tests/AltimetryTests/Fixtures/gauss_markov_averaging.json
"""
import json
import sys

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
    }
    json.dump(fixture, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
