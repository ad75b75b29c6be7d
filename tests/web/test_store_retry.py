"""A page sends a change again when the store refused it as unavailable (issue 14,
"faults": PostgreSQL restarted under a running server; nothing was written, so the
same action is sent again and taken once)."""

from __future__ import annotations

from typing import Any

from tests.web.test_a11y_keyboard import server  # noqa: F401  (a fixture)
from tests.web.test_browser import NEEDS_CHROMIUM
from tests.web.test_setup_browser import SetupServer

pytestmark = NEEDS_CHROMIUM


def test_a_change_refused_while_the_store_is_down_is_sent_again(
    server: SetupServer,  # noqa: F811
    browser: Any,
) -> None:
    # Issue 14 (faults): the store refuses two writes (store_unavailable: nothing was
    # written); the page says so, sends the same action again, and it is taken once.
    from fracas.io.store import StoreError

    real = server.store.append
    failures = [2]

    def flaky(*args: Any, **kwargs: Any) -> Any:
        if failures[0]:
            failures[0] -= 1
            raise StoreError("store_unavailable", "the store is restarting; try again")
        return real(*args, **kwargs)

    server.store.append = flaky  # type: ignore[method-assign]
    page = browser.new_context().new_page()
    page.goto(f"{server.base}/t/{server.ana}")
    page.wait_for_selector("#order li")
    seq = server.table.seq
    page.get_by_role("button", name="Attack", exact=True).click()
    page.locator("button[data-target='bo']").click()
    page.wait_for_function("document.getElementById('notice').textContent.includes('trying again')")
    deadline = 50
    while server.table.seq == seq and deadline:
        page.wait_for_timeout(100)
        deadline -= 1
    assert failures == [0] and server.table.seq == seq + 1
    assert [r.by for r in server.table.log[seq:]] == ["Pat"]  # taken once
    page.context.close()
