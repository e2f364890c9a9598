"""`import bmn` against the golden fixtures, the CLI's JSON, bad input, Ctrl-C and the GIL.

Run by tests/python.rs (`cargo test`), which builds the extension and puts it on PYTHONPATH;
BMN_BIN is the `bmn` binary of the same build, BMN_ROOT the repository.
"""

import json
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import bmn

ROOT = Path(os.environ.get("BMN_ROOT", Path(__file__).resolve().parents[3]))
BIN = os.environ.get("BMN_BIN", str(ROOT / "target" / "debug" / "bmn"))
RECORD = "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---"
CASELLA = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"

# Keys that measure the machine, not the game.
TIMING = ("elapsed_seconds", "games_per_second", "deals_per_second", "threads")


def fixture(name):
    """The blocks of a golden fixture (crates/bmn-golden/data): `key value` lines."""
    blocks, block = [], {}
    for line in (ROOT / "crates" / "bmn-golden" / "data" / name).read_text().splitlines():
        line = line.strip()
        if line.startswith("#"):
            continue
        if not line:
            if block:
                blocks.append(block)
            block = {}
            continue
        key, _, value = line.partition(" ")
        block.setdefault(key, []).append(value)
    if block:
        blocks.append(block)
    return blocks


def cli(*args):
    # The run database: the one python.rs gives this process (BMN_DB), removed with it.
    out = subprocess.run([BIN, *args, "--json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def plain(value):
    """A report without its timing keys, NumPy arrays as lists."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items() if k not in TIMING}
    if isinstance(value, list):
        return [plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return value.tolist()
    return value


def test_every_golden_record():
    records = fixture("records.txt")
    assert len(records) == 9
    for r in records:
        got = bmn.play(r["deal"][0], leader=int(r["leader"][0]))
        assert got == {
            "outcome": "finished",
            "winner": int(r["winner"][0]),
            "cards": int(r["cards"][0]),
            "tricks": int(r["tricks"][0]),
        }, r["name"][0]


def test_every_golden_cycle():
    for c in fixture("cycles.txt"):
        got = bmn.play(c["deal"][0], leader=int(c["leader"][0]))
        tricks, cards = map(int, c["preperiod"][0].split())
        assert got["outcome"] == "cycle"
        assert got["preperiod"] == {"tricks": tricks, "cards": cards}, c["name"][0]
        tricks, cards = map(int, c["period"][0].split())
        assert got["period"] == {"tricks": tricks, "cards": cards}
        if "cycle_id" in c:
            assert got["cycle_id"] == c["cycle_id"][0]


@pytest.mark.parametrize("kwargs, args", [
    (dict(deal=RECORD), [RECORD]),
    (dict(deal=CASELLA), [CASELLA]),
    (dict(deal="--Q-J-/Q-J-", trace=True), ["--Q-J-/Q-J-", "--trace"]),
    (dict(deal="J--K---A----AA/-J-", tricks=3), ["J--K---A----AA/-J-", "--tricks", "3"]),
    (dict(deal="1000200003/2000100003"), ["1000200003/2000100003"]),
    (dict(deal="JH 9C 2d 10s QS/Q♠ 9D 8D KD 7D"), ["JH 9C 2d 10s QS/Q♠ 9D 8D KD 7D"]),
    (dict(deal="-A-/--/J-", penalties="K3,J2,Q1,A0", on_empty="collect"),
     ["-A-/--/J-", "--penalties", "K3,J2,Q1,A0", "--on-empty", "collect"]),
    (dict(deal="--K---A----AAJ-/J-", deck="2J,1K,3A,11-"), ["--K---A----AAJ-/J-", "--deck", "2J,1K,3A,11-"]),
])
def test_play_equals_the_cli(kwargs, args):
    assert bmn.play(**kwargs) == cli("play", *args)


def test_the_other_commands_equal_the_cli():
    assert bmn.count("standard") == cli("count", "--deck", "standard")
    assert bmn.count("2J,2Q,2K,2A,16-")["deals"] == "1853386920"
    assert bmn.deal(seed=7, players=4) == cli("deal", "--players", "4", "--seed", "7")
    assert bmn.predecessors("--K---A----AAJ-/J-") == cli("backward", "--K---A----AAJ-/J-")
    assert bmn.basin(CASELLA, balanced=True) == cli("basin", CASELLA, "--balanced")
    assert bmn.basin(CASELLA)["balanced_deals_count"] == 30
    assert bmn.records() == cli("records")
    ours = bmn.exhaustive("2J,2Q,2K,2A,6-", list_cycles=True)
    assert plain(ours) == plain(cli("exhaustive", "--deck", "2J,2Q,2K,2A,6-", "--list-cycles", "--no-db"))
    assert ours["cycling_deals"] == 1260  # Paulhus's Table 1, n = 6
    ours = bmn.census(deck="2J,2Q,2K,14-", methods="deals")
    assert plain(ours) == plain(cli("census", "--deck", "2J,2Q,2K,14-", "--methods", "deals"))
    assert [c["anti_periodic"] for c in ours["catalogue"]] == [True]
    road = sorted(str(p) for p in (ROOT / "docs" / "catalogue" / "road").glob("2j2q2k-*.json"))
    ours = bmn.family(road)
    assert ours == cli("family", *road)
    assert ours["families"][0]["first_anti_periodic"] == 7
    ours = bmn.search(games=100000, deck="2J,2Q,2K,2A,8-")
    assert plain(ours) == plain(cli("search", "--deck", "2J,2Q,2K,2A,8-", "--games", "100000", "--no-db"))
    ours = bmn.stats(games=20000, players=4)
    assert plain(ours) == plain(cli("stats", "--games", "20000", "--players", "4"))


def test_histograms_are_numpy_arrays():
    s = bmn.search(games=50000, threads=1)
    counts = s["histogram"]["counts"]
    assert isinstance(counts, np.ndarray) and counts.dtype == np.uint64
    assert counts.sum() == s["games"] - s["cycling_games"] - s["unresolved_games"]
    st = bmn.stats(games=20000)
    for key in ("cards", "tricks"):
        h = st[key]["histogram"]
        assert isinstance(h, np.ndarray)
        assert h.sum() == st["finished"]


def test_results_do_not_depend_on_threads():
    one = bmn.search(games=70000, threads=1, seed=9)
    two = bmn.search(games=70000, threads=2, seed=9)
    assert one["longest"] == two["longest"]
    assert (one["histogram"]["counts"] == two["histogram"]["counts"]).all()


@pytest.mark.parametrize("call, message", [
    (lambda: bmn.play("--Z-/J-"), "bad deal: unexpected character 'Z' at position 3 (hand 1)"),
    (lambda: bmn.play("--/J-", leader=3), "leader"),
    (lambda: bmn.play("--/J-", leader=0), "bad leader"),
    (lambda: bmn.play("--K/J-", deck="standard"), "bad deal"),
    (lambda: bmn.play("--/J-", players=3), "but players 3"),
    (lambda: bmn.play("--/J-", penalties="Z3"), "bad penalties"),
    (lambda: bmn.play("--/J-", on_empty="keep"), "bad on_empty"),
    (lambda: bmn.search(games=10, deck="3Z"), "bad deck"),
    (lambda: bmn.search(games=0), "bad games: must be at least 1"),
    (lambda: bmn.search(games=10, players=11), "bad players"),
    (lambda: bmn.search(games=10, kernel="tpu"), "bad kernel 'tpu'"),
    (lambda: bmn.stats(games=10, threads=0), "bad threads"),
    (lambda: bmn.stats(games=10, threads=99999), "bad threads: 99999 is more than 1024"),
    (lambda: bmn.exhaustive("standard"), "bad deck"),
    (lambda: bmn.exhaustive("2J,2Q,6-", shard="5/4"), "bad shard"),
    (lambda: bmn.exhaustive("2J,2Q,6-", leader=0), "bad leader: 0: players are numbered from 1"),
    (lambda: bmn.census(methods="dice"), "unknown method 'dice'"),
    (lambda: bmn.family([]), "no census reports given"),
    (lambda: bmn.census(basin_limit=0), "bad basin_limit: must be at least 1"),
    (lambda: bmn.basin(CASELLA, limit=0), "bad limit"),
    (lambda: bmn.basin(CASELLA, leader=0), "bad leader"),
    (lambda: bmn.rank("--K-/J-", leader=0), "bad leader"),
    (lambda: bmn.predecessors("--Z/J-"), "bad position"),
    (lambda: bmn.count("0-"), "bad deck"),
])
def test_bad_input_raises_value_error_naming_the_argument(call, message):
    with pytest.raises(ValueError, match=None) as error:
        call()
    assert message in str(error.value)
    assert "--" not in str(error.value).replace("--Z", ""), "a flag, not an argument, is named"


def test_counts_are_read_as_the_command_line_reads_them():
    # An int, a whole float or text in the CLI's syntax: one unit of 16384 games each way.
    for games in (16384, 1.6384e4, "1.6384e4", "16_384"):
        assert bmn.search(games=games, seed=3, top=1)["games"] == 16384
    for games, words in ((-1, "bad games: -1 is negative"),
                         (2.5, "bad games: 2.5 is not a whole number"),
                         ("ten", "bad games: 'ten' is not a number"),
                         (2**70, "bad games: 1180591620717411303424 is too big")):
        with pytest.raises(ValueError) as error:
            bmn.search(games=games)
        assert words in str(error.value)
    with pytest.raises(TypeError, match="games"):
        bmn.search(games=[10])


def test_lengths_of_time_are_read_as_the_command_line_reads_them():
    # Seconds as a number, or the CLI's text ("0.3s", "1m"): the same reader, the same refusals.
    for seconds in (0.3, "0.3s", "0.005m"):
        assert bmn.search(seconds=seconds, seed=3, top=1)["games"] > 0
    # The refusal names the keyword as Python spells it: `seconds`, not the CLI's `time`.
    for seconds, words in (("9x", "bad seconds '9x': use a number with s, m, h or d"),
                           ("-2s", "bad seconds: -2s is negative"),
                           (-2, "bad seconds -2: use a positive number of seconds"),
                           (-3, "bad seconds -3")):
        with pytest.raises(ValueError) as error:
            bmn.search(seconds=seconds)
        assert words in str(error.value)
        assert "bad time" not in str(error.value)
    with pytest.raises(TypeError, match="seconds"):
        bmn.search(seconds=[10])
    # `stats` takes it too (its whole units, as `search`): from the one declaration of `--time`.
    timed = bmn.stats(seconds=0.3, seed=3)
    assert timed["games"] > 0 and timed["games"] % 2**14 == 0


def test_a_deal_left_without_a_seed_draws_one_as_the_cli_does():
    # The clock's nanoseconds: three calls, three seeds (`bmn deal` reports the one it drew).
    assert len({bmn.deal()["seed"] for _ in range(3)}) == 3
    assert bmn.deal(seed=5)["seed"] == 5


HOSTILE = [
    lambda: bmn.play("\x00" * 10),
    lambda: bmn.play("-" * 100_000 + "Z/J-"),
    lambda: bmn.play("\U0001F0A1\U0001F0A2/J-"),
    lambda: bmn.play(None),
    lambda: bmn.play(12345),
    lambda: bmn.play("--/J-", leader=-1),
    lambda: bmn.play("--/J-", leader=2**70),
    lambda: bmn.search(games=-1),
    lambda: bmn.search(games=2**200),
    lambda: bmn.search(games="ten"),
    lambda: bmn.search(games=10, seed=-5),
    lambda: bmn.search(games=10, deck="4000000000-"),
    lambda: bmn.search(games=10, deck="9" * 400),
    lambda: bmn.count("99999999999999999999-"),
    lambda: bmn.exhaustive("2J,2Q,6-", shard="1/0"),
    lambda: bmn.exhaustive("2J,2Q,6-", shard="\x00"),
]


@pytest.mark.parametrize("call", HOSTILE)
def test_hostile_arguments_raise_a_python_error_never_a_panic(call):
    # A Rust panic would surface as pyo3's PanicException, a BaseException these do not catch.
    with pytest.raises((ValueError, TypeError, OverflowError)) as error:
        call()
    assert str(error.value) and "panicked" not in str(error.value)


def test_ctrl_c_stops_a_search_and_keeps_the_finished_units():
    # The kernel's timer sends SIGINT after a second, as Ctrl-C would: no Python thread has to
    # win the GIL to send it (a timer thread once starved on a loaded machine, and the search
    # of 10^10 games ran on).
    def ctrl_c(signum, frame):
        raise KeyboardInterrupt
    previous = signal.signal(signal.SIGALRM, ctrl_c)
    signal.setitimer(signal.ITIMER_REAL, 1.0)
    started = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt) as stopped:
            bmn.search(games=10**10, threads=2)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert time.monotonic() - started < 30
    partial = stopped.value.partial
    assert partial["interrupted"] is True
    assert partial["games"] > 0 and partial["games"] % 16384 == 0
    # What it reports equals a run of exactly those games.
    again = bmn.search(games=partial["games"], threads=2)
    assert again["longest"] == partial["longest"]


def test_progress_goes_to_stderr(capfd):
    bmn.search(games=300000, progress=True)
    err = capfd.readouterr().err
    assert "games" in err and "M/s" in err


def test_long_calls_release_the_gil():
    done = threading.Event()
    ticks = 0

    def work():
        bmn.search(games=600000, threads=1)
        done.set()

    worker = threading.Thread(target=work)
    worker.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0)
    worker.join()
    assert ticks > 100, "the interpreter kept running while the search played"


def test_every_deal_has_a_number():
    r = bmn.rank(RECORD)
    assert r["rank"] == "206287012603312125944" and r["deals"] == "653534134886878245000"
    assert bmn.unrank(206287012603312125944)["deal"] == RECORD
    assert bmn.unrank(0)["deal"] == "--------------------------/----------JJJJQQQQKKKKAAAA"
    big = 10**40  # past 2**128
    d = bmn.unrank(big, deck="2xstandard")
    assert bmn.rank(d["deal"], deck="2xstandard")["rank"] == str(big)
    with pytest.raises(ValueError, match="past the last deal"):
        bmn.unrank(653534134886878245000)
    block = bmn.exhaustive("standard", first=206287012603312125944 - 10, count=20)
    assert block["longest"]["cards"] == 8344
    assert block["longest"]["index"] == 206287012603312125944
    assert (block["first_rank"], block["end_rank"]) == ("206287012603312125934", "206287012603312125954")


def test_a_batch_of_deals_plays_as_the_cli_and_the_stream_say():
    # The seed's stream, played as a batch: the games `stats` plays, game for game.
    deals = bmn.deals(4, 20000)
    assert deals[7] == bmn.deal(seed=4, index=7)["deal"]
    games = bmn.play_many(deals, threads=2)
    stats = bmn.stats(games=20000, seed=4)
    assert games["cards"].dtype == np.uint64 and len(games["cards"]) == 20000
    assert games["cards"].mean() == pytest.approx(stats["mean_cards"], abs=1e-9)
    assert int(games["cards"].max()) == stats["cards"]["max"]
    assert [int((games["winner"] == w).sum()) for w in (1, 2)] == stats["wins_by_seat"]
    assert not games["endless"].any() and not games["unresolved"].any()
    # Any iterable; the record and Casella's endless game as `play` says them.
    endless = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"
    two = bmn.play_many(iter([RECORD, endless]))
    assert list(two["winner"]) == [2, 0] and list(two["cards"]) == [8344, 34]
    assert list(two["endless"]) == [False, True]
    cycle = bmn.play(endless)
    assert (int(two["period"][1]), int(two["period_cards"][1])) == (
        cycle["period"]["tricks"], cycle["period"]["cards"])
    given_up = bmn.play_many([RECORD], give_up=100)
    assert bool(given_up["unresolved"][0]) and int(given_up["tricks"][0]) == 100
    # A bad deal is named by its place; a deal of another deck than the first's too.
    with pytest.raises(ValueError, match="bad deals: line 2: "):
        bmn.play_many([RECORD, "--Z-/J-"])
    with pytest.raises(ValueError, match="a file is of one deck"):
        bmn.play_many(["--J-/Q---", "--J-/K---"])
    with pytest.raises(TypeError, match="item 2 is not a str"):
        bmn.play_many([RECORD, 5])


def test_keywords_are_the_command_lines_flags():
    # Any flag of `bmn stats` is a keyword (`--max-tricks` is `max_tricks`), read by the same
    # declaration; a keyword no command takes, or the run database's, is Python's TypeError.
    assert bmn.stats(games=20000, max_tricks=500, seed=2)["games"] == 20000
    for call in (lambda: bmn.search(colour="red"),
                 lambda: bmn.search(games=10, db="x.sqlite"),
                 lambda: bmn.play("--/J-", deals="x"),
                 lambda: bmn.search(time="1s")):
        with pytest.raises(TypeError, match="unexpected keyword argument"):
            call()


def test_the_stubs_keywords_are_the_functions_keywords():
    # Every keyword bmn.pyi documents is one the function takes (its command's flag), so the
    # stubs cannot drift from the one declaration the functions read.
    import ast
    import pathlib
    stubs = ast.parse((pathlib.Path(__file__).parent.parent / "bmn.pyi").read_text())
    given_by_place = {"play": {"deal"}, "exhaustive": {"deck"}, "predecessors": {"position"},
                      "basin": {"position"}, "extend": {"deal"}, "family": {"files"},
                      "count": {"deck"}, "rank": {"deal"}, "unrank": {"k"}, "deal": {"seed"},
                      "deals": {"seed", "count"}, "play_many": {"deals"}}
    checked = 0
    for f in stubs.body:
        if not isinstance(f, ast.FunctionDef) or f.name in ("records", "keywords"):
            continue
        takes = set(bmn.keywords(f.name)) | {"progress"} | given_by_place.get(f.name, set())
        for arg in f.args.args + f.args.kwonlyargs:
            assert arg.arg in takes, f"{f.name}({arg.arg}=...) is in bmn.pyi but not taken"
            checked += 1
    assert checked > 80
    # The command line's flags, but the run database's (a Python call records no run).
    assert {"give_up", "max_tricks", "kernel", "device", "plot"} <= set(bmn.keywords("stats"))
    assert not {"db", "resume", "no_db", "time"} & set(bmn.keywords("search"))
    assert "seconds" in bmn.keywords("search")


def test_blank_text_is_refused_not_taken_for_the_default():
    with pytest.raises(ValueError, match="bad deck"):
        bmn.search(games=10, deck="")
