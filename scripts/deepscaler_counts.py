#!/usr/bin/env python3
"""Regenerates data/samples/deepscaler_base.jsonl and data/samples/deepscaler_rl.jsonl: the
real per-prompt counts (c correct of n = 128 generations) of DeepSeek-R1-Distill-Qwen-1.5B
(base) and DeepScaleR-1.5B-Preview (RL) on 1,060 math prompts, published by Yang, Zhang &
Chen with their package passk-inference (MIT licence; arXiv 2609.22547v1, Table 1, the
"32k fresh" row).

The files are copied byte for byte from the package's source distribution on PyPI,
passk_inference-0.3.1.tar.gz (examples/deepscaler32k/base.jsonl and rl.jsonl; also at
https://github.com/cafferychen777/passk-inference), after checking their SHA-256 against the
package's own examples/deepscaler32k/metadata.json (its export_sha256 values, pinned here too).

Usage:
    python3 -m pip download passk-inference==0.3.1 --no-deps --no-binary :all: -d /tmp/passk
    tar xzf /tmp/passk/passk_inference-0.3.1.tar.gz -C /tmp/passk
    python3 scripts/deepscaler_counts.py /tmp/passk/passk_inference-0.3.1 [OUT_DIR]

(OUT_DIR defaults to data/samples). Only the Python standard library is used.
"""

import hashlib
import json
import os
import shutil
import sys

EXPECTED = {
    "base.jsonl": "184d3c7446d8f2ff389195909ca408a2b2bb0984ad726e4549c48adee8af1fc4",
    "rl.jsonl": "9da1ffef9e04f951427112a7ee88d3105956952ab30229886a901e2864f5bb45",
}


def main():
    if len(sys.argv) not in (2, 3):
        raise SystemExit(__doc__)
    source = os.path.join(sys.argv[1], "examples", "deepscaler32k")
    out_dir = sys.argv[2] if len(sys.argv) == 3 else os.path.join("data", "samples")
    with open(os.path.join(source, "metadata.json"), encoding="utf-8") as f:
        metadata = json.load(f)
    for role, entry in metadata["files"].items():
        name = entry["export_file"]
        if EXPECTED.get(name) != entry["export_sha256"]:
            raise SystemExit(f"metadata.json names {entry['export_sha256']} for {name}, not the pinned hash")
        path = os.path.join(source, name)
        with open(path, "rb") as f:
            data = f.read()
        digest = hashlib.sha256(data).hexdigest()
        if digest != EXPECTED[name]:
            raise SystemExit(f"{path}: SHA-256 {digest}, expected {EXPECTED[name]}")
        rows = [json.loads(line) for line in data.decode("utf-8").splitlines() if line.strip()]
        target = os.path.join(out_dir, f"deepscaler_{role}.jsonl")
        shutil.copyfile(path, target)
        print(f"{target}: {len(rows)} prompts, n = {sorted({r['n'] for r in rows})}, "
              f"{sum(r['c'] for r in rows)} correct generations (SHA-256 {digest})")


if __name__ == "__main__":
    main()
