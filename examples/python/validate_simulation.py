"""Simulate Chi & Nau's rate of heuristic flaw on binary P-games in plain Python, then
validate the estimates against the exact rhf(w) with the `pathology` package.

Chi & Nau (1987), Sections 2 and 5: two distinct nodes m, n at depth D of a binary P-game
of height H (leaves are 1, a win for Max, with probability p = w_2, independently; odd
heights are Max nodes), the evaluator e^w(n) = w u(n) + (1 - w) r(n) with r uniform on
[0, 1]; a heuristic flaw is u(better) < u(worse), the better node being the one with the
larger e (ties broken by a coin). With p = w_2 the closed form rhf(w) holds at every depth.

Run: python examples/python/validate_simulation.py  (about a second; exits 1 if the
package finds a disagreement, as `pathology validate` does).
"""

import random
import sys

import pathology

HEIGHT, DEPTH = 8, 4  # subtrees of height 4: 16 leaves per node
TRIALS = 20_000
SEED = 2024


def true_value(rng: random.Random, height: int, p: float) -> int:
    """Minimax value u of a random P-game subtree of this height (Max at odd heights)."""
    if height == 0:
        return 1 if rng.random() < p else 0
    children = (true_value(rng, height - 1, p), true_value(rng, height - 1, p))
    return max(children) if height % 2 == 1 else min(children)


def flaw_rate(w: float, rng: random.Random, p: float) -> float:
    flaws = 0
    t = HEIGHT - DEPTH
    for _ in range(TRIALS):
        u_m, u_n = true_value(rng, t, p), true_value(rng, t, p)
        e_m = w * u_m + (1 - w) * rng.random()
        e_n = w * u_n + (1 - w) * rng.random()
        if e_m == e_n:
            better_m = rng.random() < 0.5
        else:
            better_m = e_m > e_n
        better, worse = (u_m, u_n) if better_m else (u_n, u_m)
        flaws += better < worse
    return flaws / TRIALS


def main() -> int:
    rng = random.Random(SEED)
    p = pathology.w_b(2)  # w_2 = (3 - sqrt 5) / 2
    rows = ["kind,w,branching,estimate,trials"]
    for w in ["0", "0.1", "0.25", "0.4"]:
        estimate = flaw_rate(float(w), rng, p)
        rows.append(f"rhf,{w},2,{estimate},{TRIALS}")
        print(f"w = {w:>4}: simulated rhf = {estimate:.4f}, exact rhf(w) = {pathology.rhf(w):.4f}")
    result = pathology.validate("\n".join(rows) + "\n")
    checked = result.table("checked")
    for w, z, verdict in zip(checked["parameters"], checked["z"], checked["holm_verdict"]):
        print(f"{w}: z = {z:+.2f}, {verdict} (Holm)")
    print("no difference detected for any estimate" if result.exit_code == 0 else "DISAGREEMENT")
    return result.exit_code


if __name__ == "__main__":
    sys.exit(main())
