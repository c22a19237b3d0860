"""Issue 34 (reliability, round 4), item 15 and the Python entries of its "Unclear" list:
run_sharded refuses unbounded shard counts up front, stops its shards on Ctrl-C, does not retry
usage errors, and says what an executor returned; values are echoed as given."""

import concurrent.futures
import os
import signal
import threading

import pytest

import pathology

ARGV = ["mc", "dgame", "--height", "6", "--f1", "0.1", "--f2", "0.2", "--trials", "3000",
        "--seed", "5", "--threads", "1"]


class CountingExecutor(concurrent.futures.ThreadPoolExecutor):
    """A thread pool that keeps the futures it hands out."""

    def __init__(self, workers=1):
        super().__init__(workers)
        self.futures = []

    def submit(self, fn, *args, **kwargs):
        future = super().submit(fn, *args, **kwargs)
        self.futures.append(future)
        return future


def test_a_million_shards_are_refused_up_front_naming_the_argument():
    # Before: 10**6 shards ran past a minute with no estimate.
    with pytest.raises(ValueError, match=r"shards must be in 1\.\.=1000, got 1000000"):
        pathology.run_sharded(ARGV, shards=10**6)


def test_format_in_argv_is_refused_and_usage_errors_are_not_retried():
    # Before: --format in argv was retried twice, then reported as given twice.
    with CountingExecutor() as pool:
        with pytest.raises(ValueError, match="sets --format itself"):
            pathology.run_sharded(ARGV + ["--format", "csv"], shards=2, executor=pool)
        assert pool.futures == []
    bad = ["mc", "dgame", "--height", "0", "--f1", "0.1", "--f2", "0.2", "--trials", "100"]
    with CountingExecutor() as pool:
        with pytest.raises(ValueError, match="height") as raised:
            pathology.run_sharded(bad, shards=3, executor=pool)
        assert "failed twice" not in str(raised.value)
        # One submission per shard at most: a usage error is never submitted again.
        assert len(pool.futures) <= 3


class NumberExecutor(concurrent.futures.Executor):
    """An executor that returns 42 instead of running the function."""

    def submit(self, fn, *args, **kwargs):
        future = concurrent.futures.Future()
        future.set_result(42)
        return future

    def __repr__(self):
        return "NumberExecutor()"


def test_an_executor_returning_a_non_string_is_a_type_error_naming_it():
    # Before: a bare AttributeError ('int' object has no attribute 'encode').
    with pytest.raises(TypeError, match=r"NumberExecutor\(\) returned int 42 for shard [12]/2"):
        pathology.run_sharded(ARGV, shards=2, executor=NumberExecutor())


@pytest.fixture
def _python_handles_sigint():
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.usefixtures("_python_handles_sigint")
def test_ctrl_c_cancels_the_running_shard_of_a_thread_pool():
    # About 10^8 trials per shard: minutes on one thread, unless the shard is cancelled.
    # Before: Ctrl-C left the running shard to run out (the parent waited for it).
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


def test_a_value_is_echoed_as_given():
    # Before: gamma="1 --exact" was echoed as "got 1 exact" (the option's name inside the
    # value was renamed to its Python keyword).
    with pytest.raises(ValueError) as raised:
        pathology.run("decision", game="crit", height=4, gamma="1 --exact")
    assert "1 --exact" in str(raised.value), raised.value
