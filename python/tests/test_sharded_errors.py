"""The refusals and errors of run_sharded, in Python's terms: shard counts refused up front,
usage errors raised once and never retried, an executor that is not one or that returns
something other than a shard's output named."""

import concurrent.futures

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
    # A shard count without bound would run for ever before any estimate.
    with pytest.raises(ValueError, match=r"shards must be in 1\.\.=1000, got 1000000"):
        pathology.run_sharded(ARGV, shards=10**6)


def test_format_in_argv_is_refused_and_usage_errors_are_not_retried():
    # run_sharded sets --format itself: one given in argv is refused before any submission.
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
    # Not a bare AttributeError ('int' object has no attribute 'encode').
    with pytest.raises(TypeError, match=r"NumberExecutor\(\) returned int 42 for shard [12]/2"):
        pathology.run_sharded(ARGV, shards=2, executor=NumberExecutor())


def test_run_sharded_names_an_executor_that_is_not_one():
    with pytest.raises(TypeError, match=r"executor must be a concurrent\.futures\.Executor.*int 5"):
        pathology.run_sharded(ARGV, shards=2, executor=5)
