//! Kernels off the CPU: what a device (a GPU) is asked to play, and the trait a device crate
//! implements, so that this crate plays on one without depending on any GPU library.
//!
//! A device deals its own games (a deal is a pure function of the seed and its index, or the
//! next arrangement of the one before), so only a few bytes per batch cross the bus each way.

use std::borrow::Cow;
use std::fmt;
use std::sync::atomic::AtomicU32;

use bmn_core::Player;
pub use bmn_deals::Stream;
use bmn_kernel::Played;

use crate::counts::{add_at, add_counts};

/// Where a batch's deals come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeviceDeals<'a> {
    /// Deal `first + i` of `seed`'s `stream` (bmn-deals' `stream.rs` and `sampler.rs`): `deck`
    /// (kernel codes) dealt `segment` cards at a time, one generator running through the
    /// segments (a uniform deal is one segment; a balanced one deals each player's share).
    Stream {
        seed: u64,
        first: u64,
        deck: Cow<'a, [u8]>,
        segment: usize,
        stream: Stream,
    },
    /// Arrangements in lexicographic order: each start (one deal's codes, player 1's part
    /// first) is followed by the next `per_start - 1` arrangements.
    Arrangements { starts: Vec<u8>, per_start: usize },
    /// Arrangements in lexicographic order from rank `first` among the arrangements of a deck
    /// with `counts[c]` cards of code `c`, unranked on the device (player 1's part first).
    /// For decks of at most [`MAX_RANKED`] arrangements (Camicia's 1.94x10^14, every
    /// Paulhus deck); larger ones come as `Arrangements`.
    Ranks { first: u64, counts: [u32; 6] },
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

/// Arrangements a deck may have for [`DeviceDeals::Ranks`]: 2^58, so that a rank times a
/// card count fits the device's 64-bit arithmetic.
pub const MAX_RANKED: u128 = 1 << 58;

/// Histogram bins a device adds finished games into; a game past them comes back one by one.
pub const DIGEST_BINS: usize = 256;

/// With [`DigestSpec::lengths`], finished games are also counted by exact length in cards
/// below this many cards and in tricks below [`LENGTH_TRICKS`]; a longer one comes back on
/// its own.
pub const LENGTH_CARDS: usize = 4096;
pub const LENGTH_TRICKS: usize = 1024;

/// What a device adds up itself for a tally that takes totals (a search's summary).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DigestSpec {
    /// Cards per histogram bin.
    pub bin: u32,
    /// Finished games of at least this many cards come back one by one (they may enter the
    /// host's top K); so do capped games and games past the last bin.
    pub keep_cards: u32,
    /// Also count finished games by exact length in cards and in tricks
    /// ([`Digest::by_cards`], [`Digest::by_tricks`]): what `bmn stats` tallies.
    pub lengths: bool,
}

/// A batch's games as a device returns them for a [`DigestSpec`]: totals of the finished
/// games it added up, and every other game on its own, so only a few bytes per thousand
/// games cross the bus.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Digest {
    /// Finished games added up, and of them the wins of the leader (`wins[0]`) and of the
    /// other player.
    pub finished: u64,
    pub wins: [u64; 2],
    /// Their cards and tricks.
    pub cards: u64,
    pub tricks: u64,
    /// Their count by `cards / bin`, without trailing empty bins.
    pub histogram: Vec<u64>,
    /// With [`DigestSpec::lengths`], their count by exact cards and by exact tricks, without
    /// trailing zeros; else empty.
    pub by_cards: Vec<u64>,
    pub by_tricks: Vec<u64>,
    /// The games not added up, by index in the batch, ascending.
    pub kept: Vec<(usize, Played)>,
}

impl Digest {
    /// Whether a game comes back on its own under `spec`.
    pub fn keeps(spec: DigestSpec, played: Played) -> bool {
        match played {
            Played::Capped { .. } => true,
            Played::Finished { cards, tricks, .. } => {
                cards >= spec.keep_cards
                    || (cards / spec.bin) as usize >= DIGEST_BINS
                    || (spec.lengths
                        && (cards as usize >= LENGTH_CARDS || tricks as usize >= LENGTH_TRICKS))
            }
        }
    }

    /// The digest of games played one by one: what every device's digest must equal.
    pub fn of(played: &[Played], spec: DigestSpec) -> Digest {
        let mut d = Digest::default();
        for (i, &p) in played.iter().enumerate() {
            match p {
                _ if Digest::keeps(spec, p) => d.kept.push((i, p)),
                Played::Finished {
                    winner,
                    cards,
                    tricks,
                } => {
                    d.finished += 1;
                    d.wins[usize::from(winner)] += 1;
                    d.cards += u64::from(cards);
                    d.tricks += u64::from(tricks);
                    add_at(&mut d.histogram, (cards / spec.bin) as usize, 1);
                    if spec.lengths {
                        add_at(&mut d.by_cards, cards as usize, 1);
                        add_at(&mut d.by_tricks, tricks as usize, 1);
                    }
                }
                Played::Capped { .. } => unreachable!("capped games are kept"),
            }
        }
        d
    }

    /// Adds the finished games' wins to `wins`, counted by seat (`wins[0]`: player 1) with
    /// `leader` leading every deal; as games recorded one by one do, a seat appears once it has
    /// won.
    pub fn add_wins(&self, wins: &mut Vec<u64>, leader: Player) {
        for (from_leader, &n) in self.wins.iter().enumerate() {
            if n > 0 {
                add_at(wins, (leader.index() + from_leader) % 2, n);
            }
        }
    }

    /// Adds the digest of the `offset` games after this one's.
    pub fn append(&mut self, later: Digest, offset: usize) {
        self.finished += later.finished;
        for (w, l) in self.wins.iter_mut().zip(later.wins) {
            *w += l;
        }
        self.cards += later.cards;
        self.tricks += later.tricks;
        add_counts(&mut self.histogram, &later.histogram);
        add_counts(&mut self.by_cards, &later.by_cards);
        add_counts(&mut self.by_tricks, &later.by_tricks);
        self.kept
            .extend(later.kept.into_iter().map(|(i, p)| (i + offset, p)));
    }
}

/// Why a device did not play a batch (its caller then plays it on the CPU, and reports the
/// first such error).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeviceError {
    /// The driver refused or lost the work (a validation error, a lost device, a read-back that
    /// failed), in its own words.
    #[error("{0}")]
    Driver(String),
    /// The driver cut the kernel's loops short: games left unfinished or unrecorded.
    #[error("{0}")]
    CutShort(String),
    /// A batch this device does not take (its shape, its deals, its digest's bins).
    #[error("{0}")]
    BadBatch(String),
}

/// A device's answer to a batch: `Ok(None)` when it is busy with another caller's batch.
pub type Answer<T> = Result<Option<T>, DeviceError>;

/// A device that plays batches exactly as bmn-kernel does: one [`Played`] per game, the
/// winner counted from the leader (0 the leader), the same cards and tricks.
pub trait DevicePlayer: Sync + Send {
    /// Short name for reports (`gpu`).
    fn name(&self) -> &'static str;
    /// Plays `batch` into `out` (`batch.count` entries). With `wait` false, returns
    /// `Ok(false)` at once, playing nothing, if the device is busy with another caller's batch.
    /// An error leaves `out` unspecified: the caller plays the batch elsewhere.
    fn play(
        &self,
        batch: &DeviceBatch<'_>,
        out: &mut [Played],
        wait: bool,
    ) -> Result<bool, DeviceError>;
    /// Plays `batch` and returns its [`Digest`] under `spec` (`Ok(None)` as `play` when busy).
    /// The default plays every game through [`Self::play`] and adds them up here; a device
    /// that adds them up itself returns the same digest.
    fn digest(&self, batch: &DeviceBatch<'_>, spec: DigestSpec, wait: bool) -> Answer<Digest> {
        let mut out = vec![Played::default(); batch.count];
        Ok(self
            .play(batch, &mut out, wait)?
            .then(|| Digest::of(&out, spec)))
    }
    /// The first error a batch met, if any (its games were then played on the CPU).
    fn first_error(&self) -> Option<DeviceError>;
    /// This device's guess of the threshold a fresh tally's digest tries first (see
    /// `digest_on` in `play.rs`): learnt from the batch before, 0 before the first. A cache
    /// held by whoever opened the device (a tuned GPU its own): a wrong guess costs a batch
    /// played twice, never a result.
    fn digest_guess(&self) -> &AtomicU32;
    /// Games this device is given at once (and a worker claims at once): enough that the
    /// device's launch, read-back and the tail of its longest games cost little. Results do
    /// not depend on it.
    fn batch_games(&self) -> u64 {
        DEVICE_BATCH
    }
}

/// Games a device is given at once unless it says otherwise (and a worker claims at once, see
/// [`crate::Engine::claims`]): 2^22 standard games are a few milliseconds on a large GPU,
/// long enough that a dispatch's launch and read-back cost little.
pub const DEVICE_BATCH: u64 = 1 << 22;

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
