"""An error raised in a worker process reaches the server as itself: the odds run in a
process pool, and an error that cannot be unpickled breaks the pool for every later
request (found by ``bench/bench_serve.py``: ``FracasError.__init__() missing 1 required
positional argument``)."""

from __future__ import annotations

import pickle
from concurrent.futures import ProcessPoolExecutor

import pytest

from fracas.errors import FileError, FracasError, Refusal
from fracas.io.store import MovedOn, StoreError


@pytest.mark.parametrize(
    "error",
    [
        FracasError("too_slow", "not done within 5 s"),
        Refusal("out_of_range", "the target is 9 tiles away; a pistol reaches 8"),
        FileError("bad_field", "hp: 'x' is not a number", "fight.yaml:3"),
        StoreError("store_unavailable", "the store is restarting; try again"),
    ],
    ids=lambda e: type(e).__name__,
)
def test_a_fracas_error_pickles_whole(error: FracasError) -> None:
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is type(error)
    assert (back.code, back.message, str(back)) == (error.code, error.message, str(error))
    assert back.__dict__ == error.__dict__


def _refuse() -> None:
    raise Refusal("self_target", "'ana' cannot attack itself")


def test_an_error_in_a_worker_process_arrives_and_the_pool_still_works() -> None:
    with ProcessPoolExecutor(1) as pool:
        with pytest.raises(Refusal) as info:
            pool.submit(_refuse).result(30)
        assert info.value.code == "self_target"
        assert pool.submit(sum, [1, 2]).result(30) == 3  # not a broken pool


def test_moved_on_pickles_with_its_records() -> None:
    error = MovedOn("fight", 3, [{"seq": 3}])
    back = pickle.loads(pickle.dumps(error))
    assert back.__dict__ == error.__dict__ and back.code == error.code
