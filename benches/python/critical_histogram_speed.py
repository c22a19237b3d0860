"""The critical game from a 1,000-row histogram with rational weights,
`pathology decision` against the independent Python recursion
(`critical_histogram_referee.py`), process to process.

    python3 benches/python/critical_histogram_speed.py [PATHOLOGY] [RUNS]

writes the histogram (seeded: the same file every time), checks that both print the same
D(d) to 6 decimals, and times RUNS runs of each (default 20): the median wall time and the
median CPU time (user + system) of each process. On a shared machine the CPU time is the
steadier of the two.
"""

import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def histogram(path, rational=True):
    rng = random.Random(43)
    with open(path, "w", encoding="utf-8") as f:
        f.write("value,evaluation,weight\n")
        for i in range(1000):
            value = 1 if i % 2 == 0 else -1
            weight = f"{rng.randint(1, 50)}/{rng.randint(1, 50)}" if rational else rng.randint(1, 50)
            f.write(f"{value},{rng.randint(0, 999) / 1000},{weight}\n")


def timed(argv, runs):
    walls, cpus, output = [], [], None
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        output = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus), output


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/pathology"
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 20
    with tempfile.TemporaryDirectory() as directory:
        for rational in (True, False):
            path = os.path.join(directory, "h.csv")
            histogram(path, rational)
            ours = [binary, "decision", "--game", "crit", "--height", "6", "--gamma", "1",
                    "--evaluator", "histogram", "--histogram", path, "--format", "csv"]
            theirs = [sys.executable, os.path.join(HERE, "critical_histogram_referee.py"), path,
                      "6", "1"]
            wall_ours, cpu_ours, out_ours = timed(ours, runs)
            wall_theirs, cpu_theirs, out_theirs = timed(theirs, runs)
            rows = [line.split(",") for line in out_ours.splitlines()[1:]]
            mine = [f"{int(r[3])} {float(r[4]):.6f}" for r in rows]
            assert mine == out_theirs.splitlines(), (mine, out_theirs)
            kind = "rational" if rational else "integer"
            print(
                f"{kind} weights: pathology {wall_ours * 1e3:.1f} ms wall, {cpu_ours * 1e3:.1f} ms "
                f"CPU; Python {wall_theirs * 1e3:.1f} ms wall, {cpu_theirs * 1e3:.1f} ms CPU; "
                f"ratio {wall_theirs / wall_ours:.0f}x wall, "
                f"{cpu_theirs / max(cpu_ours, 1e-4):.0f}x CPU (median of {runs})"
            )


if __name__ == "__main__":
    main()
