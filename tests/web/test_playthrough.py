"""Issue 22, Tests: each of the five examples played from round 1 to the winner's banner
in Debian's Chromium by a game master (1280x800, a mouse and keys) and two players on
touch phones (390x844, ``has_touch``, ``is_mobile``), by the pages' controls alone:
every change of the table is a click, a tap, a key or a typed field on a page, never
``Table.submit``; the table is read only to check what was stored and to choose what
to press. The game master makes the players' links on its page; along the way it adds a
combatant (a copy of an enemy), reorders the initiative by keys, sets a condition with
a duration, takes HP off a player's token and heals it by quick HP, and rolls a secret
roll; a player drags its own token on the map; the players tap an attack and a target,
read the exact odds in the preview and only then tap Confirm. After a few real attacks
the game master finishes the enemies by quick HP, and every page shows who won. Then
(issue 12, Tests: a fight of every ruleset through the page) each page's log is the
table's, line by line, as that person may see it, and the game master's order shows
every combatant's HP as the table holds it."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from fracas.model import NO_ACTOR, Action, Combatant, Encounter
from fracas.rulesets.base import is_down
from fracas.table import Identity, View
from fracas.web.shown import page_lines
from fracas.words.render import outcome_words
from tests.web.test_browser import NEEDS_CHROMIUM, SHOTS, Server, _centre_of, synced
from tests.web.test_people_words import _plain as plain_words
from tests.web.test_people_words import _shown as shown_words

pytestmark = NEEDS_CHROMIUM
START = Path(__file__).parents[2] / "examples" / "start"
EXAMPLES = sorted(p.stem for p in START.glob("*.yaml"))
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
NEW = "reinforcement"  # the id the page makes of the added copy's name, "Reinforcement"
ROLL = "1d20+3"


def test_the_five_examples_are_the_ones_played() -> None:
    assert EXAMPLES == ["dice-combat", "escalation", "soak", "tier-duel", "wasteland"]


class Session:
    """The three pages of one served example and the waits between their changes."""

    def __init__(self, server: Server, gm: Any) -> None:
        self.server = server
        self.gm = gm
        self.players: dict[str, Any] = {}  # combatant id -> its player's page
        self.names: dict[str, str] = {}  # combatant id -> its player's name

    @property
    def state(self) -> Encounter:
        return self.server.table.state

    @property
    def pages(self) -> list[Any]:
        return [self.gm, *self.players.values()]

    def stored(self, seq: int, page: Any) -> None:
        """Wait until the table holds a record after ``seq`` (the change ``page`` sent),
        then until every page shows the table's latest record."""
        deadline = time.monotonic() + 10
        while self.server.table.seq <= seq:
            if time.monotonic() > deadline:
                notice = page.locator("#notice").inner_text()
                raise AssertionError(f"nothing stored after #{seq}; the page says {notice!r}")
            time.sleep(0.02)
        self.sync()

    def sync(self) -> None:
        for page in self.pages:
            synced(page, self.server.table.seq)

    def change(self, page: Any, press: Callable[[], None]) -> Any:
        """``press`` a control on ``page``: one record stored; returns it."""
        seq = self.server.table.seq
        press()
        self.stored(seq, page)
        assert self.server.table.seq == seq + 1
        return self.server.table.log[-1]


def _enemies_of(state: Encounter, side: str, ruleset: Any) -> list[Combatant]:
    return [
        state.get(cid)
        for cid in state.order
        if state.get(cid).side != side and not is_down(ruleset, state.get(cid))
    ]


def _map_size(state: Encounter) -> tuple[int, int]:
    """The tiles the page draws (app.js renderMap): at least 8x6, a tile past each token."""
    placed = [c.at for c in state.combatants.values() if c.at is not None]
    return max([8] + [x + 2 for x, _ in placed]), max([6] + [y + 2 for _, y in placed])


def _chebyshev(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))  # every example's metric


def _free_tiles(state: Encounter) -> list[tuple[int, int]]:
    w, h = _map_size(state)
    taken = {c.at for c in state.combatants.values()}
    return [(x, y) for y in range(h) for x in range(w) if (x, y) not in taken]


def _step_toward(state: Encounter, me: Combatant, goal: Combatant, reach: int) -> tuple[int, int]:
    """The free tile within ``reach`` of ``me`` nearest to ``goal`` (then nearest to me)."""
    assert me.at is not None and goal.at is not None
    near = [t for t in _free_tiles(state) if 1 <= _chebyshev(me.at, t) <= reach]
    here, there = me.at, goal.at
    return min(near, key=lambda t: (_chebyshev(t, there), _chebyshev(t, here), t[1], t[0]))


def _touch_drag(page: Any, start: tuple[float, float], end: tuple[float, float]) -> None:
    """A finger's drag (touch events through the DevTools protocol: Playwright has only
    taps), from ``start`` to ``end`` in page pixels."""
    cdp = page.context.new_cdp_session(page)
    try:
        x0, y0 = start
        x1, y1 = end
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]}
        )
        for i in range(1, 9):
            x, y = x0 + (x1 - x0) * i / 8, y0 + (y1 - y0) * i / 8
            cdp.send(
                "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
            )
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    finally:
        cdp.detach()


@pytest.fixture(params=EXAMPLES)
def example(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@pytest.fixture
def server(tmp_path: Path, example: str) -> Iterator[Server]:
    s = Server(tmp_path, (START / f"{example}.yaml").read_text())
    yield s
    s.stop()


def test_a_game_master_and_two_phones_play_the_example_to_the_winners_banner(
    server: Server, browser: Any, example: str
) -> None:
    started = time.monotonic()
    table, ruleset = server.table, server.table.ruleset
    state = table.state
    assert (state.round, state.turn.actor, table.seq) == (1, state.order[0], 1)  # round 1
    side = state.get(state.order[0]).side  # the players' side acts first in every example
    p1, p2 = [cid for cid in state.order if state.get(cid).side == side]
    gm = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    gm.goto(f"{server.base}/t/{server.gm}")
    gm.wait_for_selector("#roster li")
    s = Session(server, gm)

    # the game master makes the two players' links on its page and sends the addresses
    for cid, player in ((p1, "Kim"), (p2, "Lee")):
        gm.fill("#link-name", player)
        gm.locator("#link-owns label", has_text=state.get(cid).name).locator("input").check()
        count = gm.locator("#links .link-address").count()
        gm.locator("#new-link button[type=submit]").click()
        gm.wait_for_function(
            f"document.querySelectorAll('#links .link-address').length === {count + 1}"
        )
        url = gm.locator("#links .link-address").last.input_value()
        link = next(k for k in server.links.of("fight") if k.name == player)
        assert url == f"{server.base}/t/{link.token}" and link.owns == [cid]
        phone = browser.new_context(**PHONE).new_page()
        phone.goto(url)
        phone.wait_for_selector("#order li", state="attached")  # folded on a phone (folds.js)
        phone.locator("#map-box > h2 > button.fold").tap()  # the map unfolded: tokens to drag
        s.players[cid], s.names[cid] = phone, player
    s.sync()
    for page in s.pages:
        assert page.locator("#turn").inner_text().startswith("Round 1: ")
        assert page.locator("#outcome").is_hidden()

    # --- the game master adds a copy of the first enemy and moves it up the order ----
    foe = _enemies_of(state, side, ruleset)[0]
    foe_at = foe.at
    assert foe_at is not None
    tokens = [c.at for c in state.combatants.values() if c.at is not None]
    clear = [t for t in _free_tiles(state) if all(_chebyshev(t, at) >= 2 for at in tokens)]
    tile = min(clear, key=lambda t: (_chebyshev(t, foe_at), t[1], t[0]))  # near, not touching
    before = list(state.order)
    gm.select_option("#add-copy", foe.id)
    gm.fill("#add-name", "Reinforcement")
    gm.fill("#add-at", f"{tile[0]}, {tile[1]}")
    record = s.change(gm, lambda: gm.get_by_role("button", name="Add to the fight").click())
    assert record.action is not None and (record.action.do, record.by) == ("add", None)
    new = s.state.get(NEW)
    assert (new.name, new.side, new.at, new.hp, new.max_hp, dict(new.statuses)) == (
        "Reinforcement",
        foe.side,
        tile,
        foe.max_hp,
        foe.max_hp,
        {},
    )
    assert list(s.state.order) == [*before, NEW]
    for page in s.pages:
        page.wait_for_selector(f'.token[data-id="{NEW}"]')

    gm.locator(f'#roster li[data-id="{NEW}"]').focus()
    record = s.change(gm, lambda: gm.keyboard.press("Alt+ArrowUp"))
    assert record.action is not None and record.action.do == "initiative"
    assert list(s.state.order) == [*before[:-1], NEW, before[-1]]
    assert s.state.turn.actor == p1  # a new order, the same turn
    gm.wait_for_selector(f'#roster li:nth-last-child(2)[data-id="{NEW}"]')

    # the game master's steps still to come, one in each of the enemies' turns
    def condition() -> None:
        # a status from the ruleset's list that lasts some turns (dice-combat's burning,
        # DC-29), else a free-form mark of the game master's with its turns
        lasting = [x for x in ruleset.contract.statuses if "turns" in x.details]
        name, turns = (lasting[0].name, 3) if lasting else ("marked", 2)
        _pick(gm, s.state.get(foe.id).name, foe.id)
        gm.select_option("#cond-name", name if lasting else "")
        if not lasting:
            gm.fill("#cond-free", name)
        gm.fill("#cond-turns", str(turns))
        record = s.change(gm, lambda: gm.get_by_role("button", name="Set condition").click())
        assert record.action is not None and record.action.do == "status"
        want = ruleset.contract.check_status(name, {"turns": turns})
        assert dict(s.state.get(foe.id).statuses[name]) == want and want["turns"] == turns
        badges = gm.locator(f'.token[data-id="{foe.id}"] .badge').all_text_contents()
        assert f"{name.replace('_', ' ')} {turns}" in badges, badges  # its turns on the map

    def quick_hp() -> None:
        # a trap takes 4 HP off the first player's token; the game master heals 3 back
        c = s.state.get(p1)
        _pick(gm, c.name, p1)
        assert gm.evaluate("document.activeElement.id") == "quick-hp"
        gm.keyboard.type("-4")
        s.change(gm, lambda: gm.keyboard.press("Enter"))
        assert s.state.get(p1).hp == c.hp - 4
        gm.fill("#quick-hp", "+3")
        record = s.change(gm, lambda: gm.press("#quick-hp", "Enter"))
        assert record.action is not None and (record.action.do, record.action.params["amount"]) == (
            "heal",
            3,
        )
        assert s.state.get(p1).hp == c.hp - 1
        s.players[p1].wait_for_function(
            f"document.querySelector('#order').innerText.includes('HP {c.hp - 1}/{c.max_hp}')"
        )

    def secret_roll() -> None:
        gm.fill("#roll-notation", ROLL)
        gm.check("#roll-secret")
        record = s.change(gm, lambda: gm.get_by_role("button", name="Roll", exact=True).click())
        assert record.action is not None and record.action.do == "roll"
        assert dict(record.action.params) == {"notation": ROLL, "secret": True}
        assert record.action.actor == NO_ACTOR and record.by is None  # the game master's own
        (rolled,) = record.events
        assert rolled.actor == NO_ACTOR
        (sign, faces, value), (sign2, _, three) = rolled.terms
        assert (sign, sign2, three, len(faces)) == (1, 1, 3, 1) and 1 <= faces[0] <= 20
        assert rolled.total == faces[0] + 3 == value + 3
        gm.wait_for_function(f"document.getElementById('log').innerText.includes('{ROLL}')")
        for phone in s.players.values():
            assert ROLL not in phone.locator("#log").inner_text()
        assert s.players[p1].locator("#roll-secret").is_hidden()

    steps: list[Callable[[], None]] = [condition, quick_hp, secret_roll]

    # --- the fight ---------------------------------------------------------------------
    attacks: dict[str, int] = {p1: 0, p2: 0}
    moved = False
    for _ in range(60):
        if table.outcome() is not None:
            break
        actor = s.state.turn.actor
        if actor in s.players:
            page = s.players[actor]
            if not moved:  # the first player drags its own token a tile toward an enemy
                _move(s, page, actor, reach=1)
                moved = True
            elif not _targets(s, actor, side) and _walks(s):  # out of reach: walk closer
                _move(s, page, actor, reach=s.state.table.move - s.state.turn.walked)
            targets = _targets(s, actor, side)
            if targets:
                _attack(s, page, actor, targets[0])
                attacks[actor] += 1
            if s.state.turn.actor == actor and table.outcome() is None:
                s.change(page, functools.partial(_tap_once_stored, s, page, "#end-turn"))
            continue
        # an enemy's turn: the game master's step, or the end of the fight, then its end
        if steps:
            steps.pop(0)()
        elif s.state.round >= 2 and sum(attacks.values()) >= 2:
            for c in _enemies_of(s.state, side, ruleset):  # quick HP finishes them
                _pick(gm, c.name, c.id)
                gm.fill("#quick-hp", f"-{c.hp}")
                s.change(gm, lambda: gm.press("#quick-hp", "Enter"))
                assert s.state.get(c.id).hp == 0 and is_down(ruleset, s.state.get(c.id))
            break
        s.change(gm, lambda: gm.locator("#end-turn").click())

    outcome = table.outcome()
    assert outcome is not None and not steps and moved, (outcome, steps, moved)
    assert outcome.side == side and set(outcome.standing) == {
        state.get(p1).name,
        state.get(p2).name,
    }
    assert sum(attacks.values()) >= 2, attacks
    words = outcome_words(outcome.side, outcome.standing)
    for page in s.pages:
        page.wait_for_selector("#outcome:not([hidden])")
        assert page.locator("#outcome").inner_text() == words
    # issue 12: each page's log is the table's as that person sees it, line by line
    # (each line's words; its rules, where it cites any, behind the line's "Rules"), and
    # the game master's order shows every combatant's HP as the table holds it
    s.sync()
    snapshot = table.snapshot()
    seen = {gm: Identity.gm()}
    seen.update({s.players[cid]: Identity.player(s.names[cid], cid) for cid in s.players})
    for page, who in seen.items():
        shown = page.evaluate(
            "[...document.querySelectorAll('#log li')].map((li) => li.firstChild.textContent)"
        )
        assert shown == [line["text"] for line in page_lines(View(snapshot, who))], who
    for c in table.state.combatants.values():
        card = gm.locator("#order li", has_text=c.name).first.inner_text()
        assert f"HP {c.hp}/{c.max_hp}" in card, (c.id, card)
    for phone in s.players.values():
        assert ROLL not in phone.locator("#log").inner_text()  # the secret roll stayed so
        # issue 35: a whole fight, as a player's page shows it (its whole log, its
        # actions, the odds last read, the outcome), in people's words
        plain_words(shown_words(phone), f"{example}: a phone after the whole fight")
    SHOTS.mkdir(exist_ok=True)
    gm.screenshot(path=str(SHOTS / f"playthrough-{example}-gm.png"), full_page=True)
    s.players[p1].screenshot(path=str(SHOTS / f"playthrough-{example}-phone.png"), full_page=True)
    print(f"{example}: {time.monotonic() - started:.1f} s, {table.seq} records, attacks {attacks}")


def _pick(gm: Any, name: str, cid: str) -> None:
    """The game master clicks a token (no action chosen): quick HP and conditions are for it."""
    gm.locator(f'.token[data-id="{cid}"] .disc').click()  # the token, not its label
    gm.wait_for_function(
        f"document.getElementById('quick-who').innerText.startsWith({name + ':'!r})"
    )


def _walks(s: Session) -> bool:
    return "walk" in (
        s.gm.evaluate("async () => (await import('/static/state.js')).store.state.move_params")
        or []
    )


def _targets(s: Session, actor: str, side: str) -> list[str]:
    """The standing enemies the player's page offers ``actor`` to attack now (once the
    page shows the table's latest record: the options come with it, and an older
    record's may name a target the rules no longer offer, seen once under CI's load)."""
    page = s.players[actor]
    synced(page, s.server.table.seq)
    options: list[dict[str, Any]] = page.evaluate(
        f"async () => (await import('/static/state.js')).store.options[{actor!r}] || []"
    )
    attack = next((o for o in options if o["do"] == "attack" and o["allowed"]), None)
    ruleset = s.server.table.ruleset
    return [
        t
        for t in (attack or {}).get("targets") or []
        if s.state.get(t).side != side and not is_down(ruleset, s.state.get(t))
    ]


def _move(s: Session, page: Any, actor: str, reach: int) -> None:
    """The player drags its own token by a finger toward the nearest standing enemy."""
    me = s.state.get(actor)
    here = me.at
    assert here is not None
    enemies = [c for c in _enemies_of(s.state, me.side, s.server.table.ruleset) if c.at]
    goal = min(enemies, key=lambda c: _chebyshev(here, c.at or here))
    to = _step_toward(s.state, me, goal, reach)
    page.locator("#zoom-reset").tap()  # the whole map: both tiles on the screen
    page.locator("#map").scroll_into_view_if_needed()
    record = s.change(
        page, lambda: _touch_drag(page, _centre_of(page, *here), _centre_of(page, *to))
    )
    assert record.action is not None and record.by == s.names[actor]
    assert (record.action.do, record.action.actor) == ("move", actor)
    assert s.state.get(actor).at == to
    if _walks(s):
        assert record.action.params.get("walk") is True
        assert s.state.turn.walked == _chebyshev(here, to)
    for p in s.pages:
        p.wait_for_selector(f'.token[data-id="{actor}"][aria-label$="at {to[0]}, {to[1]}"]')


def _tap_once_stored(s: Session, page: Any, selector: str) -> None:
    """Tap ``selector`` until the table stores a record (at most three taps, 3 s apart).
    Chromium drops the click of a synthetic tap that follows the zoom tap and the drag
    of ``_move`` by a few milliseconds (touchstart and touchend reach the button, no
    click: seen 1 run in 2 in tier-duel's first walk, never with 0.4 s between them, as
    a finger leaves); a tap with no click sends nothing, so tapping again cannot send
    twice."""
    seq = s.server.table.seq
    for _ in range(3):
        page.locator(selector).tap()
        deadline = time.monotonic() + 3
        while s.server.table.seq == seq and time.monotonic() < deadline:
            time.sleep(0.05)
        if s.server.table.seq != seq:
            return


def _open(page: Any, action: str, shows: str) -> None:
    """Tap ``action``'s button until its panel shows ``shows``: a tap on an open choice
    closes it, and a tap that lands while a sync redraws the buttons may be lost (one
    run under CI's load waited 30 s for soak's targets after a tap that opened nothing)."""
    button = page.get_by_role("button", name=action, exact=True)
    for _ in range(3):
        if button.get_attribute("aria-pressed") != "true":
            button.tap()
        try:
            page.wait_for_selector(shows, timeout=5_000)
            return
        except Exception as exc:  # playwright's TimeoutError (playwright is imported lazily)
            if type(exc).__name__ != "TimeoutError":
                raise
    page.wait_for_selector(shows, timeout=5_000)


def _attack(s: Session, page: Any, actor: str, target: str) -> None:
    """Tap Attack and a target, read the odds in the preview, then tap Confirm."""
    table = s.server.table
    seq = table.seq
    synced(page, seq)  # the page's own targets are those of the table as it is now
    _open(page, "Attack", f"#actions .targets button[data-target='{target}']")
    page.locator(f"#actions .targets button[data-target='{target}']").tap()
    page.wait_for_selector("#odds .odds-line")
    odds = table.odds(Action(actor, "attack", target)).to_json()
    want = odds["combatants"][target]
    name = table.state.get(target).name
    kind = "estimated odds" if odds.get("estimate") else "exact odds"
    assert page.locator("#odds strong").first.inner_text() == f"Attack {name}: {kind}"
    line = page.locator("#odds .odds-line").first.inner_text()
    # the page's words: hit to a tenth of a percent, the mean to two decimals (no chance of
    # down: the enemy's HP is a label to a player)
    shown = dict(part.rsplit(" ", 1) for part in line.split(" · "))
    assert set(shown) == ({"mean damage"} if want["hit"] is None else {"hit", "mean damage"})
    if want["hit"] is not None:
        assert abs(float(shown["hit"].rstrip("%")) - 100 * want["hit"]) <= 0.05 + 1e-9, line
    assert abs(float(shown["mean damage"]) - want["mean"]) <= 0.005 + 1e-9, line
    confirm = page.locator("#confirm-go")
    assert confirm.inner_text() == f"Confirm: Attack {name}"
    assert table.seq == seq  # the taps sent nothing
    hp = table.state.get(target).hp
    record = s.change(page, lambda: confirm.tap())
    assert record.action is not None and record.by == s.names[actor]
    assert (record.action.actor, record.action.do, record.action.target) == (
        actor,
        "attack",
        target,
    )
    after = table.state.get(target)
    assert after.hp <= hp
    shows = f"{after.name}|HP {after.hp}/{after.max_hp}"
    s.gm.wait_for_function(
        "(w) => { const [n, hp] = w.split('|'); return [...document.querySelectorAll('#order li')]"
        ".some(li => li.innerText.includes(n) && li.innerText.includes(hp)); }",
        arg=shows,
    )
