// bmn's trick kernel, for the decks the event kernel (`events.wgsl`) cannot hold (jokers, more
// than 16 penalty cards, an empty hand, no trick cap): one invocation deals (or unranks, or
// steps to) the deals of its work items and plays each two-player game a trick a step on three
// bit planes to its end or the trick cap, exactly as bmn-kernel's trick-level loop
// (`scalar.rs`) does. Lanes whose games end early wait for the longest game of their warp.

// ---- Stacks as three bit planes (bmn-kernel's hand.rs) ------------------------------------

struct Stack {
    p0: vec2<u32>,
    p1: vec2<u32>,
    p2: vec2<u32>,
    len: u32,
}

fn encode(lo: u32, hi: u32) -> Stack {
    var s = Stack(vec2<u32>(0u), vec2<u32>(0u), vec2<u32>(0u), hi - lo);
    for (var i = lo; i < hi; i++) {
        let c = deal[i];
        let b = bit64(i - lo);
        if ((c & 1u) != 0u) { s.p0 = s.p0 | b; }
        if ((c & 2u) != 0u) { s.p1 = s.p1 | b; }
        if ((c & 4u) != 0u) { s.p2 = s.p2 | b; }
    }
    return s;
}

// The first penalty card, or the sentinel at the length (len < 64 inside a trick).
fn first_event(s: Stack) -> u32 {
    return ctz64(s.p0 | s.p1 | s.p2 | bit64(s.len));
}

fn drop_top(s: ptr<function, Stack>, k: u32) {
    (*s).p0 = shr64((*s).p0, k);
    (*s).p1 = shr64((*s).p1, k);
    (*s).p2 = shr64((*s).p2, k);
    (*s).len -= k;
}

// Removes `k` plain cards and the penalty card under them, which goes onto the pile at `pos`.
fn pop_penalty(s: ptr<function, Stack>, k: u32, pile: ptr<function, Stack>, pos: u32) -> u32 {
    let t0 = shr64((*s).p0, k);
    let t1 = shr64((*s).p1, k);
    let t2 = shr64((*s).p2, k);
    let at = bit64(pos);
    let code = (t0.x & 1u) | ((t1.x & 1u) << 1u) | ((t2.x & 1u) << 2u);
    if ((code & 1u) != 0u) { (*pile).p0 = (*pile).p0 | at; }
    if ((code & 2u) != 0u) { (*pile).p1 = (*pile).p1 | at; }
    if ((code & 4u) != 0u) { (*pile).p2 = (*pile).p2 | at; }
    (*s).p0 = shr64(t0, 1u);
    (*s).p1 = shr64(t1, 1u);
    (*s).p2 = shr64(t2, 1u);
    (*s).len -= k + 1u;
    return code;
}

// Puts a pile of `m` cards under the stack.
fn take(s: ptr<function, Stack>, pile: Stack, m: u32) {
    let n = (*s).len;
    (*s).p0 = (*s).p0 | shl64(pile.p0, n);
    (*s).p1 = (*s).p1 | shl64(pile.p1, n);
    (*s).p2 = (*s).p2 | shl64(pile.p2, n);
    (*s).len = n + m;
}

fn empty() -> Stack {
    return Stack(vec2<u32>(0u), vec2<u32>(0u), vec2<u32>(0u), 0u);
}

// ---- The trick loop (bmn-kernel's `play_stacks`), one trick a step --------------------------

// A game under way: `x` pays next (`xid` 0 if `x` is the deal's leader); `status` RUNNING, or
// its result: 0 the leader won, 1 the other player, 2 capped at `max_tricks`.
struct Game {
    x: Stack,
    y: Stack,
    xid: u32,
    cards: u32,
    tricks: u32,
    status: u32,
}

const RUNNING: u32 = 3u;

// The game from a deal, `lead` leading; one with an empty hand is over before it starts.
fn begin(lead: Stack, other: Stack) -> Game {
    var g: Game;
    g = Game(lead, other, 0u, 0u, 0u, RUNNING);
    if (lead.len == 0u) {
        g.status = 1u;
    } else if (other.len == 0u) {
        g.status = 0u;
    }
    return g;
}

// Plays one trick (or ends the game at the cap).
fn step(g: Game) -> Game {
    // Hands in local variables: naga's SPIR-V output cannot pass a pointer to a struct's field.
    var x = g.x;
    var y = g.y;
    var xid = g.xid;
    var cards = g.cards;
    let tricks = g.tricks;
    if (tricks >= params.max_tricks) {
        return Game(x, y, xid, cards, tricks, 2u);
    }
    let a = first_event(x);
    let b = first_event(y);
    var pile = empty();
    var m: u32;
    var debt: u32;
    // After the opening, `x` pays and `y` has the claim.
    if (a <= b) {
        if (a == x.len) {
            return Game(x, y, xid, cards + 2u * a, tricks + 1u, xid ^ 1u);
        }
        debt = pop_penalty(&x, a, &pile, 2u * a);
        drop_top(&y, a);
        m = 2u * a + 1u;
        let t = x;
        x = y;
        y = t;
        xid ^= 1u;
    } else {
        if (b == y.len) {
            return Game(x, y, xid, cards + 2u * b + 1u, tricks + 1u, xid);
        }
        debt = pop_penalty(&y, b, &pile, 2u * b + 1u);
        drop_top(&x, b + 1u);
        m = 2u * b + 2u;
    }
    loop {
        // `x` pays `y`.
        let k = first_event(x);
        if (k >= debt) {
            drop_top(&x, debt);
            m += debt;
            cards += m;
            if (x.len == 0u) {
                return Game(x, y, xid, cards, tricks + 1u, xid ^ 1u);
            }
            take(&y, pile, m);
            return Game(y, x, xid ^ 1u, cards, tricks + 1u, RUNNING);
        }
        if (k == x.len) {
            return Game(x, y, xid, cards + m + k, tricks + 1u, xid ^ 1u);
        }
        debt = pop_penalty(&x, k, &pile, m + k);
        m += k + 1u;
        // `y` pays `x`.
        let j = first_event(y);
        if (j >= debt) {
            drop_top(&y, debt);
            m += debt;
            cards += m;
            if (y.len == 0u) {
                return Game(x, y, xid, cards, tricks + 1u, xid);
            }
            take(&x, pile, m);
            return Game(x, y, xid, cards, tricks + 1u, RUNNING);
        }
        if (j == y.len) {
            return Game(x, y, xid, cards + m + j, tricks + 1u, xid);
        }
        debt = pop_penalty(&y, j, &pile, m + j);
        m += j + 1u;
    }
    return g;
}

// The game of the deal in `deal`.
fn begin_deal() -> Game {
    let n = params.len;
    let h = params.first_hand;
    if (params.leader == 0u) {
        return begin(encode(0u, h), encode(h, n));
    }
    return begin(encode(h, n), encode(0u, h));
}

// ---- The batch -----------------------------------------------------------------------------

@compute @workgroup_size(64)
fn play_tricks(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    group_begin(local);
    let lane = flat_index(gid, groups);
    let items = (params.count + params.per_item - 1u) / params.per_item;
    // A loop per game inside one per work item: llvmpipe (lavapipe) cuts an invocation's loops
    // short after a fixed number of iterations (its guard against endless loops). One flat loop
    // through an item's games was cut within runs of 8 Paulhus n = 6 deals holding several
    // endless games; a loop per game is not (with the short items gpu.rs gives a CPU adapter).
    // Whatever a driver cuts, the host sees it: every game counts itself in TALLY_RECORDED.
    for (var item = lane; lane < params.lanes && item < items; item += params.lanes) {
        let first = item * params.per_item;
        let last = min(first + params.per_item, params.count);
        load_item(item);
        for (var game = first; game < last; game++) {
            if (game > first) {
                next_arrangement();
            }
            var g: Game;
            g = begin_deal();
            while (g.status == RUNNING) {
                g = step(g);
            }
            record(game, g.cards, g.tricks, g.status);
        }
    }
    group_end(local);
}
