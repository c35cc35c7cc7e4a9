#!/usr/bin/env python3
"""Reference Kalman filter and RTS smoother runs for StateEstimationTests, written independently with numpy.

Regenerate (from the package root):

    python3 Tests/StateEstimationTests/Fixtures/generate_fixtures.py

This writes constant_velocity.json and random_walk_gauss_markov.json beside this script. The package itself
never runs Python: the JSON files are committed and read by FixtureTests.swift.

The implementation is deliberately the textbook one, different in form from the Swift engine: the gain from
numpy.linalg.solve, the Joseph covariance update as explicit dense products, and the Rauch-Tung-Striebel
smoother in its difference form P_s = P + C (P_s_next - P_pred) C^T with C = P F^T inv(P_pred).
"""
import json
import math
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def constant_velocity(q, dt):
    F = np.array([[1.0, dt], [0.0, 1.0]])
    Q = q * np.array([[dt**3 / 3, dt**2 / 2], [dt**2 / 2, dt]])
    return F, Q


def random_walk_gauss_markov(q, sigma, tau, dt):
    phi = math.exp(-dt / tau)
    F = np.diag([1.0, phi])
    Q = np.diag([q * dt, sigma**2 * (1 - phi**2)])
    return F, Q


def run(discretize, t0, x0, P0, measurements, kinds):
    """Filters `measurements` (time, kind, z, R, gate) and smooths; returns a dict for JSON."""
    n = len(x0)
    x = np.array(x0, dtype=float)
    P = np.array(P0, dtype=float)
    t = t0
    epochs = [dict(time=t, F=np.eye(n), Q=np.zeros((n, n)), x_pred=x.copy(), P_pred=P.copy(), x=x.copy(), P=P.copy())]
    records = []
    for (tm, kind, z, R, gate) in measurements:
        if tm > t:
            F, Q = discretize(tm - t)
            x = F @ x
            P = F @ P @ F.T + Q
            t = tm
            epochs.append(dict(time=t, F=F, Q=Q, x_pred=x.copy(), P_pred=P.copy(), x=x.copy(), P=P.copy()))
        H = np.array([kinds[kind]], dtype=float)
        Rm = np.array([[R]])
        y = np.array([z]) - H @ x
        S = H @ P @ H.T + Rm
        nis = float(y @ np.linalg.solve(S, y))
        loglik = -0.5 * (nis + math.log(2 * math.pi) + math.log(np.linalg.det(S)))
        decision = "accepted"
        factor = 1.0
        if gate is not None and nis > gate["threshold"]:
            if gate["action"] == "reject":
                decision = "rejected"
            else:
                decision = "inflated"
                factor = nis / gate["threshold"]
        record = dict(time=t, innovation=float(y[0]), innovation_variance=float(S[0, 0]), nis=nis,
                      log_likelihood=loglik, decision=decision, factor=factor)
        records.append(record)
        if decision == "rejected":
            continue
        R_eff = Rm + (factor - 1) * S
        S_eff = H @ P @ H.T + R_eff
        K = np.linalg.solve(S_eff, H @ P).T
        x = x + K @ y
        A = np.eye(n) - K @ H
        P = A @ P @ A.T + K @ R_eff @ K.T
        epochs[-1]["x"] = x.copy()
        epochs[-1]["P"] = P.copy()
    # Rauch-Tung-Striebel, difference form.
    xs = [None] * len(epochs)
    Ps = [None] * len(epochs)
    xs[-1] = epochs[-1]["x"]
    Ps[-1] = epochs[-1]["P"]
    for k in range(len(epochs) - 2, -1, -1):
        e, nxt = epochs[k], epochs[k + 1]
        C = e["P"] @ nxt["F"].T @ np.linalg.inv(nxt["P_pred"])
        xs[k] = e["x"] + C @ (xs[k + 1] - nxt["x_pred"])
        Ps[k] = e["P"] + C @ (Ps[k + 1] - nxt["P_pred"]) @ C.T
    return dict(
        epochs=[dict(time=e["time"], filtered_mean=e["x"].tolist(), filtered_covariance=e["P"].tolist(),
                     smoothed_mean=xs[k].tolist(), smoothed_covariance=Ps[k].tolist())
                for k, e in enumerate(epochs)],
        records=records,
    )


def constant_velocity_fixture():
    rng = np.random.default_rng(20240601)
    q, r, dt = 0.5, 4.0, 1.0
    x0, P0 = [0.0, 1.0], [[10.0, 0.0], [0.0, 1.0]]
    truth = np.array([0.0, 1.0])
    measurements = []
    for k in range(1, 41):
        F, Q = constant_velocity(q, dt)
        truth = F @ truth + rng.multivariate_normal(np.zeros(2), Q)
        measurements.append((k * dt, "position", float(truth[0] + rng.normal(0, math.sqrt(r))), r, None))
    kinds = {"position": [1.0, 0.0]}
    result = run(lambda d: constant_velocity(q, d), 0.0, x0, P0, measurements, kinds)
    result.update(model=dict(acceleration_noise_density=q), initial_time=0.0, initial_mean=x0,
                  initial_covariance=P0, kinds=kinds,
                  measurements=[dict(time=t, kind=k, value=z, variance=R, gate=g) for (t, k, z, R, g) in measurements])
    return result


def random_walk_gauss_markov_fixture():
    rng = np.random.default_rng(7)
    q, sigma, tau = 0.2, 3.0, 20.0
    x0, P0 = [100.0, 0.0], [[25.0, 0.0], [0.0, 9.0]]
    kinds = {"reference": [1.0, 0.0], "biased": [1.0, 1.0]}
    reject5 = dict(threshold=25.0, action="reject")
    inflate3 = dict(threshold=9.0, action="inflate")
    truth = np.array([100.0, rng.normal(0, sigma)])
    t = 0.0
    measurements = []
    for k in range(60):
        t += float(rng.choice([0.0, 0.1, 0.7, 1.3, 2.9, 0.05]))  # irregular, sometimes the same time
        t = round(t, 6)
        if measurements and t > measurements[-1][0]:
            F, Q = random_walk_gauss_markov(q, sigma, tau, t - measurements[-1][0])
            truth = F @ truth + rng.multivariate_normal(np.zeros(2), Q)
        kind = "reference" if k % 3 == 0 else "biased"
        R = 0.5 if kind == "reference" else float(rng.uniform(1.0, 9.0))
        z = float(np.dot(kinds[kind], truth) + rng.normal(0, math.sqrt(R)))
        gate = None
        if kind == "biased" and k >= 10:
            gate = reject5 if k % 2 == 0 else inflate3
        if k == 32:
            z += 60.0  # an outlier, rejected by the 5-sigma gate
        if k == 41:
            z += 25.0  # an outlier, inflated by the soft 3-sigma gate
        measurements.append((t, kind, z, R, gate))
    result = run(lambda d: random_walk_gauss_markov(q, sigma, tau, d), 0.0, x0, P0, measurements, kinds)
    result.update(model=dict(noise_density=q, standard_deviation=sigma, correlation_time=tau), initial_time=0.0,
                  initial_mean=x0, initial_covariance=P0, kinds=kinds,
                  measurements=[dict(time=t, kind=k, value=z, variance=R, gate=g) for (t, k, z, R, g) in measurements])
    return result


if __name__ == "__main__":
    for name, fixture in [("constant_velocity", constant_velocity_fixture()),
                          ("random_walk_gauss_markov", random_walk_gauss_markov_fixture())]:
        with open(os.path.join(HERE, name + ".json"), "w") as f:
            json.dump(fixture, f, indent=1)
            f.write("\n")
        decisions = [r["decision"] for r in fixture["records"]]
        print(name, len(fixture["epochs"]), "epochs,", {d: decisions.count(d) for d in set(decisions)})
