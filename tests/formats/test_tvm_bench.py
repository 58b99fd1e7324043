"""tvm-bench: TVM's apps/benchmark imagenet report (own networks and numbers)."""

import pytest

from tests.formats.golden import rows_of, text_of


@pytest.mark.parametrize("damage", ["flattened", "gitbox"])
def test_mail_damage_reads_the_same(damage):
    clean = [{**r, "variant": None} for r in rows_of(text_of("tvm-bench--imagenet"))]
    got = [{**r, "variant": None} for r in rows_of(text_of(f"tvm-bench--imagenet-{damage}"))]
    assert got == clean


def test_rows():
    got = {(r["label"], r["metric"]): (r["value"], r["unit"]) for r in
           rows_of(text_of("tvm-bench--imagenet"))}  # fmt: skip
    assert got[("vgg-16", "Mean Inference Time")] == (6.47, "ms")
    assert got[("mobilenet", "std dev")] == (0.01, "ms")
    assert {r["variant"] for r in rows_of(text_of("tvm-bench--imagenet"))} == {
        "Results on the new driver"
    }
