#!/usr/bin/env python3
"""Independent implementation of Altimetry's plain altitude model (issue 4's bare three-state equations).

Writes plain_altitude_filter.json: a small irregular, asynchronous barometer + GPS input and the filtered
altitude, its sigma, QNH, its sigma and the GPS error after every row. AltitudeFilterFixtureTests compares
the Swift filter (AltitudeModelParameters.plain) with it to 1e-9 relative.

Regenerate from the repository root:
    python3 Tests/AltimetryTests/Fixtures/plain_altitude_filter.py

The model, written from the issue's text (not from the Swift code):
  state x = [U, B, e] in log-pressure metres: U = -(T0/L) ln(1 - L h/T0), B = (T0/(nL)) ln(QNH/1013.25), e = GPS error
  U random walk q_h s^2 (s = dU/dh at the first altitude), B random walk q_b (dB/db)^2, e Gauss-Markov(sigma_e, tau)
  barometer z = (T0/(nL)) ln(p/1013.25) = B - U, R = ((T0/(nL)) sigma_p / p)^2
  GPS z = h(U) + e, h(U) = (T0/L)(1 - exp(-L U/T0)), linearised, R = sigma_g^2
  init from the first row's pressure at standard QNH; P0 = diag(sigma_h0^2 s^2, (10 hPa dB/db)^2, sigma_e^2)
  each row: predict to its time, barometer update, then GPS update; Joseph covariance update.
"""
import json
import math
import os

import numpy as np

R = 8.314462618
M = 0.0289644
G = 9.80665
P0 = 1013.25
T0 = 288.15
L = 0.0065
N_EXP = G * M / (R * L)
TH = T0 / L                 # temperature height, m
H0 = TH / N_EXP             # scale height, m
QH, QB = 10.0, 1.0 / 3600.0
SIGMA_E, TAU, SIGMA_G, SIGMA_P = 10.0, 60.0, 1.0, 0.012
SIGMA_H0 = math.sqrt(83.0 ** 2 + 10.0 ** 2)
SIGMA_B0 = 10.0


def make_input(rng):
    rows = []
    t, h, b, e = 0.0, 320.0, 2.5, rng.normal(0, SIGMA_E)
    for k in range(400):
        dt = [0.0, 0.4, 1.0, 1.7, 3.0][k % 5] if k else 0.0
        t += dt
        h += 0.3 * dt + rng.normal(0, 0.2) * math.sqrt(dt)
        b += rng.normal(0, math.sqrt(QB * dt))
        phi = math.exp(-dt / TAU)
        e = phi * e + SIGMA_E * math.sqrt(1 - phi * phi) * rng.normal()
        p = (P0 + b) * (1 - L * h / T0) ** N_EXP + rng.normal(0, SIGMA_P)
        z = h + e + rng.normal(0, SIGMA_G)
        kind = k % 3  # 0: both, 1: pressure only, 2: GPS only
        rows.append({"t": t, "pressure_hpa": p if kind in (0, 1) or k == 0 else None,
                     "gps_alt_m": z if kind in (0, 2) else None})
    return rows


def run(rows):
    first = rows[0]["pressure_hpa"]
    h0 = TH * (1 - (first / P0) ** (1 / N_EXP))
    s = TH / (TH - h0)
    kb = H0 / P0
    x = np.array([-TH * math.log(1 - h0 / TH), 0.0, 0.0])
    P = np.diag([SIGMA_H0 ** 2 * s * s, (SIGMA_B0 * kb) ** 2, SIGMA_E ** 2])
    t_prev = rows[0]["t"]
    out = []

    def update(x, P, z, hx, H, r):
        S = H @ P @ H + r
        K = P @ H / S
        x = x + K * (z - hx)
        A = np.eye(3) - np.outer(K, H)
        return x, A @ P @ A.T + r * np.outer(K, K)

    for row in rows:
        dt = row["t"] - t_prev
        t_prev = row["t"]
        if dt > 0:
            phi = math.exp(-dt / TAU)
            F = np.diag([1.0, 1.0, phi])
            Q = np.diag([QH * s * s * dt, QB * kb * kb * dt, SIGMA_E ** 2 * (1 - phi * phi)])
            x = F @ x
            P = F @ P @ F.T + Q
        if row["pressure_hpa"] is not None:
            p = row["pressure_hpa"]
            x, P = update(x, P, H0 * math.log(p / P0), x[1] - x[0], np.array([-1.0, 1.0, 0.0]), (H0 * SIGMA_P / p) ** 2)
        if row["gps_alt_m"] is not None:
            d = math.exp(-x[0] / TH)
            x, P = update(x, P, row["gps_alt_m"], TH * (1 - d) + x[2], np.array([d, 0.0, 1.0]), SIGMA_G ** 2)
        d = math.exp(-x[0] / TH)
        qnh = P0 * math.exp(x[1] / H0)
        out.append({"altitude_m": TH * (1 - d), "sigma_m": d * math.sqrt(P[0, 0]), "qnh_hpa": qnh,
                    "qnh_sigma_hpa": qnh / H0 * math.sqrt(P[1, 1]), "gps_error_m": x[2]})
    return out


def main():
    rows = make_input(np.random.default_rng(20261129))
    expected = run(rows)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plain_altitude_filter.json")
    with open(path, "w") as f:
        json.dump({"rows": rows, "expected": expected}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
