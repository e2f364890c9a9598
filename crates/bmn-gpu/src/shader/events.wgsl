// bmn's event kernel: every lane advances its game by one penalty card (or a player running
// out) a step, and the payoff after it when the payer's next cards are plain, with the same
// instructions for every lane, and a lane whose game ends takes the next one from the
// dispatch's queue and keeps stepping (persistent lanes, the GPU form of bmn-kernel's
// streaming lanes, `queue.rs`). An event is a penalty card laid, a debt paid off, or a player
// running out. The trick kernel (`tricks.wgsl`) runs a warp until its longest game ends, which
// kept about four lanes in five idle (issue 48's model: 18% of lanes busy per event on
// standard deals); here a lane idles only at the end of the dispatch.
//
// Three passes: `deal_events` deals (or unranks) every game of the dispatch and encodes its
// stacks into `dealt`, so that taking the next game is three loads, not a shuffle in the middle
// of the step loop (which the whole warp would run whenever one lane needs a game);
// `play_events` plays them, writing each result over its deal; `tally_events` records the
// results (totals, histogram, kept games) a game an invocation. Recording inside the step loop,
// with its atomics and branches, took half of llvmpipe's time (1.14x10^6 standard games/s
// without it, 5.9x10^5 with it, on 2 Zen 4 cores).
//
// A stack is a penalty mask and a queue of kinds, in 32-bit words:
// - `mask` (64-bit): bit i set iff card i from the top is a penalty card, plus a sentinel bit
//   at the stack's length (at most 63 at every trick boundary of a game still on). The stack's
//   first event is the mask's lowest set bit; laying k cards is a shift by k; the stack has
//   run out iff only the sentinel is left.
// - `kinds` (32-bit): its penalty cards' values less one, 2 bits each, the first in the low
//   bits. At most 16 penalty cards in a deal (the standard deck, Camicia, Paulhus's decks), no
//   jokers: the host sends other decks to the trick kernel.

// ---- Dealing ------------------------------------------------------------------------------

// Cards `lo..hi` of `deal` as a stack: (mask, its high word, kinds) in a vec3.
fn encode_stack(lo: u32, hi: u32) -> vec3<u32> {
    var mask = bit64(hi - lo);
    var kinds = 0u;
    var at = 0u;
    for (var i = lo; i < hi; i++) {
        let c = deal[i];
        if (c != 0u) {
            mask = mask | bit64(i - lo);
            kinds = kinds | ((c - 1u) << at);
            at += 2u;
        }
    }
    return vec3<u32>(mask, kinds);
}

// Writes the deal in `deal` as game `game`.
fn store_dealt(game: u32) {
    let h = params.first_hand;
    store_stacks(game, encode_stack(0u, h), encode_stack(h, params.len));
}

// Writes stream 2's last deal, from its marked places and kinds (no card laid out, no loop over
// the cards), as game `game`.
fn store_sampled(game: u32) {
    let h = params.first_hand;
    let places = sampled_places;
    let other = shr64(places, h);
    let first = places ^ shl64(other, h);
    // The first hand's kinds fill 2 bits a penalty card (all 32 with 16 of them).
    let bits = 2u * ones64(first);
    let kinds = select(sampled_kinds & ((1u << bits) - 1u), sampled_kinds, bits >= 32u);
    let rest = select(sampled_kinds >> bits, 0u, bits >= 32u);
    store_stacks(
        game,
        vec3<u32>(first | bit64(h), kinds),
        vec3<u32>(other | bit64(params.len - h), rest),
    );
}

// Writes game `game`'s stacks (player 1's cards, then the other's: mask, its high word, kinds):
// the leader's stack, the other's, both kinds.
fn store_stacks(game: u32, one: vec3<u32>, two: vec3<u32>) {
    var lead = one;
    var other = two;
    if (params.leader != 0u) {
        let t = lead;
        lead = other;
        other = t;
    }
    dealt[3u * game] = lead.xy;
    dealt[3u * game + 1u] = other.xy;
    dealt[3u * game + 2u] = vec2<u32>(lead.z, other.z);
}

// One invocation a work item: a stream deal, or a run of consecutive arrangements.
@compute @workgroup_size(64)
fn deal_events(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    let item = flat_index(gid, groups);
    let items = (params.count + params.per_item - 1u) / params.per_item;
    if (item >= items) {
        return;
    }
    let first = item * params.per_item;
    // Stream 2 whose marked cards are all penalty cards: the stacks straight from the draws.
    if (params.mode == 0u && params.stream == 2u && params.background == 0u) {
        deal_from_sampler(item, false);
        store_sampled(first);
        return;
    }
    let last = min(first + params.per_item, params.count);
    load_item(item);
    for (var game = first; game < last; game++) {
        if (game > first) {
            next_arrangement();
        }
        store_dealt(game);
    }
}

// ---- Playing ------------------------------------------------------------------------------

// The workgroup's lane-steps that played an event, its longest lane's steps, and the payoffs
// its steps played beside a penalty card (so events = steps + payoffs).
var<workgroup> group_useful: atomic<u32>;
var<workgroup> group_longest: atomic<u32>;
var<workgroup> group_payoffs: atomic<u32>;

const NO_GAME: u32 = 0xffffffffu;

// The index of the highest set bit of a 64-bit word that is not 0: a stack's length, from its
// sentinel.
fn top64(v: vec2<u32>) -> u32 {
    return select(firstLeadingBit(v.x), 32u + firstLeadingBit(v.y), v.y != 0u);
}

// `v >> k` for 1 <= k <= 4 (a debt): no case for shifts past a word.
fn shr64_debt(v: vec2<u32>, k: u32) -> vec2<u32> {
    return vec2<u32>((v.x >> k) | (v.y << (32u - k)), v.y >> k);
}

@compute @workgroup_size(64)
fn play_events(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    if (local == 0u) {
        atomicStore(&group_useful, 0u);
        atomicStore(&group_longest, 0u);
        atomicStore(&group_payoffs, 0u);
    }
    workgroupBarrier();

    let lane = flat_index(gid, groups);
    // A game under way: `x` acts (the leader in a trick's opening exchange, the payer after
    // it), `y` the other (who holds the claim once a penalty card is down); `xid` is 0 if `x`
    // is the deal's leader; the pile's `m` cards (none exactly in an opening, so no debt is
    // kept: a payment's size is never read), its penalty cards' positions `pm` and kinds `pq`.
    // No counters of a stack's length or of its kinds' bits: the step finds the few it needs
    // from the masks (a leading-bit scan, a bit count), which costs less than keeping four
    // counters through every step's selects and swaps.
    var game = NO_GAME;
    var taken = 0u;
    var steps = 0u;
    var payoffs = 0u;
    var xm = vec2<u32>(0u);
    var ym = vec2<u32>(0u);
    var xq = 0u;
    var yq = 0u;
    var pm = vec2<u32>(0u);
    var pq = 0u;
    var m = 0u;
    var xid = 0u;
    var cards = 0u;
    var tricks = 0u;
    // A lane past `lanes` (the dispatch's last workgroup) plays nothing.
    if (lane < params.lanes) {
        loop {
            if (game == NO_GAME) {
                // The next game: from the queue on a GPU; on a CPU adapter (whose workgroups
                // run in order, a few at a time) games lane, lane + lanes, ..., which spares
                // llvmpipe an atomic per game.
                var next = params.count;
                if (params.queue == 0u) {
                    next = lane + taken * params.lanes;
                } else if (taken < params.lane_games) {
                    next = atomicAdd(&tally[TALLY_NEXT], 1u);
                }
                if (next >= params.count) {
                    break;
                }
                game = next;
                taken += 1u;
                xm = dealt[3u * game];
                ym = dealt[3u * game + 1u];
                let q = dealt[3u * game + 2u];
                xq = q.x;
                yq = q.y;
                pm = vec2<u32>(0u);
                pq = 0u;
                m = 0u;
                xid = 0u;
                cards = 0u;
                tricks = 0u;
            }
            steps += 1u;

            // ---- One step, straight-line (every `if` below is a select): a penalty card
            // (or a player out of cards), and the payoff that follows it at once when the
            // payer's next cards are all plain. bmn-kernel's AVX-512 step has the same shape
            // (queue/avx512.rs); a standard game takes about 79 steps here where one event a
            // step took 114. A payment never ends in a payoff: the step that set the debt
            // played the payoff if there was one.
            // Each stack's first event: its first penalty card, or its sentinel.
            let kx = ctz64(xm);
            let ky = ctz64(ym);
            let opening = m == 0u;
            // In the opening, y's card `ky` (laid at step 2ky + 1) comes before x's card `kx`
            // (step 2kx) iff ky < kx; in a payment only x lays.
            let act_y = opening && ky < kx;
            let k = select(kx, ky, act_y);
            // Cards laid before the event's: 2k (+1 if y acts) in the opening, kx in a
            // payment. x lays k + 1 of them, y the rest.
            let before = select(kx, 2u * k + select(0u, 1u, act_y), opening);
            let pos = m + before;
            let xm2 = shr64(xm, k + 1u);
            let ym2 = shr64(ym, before - k);
            // The actor laid past its sentinel (the other keeps its own).
            let out = all(xm2 == vec2<u32>(0u)) || all(ym2 == vec2<u32>(0u));
            // The actor `a` laid a penalty card worth `w`; the other, `b`, owes `w`.
            let aq = select(xq, yq, act_y);
            let w = (aq & 3u) + 1u;
            let am = select(xm2, ym2, act_y);
            let bm = select(ym2, xm2, act_y);
            let bq = select(yq, xq, act_y);
            let aq2 = aq >> 2u;
            // The pile with the penalty card on it: its bit at its position, its kind after
            // the pile's others (two bits each).
            let pm1 = pm | bit64(pos);
            let pq1 = pq | ((w - 1u) << (2u * ones64(pm)));
            let m1 = pos + 1u;
            // The payoff in the same step: b's first w cards are plain (and b has them).
            let payoff = !out && (bm.x & ((1u << w) - 1u)) == 0u;
            let bm3 = select(bm, shr64_debt(bm, w), payoff);
            // Cards on the pile when the trick ends: pos + 1 + w in a payoff, pos when out.
            let cm = select(pos, m1 + w, payoff);
            // A payoff: a puts the pile under its stack. The pile's mask, its lowest bit
            // flipped and a sentinel at `cm`, XORed in at a's sentinel, replaces that sentinel
            // with the pile's first card; its kinds go after a's.
            let pile = (pm1 ^ vec2<u32>(1u, 0u)) | bit64(cm);
            let am3 = select(am, am ^ shl64(pile, top64(am)), payoff);
            let aq3 = select(aq2, aq2 | (pq1 << (2u * (ones64(am) - 1u))), payoff);
            let ends_trick = payoff || out;
            cards += select(0u, cm, ends_trick);
            tricks += select(0u, 1u, ends_trick);
            // Over: the actor ran out (b wins), or b paid with its last card (a wins).
            let finished = out || (payoff && all(bm3 == vec2<u32>(1u, 0u)));
            let ida = xid ^ select(0u, 1u, act_y);
            let winner = select(ida ^ 1u, ida, payoff);
            let capped = !finished && payoff && tricks >= params.max_tricks;
            // A payoff empties the pile and a leads; otherwise b pays next, to a.
            let going = !payoff;
            pm = select(vec2<u32>(0u), pm1, going);
            pq = select(0u, pq1, going);
            m = select(0u, m1, going);
            xid = select(ida, ida ^ 1u, going);
            xm = select(am3, bm3, going);
            ym = select(bm3, am3, going);
            xq = select(aq3, bq, going);
            yq = select(bq, aq3, going);

            if (finished || capped) {
                // The result over the deal, and a mask of 0 (never a stack's: every stack has
                // its sentinel) to say the game was played. Every trick but one that ended by
                // running out was a payoff.
                payoffs += tricks - select(0u, 1u, out);
                let status = select(winner, 2u, capped);
                dealt[3u * game] = vec2<u32>(cards, tricks | (status << 30u));
                dealt[3u * game + 1u] = vec2<u32>(0u);
                game = NO_GAME;
            }
        }
    }

    atomicAdd(&group_useful, steps);
    atomicMax(&group_longest, steps);
    atomicAdd(&group_payoffs, payoffs);
    workgroupBarrier();
    if (local == 0u) {
        let useful = atomicLoad(&group_useful);
        atomic_add64_tally(TALLY_USEFUL, vec2<u32>(useful, 0u));
        atomic_add64_tally(TALLY_HELD, mul_wide(atomicLoad(&group_longest), 64u));
        atomic_add64_tally(TALLY_EVENTS, vec2<u32>(useful, 0u));
        atomic_add64_tally(TALLY_EVENTS, vec2<u32>(atomicLoad(&group_payoffs), 0u));
    }
}

// ---- Recording ----------------------------------------------------------------------------

// One invocation a game: its result, if `play_events` played it (a game a driver cut short is
// left unrecorded, and the host refuses the batch).
@compute @workgroup_size(64)
fn tally_events(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    group_begin(local);
    let game = flat_index(gid, groups);
    if (game < params.count && all(dealt[3u * game + 1u] == vec2<u32>(0u))) {
        let r = dealt[3u * game];
        record(game, r.x, r.y & 0x3fffffffu, r.y >> 30u);
    }
    group_end(local);
}
