"""Make the golden corpus's saved sessions: random legal play from each example.

Run by hand (``python tests/golden/make_sessions.py``) to make new sessions; the
files it wrote are kept in ``tests/golden/sessions/`` and replayed by the golden test.
"""

from __future__ import annotations

import contextlib
import random
import sys
from pathlib import Path

import yaml

from fracas.engine.play import Engine
from fracas.errors import FracasError
from fracas.io.files import export, parse_text
from fracas.model import Action

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent / "sessions"


def _plain(value: object) -> object:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def session(example: Path, seed: int, steps: int) -> dict[str, object]:
    data = yaml.safe_load(example.read_text())
    data["actions"] = []
    data["seed"] = seed
    ef = parse_text(yaml.safe_dump(data), example.name)
    engine = Engine(ef.ruleset, ef.start, seed)
    engine.begin(ef.dice, ef.order)
    rng = random.Random(seed)
    for _ in range(steps):
        state = engine.state
        actor = state.turn.actor
        specs = [s for s in ef.ruleset.contract.actions if not s.required or s.choices]
        tries: list[Action] = []
        for spec in specs:
            params = {p: rng.choice(spec.choices[p]) for p in spec.required if p in spec.choices}
            if spec.targets == "none":
                tries.append(Action(actor, spec.name, params=params))
            else:
                tries += [Action(actor, spec.name, c, params=params) for c in state.combatants]
        rng.shuffle(tries)
        tries.append(Action(actor, "end_turn"))
        for action in tries:
            try:
                engine.act(action)
                break
            except FracasError:
                continue
        if rng.random() < 0.1 and any(r.kind == "action" for r in engine.log):
            with contextlib.suppress(FracasError):
                engine.undo()
    out = export(ef, [engine.log[0], *engine.effective], engine.state.order)
    out["seed"] = 0  # every die is written; a fixed seed keeps `--json` the same
    plain = _plain(out)
    assert isinstance(plain, dict)
    return plain


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for example in sorted((ROOT / "examples").glob("*.yaml")):
        for seed in (1, 2, 3):
            data = session(example, seed, 40)
            path = OUT / f"{example.stem}-{seed}.yaml"
            path.write_text(yaml.safe_dump(data, sort_keys=False, width=100))
            print(path.name, file=sys.stderr)


if __name__ == "__main__":
    main()
