//! Kernels off the CPU: what a device (a GPU) is asked to play, and the trait a device crate
//! implements, so that this crate plays on one without depending on any GPU library.
//!
//! A device deals its own games (a deal is a pure function of the seed and its index, or the
//! next arrangement of the one before), so only a few bytes per batch cross the bus each way.

use std::borrow::Cow;
use std::fmt;

use bmn_kernel::Played;

/// Where a batch's deals come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceDeals<'a> {
    /// Deal `first + i` of `seed`'s stream (bmn-deals' `stream.rs`): `deck` (kernel codes)
    /// shuffled `segment` cards at a time, one generator running through the segments (a
    /// uniform deal is one segment; a balanced one shuffles each player's share).
    Stream {
        seed: u64,
        first: u64,
        deck: Cow<'a, [u8]>,
        segment: usize,
    },
    /// Arrangements in lexicographic order: each start (one deal's codes, player 1's part
    /// first) is followed by the next `per_start - 1` arrangements.
    Arrangements { starts: Vec<u8>, per_start: usize },
}

/// A batch of two-player games for a device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceBatch<'a> {
    pub deals: DeviceDeals<'a>,
    /// Games in the batch.
    pub count: usize,
    /// Cards in a deal (at most 64) and player 1's share of them (the first ones).
    pub len: usize,
    pub first_hand: usize,
    /// 0: player 1 leads; 1: player 2 leads.
    pub leader: u8,
    /// Games still going after this many tricks come back [`Played::Capped`].
    pub max_tricks: u32,
}

/// Deals each start covers in [`DeviceDeals::Arrangements`]: the CPU unranks one deal in
/// this many, the device steps to the others.
pub const PER_START: usize = 8;

/// A device that plays batches exactly as bmn-kernel does: one [`Played`] per game, the
/// winner counted from the leader (0 the leader), the same cards and tricks.
pub trait DevicePlayer: Sync + Send {
    /// Short name for reports (`gpu`).
    fn name(&self) -> &'static str;
    /// Plays `batch` into `out` (`batch.count` entries). With `wait` false, returns
    /// `Ok(false)` at once, playing nothing, if the device is busy with another caller's batch.
    /// An error leaves `out` unspecified: the caller plays the batch elsewhere.
    fn play(&self, batch: &DeviceBatch<'_>, out: &mut [Played], wait: bool)
    -> Result<bool, String>;
    /// The first error a batch met, if any (its games were then played on the CPU).
    fn first_error(&self) -> Option<String>;
}

/// A device for [`crate::Engine`]: compared by identity, printed by name.
#[derive(Clone, Copy)]
pub struct Device(pub &'static dyn DevicePlayer);

impl PartialEq for Device {
    fn eq(&self, other: &Device) -> bool {
        std::ptr::addr_eq(self.0, other.0)
    }
}

impl Eq for Device {}

impl fmt::Debug for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Device({})", self.0.name())
    }
}
