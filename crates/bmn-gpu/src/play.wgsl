// bmn's GPU kernel: one invocation deals (or steps to) its deals and plays each two-player game
// to its end or the trick cap, exactly as bmn-kernel's trick-level loop (`scalar.rs`) does.
//
// WGSL has no 64-bit integers, so a 64-bit word is a vec2<u32> (x the low half, y the high
// half) and the few 64-bit operations the stream and the stacks need are written out below.

struct Params {
    // Stream mode: the SplitMix64 counter of this batch's first deal (seed + 4 * first * GAMMA).
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
    // 0: the seeded stream (deal k = shuffle of `deck`); 1: arrangements stepped from starts.
    mode: u32,
    // Stream mode: cards shuffled on their own, one segment after another (a balanced deal
    // shuffles each player's share); arrangement mode: deals played per invocation.
    segment: u32,
    per_thread: u32,
    _pad0: u32,
    _pad1: u32,
}

@group(0) @binding(0) var<uniform> params: Params;
// Stream mode: the deck's codes. Arrangement mode: one start arrangement per invocation.
@group(0) @binding(1) var<storage, read> cards_in: array<u32>;
// Per game: (cards, tricks | status << 30), status 0 the leader won, 1 the other, 2 capped.
@group(0) @binding(2) var<storage, read_write> results: array<vec2<u32>>;

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

// Shifts by any amount below 64 (WGSL takes shift amounts modulo 32, hence the cases).
fn shr64(v: vec2<u32>, k: u32) -> vec2<u32> {
    if (k == 0u) {
        return v;
    }
    if (k < 32u) {
        return vec2<u32>((v.x >> k) | (v.y << (32u - k)), v.y >> k);
    }
    return vec2<u32>(v.y >> (k - 32u), 0u);
}

fn shl64(v: vec2<u32>, k: u32) -> vec2<u32> {
    if (k == 0u) {
        return v;
    }
    if (k < 32u) {
        return vec2<u32>(v.x << k, (v.y << k) | (v.x >> (32u - k)));
    }
    return vec2<u32>(0u, v.x << (k - 32u));
}

fn rotl64(v: vec2<u32>, k: u32) -> vec2<u32> {
    return shl64(v, k) | shr64(v, 64u - k);
}

// Bit `k` (k < 64) alone.
fn bit64(k: u32) -> vec2<u32> {
    if (k < 32u) {
        return vec2<u32>(1u << k, 0u);
    }
    return vec2<u32>(0u, 1u << (k - 32u));
}

// Trailing zeros; 64 for zero.
fn ctz64(v: vec2<u32>) -> u32 {
    if (v.x != 0u) {
        return countTrailingZeros(v.x);
    }
    return 32u + countTrailingZeros(v.y);
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

// Uniform in 0..bound, Lemire's nearly divisionless method with its exact rejection.
fn below(bound: u32) -> u32 {
    var m = mul_wide(next_u32(), bound);
    if (m.x < bound) {
        let threshold = (0u - bound) % bound;
        while (m.x < threshold) {
            m = mul_wide(next_u32(), bound);
        }
    }
    return m.y;
}

// ---- Stacks as three bit planes (bmn-kernel's hand.rs) ------------------------------------

struct Stack {
    p0: vec2<u32>,
    p1: vec2<u32>,
    p2: vec2<u32>,
    len: u32,
}

var<private> deal: array<u32, 64>;

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

// ---- The trick loop (bmn-kernel's `play_stacks`) ------------------------------------------

// (winner relative to the leader or 2 when capped, cards laid, tricks). `x` leads first.
fn play(lead: Stack, other: Stack, max_tricks: u32) -> vec3<u32> {
    var x = lead;
    var y = other;
    // Which player `x` is: 0 the leader of the deal.
    var xid = 0u;
    var cards = 0u;
    var tricks = 0u;
    if (x.len == 0u) {
        return vec3<u32>(1u, 0u, 0u);
    }
    if (y.len == 0u) {
        return vec3<u32>(0u, 0u, 0u);
    }
    loop {
        if (tricks >= max_tricks) {
            return vec3<u32>(2u, cards, tricks);
        }
        let a = first_event(x);
        let b = first_event(y);
        var pile = empty();
        var m: u32;
        var debt: u32;
        // After the opening, `x` pays and `y` has dibs.
        if (a <= b) {
            if (a == x.len) {
                return vec3<u32>(xid ^ 1u, cards + 2u * a, tricks + 1u);
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
                return vec3<u32>(xid, cards + 2u * b + 1u, tricks + 1u);
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
                tricks += 1u;
                if (x.len == 0u) {
                    return vec3<u32>(xid ^ 1u, cards, tricks);
                }
                take(&y, pile, m);
                let t = x;
                x = y;
                y = t;
                xid ^= 1u;
                break;
            }
            if (k == x.len) {
                return vec3<u32>(xid ^ 1u, cards + m + k, tricks + 1u);
            }
            debt = pop_penalty(&x, k, &pile, m + k);
            m += k + 1u;
            // `y` pays `x`.
            let j = first_event(y);
            if (j >= debt) {
                drop_top(&y, debt);
                m += debt;
                cards += m;
                tricks += 1u;
                if (y.len == 0u) {
                    return vec3<u32>(xid, cards, tricks);
                }
                take(&x, pile, m);
                break;
            }
            if (j == y.len) {
                return vec3<u32>(xid, cards + m + j, tricks + 1u);
            }
            debt = pop_penalty(&y, j, &pile, m + j);
            m += j + 1u;
        }
    }
    return vec3<u32>(2u, cards, tricks);
}

// Plays the deal in `deal` and writes its result.
fn play_deal(game: u32) {
    let n = params.len;
    let h = params.first_hand;
    var r: vec3<u32>;
    if (params.leader == 0u) {
        r = play(encode(0u, h), encode(h, n), params.max_tricks);
    } else {
        r = play(encode(h, n), encode(0u, h), params.max_tricks);
    }
    results[game] = vec2<u32>(r.y, r.z | (r.x << 30u));
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

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let thread = gid.x + gid.y * groups.x * 64u;
    let n = params.len;
    if (params.mode == 0u) {
        if (thread >= params.count) {
            return;
        }
        // Deal `first + thread`: SplitMix64 from its own counter seeds xoshiro256++.
        splitmix = add64(vec2<u32>(params.base_lo, params.base_hi), mul64(vec2<u32>(thread, 0u), GAMMA4));
        s0 = splitmix_next();
        s1 = splitmix_next();
        s2 = splitmix_next();
        s3 = splitmix_next();
        has_spare = false;
        for (var i = 0u; i < n; i++) {
            deal[i] = cards_in[i];
        }
        // Durstenfeld's Fisher-Yates from the end of each segment.
        for (var start = 0u; start < n; start += params.segment) {
            for (var i = params.segment - 1u; i >= 1u; i--) {
                let j = below(i + 1u);
                let t = deal[start + i];
                deal[start + i] = deal[start + j];
                deal[start + j] = t;
            }
        }
        play_deal(thread);
        return;
    }
    let first = thread * params.per_thread;
    if (first >= params.count) {
        return;
    }
    for (var i = 0u; i < n; i++) {
        deal[i] = cards_in[thread * n + i];
    }
    let last = min(first + params.per_thread, params.count);
    for (var g = first; g < last; g++) {
        if (g > first) {
            next_arrangement();
        }
        play_deal(g);
    }
}
