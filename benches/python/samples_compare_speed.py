"""`pathology samples compare` against the published method's own Python implementation
(passk-inference, Yang, Zhang & Chen 2026, arXiv 2609.22547), on the paper's real data:
1,060 prompts x 128 generations of a base and an RL-tuned model (data/samples/deepscaler_*.jsonl),
pass@k for k = 1..128 with a 95% simultaneous band from 4,000 Gaussian multiplier replicates.

    python3 -m pip install passk-inference==0.3.1
    python3 benches/python/samples_compare_speed.py [PATHOLOGY] [RUNS]

PATHOLOGY defaults to target/release/pathology, RUNS to 5. Each side runs as its own process
on the same two files (reading them, computing, printing): `pathology samples compare ...
--k 1..128` (its default 4,000 replicates; it also computes pass^k and its band, which
passk-inference does not) and `passk-inference --base ... --rl ... --bootstrap 4000` (JSON to
stdout). It also times passk_inference.compare_files in this process (no interpreter start,
no import). Before timing, it checks that both give the same difference curve (to 1e-12) and
critical values within Monte Carlo error of each other (different random streams). It prints
the median wall time and median CPU time (user + system) of each and their ratios.
"""

import json
import os
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BASE = os.path.join(ROOT, "data", "samples", "deepscaler_base.jsonl")
RL = os.path.join(ROOT, "data", "samples", "deepscaler_rl.jsonl")


def timed(argv, runs):
    walls, cpus, output = [], [], None
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        output = subprocess.run(argv, check=True, capture_output=True, text=True).stdout
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus), output


def main():
    pathology = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "pathology")
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    ours_argv = [pathology, "samples", "compare", BASE, RL, "--problem-column", "id",
                 "--k", "1..128", "--format", "json"]
    theirs_argv = ["passk-inference", "--base", BASE, "--rl", RL, "--bootstrap", "4000", "--seed", "0"]

    ours_wall, ours_cpu, ours_out = timed(ours_argv, runs)
    theirs_wall, theirs_cpu, theirs_out = timed(theirs_argv, runs)

    ours = json.loads(ours_out)
    rows = [r for r in ours["tables"][0]["rows"] if r["metric"] == "pass_at_k"]
    summary = [r for r in ours["tables"][1]["rows"] if r["metric"] == "pass_at_k"][0]
    theirs = json.loads(theirs_out)
    gap = max(abs(r["difference"] - m) for r, m in zip(rows, theirs["mean"]))
    if len(rows) != 128 or gap > 1e-12:
        raise SystemExit(f"the difference curves differ (largest gap {gap})")
    c_ours, c_theirs = summary["critical_value"], theirs["critical_value"]
    if abs(c_ours - c_theirs) > 6 * summary["critical_value_mc_se"]:
        raise SystemExit(f"critical values {c_ours} and {c_theirs} differ beyond Monte Carlo error")

    from passk_inference import compare_files

    calls = []
    for _ in range(runs):
        start = time.perf_counter()
        compare_files(BASE, RL, bootstrap=4000, seed=0)
        calls.append(time.perf_counter() - start)
    in_process = statistics.median(calls)

    print(f"1,060 prompts x 128 samples, k = 1..128, 4,000 replicates; median of {runs} runs")
    print(f"difference curves agree to {gap:.1e}; critical value c = {c_ours:.4f} (pathology, "
          f"MC s.e. {summary['critical_value_mc_se']:.4f}) and {c_theirs:.4f} (passk-inference)")
    print(f"pathology samples compare   wall {ours_wall:8.3f} s   cpu {ours_cpu:8.3f} s")
    print(f"passk-inference (process)   wall {theirs_wall:8.3f} s   cpu {theirs_cpu:8.3f} s")
    print(f"passk_inference.compare_files in-process {in_process:8.3f} s")
    print(f"ratio: {theirs_wall / ours_wall:.1f}x wall, {theirs_cpu / ours_cpu:.1f}x cpu, "
          f"{in_process / ours_wall:.1f}x against the in-process call")


if __name__ == "__main__":
    main()
