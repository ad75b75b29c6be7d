"""``--plot``: a chart file a designer can read (matplotlib, the extra fracas[plot])."""

from __future__ import annotations

from pathlib import Path

import pytest

from fracas.errors import FracasError
from fracas.lab.compare import compare, sweep, with_options
from fracas.lab.plots import compare_plot, sim_plot, sweep_plot
from fracas.lab.sim import simulate
from tests.lab.test_compare import SMG


def test_sim_and_compare_plots(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    sim = simulate(SMG, "smg", 250, seed=1).to_json()
    png = tmp_path / "sim.png"
    sim_plot(sim, str(png))
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    result = compare(
        [with_options(SMG, "smg", "revision=A"), with_options(SMG, "smg", "revision=B")]
    )
    svg = tmp_path / "compare.svg"
    compare_plot(result, str(svg))
    text = svg.read_text()
    assert "<svg" in text and "Who wins under each rule variant" in text
    curve = tmp_path / "sweep.svg"
    sweep_plot(compare(sweep(SMG, "smg", "bo.hp=4..6")), "bo.hp", str(curve))
    assert "Who wins as bo.hp changes" in curve.read_text()


def test_plot_suffix_refused(tmp_path: Path) -> None:
    with pytest.raises(FracasError) as err:
        sim_plot({}, str(tmp_path / "x.jpg"))
    assert err.value.code == "bad_value" and ".png or .svg" in err.value.message
