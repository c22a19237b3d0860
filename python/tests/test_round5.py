"""Issue 43 item 12: the Python errors of run_sharded and merge say what is wrong in Python's
terms (an argument, a shard), never an AttributeError, the command line's usage text or a
temporary file's name."""

import pytest

import pathology

ARGV = ["mc", "dgame", "--height", "4", "--f1", "0.1", "--f2", "0.2", "--trials", "200",
        "--threads", "1"]


def test_run_sharded_names_an_executor_that_is_not_one():
    with pytest.raises(TypeError, match=r"executor must be a concurrent\.futures\.Executor.*int 5"):
        pathology.run_sharded(ARGV, shards=2, executor=5)


def test_merge_of_nothing_says_so():
    with pytest.raises(ValueError, match="at least one; got none") as error:
        pathology.merge([])
    assert "<FILES>" not in str(error.value)


def test_merge_errors_name_the_shards_not_temporary_files():
    one = pathology.run(ARGV + ["--shard", "1/2"])
    other = pathology.run(["mc", "dgame", "--height", "5", "--f1", "0.1", "--f2", "0.2",
                           "--trials", "200", "--threads", "1", "--shard", "2/2"])
    with pytest.raises(ValueError) as error:
        pathology.merge([one, other])
    message = str(error.value)
    assert "pathology-merge-" not in message, message
    assert "shards[" in message, message
