"""merge in Python's terms: the shards as Reports, as the texts they printed (JSON, or CSV with
its manifest) or as files; errors name a shard as ``shards[i]``, never a temporary file, never
the command line's usage text, and never echo a long text whole."""

import pytest

import pathology

ARGV = ["mc", "dgame", "--height", "4", "--f1", "0.1", "--f2", "0.2", "--trials", "200",
        "--threads", "1"]


def shards(n=2):
    return [pathology.run(ARGV + ["--shard", f"{k}/{n}"]) for k in range(1, n + 1)]


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


def test_merge_takes_the_json_texts_of_the_shards():
    single = pathology.run(ARGV)
    parts = shards()
    texts = [p.to_json() for p in parts]
    assert len(texts[0]) > 1000  # a text that must not be taken for a file name
    assert pathology.merge(texts) == single
    assert pathology.merge([t.encode("utf-8") for t in texts]) == single
    # Mixed with a Report and a file.
    assert pathology.merge([parts[0], texts[1]]) == single


def test_merge_takes_csv_texts_with_their_manifest(tmp_path):
    single = pathology.run(ARGV)
    texts = [p.to_csv(manifest="inline") for p in shards()]
    merged = pathology.merge(texts)
    assert merged.to_csv() == single.to_csv()
    path = tmp_path / "shard-2.csv"
    path.write_text(texts[1])
    assert pathology.merge([texts[0], path]).to_csv() == single.to_csv()


def test_a_text_that_does_not_merge_is_named_not_echoed():
    one, other = [p.to_json() for p in shards()]
    broken = one.replace('"rows"', '"rowz"', 1)
    with pytest.raises(ValueError) as error:
        pathology.merge([broken, other])
    message = str(error.value)
    assert "shards[0] (a report's text)" in message, message
    assert "pathology-merge-" not in message and len(message) < 1000, message


def test_a_long_string_that_is_neither_text_nor_file_is_refused_shortly():
    # One line of 3000 characters: no file of that name, and no report's text either.
    junk = "x" * 3000
    with pytest.raises(ValueError) as error:
        pathology.merge([junk])
    message = str(error.value)
    assert message.startswith("shards[0] is neither a report's text"), message
    assert "(3000 characters)" in message and len(message) < 300, message
