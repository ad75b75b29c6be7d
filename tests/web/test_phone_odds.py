"""Phone-first odds (issue 22, item 1) in Debian's Chromium on a touch phone (390x844,
``has_touch``, ``is_mobile``): a player taps an action and a target, reads the exact
odds written out on the page (every damage value's chance, the tail bucket, the mean;
the exact fractions behind "Exact figures") and only then confirms; the stored action
is the confirmed one, never the first tap. A mouse's click still acts at once. In
tier-duel the preview shows the attacker's own risk (the contest's winner deals the
damage, TD-3)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from fracas.model import Action
from tests.web.test_browser import NEEDS_CHROMIUM, SHOTS, Server

pytestmark = NEEDS_CHROMIUM
ROOT = Path(__file__).parents[2]
# The choice being made, read from the page's one state (ES modules: no globals).
CHOSEN = (
    "async () => { const { store } = await import('/static/state.js');"
    " return store.chosen && store.chosen.do; }"
)
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


def _last(server: Server) -> Action:
    """The action of the table's latest record."""
    action = server.table.log[-1].action
    assert action is not None
    return action


def _phone(server: Server, browser: Any, token: str) -> Any:
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{server.base}/t/{token}")
    page.wait_for_selector("#order li", state="attached")  # folded on a phone (folds.js)
    return page


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


def _fraction(f: Fraction) -> str:
    """An exact chance as the page's "Exact figures" give it: the fraction, or past 12
    digits its decimal to 6 places (rounded half up)."""
    text = f"{f.numerator}/{f.denominator}"
    if len(str(f.numerator)) + len(str(f.denominator)) <= 12:
        return text
    scaled = (f.numerator * 2_000_000 + f.denominator) // (2 * f.denominator)
    return f"≈ {scaled // 1_000_000}.{scaled % 1_000_000:06d}"


def _words(odds: dict[str, Any], cid: str) -> list[tuple[str, float, str]]:
    """One creature's damage chances as the page lists them: (value or "≥ N" tail,
    chance, its exact figure; the tail's: its summed fraction)."""
    exact = odds["exact"]["combatants"][cid]["damage"]
    items = sorted(((int(d), Fraction(f)) for d, f in exact.items()), key=lambda x: x[0])
    keep = items[:15] if len(items) > 16 else items
    words = [(str(d), float(f), _fraction(f)) for d, f in keep]
    if len(items) > len(keep):
        rest = items[len(keep) :]
        mass = sum((f for _, f in rest), Fraction(0))
        words.append((f"≥ {rest[0][0]}", float(mass), _fraction(mass)))
    return words


def _read(box: Any) -> list[tuple[str, float, str]]:
    """The page's list back, each value's chance ("4: 4.3%") with its exact figure from
    the "Exact figures" (closed: "4: 17/400") -> ("4", 0.043, "17/400")."""
    chances = box.locator("ul.dist").first.locator("li").all_inner_texts()
    figures = box.locator("ul.exact-figures").first.locator("li[data-label]").all_text_contents()
    out = []
    for item, figure in zip(chances, figures, strict=True):
        value, pct = item.split(": ", 1)
        label, fraction = figure.split(": ", 1)
        assert label == value and "/" not in pct, (item, figure)
        out.append((value, float(pct.rstrip("%")) / 100, fraction))
    return out


def _same(box: Any, odds: dict[str, Any], cid: str) -> None:
    """The page's list is every value's exact chance (its percentage to one decimal),
    its fraction only behind the closed "Exact figures"."""
    got, want = _read(box), _words(odds, cid)
    assert [(v, f) for v, _, f in got] == [(v, f) for v, _, f in want]
    for (_, shown, _), (v, p, _) in zip(got, want, strict=True):
        assert abs(shown - p) <= 0.0005 + 1e-12, (v, shown, p)
    assert box.locator("details.exact").first.get_attribute("open") is None  # closed


def test_a_tap_previews_the_exact_odds_and_only_the_confirm_acts(
    server: Server, browser: Any
) -> None:
    pat = _phone(server, browser, server.ana)
    seq = server.table.seq
    pat.get_by_role("button", name="Attack", exact=True).tap()
    pat.get_by_role("button", name="Attack Bo").tap()
    pat.wait_for_selector("#odds .odds-line")
    confirm = pat.locator("#confirm-go")
    assert confirm.is_visible() and confirm.inner_text() == "Confirm: Attack Bo"
    odds = server.table.odds(Action("ana", "attack", "bo")).to_json()
    bo = odds["combatants"]["bo"]
    line = pat.locator("#odds .odds-line").first.inner_text()
    assert line == f"hit {_pct(bo['hit'])} · mean damage {bo['mean']:.2f}"  # no down: HP hidden
    _same(pat.locator("#odds"), odds, "bo")
    assert sum(Fraction(v) for v in odds["exact"]["combatants"]["bo"]["damage"].values()) == 1
    SHOTS.mkdir(exist_ok=True)
    pat.screenshot(path=str(SHOTS / "phone-preview.png"), full_page=True)
    assert server.table.seq == seq  # the tap sent nothing
    confirm.tap()
    pat.wait_for_function(f"Number(document.body.dataset.seq) > {seq}")  # the record shown
    record = server.table.log[-1]
    assert server.table.seq == seq + 1 and record.by == "Pat"
    assert _last(server).do == "attack" and _last(server).target == "bo"
    assert server.table.state.get("bo").hp == 8  # seed 5: Ana hits Bo, 12 -> 8
    pat.locator("#confirm-box").wait_for(state="hidden")
    width = pat.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"


def test_the_stored_action_is_the_confirmed_one_and_a_parameter_updates_the_preview(
    server: Server, browser: Any
) -> None:
    pat = _phone(server, browser, server.ana)
    seq = server.table.seq
    pat.get_by_role("button", name="Attack", exact=True).tap()
    targets = pat.locator("#actions .targets button").all_inner_texts()
    assert targets[:1] == ["Attack Bo"] and len(targets) >= 2, targets
    other = targets[1].removeprefix("Attack ")
    pat.get_by_role("button", name="Attack Bo").tap()
    pat.wait_for_selector("#odds .odds-line")
    pat.get_by_role("button", name=targets[1]).tap()  # a second tap: another target
    pat.wait_for_function(
        f"document.getElementById('confirm-go').innerText === 'Confirm: {targets[1]}'"
    )
    pat.wait_for_function(f"document.getElementById('odds').innerText.includes('{other}:')")
    assert server.table.seq == seq
    cid = next(c.id for c in server.table.state.combatants.values() if c.name == other)
    pat.locator("#confirm-go").tap()
    pat.wait_for_function(f"Number(document.body.dataset.seq) > {seq}")  # the record shown
    assert _last(server).target == cid  # the confirmed, not the first tap


def test_a_mouse_click_still_acts_at_once(server: Server, browser: Any) -> None:
    pat = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    pat.goto(f"{server.base}/t/{server.ana}")
    pat.wait_for_selector("#order li")
    seq = server.table.seq
    pat.get_by_role("button", name="Attack", exact=True).click()
    pat.get_by_role("button", name="Attack Bo").click()
    pat.wait_for_function(f"Number(document.body.dataset.seq) > {seq}")  # the record shown
    assert _last(server).target == "bo"
    assert pat.locator("#confirm-box").is_hidden()


def test_tier_duel_previews_the_attackers_own_risk(tmp_path: Path, browser: Any) -> None:
    text = (ROOT / "examples" / "tier-duel.yaml").read_text().split("actions:")[0]
    server = Server(tmp_path, text)
    try:
        gm = _phone(server, browser, server.gm)
        actor = server.table.state.turn.actor
        gm.get_by_role("button", name="Attack", exact=True).first.tap()
        first = gm.locator("#actions .targets button").first
        target_name = first.inner_text().removeprefix("Attack ")
        first.tap()
        gm.wait_for_selector("#odds .blast-odds")
        cid = next(c.id for c in server.table.state.combatants.values() if c.name == target_name)
        odds = server.table.odds(Action(actor, "attack", cid)).to_json()
        mine = odds["combatants"][actor]
        block = gm.locator(f'#odds .blast-odds[data-id="{actor}"]')
        name = server.table.state.get(actor).name
        assert block.locator("strong").inner_text() == f"{name}'s own risk"
        assert f"hit {_pct(mine['hit'])} · mean damage {mine['mean']:.2f}" in block.inner_text()
        _same(block, odds, actor)
        gm.screenshot(path=str(SHOTS / "phone-preview-tier-duel.png"), full_page=True)
    finally:
        server.stop()


def test_tapping_a_tile_previews_every_creature_in_the_blast(tmp_path: Path, browser: Any) -> None:
    # DC-24, DC-27, DC-31: a Molotov aimed at a tile by a tap; the preview lists every
    # creature it may reach ( `fracas odds`'s numbers), and only Confirm throws it.
    from tests.web.test_browser import MOLOTOV, tile_point

    server = Server(tmp_path, MOLOTOV)
    try:
        gm = _phone(server, browser, server.gm)
        seq = server.table.seq
        gm.get_by_role("button", name="Throw", exact=True).tap()
        gm.wait_for_selector("#map.aiming")
        gm.touchscreen.tap(*tile_point(gm, 2, 3))
        gm.wait_for_selector("#odds .blast-odds")
        expected = server.table.odds(Action("bo", "throw", at=(2, 3))).to_json()
        blocks = gm.locator("#odds .blast-odds")
        assert [b.get_attribute("data-id") for b in blocks.all()] == list(expected["combatants"])
        assert gm.locator("#confirm-go").inner_text() == "Confirm: Throw at 2, 3"
        for block in blocks.all():
            cid = block.get_attribute("data-id")
            _same(block, expected, cid)
        gm.screenshot(path=str(SHOTS / "phone-preview-blast.png"), full_page=True)
        assert server.table.seq == seq
        gm.locator("#confirm-go").tap()
        gm.wait_for_function(f"Number(document.body.dataset.seq) > {seq}")
        assert _last(server).at == (2, 3)
    finally:
        server.stop()


def test_changing_a_parameter_updates_the_open_preview(server: Server, browser: Any) -> None:
    gm = _phone(server, browser, server.gm)
    gm.get_by_role("button", name="Attack", exact=True).first.tap()
    gm.get_by_role("button", name="Attack Bo").tap()
    gm.wait_for_selector("#odds .odds-line")
    plain = server.table.odds(Action("ana", "attack", "bo")).to_json()["combatants"]["bo"]
    edged = server.table.odds(Action("ana", "attack", "bo", params={"edge": "advantage"})).to_json()
    bo = edged["combatants"]["bo"]
    assert bo["hit"] != plain["hit"]  # the switch changes the odds
    gm.locator("#actions select[aria-label=edge]").select_option("advantage")
    # the game master sees Bo's HP: the chance of going down too
    want = f"hit {_pct(bo['hit'])} · mean damage {bo['mean']:.2f} · down {_pct(bo['down'])}"
    gm.wait_for_function(
        f"(document.querySelector('#odds .odds-line') || {{}}).innerText === '{want}'"
    )
    _same(gm.locator("#odds"), edged, "bo")
    assert gm.locator("#confirm-go").is_visible() and server.table.seq == 1
    gm.locator("#confirm-go").tap()
    gm.wait_for_function("document.getElementById('log').innerText.includes('Ana attacks Bo')")
    assert _last(server).params.get("edge") == "advantage"


def test_a_late_answer_to_an_earlier_change_leaves_the_choice_made_since_open(
    server: Server, browser: Any
) -> None:
    """A drag's ``done`` may come after the table's news of it: the player has chosen
    Attack and tapped a target by then. That answer ends nothing but the change it
    answers (before, it closed the choice and its preview, and the next tap found no
    target: the play-through's flake)."""
    pat = _phone(server, browser, server.ana)
    pat.get_by_role("button", name="Attack", exact=True).tap()
    pat.get_by_role("button", name="Attack Bo").tap()
    pat.wait_for_selector("#odds .odds-line")
    pat.evaluate(
        "async () => (await import('/static/app.bundle.js'))"
        ".handle({type: 'done', id: 9999, seq: Number(document.body.dataset.seq)})"
    )
    assert pat.evaluate(CHOSEN) == "attack"
    assert pat.locator("#confirm-go").is_visible()
    assert pat.get_by_role("button", name="Attack Bo", exact=True).is_visible()
    seq = server.table.seq
    pat.locator("#confirm-go").tap()  # its own answer ends the choice
    pat.locator("#confirm-box").wait_for(state="hidden")
    pat.wait_for_function("!document.querySelector('#actions button[aria-pressed=true]')")
    assert pat.evaluate(CHOSEN) is None
    assert server.table.seq == seq + 1 and _last(server).target == "bo"


def test_a_redraw_with_nothing_new_keeps_the_buttons_under_the_finger(
    server: Server, browser: Any
) -> None:
    """A redraw that shows nothing new (a change's answer after the table's news of it)
    keeps the very action buttons: before, it built them again, and a tap whose
    touchstart found the old button had no click (the play-through's lost tap)."""
    pat = _phone(server, browser, server.ana)
    same = pat.evaluate(
        """async () => { const { render, handle } = await import('/static/app.bundle.js');
        const b = [...document.querySelectorAll('#actions button')];
        render(); handle({type: 'done', id: 9999, seq: Number(document.body.dataset.seq)});
        const a = [...document.querySelectorAll('#actions button')];
        return b.length > 0 && a.length === b.length && a.every((x, i) => x === b[i]); }"""
    )
    assert same
    pat.get_by_role("button", name="Attack", exact=True).tap()  # a new choice: built anew
    pat.get_by_role("button", name="Attack Bo", exact=True).wait_for()
