"""run_sharded: the shards of a Monte Carlo command on an executor, merged.
The merged report equals the single run's, byte for byte, whatever runs the shards."""

import concurrent.futures

import pytest

import pathology

ARGV = ["mc", "dgame", "--height", "6", "--f1", "0.1", "--f2", "0.2", "--trials", "3000",
        "--seed", "5", "--threads", "1"]


@pytest.fixture(scope="module")
def single():
    return pathology.run(ARGV)


def test_a_process_pool_by_default(single):
    merged = pathology.run_sharded(ARGV, shards=3)
    assert merged == single
    assert merged.to_csv() == single.to_csv()


def test_keyword_options_and_a_thread_pool(single):
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        merged = pathology.run_sharded(
            ["mc", "dgame"], shards=4, executor=pool, height=6, f1=0.1, f2=0.2,
            trials=3000, seed=5, threads=1,
        )
    assert merged == single


class FlakyExecutor(concurrent.futures.ThreadPoolExecutor):
    """Fails the first `failures` submissions of shard `k`."""

    def __init__(self, k, failures):
        super().__init__(2)
        self.k, self.left = k, failures

    def submit(self, fn, *args, **kwargs):
        if args[1] == self.k and self.left > 0:
            self.left -= 1
            future = concurrent.futures.Future()
            future.set_exception(OSError(f"worker lost while running shard {self.k}"))
            return future
        return super().submit(fn, *args, **kwargs)


def test_a_failed_shard_is_retried_once(single):
    with FlakyExecutor(k=2, failures=1) as pool:
        assert pathology.run_sharded(ARGV, shards=3, executor=pool) == single


def test_a_shard_that_fails_twice_is_named():
    with FlakyExecutor(k=2, failures=2) as pool:
        with pytest.raises(RuntimeError, match=r"shard 2/3 of 'pathology mc dgame .*' failed twice: worker lost"):
            pathology.run_sharded(ARGV, shards=3, executor=pool)


def test_bad_requests():
    """Shard counts outside 1..=1000, argv without --shard or with its own, a float."""
    with pytest.raises(ValueError, match=r"shards must be in 1\.\.=1000, got 0"):
        pathology.run_sharded(ARGV, shards=0)
    with pytest.raises(ValueError, match="no --shard option"):
        pathology.run_sharded(["table", "1"], shards=2)
    with pytest.raises(ValueError, match="sets --shard itself"):
        pathology.run_sharded(ARGV + ["--shard", "1/2"], shards=2)
    with pytest.raises(TypeError, match="shards must be an int"):
        pathology.run_sharded(ARGV, shards=2.0)


def test_a_dask_cluster_of_two_workers(single):
    distributed = pytest.importorskip(
        "distributed", reason="dask.distributed is not installed (pip install 'dask[distributed]')"
    )
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster, distributed.Client(cluster) as client:
        merged = pathology.run_sharded(ARGV, shards=4, executor=client.get_executor())
    assert merged == single
    assert merged.to_json() == single.to_json()
