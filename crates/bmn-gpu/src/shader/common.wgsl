// What both of bmn's GPU kernels share: the parameters and buffers of a dispatch, 64-bit words,
// the seeded stream and the other sources of deals, and how a finished game is recorded (a
// workgroup's totals and histogram in shared memory, then once into `tally`, or one result per
// game; only the games the host must see go to `kept`). The kernels: `events.wgsl` (an event a
// step, every lane in lockstep) and `tricks.wgsl` (a trick a step, for the decks the event
// kernel's encoding cannot hold).
//
// WGSL has no 64-bit integers, so a 64-bit word is a vec2<u32> (x the low half, y the high
// half) and the few 64-bit operations the stream and the stacks need are written out below.

// The host writes this struct as contract.rs's `Params` and reads `tally` by its TALLY_* words:
// a test there parses this file and checks both sides field for field and word for word.
struct Params {
    // Stream mode: the SplitMix64 counter of this batch's first deal (seed + 4 * first * GAMMA);
    // rank mode: the rank of its first deal.
    base_lo: u32,
    base_hi: u32,
    // Games in this batch.
    count: u32,
    // Cards in a deal, and the cards of player 1 (the first part of an arrangement).
    len: u32,
    first_hand: u32,
    // 0: player 1 leads; 1: player 2 leads.
    leader: u32,
    max_tricks: u32,
    // 0: the seeded stream (deal k = shuffle of `deck`); 1: arrangements stepped from starts
    // the host unranked; 2: arrangements unranked here from `base` (`cards_in` holds the
    // deck's count of each code).
    mode: u32,
    // Stream mode: cards shuffled on their own, one segment after another (a balanced deal
    // shuffles each player's share).
    segment: u32,
    // Games one work item plays: 1 in stream mode; a run of consecutive arrangements else.
    per_item: u32,
    // Invocations that take work items (item i goes to invocation i mod lanes).
    lanes: u32,
    // 0: every game's result to `results`; 1: finished games added up in `tally`, only the
    // ones that matter written to `kept`.
    tally: u32,
    // Cards per histogram bin, and the cards from which a finished game is kept (it may enter
    // the host's top K).
    bin: u32,
    keep_cards: u32,
    // Entries `kept` holds.
    kept_cap: u32,
    // Rank mode: the number of arrangements of the whole deck (at most 2^58).
    block_lo: u32,
    block_hi: u32,
    // The event kernel: games one lane takes at most (a CPU adapter's guard against long
    // loops; no limit on a GPU).
    lane_games: u32,
    // The event kernel: 1 if lanes take games from the queue, 0 if lane i takes games i,
    // i + lanes, ... (at most `lane_games` of them).
    queue: u32,
    // 1: finished games also counted by exact cards and tricks (`TALLY_BY_CARDS`, ...).
    lengths: u32,
    // Stream mode: 1 or 2 (bmn-deals' `sampler.rs`); on stream 2, a segment's background code
    // and its number of marked cards, whose codes `cards_in` holds, ascending.
    stream: u32,
    background: u32,
    marked: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// Stream mode: the deck's codes. Start mode: one start arrangement per work item. Rank mode:
// the deck's count of each code 0..5.
@group(0) @binding(1) var<storage, read> cards_in: array<u32>;
// Per game: (cards, tricks | status << 30), status 0 the leader won, 1 the other, 2 capped.
@group(0) @binding(2) var<storage, read_write> results: array<vec2<u32>>;
// The batch's totals (see TALLY_* below) and histogram, added to atomically.
@group(0) @binding(3) var<storage, read_write> tally: array<atomic<u32>>;
// Games the host records one by one: (game, cards, tricks | status << 30, 0).
@group(0) @binding(4) var<storage, read_write> kept: array<vec4<u32>>;
// The event kernel's deals, encoded by its dealing pass: three words a game (events.wgsl).
@group(0) @binding(5) var<storage, read_write> dealt: array<vec2<u32>>;

// Words of `tally`: kept games (all, even past `kept_cap`), finished games added up, their
// wins by the leader and by the other player, cards and tricks (64-bit, low word first),
// games recorded; the histogram starts at TALLY_HIST.
const TALLY_KEPT: u32 = 0u;
const TALLY_FINISHED: u32 = 1u;
const TALLY_WINS: u32 = 2u;
const TALLY_CARDS: u32 = 4u;
const TALLY_TRICKS: u32 = 6u;
// Games recorded (kept, added up or written): the host checks that every game was.
const TALLY_RECORDED: u32 = 8u;
// The event kernel's queue: the next game a lane takes.
const TALLY_NEXT: u32 = 9u;
// The event kernel's schedule: lane-steps that played an event (64-bit), and lane-steps a
// workgroup held (its longest lane's steps times its lanes, 64-bit), and the events those
// steps played (a step plays a penalty card and the payoff after it at once; 64-bit).
const TALLY_USEFUL: u32 = 10u;
const TALLY_HELD: u32 = 12u;
const TALLY_EVENTS: u32 = 14u;
const TALLY_HIST: u32 = 16u;
// Histogram bins; a finished game past them is kept instead.
const BINS: u32 = 256u;
// With `params.lengths`: finished games by exact cards below LENGTH_CARDS, and by exact tricks
// below LENGTH_TRICKS (longer ones are kept), counted straight into `tally` (too many bins for
// workgroup memory; a game's two adds land on different words, mostly uncontended).
const LENGTH_CARDS: u32 = 4096u;
const LENGTH_TRICKS: u32 = 1024u;
const TALLY_BY_CARDS: u32 = TALLY_HIST + BINS;
const TALLY_BY_TRICKS: u32 = TALLY_BY_CARDS + LENGTH_CARDS;

// ---- 64-bit words -------------------------------------------------------------------------

fn add64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let lo = a.x + b.x;
    return vec2<u32>(lo, a.y + b.y + select(0u, 1u, lo < a.x));
}

// The full 64-bit product of two 32-bit words, from 16-bit halves.
fn mul_wide(a: u32, b: u32) -> vec2<u32> {
    let a0 = a & 0xffffu;
    let a1 = a >> 16u;
    let b0 = b & 0xffffu;
    let b1 = b >> 16u;
    let p00 = a0 * b0;
    let p01 = a0 * b1;
    let p10 = a1 * b0;
    let p11 = a1 * b1;
    let mid = (p00 >> 16u) + (p01 & 0xffffu) + (p10 & 0xffffu);
    return vec2<u32>((p00 & 0xffffu) | (mid << 16u), p11 + (p01 >> 16u) + (p10 >> 16u) + (mid >> 16u));
}

// The low 64 bits of a 64-bit product.
fn mul64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    let w = mul_wide(a.x, b.x);
    return vec2<u32>(w.x, w.y + a.x * b.y + a.y * b.x);
}

// Shifts by any amount up to 64, without branches (lanes in lockstep take the same path):
// WGSL takes shift amounts modulo 32, so `(hi << 1) << (31 - s)` stands for `hi << (32 - s)`,
// which is 0 when s is 0.
fn shr64(v: vec2<u32>, k: u32) -> vec2<u32> {
    let s = k & 31u;
    let hi = v.y >> s;
    let near = vec2<u32>((v.x >> s) | ((v.y << 1u) << (31u - s)), hi);
    let far = select(vec2<u32>(hi, 0u), vec2<u32>(0u), k >= 64u);
    return select(near, far, k >= 32u);
}

fn shl64(v: vec2<u32>, k: u32) -> vec2<u32> {
    let s = k & 31u;
    let lo = v.x << s;
    let near = vec2<u32>(lo, (v.y << s) | ((v.x >> 1u) >> (31u - s)));
    let far = select(vec2<u32>(0u, lo), vec2<u32>(0u), k >= 64u);
    return select(near, far, k >= 32u);
}

fn rotl64(v: vec2<u32>, k: u32) -> vec2<u32> {
    return shl64(v, k) | shr64(v, 64u - k);
}

// Bit `k` (k < 64) alone.
fn bit64(k: u32) -> vec2<u32> {
    let b = 1u << (k & 31u);
    return select(vec2<u32>(b, 0u), vec2<u32>(0u, b), k >= 32u);
}

// The lowest set bit's index of a word that is not 0, from the exponent of that bit alone as
// a float: one conversion where `countTrailingZeros` on both halves takes two bit scans (and
// llvmpipe, without vector bit scans on AVX2, expands each into a dozen instructions).
fn ctz64(v: vec2<u32>) -> u32 {
    let low = v.x != 0u;
    let w = select(v.y, v.x, low);
    return (bitcast<u32>(f32(w & (0u - w))) >> 23u) - select(95u, 127u, low);
}

fn ones64(v: vec2<u32>) -> u32 {
    return countOneBits(v.x) + countOneBits(v.y);
}

// ---- The seeded stream (bmn-deals' stream.rs) ---------------------------------------------

const GAMMA: vec2<u32> = vec2<u32>(0x7f4a7c15u, 0x9e3779b9u);
// 4 * GAMMA mod 2^64: the counters of consecutive deals are this far apart.
const GAMMA4: vec2<u32> = vec2<u32>(0xfd29f054u, 0x78dde6e5u);
const MIX1: vec2<u32> = vec2<u32>(0x1ce4e5b9u, 0xbf58476du);
const MIX2: vec2<u32> = vec2<u32>(0x133111ebu, 0x94d049bbu);

var<private> splitmix: vec2<u32>;

fn splitmix_next() -> vec2<u32> {
    splitmix = add64(splitmix, GAMMA);
    var z = splitmix;
    z = mul64(z ^ shr64(z, 30u), MIX1);
    z = mul64(z ^ shr64(z, 27u), MIX2);
    return z ^ shr64(z, 31u);
}

// xoshiro256++ state and the buffered high half of its last output.
var<private> s0: vec2<u32>;
var<private> s1: vec2<u32>;
var<private> s2: vec2<u32>;
var<private> s3: vec2<u32>;
var<private> spare: u32;
var<private> has_spare: bool;

fn xoshiro_next() -> vec2<u32> {
    let result = add64(rotl64(add64(s0, s3), 23u), s0);
    let t = shl64(s1, 17u);
    s2 = s2 ^ s0;
    s3 = s3 ^ s1;
    s1 = s1 ^ s2;
    s0 = s0 ^ s3;
    s2 = s2 ^ t;
    s3 = rotl64(s3, 45u);
    return result;
}

// The low half of a fresh output, then its high half.
fn next_u32() -> u32 {
    if (has_spare) {
        has_spare = false;
        return spare;
    }
    let x = xoshiro_next();
    spare = x.y;
    has_spare = true;
    return x.x;
}

// The full product of a 32-bit word and one below 2^16 (a bound of the shuffle): two 16-bit
// products where `mul_wide` takes four.
fn mul_small(a: u32, b: u32) -> vec2<u32> {
    let lo = (a & 0xffffu) * b;
    let hi = (a >> 16u) * b;
    let x = lo + (hi << 16u);
    return vec2<u32>(x, (hi >> 16u) + select(0u, 1u, x < lo));
}

// Uniform in 0..bound (bound at most 64), Lemire's nearly divisionless method with its exact
// rejection.
fn below(bound: u32) -> u32 {
    var m = mul_small(next_u32(), bound);
    if (m.x < bound) {
        let threshold = (0u - bound) % bound;
        while (m.x < threshold) {
            m = mul_small(next_u32(), bound);
        }
    }
    return m.y;
}

// ---- Results: one per game, or added up ----------------------------------------------------

// This invocation's totals of the finished games it added up (64-bit sums as two words).
var<private> finished: u32;
var<private> wins0: u32;
var<private> wins1: u32;
var<private> cards_sum: vec2<u32>;
var<private> tricks_sum: vec2<u32>;
var<private> recorded: u32;

var<workgroup> group_hist: array<atomic<u32>, BINS>;
// Kept (unused), finished, wins by seat, cards and tricks (low, high), recorded: the
// workgroup's.
var<workgroup> group_sums: array<atomic<u32>, 9>;

fn add_small(v: vec2<u32>, k: u32) -> vec2<u32> {
    return add64(v, vec2<u32>(k, 0u));
}

// Adds a 64-bit value to two atomic words, carrying exactly.
fn atomic_add64_group(at: u32, v: vec2<u32>) {
    let old = atomicAdd(&group_sums[at], v.x);
    let carry = select(0u, 1u, old + v.x < old);
    if (v.y + carry != 0u) {
        atomicAdd(&group_sums[at + 1u], v.y + carry);
    }
}

fn atomic_add64_tally(at: u32, v: vec2<u32>) {
    let old = atomicAdd(&tally[at], v.x);
    let carry = select(0u, 1u, old + v.x < old);
    if (v.y + carry != 0u) {
        atomicAdd(&tally[at + 1u], v.y + carry);
    }
}

// Records a game's result: `status` 0 the leader won, 1 the other, 2 capped (3: cut short).
fn record(game: u32, cards: u32, tricks: u32, status: u32) {
    recorded += 1u;
    let word = tricks | (status << 30u);
    if (params.tally == 0u) {
        results[game] = vec2<u32>(cards, word);
        return;
    }
    let bin = cards / params.bin;
    // Capped games, and games a driver cut short (still RUNNING: the host refuses them).
    let long = params.lengths != 0u && (cards >= LENGTH_CARDS || tricks >= LENGTH_TRICKS);
    if (status >= 2u || cards >= params.keep_cards || bin >= BINS || long) {
        let slot = atomicAdd(&tally[TALLY_KEPT], 1u);
        if (slot < params.kept_cap) {
            kept[slot] = vec4<u32>(game, cards, word, 0u);
        }
        return;
    }
    finished += 1u;
    if (status == 0u) {
        wins0 += 1u;
    } else {
        wins1 += 1u;
    }
    cards_sum = add_small(cards_sum, cards);
    tricks_sum = add_small(tricks_sum, tricks);
    atomicAdd(&group_hist[bin], 1u);
    if (params.lengths != 0u) {
        atomicAdd(&tally[TALLY_BY_CARDS + cards], 1u);
        atomicAdd(&tally[TALLY_BY_TRICKS + tricks], 1u);
    }
}

// An invocation's index in a dispatch of (x, y) workgroups of 64.
fn flat_index(gid: vec3<u32>, groups: vec3<u32>) -> u32 {
    return gid.x + gid.y * groups.x * 64u;
}

// Clears the workgroup's totals; every invocation calls it first, in uniform control flow.
fn group_begin(local: u32) {
    for (var b = local; b < BINS; b += 64u) {
        atomicStore(&group_hist[b], 0u);
    }
    if (local < 9u) {
        atomicStore(&group_sums[local], 0u);
    }
    workgroupBarrier();
}

// Adds this invocation's totals to its workgroup's, and the workgroup's to `tally`; every
// invocation calls it last, in uniform control flow.
fn group_end(local: u32) {
    atomicAdd(&group_sums[TALLY_RECORDED], recorded);
    if (finished != 0u) {
        atomicAdd(&group_sums[TALLY_FINISHED], finished);
        atomicAdd(&group_sums[TALLY_WINS], wins0);
        atomicAdd(&group_sums[TALLY_WINS + 1u], wins1);
        atomic_add64_group(TALLY_CARDS, cards_sum);
        atomic_add64_group(TALLY_TRICKS, tricks_sum);
    }
    workgroupBarrier();
    for (var b = local; b < BINS; b += 64u) {
        let n = atomicLoad(&group_hist[b]);
        if (n != 0u) {
            atomicAdd(&tally[TALLY_HIST + b], n);
        }
    }
    if (local == 0u) {
        var sums: array<u32, 9>;
        for (var w = 0u; w < 9u; w++) {
            sums[w] = atomicLoad(&group_sums[w]);
        }
        atomicAdd(&tally[TALLY_RECORDED], sums[TALLY_RECORDED]);
        if (sums[TALLY_FINISHED] != 0u) {
            for (var w = TALLY_FINISHED; w < TALLY_CARDS; w++) {
                atomicAdd(&tally[w], sums[w]);
            }
            atomic_add64_tally(TALLY_CARDS, vec2<u32>(sums[TALLY_CARDS], sums[TALLY_CARDS + 1u]));
            atomic_add64_tally(TALLY_TRICKS, vec2<u32>(sums[TALLY_TRICKS], sums[TALLY_TRICKS + 1u]));
        }
    }
}

// ---- Where a work item's deals come from ---------------------------------------------------

// The deal being made, in codes: player 1's `first_hand` cards, then player 2's.
var<private> deal: array<u32, 64>;

// 64-bit helpers the unranking needs.
fn sub64(a: vec2<u32>, b: vec2<u32>) -> vec2<u32> {
    return vec2<u32>(a.x - b.x, a.y - b.y - select(0u, 1u, a.x < b.x));
}

fn less64(a: vec2<u32>, b: vec2<u32>) -> bool {
    return a.y < b.y || (a.y == b.y && a.x < b.x);
}

// `v / d` for d below 2^16, exact, sixteen bits at a time.
fn div_small(v: vec2<u32>, d: u32) -> vec2<u32> {
    var rem = 0u;
    var q = vec2<u32>(0u);
    var limbs = array<u32, 4>(v.y >> 16u, v.y & 0xffffu, v.x >> 16u, v.x & 0xffffu);
    var digits: array<u32, 4>;
    for (var i = 0u; i < 4u; i++) {
        let cur = (rem << 16u) | limbs[i];
        digits[i] = cur / d;
        rem = cur % d;
    }
    return vec2<u32>((digits[2] << 16u) | digits[3], (digits[0] << 16u) | digits[1]);
}

// The arrangement of rank `r` of the deck whose code counts `cards_in` holds, into `deal`
// (bmn-deals' `rank.rs`: the codes in ascending order, each block of arrangements that
// start with one code counted by the multinomial).
fn unrank(rank: vec2<u32>) {
    var r = rank;
    var left: array<u32, 6>;
    for (var s = 0u; s < 6u; s++) {
        left[s] = cards_in[s];
    }
    var block = vec2<u32>(params.block_lo, params.block_hi);
    let n = params.len;
    for (var i = 0u; i < n; i++) {
        let rest = n - i;
        for (var s = 0u; s < 6u; s++) {
            if (left[s] == 0u) {
                continue;
            }
            // Arrangements of what is left that start with code s: block * left[s] / rest
            // (below 2^64: the host checks block * 64 fits).
            let w = mul_wide(block.x, left[s]);
            let starting = div_small(vec2<u32>(w.x, w.y + block.y * left[s]), rest);
            if (less64(r, starting)) {
                deal[i] = s;
                left[s] -= 1u;
                block = starting;
                break;
            }
            r = sub64(r, starting);
        }
    }
}

// The generator of deal `index` (both streams): SplitMix64 from the deal's own counter seeds
// xoshiro256++ (bmn-deals' `deal_rng`).
fn seed_deal(index: u32) {
    splitmix = add64(vec2<u32>(params.base_lo, params.base_hi), mul64(vec2<u32>(index, 0u), GAMMA4));
    s0 = splitmix_next();
    s1 = splitmix_next();
    s2 = splitmix_next();
    s3 = splitmix_next();
    has_spare = false;
}

// Deal `index` of the seeded stream into `deal`: SplitMix64 from its own counter seeds
// xoshiro256++, then Durstenfeld's Fisher-Yates from the end of each segment.
fn deal_from_stream(index: u32) {
    let n = params.len;
    seed_deal(index);
    for (var i = 0u; i < n; i++) {
        deal[i] = cards_in[i];
    }
    for (var start = 0u; start < n; start += params.segment) {
        for (var i = params.segment - 1u; i >= 1u; i--) {
            let j = below(i + 1u);
            let t = deal[start + i];
            deal[start + i] = deal[start + j];
            deal[start + j] = t;
        }
    }
}

// Stream 2's bound for draw `k` of a segment of `n` cards with `m` marked: Floyd's `j + 1` for
// the first `m`, then Fisher-Yates's `i + 1` from `m` down to 2.
fn sample_bound(k: u32, n: u32, m: u32) -> u32 {
    return select(2u * m - k, n - m + k + 1u, k < m);
}

// The marked cards' codes in the order stream 2 deals them (private: a function's array would
// be cleared on every call).
var<private> marked_kinds: array<u32, 64>;
// Stream 2's last deal as the event kernel's stacks hold it, when no marked card is plain (a
// background of 0) and at most 16 are marked: the marked places (bit i: card i) and their
// codes less one, 2 bits each in the deal's order.
var<private> sampled_places: vec2<u32>;
var<private> sampled_kinds: u32;

// Deal `index` of stream 2 into `deal` (bmn-deals' `sampler.rs`): in each segment, the marked
// cards' places by Floyd's algorithm and their order by Fisher-Yates, the draws grouped while
// their bounds' product stays at most 2^24, a group's draws the mixed-radix digits of one
// 32-bit word, the whole group drawn again when its last word falls below 2^32 mod product.
// That last word is the first times the product (mod 2^32), so a word is refused before its
// digits are read and each digit is used as it comes (no array of them). `lay_out`: the cards
// into `deal`; else only into `sampled_places` and `sampled_kinds` (their conditions hold).
fn deal_from_sampler(index: u32, lay_out: bool) {
    seed_deal(index);
    let n = params.segment;
    let m = params.marked;
    let draws = select(0u, 2u * m - 1u, m > 0u);
    sampled_places = vec2<u32>(0u);
    sampled_kinds = 0u;
    for (var start = 0u; start < params.len; start += n) {
        for (var f = 0u; f < m; f++) {
            marked_kinds[f] = cards_in[f];
        }
        // Floyd's subset of 0..n as a 64-bit mask.
        var taken = vec2<u32>(0u);
        var k = 0u;
        while (k < draws) {
            // The group: bounds from k while the product stays at most 2^24.
            var end = k;
            var product = 1u;
            while (end < draws && product * sample_bound(end, n, m) <= 0x1000000u) {
                product *= sample_bound(end, n, m);
                end += 1u;
            }
            let threshold = (0u - product) % product;
            var w = next_u32();
            while (w * product < threshold) {
                w = next_u32();
            }
            for (var d = k; d < end; d++) {
                let digit = mul_small(w, sample_bound(d, n, m));
                w = digit.x;
                let t = digit.y;
                if (d < m) {
                    let bit = bit64(t);
                    let hit = any((taken & bit) != vec2<u32>(0u));
                    taken = taken | select(bit, bit64(n - m + d), hit);
                } else {
                    let i = 2u * m - 1u - d;
                    let x = marked_kinds[i];
                    marked_kinds[i] = marked_kinds[t];
                    marked_kinds[t] = x;
                }
            }
            k = end;
        }
        if (lay_out) {
            var f = 0u;
            for (var i = 0u; i < n; i++) {
                let at = any((taken & bit64(i)) != vec2<u32>(0u));
                deal[start + i] = select(params.background, marked_kinds[min(f, 63u)], at);
                f += select(0u, 1u, at);
            }
        } else {
            // This segment's cards follow the earlier segments' `start` cards and their
            // `start / n * m` marked cards.
            sampled_places = sampled_places | shl64(taken, start);
            let at = 2u * (start / n) * m;
            for (var f = 0u; f < m; f++) {
                sampled_kinds = sampled_kinds | ((marked_kinds[f] - 1u) << (at + 2u * f));
            }
        }
    }
}

// The first deal of work item `item` into `deal`.
fn load_item(item: u32) {
    let n = params.len;
    if (params.mode == 0u && params.stream == 2u) {
        deal_from_sampler(item, true);
    } else if (params.mode == 0u) {
        deal_from_stream(item);
    } else if (params.mode == 1u) {
        for (var i = 0u; i < n; i++) {
            deal[i] = cards_in[item * n + i];
        }
    } else {
        unrank(add64(vec2<u32>(params.base_lo, params.base_hi), vec2<u32>(item * params.per_item, 0u)));
    }
}

// The next arrangement in lexicographic order (the last one stays as it is).
fn next_arrangement() {
    let n = params.len;
    var i = n - 1u;
    loop {
        if (i == 0u) {
            return;
        }
        if (deal[i - 1u] < deal[i]) {
            break;
        }
        i -= 1u;
    }
    let p = i - 1u;
    var j = n - 1u;
    while (deal[j] <= deal[p]) {
        j -= 1u;
    }
    let t = deal[p];
    deal[p] = deal[j];
    deal[j] = t;
    var lo = i;
    var hi = n - 1u;
    while (lo < hi) {
        let u = deal[lo];
        deal[lo] = deal[hi];
        deal[hi] = u;
        lo += 1u;
        hi -= 1u;
    }
}

