"""bmn: play, analyse and search Beggar-My-Neighbour (Strip Jack Naked) at the speed of bmn's
Rust engine.

Every function returns the dict that the command line's ``bmn ... --json`` prints, with the same
keys (rules and notation: ``docs/rules.md`` of the bmn repository); histograms are NumPy arrays.
Bad input raises ``ValueError`` with the command line's one-line message, naming the argument,
the culprit and where it is. A count is read as the command line reads one: an ``int``, a
``float`` that is whole (``1e6``) or text (``"1_000_000"``, ``"1e6"``). Long calls (``search``, ``stats``, ``exhaustive``, ``basin``) release the GIL, use
every core unless ``threads`` says otherwise, show a progress line on stderr with
``progress=True``, and stop at Ctrl-C with a ``KeyboardInterrupt`` whose ``partial`` attribute
holds the report of the units that finished.

An argument left as ``None`` takes bmn's own default, the one the command line uses (seed 1,
the standard deck, two players, ``on_empty="pass"``, 1000000 games, the 10 longest games): the
defaults live in one place, the Rust library, so the three front ends cannot drift apart. The
keys are listed in ``docs/json.md``; a key marked deprecated there is kept for a release beside
its clearer name.

Each function takes, as keywords, every parameter of its command on the command line, named as
the flag is with ``_`` for ``-`` (``give_up``, ``max_tricks``, ``kernel``, ``out``...), read
through the same declaration, so the signatures below list the common ones. Three keywords are
named otherwise: ``seconds`` is ``--time``, ``hands_seconds`` ``--hands-time`` and ``first``
``exhaustive --from``. The run database's flags (``--db``, ``--resume``, ``--no-db``) are the
command line's alone: a Python call records no run. An unknown keyword raises ``TypeError``.
"""

from typing import Any, Iterable, Optional, Union

# A count: an int, a whole float (1e6) or text in the command line's syntax ("1_000_000").
Count = Union[int, float, str]
# A length of time: seconds as a number, or text as the CLI reads it ("90s", "10m", "2h").
Time = Union[int, float, str]

__version__: str

def keywords(function: str) -> list[str]:
    """The keywords ``function`` (``"search"``, ...) takes beside ``progress`` and those given by
    place: its command's flags, ``_`` for ``-``, but the run database's."""

def play(
    deal: str,
    leader: Optional[Count] = None,
    players: Optional[Count] = None,
    deck: Optional[str] = None,
    penalties: Optional[str] = None,
    on_empty: Optional[str] = None,
    trace: bool = False,
    tricks: Optional[Count] = None,
) -> dict[str, Any]:
    """Plays one deal to its end, its cycle, or ``tricks`` tricks (``bmn play --json``).

    ``deal`` is ``"HAND1/HAND2[/...]"``, top card first, in symbols (``-JQKAX``), Paulhus's
    digits or real cards (``"9C JH 10s"``). ``players`` and ``deck`` check the deal; ``penalties``
    changes the penalty table (``"K3,J2,Q1,A0"``); ``on_empty`` is ``"pass"`` or ``"collect"``.

    Returns ``{"outcome": "finished", "winner", "cards", "tricks"}``, ``{"outcome": "cycle",
    "preperiod", "period", "cycle_start", "cycle_id", "cycle_representative"}`` or
    ``{"outcome": "stopped", "position", "cards", "tricks"}``; with ``trace=True`` also
    ``"trace"``, the positions trick by trick (``deal``, ``leader``, ``tricks``, ``cards``).
    """

def search(
    games: Optional[Count] = None,
    seed: Optional[Count] = None,
    stream: Optional[Count] = None,
    threads: Optional[Count] = None,
    top: Optional[Count] = None,
    balanced: bool = False,
    players: Optional[Count] = None,
    deck: Optional[str] = None,
    penalties: Optional[str] = None,
    on_empty: Optional[str] = None,
    seconds: Optional[Time] = None,
    kernel: Optional[str] = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Plays random deals (``bmn search --json``): ``games`` of them (1000000 unless ``seconds``
    is given), deal k of ``seed`` the same on any machine and thread count.

    Keys: ``games``, ``seed``, ``mean_cards``, ``mean_tricks``, ``games_per_second``,
    ``histogram`` (``bin_width``, ``counts`` as a NumPy array), ``longest`` (each ``deal``,
    ``leader``, ``cards``, ``tricks``, ``winner``, ``index``), ``cycling_deal_list``,
    ``distinct_cycle_list``, ``cycling_games``, ``unresolved_games``, ``wins_by_seat``,
    ``engine``, ``threads``, ...
    """

def stats(
    games: Optional[Count] = None,
    seconds: Optional[Time] = None,
    seed: Optional[Count] = None,
    stream: Optional[Count] = None,
    threads: Optional[Count] = None,
    balanced: bool = False,
    players: Optional[Count] = None,
    deck: Optional[str] = None,
    penalties: Optional[str] = None,
    on_empty: Optional[str] = None,
    kernel: Optional[str] = None,
    progress: bool = False,
) -> dict[str, Any]:
    """The length distribution, its exponential tail and the wins by seat (``bmn stats --json``)
    over ``games`` deals (1000000 unless ``seconds`` is given: then the whole units played).

    ``cards`` and ``tricks`` each hold ``mean``, ``median``, ``max``, ``percentiles`` and
    ``histogram`` (a NumPy array: games of each exact length); also ``tail``,
    ``win_share_by_seat``, ``win_share_ci95``, ``wins_by_seat``, ``never_end_share``, ...
    """

def exhaustive(
    deck: str,
    leader: Optional[Count] = None,
    list_cycles: bool = False,
    shard: Optional[str] = None,
    threads: Optional[Count] = None,
    penalties: Optional[str] = None,
    first: Optional[int] = None,
    count: Optional[int] = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Plays every deal of a deck, the ranks ``first..first + count`` of them, or shard
    ``"i/N"`` (``bmn exhaustive --json``):
    ``deals``, ``wins_by_seat``, ``p_second_wins``, ``cycling_deals``, ``distinct_cycle_count``,
    ``distinct_cycle_list``, ``longest``, ``mean_cards``, ... and with ``list_cycles``
    every cycling deal (``cycling_deal_list``)."""

def census(
    deck: Optional[str] = None,
    players: Optional[Count] = None,
    methods: Optional[str] = None,
    hands: Optional[Count] = None,
    hands_seconds: Optional[Time] = None,
    deals_max: Optional[Count] = None,
    basin_limit: Optional[Count] = None,
    rounds: Optional[Count] = None,
    enumeration: Optional[list[str]] = None,
    seed: Optional[Count] = None,
    threads: Optional[Count] = None,
    penalties: Optional[str] = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Every endless game a table has (``bmn census --json``): the methods run
    (``methods``: ``"pieces,hands,deals"`` or part of it; ``enumeration``: the result files of
    every shard of one ``bmn exhaustive --list-cycles`` run, read as ``deals``), ``catalogue``
    (each cycle with its class: ``min_hand``, ``anti_periodic``, ``splits_at_rest_state``; and
    every balanced deal with its rank), ``by_period``, ``by_class``, ``exact``, ``recall``,
    ``estimate``, ``completeness``."""

def family(files: list[str], plot: Optional[str] = None) -> dict[str, Any]:
    """Exact census reports (``census(..., methods="deals")`` saved as JSON, or
    ``bmn census --json``) of decks alike but for their plain cards, side by side
    (``bmn family --json``): ``families``, each with its ``rows`` in order of ``n``
    (``deals``, ``endless_deals``, ``cycles``, ``by_period``, ``by_class``, ``p_second_wins``,
    ``longest``) and ``first_cycle``, ``first_anti_periodic``, ``first_min_hand``; ``plot``
    draws each class's endless deals and cycles against n (.svg or .png, one family)."""

def predecessors(
    position: str,
    leader: Optional[Count] = None,
    penalties: Optional[str] = None,
    on_empty: Optional[str] = None,
) -> dict[str, Any]:
    """Every position one trick before ``position`` (``bmn backward --json``): ``position`` and
    ``predecessors``, each ``{"deal", "leader"}``. Hands may be empty."""

def basin(
    position: str,
    leader: Optional[Count] = None,
    balanced: bool = False,
    limit: Optional[Count] = None,
    penalties: Optional[str] = None,
    on_empty: Optional[str] = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Every position whose game reaches the cycle (or final position) of ``position``'s
    (``bmn basin --json``): ``positions``, ``complete``, ``cycle_id``, ``balanced_deals_count``,
    ``balanced_counts``, ``balanced_deal_list``, ... ``limit`` caps the positions visited."""

def extend(
    deal: str,
    leader: Optional[Count] = None,
    depth: Optional[Count] = None,
    limit: Optional[Count] = None,
    top: Optional[Count] = None,
    penalties: Optional[str] = None,
    on_empty: Optional[str] = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Balanced deals whose games are longer, searched ``depth`` tricks backward from each
    position of ``deal``'s finishing game (``bmn extend --json``)."""

def count(deck: Optional[str] = None, players: Optional[Count] = None) -> dict[str, Any]:
    """The exact number of deals of a deck at a table (``bmn count --json``); ``deals`` and
    ``balanced_deals`` are decimal strings (the standard deck's count passes 2**64)."""

def records() -> dict[str, Any]:
    """The longest known games, each replayed by the engine (``bmn records --json``):
    ``records`` (each ``name``, ``finder``, ``year``, ``deal``, ``leader``, ``cards``,
    ``tricks``, ``winner``, ``replayed``, ``verified``) and ``all_verified``."""

def rank(deal: str, leader: Optional[Count] = None, deck: Optional[str] = None) -> dict[str, Any]:
    """The number of a deal: its lexicographic rank among all deals of its deck (the deal's own
    cards unless ``deck``), the order ``exhaustive`` plays them in (``bmn rank --json``). The
    hands must have the sizes round-robin dealing from the leader gives. ``rank`` and ``deals``
    are decimal strings."""

def unrank(
    k: int, deck: Optional[str] = None, players: Optional[Count] = None, leader: Optional[Count] = None
) -> dict[str, Any]:
    """Deal ``k`` of ``deck`` (``bmn unrank --json``), for a ``k`` of any size."""

def deal(
    seed: Optional[Count] = None,
    index: Optional[Count] = None,
    players: Optional[Count] = None,
    deck: Optional[str] = None,
    balanced: bool = False,
    stream: Optional[Count] = None,
) -> dict[str, Any]:
    """Deal ``index`` of ``seed``'s stream (``bmn deal --json``): the deal ``search`` and
    ``stats`` play as game ``index`` with the same seed and table."""

def deals(
    seed: Count,
    count: Count,
    index: Optional[Count] = None,
    players: Optional[Count] = None,
    deck: Optional[str] = None,
    balanced: bool = False,
    stream: Optional[Count] = None,
) -> list[str]:
    """``count`` deals of ``seed``'s stream from ``index`` (``bmn deal --count``): the games
    ``search`` and ``stats`` play as games ``index .. index + count - 1``."""

def play_many(
    deals: Iterable[str],
    leader: Optional[Count] = None,
    players: Optional[Count] = None,
    deck: Optional[str] = None,
    penalties: Optional[str] = None,
    on_empty: Optional[str] = None,
    give_up: Optional[Count] = None,
    threads: Optional[Count] = None,
) -> dict[str, Any]:
    """Plays every deal of ``deals`` on the fast kernels (``bmn play --deals``), without the GIL
    and on every core unless ``threads`` says otherwise; Ctrl-C raises ``KeyboardInterrupt``.

    Returns NumPy arrays, one entry a deal in order: ``winner`` (1-based, 0 where none),
    ``cards`` and ``tricks`` (of the whole game; of the preperiod for an endless one),
    ``endless``, ``period`` and ``period_cards`` (0 where none), ``unresolved`` (given up on
    after ``give_up`` tricks; ``tricks`` is then the give-up). The deals are of one deck:
    ``deck`` checks each, else each must hold the first one's cards. A bad deal raises
    ``ValueError`` naming it by its place from 1 (``bad deals: line 2: ...``)."""
