"""Ctrl-C stops a long call promptly with ``KeyboardInterrupt``, never a partial result: the
test-time search calculators (pass-at-k, resampling, best-of-n, lookahead; voting's cost check
keeps it to seconds, and src/cancel.rs tests its cancellation) and the running shard of a
thread pool. Each inference call runs in a subprocess that receives SIGINT, so that a call that
ignores it fails the test after a few seconds instead of running to its end."""

import concurrent.futures
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import pathology

# Calls of several seconds on two cores, accepted by the cost checks (whose estimates stay under
# their one-minute limit): each is still running when SIGINT comes 1.5 s in, so an ignored Ctrl-C
# shows as a finished call (test_the_long_calls_are_long times them; the test allows 8 s).
MIX = ",".join(f"{i}/1009:1/1000" for i in range(1, 1001))  # 1000 task types
# Best-of-n with normal laws integrates the continuous laws (about 0.5 ms per n and task
# type): 200 types keep its estimate under the limit and the call several seconds long.
NORMAL_MIX = ",".join(f"{i}/1009:1/200" for i in range(1, 201))
LONG_CALLS = {
    "pass-at-k, f64": dict(fn="inference_pass_at_k", args=(MIX, range(1, 6001)), kwargs={}),
    "resample, f64": dict(
        fn="inference_resample", args=(MIX, "9/10", "7/10", range(1, 5001)), kwargs={}),
    "best-of-n, f64": dict(
        fn="inference_best_of_n", args=(NORMAL_MIX, "gaussian:1", "gaussian:2", range(1, 61)),
        kwargs={}),
    "resample, exact": dict(
        fn="inference_resample",
        args=(",".join(f"{i}/4099:1/64" for i in range(1, 65)), "9/10", "7/10", range(1, 301)),
        kwargs=dict(exact=True)),
    "lookahead, exact": dict(
        fn="inference_lookahead", args=(4, 10, "3/5", "gaussian:1", range(1, 10)),
        kwargs=dict(exact=True)),
}

SCRIPT = textwrap.dedent(
    """
    import sys, time, pathology
    fn, args, kwargs = eval(sys.argv[1])
    print("started", flush=True)
    start = time.monotonic()
    try:
        getattr(pathology, fn)(*args, **kwargs)
    except KeyboardInterrupt:
        print(f"KeyboardInterrupt after {time.monotonic() - start:.1f} s", flush=True)
        sys.exit(3)
    print(f"finished after {time.monotonic() - start:.1f} s", flush=True)
    """
)


def call_text(call):
    return repr((call["fn"], call["args"], call["kwargs"]))


@pytest.mark.parametrize("name", sorted(LONG_CALLS))
def test_ctrl_c_stops_a_long_inference_call_with_keyboard_interrupt(name):
    child = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, call_text(LONG_CALLS[name])],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert child.stdout.readline().strip() == "started", child.stderr.read()
        time.sleep(1.5)  # inside the engine (the cost check takes milliseconds)
        child.send_signal(signal.SIGINT)
        sent = time.monotonic()
        out, err = child.communicate(timeout=30)
        waited = time.monotonic() - sent
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert "KeyboardInterrupt after" in out, (out, err)
    assert "ValueError" not in err and "RuntimeError" not in err, err
    assert child.returncode == 3, (child.returncode, err)
    assert waited < 8, f"{name}: stopped {waited:.1f} s after Ctrl-C"


@pytest.mark.parametrize("name", sorted(LONG_CALLS))
def test_the_long_calls_are_long(name):
    # Without Ctrl-C each call runs well past the 1.5 s at which the test above sends SIGINT.
    if not os.environ.get("PATHOLOGY_TIME_LONG_CALLS"):
        pytest.skip("set PATHOLOGY_TIME_LONG_CALLS=1 to time the long calls (minutes)")
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, call_text(LONG_CALLS[name])],
        capture_output=True, text=True, timeout=600,
    )
    assert "finished after" in done.stdout, done.stderr
    seconds = float(done.stdout.split("finished after ")[1].split()[0])
    assert seconds > 4, f"{name}: {seconds} s"


class CountingExecutor(concurrent.futures.ThreadPoolExecutor):
    """A thread pool that keeps the futures it hands out."""

    def __init__(self, workers=1):
        super().__init__(workers)
        self.futures = []

    def submit(self, fn, *args, **kwargs):
        future = super().submit(fn, *args, **kwargs)
        self.futures.append(future)
        return future


@pytest.fixture
def _python_handles_sigint():
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.usefixtures("_python_handles_sigint")
def test_ctrl_c_cancels_the_running_shard_of_a_thread_pool():
    # About 10^8 trials per shard: minutes on one thread, unless the shard is cancelled (the
    # parent must not wait for the running shard to run out).
    argv = ["mc", "dgame", "--height", "10", "--f1", "0.1", "--f2", "0.1", "--trials",
            str(2 * 10**8), "--seed", "1", "--threads", "1"]
    timer = threading.Timer(1.0, lambda: os.kill(os.getpid(), signal.SIGINT))
    with CountingExecutor(1) as pool:
        timer.start()
        try:
            with pytest.raises(KeyboardInterrupt):
                pathology.run_sharded(argv, shards=2, executor=pool)
        finally:
            timer.cancel()
        running, waiting = pool.futures
        # The running shard was stopped by the library's cancellation, not run to its end;
        # the one not started was cancelled.
        error = running.exception()
        assert error is not None and "interrupted" in str(error), error
        assert waiting.cancelled()
