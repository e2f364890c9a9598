//! Bit-plane encoding of a stack of at most 64 cards, shared by every kernel.
//!
//! A stack is three `u64` bit planes: bit `i` of plane `j` is bit `j` of the code of the
//! `i`-th card from the top (codes: 0 plain, 1 J, 2 Q, 3 K, 4 A, 5 joker). A plain card is
//! all zeros in every plane, so the penalty cards of a stack are `p0 | p1 | p2`, the first
//! penalty card is a trailing-zero count, laying `k` cards is a right shift by `k`, and
//! putting a pile under a stack of `n` cards is `planes |= pile << n`. The pile of a trick
//! is kept in the same form, indexed in play order, and only its penalty cards ever set a
//! bit (the plain cards it receives are zeros), so building it costs one OR per penalty card.

/// Largest card code a kernel accepts (5 = joker).
pub const MAX_CODE: u8 = 5;

/// Largest number of cards in a game the kernels accept (one `u64` bit per card).
pub const MAX_CARDS: usize = 64;

/// Encodes `cards` (top first) into three bit planes.
///
/// # Panics
/// If there are more than [`MAX_CARDS`] cards or a code is above [`MAX_CODE`].
#[inline]
pub(crate) fn encode(cards: &[u8]) -> [u64; 3] {
    assert!(cards.len() <= MAX_CARDS, "at most {MAX_CARDS} cards");
    assert!(
        cards.iter().all(|&c| c <= MAX_CODE),
        "card code above {MAX_CODE}"
    );
    encode_unchecked(cards)
}

/// [`encode`] without the checks (codes must be at most 7, at most 64 cards): eight cards
/// at a time, gathering bit `j` of each byte with one multiply (the bytes' bits land in
/// distinct places of the top byte, so nothing carries; a classic from "Bit Twiddling Hacks").
#[inline(always)]
pub(crate) fn encode_unchecked(cards: &[u8]) -> [u64; 3] {
    const LSB: u64 = 0x0101_0101_0101_0101;
    const GATHER: u64 = 0x0102_0408_1020_4080; // byte i's bit 0 -> bit 56 + i
    let mut planes = [0u64; 3];
    for (chunk_index, chunk) in cards.chunks(8).enumerate() {
        let mut bytes = [0u8; 8];
        bytes[..chunk.len()].copy_from_slice(chunk);
        let w = u64::from_le_bytes(bytes);
        for (j, plane) in planes.iter_mut().enumerate() {
            let bits = ((w >> j) & LSB).wrapping_mul(GATHER) >> 56;
            *plane |= bits << (8 * chunk_index);
        }
    }
    planes
}
