// bmn's event kernel: every lane advances its game by exactly one event a step, with the same
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

// Writes the deal in `deal` as game `game`: the leader's stack, the other's, both kinds.
fn store_dealt(game: u32) {
    let n = params.len;
    let h = params.first_hand;
    var lead = encode_stack(0u, h);
    var other = encode_stack(h, n);
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

// The workgroup's lane-steps that played an event, and its longest lane's steps.
var<workgroup> group_useful: atomic<u32>;
var<workgroup> group_longest: atomic<u32>;

const NO_GAME: u32 = 0xffffffffu;

@compute @workgroup_size(64)
fn play_events(
    @builtin(global_invocation_id) gid: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
    @builtin(num_workgroups) groups: vec3<u32>,
) {
    if (local == 0u) {
        atomicStore(&group_useful, 0u);
        atomicStore(&group_longest, 0u);
    }
    workgroupBarrier();

    let lane = flat_index(gid, groups);
    // A game under way: `x` acts (the leader in a trick's opening exchange, the payer after
    // it), `y` the other (who holds the claim once a penalty card is down); `xid` is 0 if `x`
    // is the deal's leader; `v` the debt, 0 in the opening; the pile's `m` cards, its penalty
    // cards' positions `pm` and kinds `pq` (`ps` bits of them).
    var game = NO_GAME;
    var taken = 0u;
    var steps = 0u;
    var xm = vec2<u32>(0u);
    var ym = vec2<u32>(0u);
    var xq = 0u;
    var yq = 0u;
    // Each stack's length, and the bits its kinds fill (2 per penalty card): kept as counters,
    // which costs a few adds where finding them again would cost bit counts.
    var xl = 0u;
    var yl = 0u;
    var xs = 0u;
    var ys = 0u;
    var pm = vec2<u32>(0u);
    var pq = 0u;
    var ps = 0u;
    var m = 0u;
    var v = 0u;
    var xid = 0u;
    var cards = 0u;
    var tricks = 0u;
    // The leader's cards and the other's, the same in every deal of the dispatch.
    let lead_len = select(params.first_hand, params.len - params.first_hand, params.leader != 0u);
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
                xl = lead_len;
                yl = params.len - lead_len;
                xs = 2u * (ones64(xm) - 1u);
                ys = 2u * (ones64(ym) - 1u);
                pm = vec2<u32>(0u);
                pq = 0u;
                ps = 0u;
                m = 0u;
                v = 0u;
                xid = 0u;
                cards = 0u;
                tricks = 0u;
            }
            steps += 1u;

            // ---- One event, straight-line (every `if` below is a select) ----
            // Each stack's first event: its first penalty card, or its sentinel.
            let kx = ctz64(xm);
            let ky = ctz64(ym);
            let opening = v == 0u;
            // In the opening, y's card `ky` (laid at step 2ky + 1) comes before x's card `kx`
            // (step 2kx) iff ky < kx; in a payment only x lays.
            let act_y = opening && ky < kx;
            let payoff = !opening && kx >= v;
            // The actor's event is its sentinel: it must lay a card and has none.
            let out = !payoff && select(kx, ky, act_y) == select(xl, yl, act_y);
            let pen = !payoff && !out;
            let pen_x = pen && !act_y;
            let pen_y = pen && act_y;
            // Plain cards laid in this step before the event's card.
            let before = select(select(2u * kx, 2u * ky + 1u, act_y), kx, !opening);
            let w = (select(xq, yq, act_y) & 3u) + 1u;
            // A penalty card goes onto the pile: its bit at its position, its kind queued.
            pm = pm | select(vec2<u32>(0u), bit64(m + before), pen);
            pq = pq | select(0u, (w - 1u) << ps, pen);
            ps += select(0u, 2u, pen);
            // Cards each stack lays.
            let rx = select(select(kx + 1u, ky + 1u, act_y), v, payoff);
            let ry = select(select(0u, kx, opening), ky + 1u, act_y);
            var xm2 = shr64(xm, rx);
            var ym2 = shr64(ym, ry);
            let xl2 = xl - rx;
            var yl2 = yl - ry;
            let xq2 = select(xq, xq >> 2u, pen_x);
            var yq2 = select(yq, yq >> 2u, pen_y);
            let xs2 = xs - select(0u, 2u, pen_x);
            var ys2 = ys - select(0u, 2u, pen_y);
            let m2 = m + select(before + select(0u, 1u, pen), v, payoff);
            // A payoff: y puts the pile of `m2` cards under its stack. The pile's mask, its
            // lowest bit flipped and a sentinel at `m2`, XORed in at y's sentinel, replaces
            // that sentinel with the pile's first card; its kinds go after y's.
            ym2 = select(ym2, ym2 ^ shl64((pm ^ vec2<u32>(1u, 0u)) | bit64(m2), yl2), payoff);
            yq2 = select(yq2, yq2 | (pq << ys2), payoff);
            yl2 += select(0u, m2, payoff);
            ys2 += select(0u, ps, payoff);
            let ends_trick = payoff || out;
            cards += select(0u, m2, ends_trick);
            tricks += select(0u, 1u, ends_trick);
            // Over: the actor ran out, or the payer paid with its last card.
            let finished = out || (payoff && xl2 == 0u);
            // Out: the actor's opponent wins; a payoff: y wins.
            let winner = xid ^ select(1u, 0u, out && act_y);
            let capped = !finished && payoff && tricks >= params.max_tricks;
            // After x's penalty card, or a payoff, x and y change roles.
            let swap = pen_x || payoff;
            pm = select(pm, vec2<u32>(0u), payoff);
            pq = select(pq, 0u, payoff);
            ps = select(ps, 0u, payoff);
            m = select(m2, 0u, payoff);
            v = select(0u, w, pen);
            xid ^= select(0u, 1u, swap);
            xm = select(xm2, ym2, swap);
            ym = select(ym2, xm2, swap);
            xq = select(xq2, yq2, swap);
            yq = select(yq2, xq2, swap);
            xl = select(xl2, yl2, swap);
            yl = select(yl2, xl2, swap);
            xs = select(xs2, ys2, swap);
            ys = select(ys2, xs2, swap);

            if (finished || capped) {
                // The result over the deal, and a mask of 0 (never a stack's: every stack has
                // its sentinel) to say the game was played.
                let status = select(winner, 2u, capped);
                dealt[3u * game] = vec2<u32>(cards, tricks | (status << 30u));
                dealt[3u * game + 1u] = vec2<u32>(0u);
                game = NO_GAME;
            }
        }
    }

    atomicAdd(&group_useful, steps);
    atomicMax(&group_longest, steps);
    workgroupBarrier();
    if (local == 0u) {
        atomic_add64_tally(TALLY_USEFUL, vec2<u32>(atomicLoad(&group_useful), 0u));
        atomic_add64_tally(TALLY_HELD, mul_wide(atomicLoad(&group_longest), 64u));
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
