"""Charts of the lab's results (matplotlib, the optional extra ``fracas[plot]``).

Each takes the JSON-shaped result a command prints and writes a PNG or SVG file
(by its suffix), titled and labelled to be read without the docs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fracas.errors import FracasError

__all__ = ["compare_plot", "sim_plot", "sweep_plot"]


def _pyplot(path: str) -> Any:
    if Path(path).suffix.lower() not in (".png", ".svg"):
        raise FracasError("bad_value", f"--plot {path!r}: give a .png or .svg file name")
    try:
        import matplotlib
    except ImportError:
        raise FracasError(
            "missing_dependency",
            "plots need matplotlib: pip install 'fracas[plot]' (or pip install matplotlib)",
        ) from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def compare_plot(result: dict[str, Any], path: str) -> None:
    """Each side's win chance under each variant, with 95% intervals where sampled."""
    plt = _pyplot(path)
    variants = result["variants"]
    sides = list(variants[0]["sides"])
    fig, ax = plt.subplots(figsize=(7, 4.2))
    width = 0.8 / max(1, len(variants))
    for i, v in enumerate(variants):
        xs = [k + (i - (len(variants) - 1) / 2) * width for k in range(len(sides))]
        wins = [v["sides"].get(s, {"win": 0.0})["win"] * 100 for s in sides]
        errs = [
            [
                max(0.0, w - v["sides"][s]["ci95"][0] * 100) if s in v["sides"] else 0.0
                for s, w in zip(sides, wins, strict=True)
            ],
            [
                max(0.0, v["sides"][s]["ci95"][1] * 100 - w) if s in v["sides"] else 0.0
                for s, w in zip(sides, wins, strict=True)
            ],
        ]
        bars = ax.bar(xs, wins, width, yerr=errs, capsize=4, label=f"{v['label']} ({v['method']})")
        ax.bar_label(bars, fmt="%.1f%%", padding=2, fontsize=8)
    ax.set_xticks(range(len(sides)), sides)
    ax.set_xlabel("side")
    ax.set_ylabel("chance to win the fight (%)")
    ax.set_ylim(0, 105)
    ax.set_title("Who wins under each rule variant")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def sim_plot(result: dict[str, Any], path: str) -> None:
    """Win rates with 95% intervals, the rounds histogram, and the mean damage dealt
    and taken per combatant."""
    plt = _pyplot(path)
    fig, (wins_ax, rounds_ax, dmg_ax) = plt.subplots(1, 3, figsize=(13, 4.2))
    sides = list(result["sides"])
    wins = [result["sides"][s]["win"] * 100 for s in sides]
    lo = [
        max(0.0, w - result["sides"][s]["ci95"][0] * 100) for s, w in zip(sides, wins, strict=True)
    ]
    hi = [
        max(0.0, result["sides"][s]["ci95"][1] * 100 - w) for s, w in zip(sides, wins, strict=True)
    ]
    bars = wins_ax.bar(sides, wins, yerr=[lo, hi], capsize=5, color="tab:blue")
    wins_ax.bar_label(bars, fmt="%.1f%%", padding=2, fontsize=8)
    wins_ax.set_ylim(0, 105)
    wins_ax.set_xlabel("side")
    wins_ax.set_ylabel("fights won (%), 95% interval")
    wins_ax.set_title(f"Win rate over {result['n']:,} fights")
    hist = result["rounds"]["histogram"]
    rounds_ax.bar([int(r) for r in hist], list(hist.values()), color="tab:gray")
    rounds_ax.set_xlabel("rounds the fight lasted")
    rounds_ax.set_ylabel("fights")
    rounds_ax.set_title(f"Fight length (mean {result['rounds']['mean']:.2f} rounds)")
    people = result["combatants"]
    names = [c["name"] for c in people.values()]
    xs = range(len(names))
    dmg_ax.bar(
        [x - 0.2 for x in xs], [c["damage_dealt"] for c in people.values()], 0.4, label="dealt"
    )
    dmg_ax.bar(
        [x + 0.2 for x in xs], [c["damage_taken"] for c in people.values()], 0.4, label="taken"
    )
    dmg_ax.set_xticks(list(xs), names)
    dmg_ax.set_xlabel("combatant")
    dmg_ax.set_ylabel("HP of damage per fight (mean)")
    dmg_ax.set_title("Damage dealt and taken")
    dmg_ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def sweep_plot(result: dict[str, Any], field: str, path: str) -> None:
    """Each side's win chance as ``field`` runs over its values (95% bands where
    sampled)."""
    plt = _pyplot(path)
    variants = result["variants"]
    xs = [int(v["label"].rpartition("=")[2]) for v in variants]
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for side in variants[0]["sides"]:
        ys = [v["sides"][side]["win"] * 100 for v in variants]
        lo = [v["sides"][side]["ci95"][0] * 100 for v in variants]
        hi = [v["sides"][side]["ci95"][1] * 100 for v in variants]
        ax.plot(xs, ys, marker="o", label=side)
        ax.fill_between(xs, lo, hi, alpha=0.2)
    ax.set_xlabel(field)
    ax.set_ylabel("chance to win the fight (%)")
    ax.set_ylim(0, 105)
    ax.set_title(f"Who wins as {field} changes")
    ax.legend(title="side", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
