#!/usr/bin/env python3
"""Regenerates data/samples/cruxeval_o.csv and data/samples/cruxeval_i.csv from CRUXEval's
published scored generations of Code Llama 7B (temperature 0.2, 10 samples per problem).

Source: https://github.com/facebookresearch/cruxeval (MIT licence), commit
190faf16d175b5847b0af05d937872b1fb395942 (the files are unchanged since they were added):
  samples/evaluation_results/sample_scored_codellama-7b_temp0.2_output.json  (CRUXEval-O)
  samples/evaluation_results/sample_scored_codellama-7b_temp0.2_input.json   (CRUXEval-I)

Each file holds `raw_generations` (problem id -> 10 generation strings) and
`raw_scored_generations` (problem id -> 10 booleans, whether the generation passed the
problem's execution check). This script writes one CSV row per sample:

  problem  the problem id as in the source (sample_0 .. sample_799)
  correct  1 or 0, from raw_scored_generations
  answer   the generation's class within its problem: a1 for the first distinct generation
           string, a2 for the second, ...; two samples share a class exactly when their
           generation strings are identical (so majority@k is the vote over identical
           strings); an empty (or all-whitespace) generation is written as no answer

The classes replace the generation text (up to kilobytes) to keep the files small; nothing
else is changed or dropped. The script checks that every class has one correctness (an
answer is correct or not) and that no empty generation is correct, and prints the counts.

Usage: python3 scripts/cruxeval_samples.py PATH_TO_CRUXEVAL_CHECKOUT [OUT_DIR]
(OUT_DIR defaults to data/samples). Only the Python standard library is used.
"""

import csv
import json
import os
import sys

FILES = {
    "cruxeval_o.csv": "sample_scored_codellama-7b_temp0.2_output.json",
    "cruxeval_i.csv": "sample_scored_codellama-7b_temp0.2_input.json",
}


def convert(source, target):
    with open(source, encoding="utf-8") as f:
        data = json.load(f)
    generations = data["raw_generations"]
    scored = data["raw_scored_generations"]
    ids = sorted(scored, key=lambda name: int(name.split("_")[1]))
    rows = 0
    with open(target, "w", encoding="utf-8", newline="") as f:
        out = csv.writer(f, lineterminator="\n")
        out.writerow(["problem", "correct", "answer"])
        for problem in ids:
            texts, marks = generations[problem], scored[problem]
            if len(texts) != len(marks):
                raise SystemExit(f"{source}: {problem} has {len(texts)} generations and {len(marks)} scores")
            classes, correctness = {}, {}
            for text, mark in zip(texts, marks):
                if text.strip() == "":
                    if mark:
                        raise SystemExit(f"{source}: {problem} has an empty generation marked correct")
                    answer = ""
                else:
                    answer = classes.setdefault(text, f"a{len(classes) + 1}")
                    if correctness.setdefault(answer, bool(mark)) != bool(mark):
                        raise SystemExit(f"{source}: {problem}: one generation string scored both ways")
                out.writerow([problem, 1 if mark else 0, answer])
                rows += 1
    correct = sum(sum(1 for m in scored[p] if m) for p in ids)
    print(f"{target}: {len(ids)} problems, {rows} rows, {correct} correct samples")


def main():
    if len(sys.argv) not in (2, 3):
        raise SystemExit(__doc__)
    root = sys.argv[1]
    out_dir = sys.argv[2] if len(sys.argv) == 3 else os.path.join("data", "samples")
    for target, name in FILES.items():
        convert(os.path.join(root, "samples", "evaluation_results", name), os.path.join(out_dir, target))


if __name__ == "__main__":
    main()
