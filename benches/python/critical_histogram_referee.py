"""An independent referee for `pathology decision --game crit --evaluator histogram`: D(d) of
Nguyen & Ramanujan's critical win-loss game under an empirical evaluation law, by a plain
recursion over node types in Python floats (the weights parsed exactly with Fraction).

It shares no code and no formula with the Rust engine: the backed-up value's law of a subtree
is computed by recursion from its children's laws (maximum or minimum of independent
variables), and the root's choice with ties broken uniformly uses
E[1 / (1 + k)] = integral_0^1 z^k dz over the children tied at the maximum.

    python3 benches/python/critical_histogram_referee.py HISTOGRAM.csv [HEIGHT] [GAMMA]

prints `d D(d)` per line for the critical game with b = 2, root rate 1 and gamma for both
players (the defaults of `pathology decision --game crit --gamma G`). The speed comparison
runs both as processes (`critical_histogram_speed.py` beside this file).
"""

import sys
from fractions import Fraction

B = 2


def read_histogram(path):
    """{true value: [(evaluation, probability)]}, weights normalised per true value."""
    weights = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            row = line.strip()
            if not row or row.startswith("#"):
                continue
            fields = [x.strip() for x in row.split(",")]
            if fields[0].lower() == "value":
                continue
            value, evaluation = Fraction(fields[0]), Fraction(fields[1])
            weight = Fraction(fields[2]) if len(fields) > 2 else Fraction(1)
            law = weights.setdefault(value, {})
            law[evaluation] = law.get(evaluation, 0) + weight
    out = {}
    for value, law in weights.items():
        total = sum(law.values())
        out[value] = sorted((float(e), float(w / total)) for e, w in law.items() if w)
    return out


def merge_support(laws):
    return sorted({x for law in laws for x, _ in law})


def cdf_at(law, support):
    """P(X <= x) for each x of the sorted support."""
    out, acc, i = [], 0.0, 0
    for x in support:
        while i < len(law) and law[i][0] <= x:
            acc += law[i][1]
            i += 1
        out.append(acc)
    return out


def extreme(laws, maximum):
    """The law of the maximum (or minimum) of independent variables with these laws."""
    support = merge_support(laws)
    cdfs = [cdf_at(law, support) for law in laws]

    def product(values):
        out = 1.0
        for v in values:
            out *= v
        return out

    law = []
    for i, x in enumerate(support):
        below = [cdf[i - 1] if i else 0.0 for cdf in cdfs]  # P(X < x)
        upto = [cdf[i] for cdf in cdfs]  # P(X <= x)
        if maximum:  # P(max <= x) - P(max < x)
            mass = product(upto) - product(below)
        else:  # P(min >= x) - P(min > x)
            mass = product(1.0 - b for b in below) - product(1.0 - u for u in upto)
        law.append((x, mass))
    return [(x, p) for x, p in law if p > 0.0]


def mixture(a, b, wa):
    """The law equal to `a` with probability wa and `b` otherwise."""
    out = {}
    for x, p in a:
        out[x] = out.get(x, 0.0) + wa * p
    for x, p in b:
        out[x] = out.get(x, 0.0) + (1.0 - wa) * p
    return sorted((x, p) for x, p in out.items() if p > 0.0)


def true_value(won, depth):
    """Max's value (+1 or -1) of a node won (or lost) for its mover at `depth`."""
    max_moves = depth % 2 == 0
    return 1 if won == max_moves else -1


def subtree(won, depth, frontier, height, gamma, histogram):
    """The law of the backed-up evaluation of a node (won or lost for its mover) at `depth`,
    searched to the frontier depth `frontier`, by recursion."""
    if depth == frontier:
        v = true_value(won, depth)
        if depth == height:
            return [(float(v), 1.0)]
        return histogram[Fraction(v)]
    maximum = depth % 2 == 0
    child_lost = subtree(False, depth + 1, frontier, height, gamma, histogram)
    if won:
        child_won = subtree(True, depth + 1, frontier, height, gamma, histogram)
        other = mixture(child_won, child_lost, gamma)
        return extreme([child_lost] + [other] * (B - 1), maximum)
    child_won = subtree(True, depth + 1, frontier, height, gamma, histogram)
    return extreme([child_won] * B, maximum)


def chosen_probability(mine, others):
    """P(this child is chosen): its value is the largest, ties broken uniformly."""
    support = merge_support([mine] + others)
    cdfs = [cdf_at(o, support) for o in others]
    total = 0.0
    for x, p in mine:
        i = support.index(x)
        # Each other child: below x (a), at x (b); integral_0^1 prod (a + b z) dz.
        poly = [1.0]
        for cdf in cdfs:
            below = cdf[i - 1] if i else 0.0
            at = cdf[i] - below
            new = [0.0] * (len(poly) + 1)
            for k, c in enumerate(poly):
                new[k] += c * below
                new[k + 1] += c * at
            poly = new
        total += p * sum(c / (k + 1) for k, c in enumerate(poly))
    return total


def decision(frontier, height, gamma, histogram):
    """D(frontier): the root (won for Max, root rate 1) has one winning child (lost for Min)
    and b - 1 losing ones (won for Min); P(Max's choice is the winning child)."""
    winning = subtree(False, 1, frontier, height, gamma, histogram)
    losing = subtree(True, 1, frontier, height, gamma, histogram)
    return chosen_probability(winning, [losing] * (B - 1))


def main():
    path = sys.argv[1]
    height = int(sys.argv[2]) if len(sys.argv) > 2 else 6
    gamma = float(Fraction(sys.argv[3])) if len(sys.argv) > 3 else 1.0
    histogram = read_histogram(path)
    for d in range(1, height + 1):
        print(d, f"{decision(d, height, gamma, histogram):.6f}")


if __name__ == "__main__":
    main()
