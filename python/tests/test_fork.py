"""A 'fork' process pool after an earlier call in the parent must not hang.

The parent's thread pool is not copied by fork; the package runs each call on its own pool,
rebuilt in the child. Run in a subprocess with a timeout, so that a hang fails the test
instead of hanging CI.
"""

import subprocess
import sys
import textwrap

import pytest

SCRIPT = textwrap.dedent(
    """
    import concurrent.futures, multiprocessing, pathology
    if __name__ == "__main__":
        pathology.run("dgame", height=10, f1=0.1, f2=0.1)  # starts the parent's threads
        argv = ["mc", "dgame", "--height", "6", "--f1", "0.1", "--f2", "0.1", "--trials", "2000"]
        context = multiprocessing.get_context("fork")
        with concurrent.futures.ProcessPoolExecutor(2, mp_context=context) as pool:
            merged = pathology.run_sharded(argv, shards=2, executor=pool)
            # a plain call in a forked worker too (exact engine on the rebuilt pool)
            child = pool.submit(pathology.run, "dgame", height=8, f1=0.1, f2=0.1).result(timeout=120)
        assert merged == pathology.run(argv), "merged shards differ from the single run"
        assert child == pathology.run("dgame", height=8, f1=0.1, f2=0.1)
        print("ok")
    """
)


@pytest.mark.skipif(
    "fork" not in __import__("multiprocessing").get_all_start_methods(),
    reason="no fork start method on this platform",
)
def test_fork_pool_after_an_earlier_call_does_not_hang(tmp_path):
    script = tmp_path / "fork_pool.py"
    script.write_text(SCRIPT)
    try:
        done = subprocess.run(
            [sys.executable, str(script)], capture_output=True, text=True, timeout=300
        )
    except subprocess.TimeoutExpired:
        pytest.fail("a fork process pool after an earlier pathology call hung (300 s)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("ok"), done.stdout
