//! Playing numbered deals exactly: batches through a fast kernel (capped games handed to
//! bmn-core's cycle detection) or through the reference engine where no kernel applies,
//! results into a [`Tally`]. Random searches, statistics and exhaustive enumerations differ
//! only in where their deals come from (a [`Deals`]) and what they add up (a [`Tally`]).

use std::sync::atomic::Ordering;

use bmn_core::{Cycle, Deck, Kind, Outcome, Player, Position, Rules, play_out, play_out_within};
use bmn_job::{Claims, Worker};
use bmn_kernel::{Choice, Kernel, KernelBuffers, Marked, Played, Shape};

use crate::device::{Device, DeviceBatch, Digest, DigestSpec};

/// Deals played and summed per kernel call. Larger batches shorten the lanes' drain (the
/// steps after a batch's last deal is loaded, while a few long games finish with the other
/// lanes idle); 4096 standard deals are 213 KB, still in L2. Measured (search 3e6 games,
/// 1 thread): 1024 gave 2.62-2.74, 4096 2.65-2.79 M games/s: within noise, kept for the
/// shorter drain.
pub const BATCH: usize = 4096;

/// How a run plays its games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// A fast kernel: two players, the standard penalty table, at most 64 cards.
    Kernel(Kernel),
    /// A device (a GPU) where the deals can be made there (every two-player deal a kernel
    /// plays), else `cpu`. With `share`, a batch the device is busy with goes to `cpu` on this
    /// thread rather than waiting (`--kernel all`): the result is the same either way.
    Device {
        device: Device,
        cpu: Kernel,
        share: bool,
    },
    /// bmn-core's reference engine under `rules`: every table the kernels do not play (more
    /// players, other penalty tables, bigger decks). A game that has neither ended nor shown
    /// its cycle after `give_up` tricks is counted as unresolved.
    Reference { rules: Rules, give_up: u64 },
}

/// The default of [`Engine::Reference`]'s `give_up`: standard games of any table end within
/// a few thousand tricks, while some other tables (0-penalty cards, several players) make
/// games that run millions of tricks without repeating.
pub const DEFAULT_GIVE_UP: u64 = 100_000;

impl Engine {
    /// `kernel` where it applies to games of `players` players and `cards` cards under
    /// `rules` (and is given: see [`Engine::kernel_for`]), else the reference engine (giving up
    /// after `give_up` tricks). The kernels hard-wire J1 Q2 K3 A4 X5 (a card's code is its
    /// penalty) and two seats; with two players the running-out rule never matters.
    pub fn choose(
        kernel: Option<Kernel>,
        rules: Rules,
        players: usize,
        cards: usize,
        give_up: u64,
    ) -> Engine {
        match kernel {
            Some(kernel) if Engine::kernel_plays(rules, players, cards) => Engine::Kernel(kernel),
            _ => Engine::Reference { rules, give_up },
        }
    }

    /// Whether a kernel plays games of `players` players and `cards` cards under `rules`.
    pub fn kernel_plays(rules: Rules, players: usize, cards: usize) -> bool {
        players == 2 && rules.penalties.is_standard() && cards <= bmn_kernel::MAX_CARDS
    }

    /// The kernel `choice` gives for deals of `deck` between two players capped at
    /// `max_tricks` tricks; `None` where it names a kernel or family this CPU does not run or
    /// a kernel that does not take them. The split is the middle: a kernel asks only whether
    /// both hands hold cards.
    pub fn kernel_for(choice: Choice, deck: &Deck, max_tricks: u32) -> Option<Kernel> {
        let cards = deck.len() as usize;
        choice.kernel(&Shape {
            cards,
            split: cards / 2,
            penalty: cards - deck.count(Kind::Plain) as usize,
            max_tricks,
        })
    }

    /// This engine with its kernel's games played on `device` (tables no kernel plays stay
    /// on the reference engine); with `share`, on `device` and the kernel together.
    pub fn on_device(self, device: Device, share: bool) -> Engine {
        match self {
            Engine::Kernel(cpu) | Engine::Device { cpu, .. } => {
                Engine::Device { device, cpu, share }
            }
            reference => reference,
        }
    }

    /// How workers claim units of `unit` games: one at a time on the CPU; on a device, paced
    /// claims of at most its batch ([`DevicePlayer::batch_games`](crate::device::DevicePlayer)),
    /// so that one batch plays them all, the first worker alone on the device when sharing.
    /// Results do not depend on it (units merge in order either way).
    pub fn claims(&self, unit: u64) -> Claims {
        match self {
            Engine::Device { device, share, .. } => Claims::Paced {
                max: (device.0.batch_games() / unit.max(1)).max(1),
                shared: *share,
            },
            _ => Claims::Each(1),
        }
    }

    /// The engine `worker` plays on: a sharing device engine's CPU workers play on its kernel,
    /// and its device worker is the device's only user in the run, so it waits for it.
    pub fn on(self, worker: Worker) -> Engine {
        match (self, worker) {
            (
                Engine::Device {
                    cpu, share: true, ..
                },
                Worker::Cpu,
            ) => Engine::Kernel(cpu),
            (Engine::Device { device, cpu, .. }, Worker::Device) => Engine::Device {
                device,
                cpu,
                share: false,
            },
            (engine, _) => engine,
        }
    }

    /// The kernel's name, `gpu`, `gpu+` a kernel's name (sharing), or `reference`.
    pub fn name(&self) -> String {
        match self {
            Engine::Kernel(k) => k.name().to_owned(),
            Engine::Device {
                device,
                share: false,
                ..
            } => device.0.name().to_owned(),
            Engine::Device { device, cpu, .. } => format!("{}+{}", device.0.name(), cpu.name()),
            Engine::Reference { .. } => "reference".to_owned(),
        }
    }
}

/// The number of a deal: its index in a seed's stream (below 2^64) or its rank among every
/// deal of a deck (the standard deck has about 2^69 of them).
pub type DealIndex = u128;

/// What a run adds its games up into: a search's [`Summary`], statistics' `Stats`.
pub trait Tally {
    /// A game that ended: `winner` numbered from 1; `deal` builds its text, if wanted.
    fn record_finished(
        &mut self,
        index: DealIndex,
        cards: u64,
        tricks: u64,
        winner: usize,
        deal: impl FnOnce() -> String,
    );
    /// A game that never ends.
    fn record_cycle(&mut self, index: DealIndex, cycle: &Cycle, deal: impl FnOnce() -> String);
    /// A game the reference engine gave up on: neither ended nor repeated within its limit.
    fn record_unresolved(&mut self, index: DealIndex, deal: impl FnOnce() -> String);
    /// Adds another tally's games (of other deals) to these; associative and commutative.
    fn merge(&mut self, other: Self)
    where
        Self: Sized;
    /// Where a device may add finished games up itself instead of returning each one; `None`
    /// (the default) has every game recorded one by one.
    fn digest_sink(&mut self) -> Option<&mut dyn DigestSink> {
        None
    }
}

/// A tally that takes a device's totals of finished games ([`Digest`]): their count, wins,
/// cards, tricks and histogram. The games a digest keeps are recorded one by one after.
pub trait DigestSink {
    /// What the device should add up and what it should keep (from this tally's state now:
    /// a game that may enter its top K must come back).
    fn digest_spec(&self) -> DigestSpec;
    /// Whether a digest that kept (besides capped games) only the finished games of at least
    /// `keep_cards` cards, `kept`, kept every game that may enter this tally: a higher
    /// threshold than [`Self::digest_spec`]'s, tried first where that one would keep too much
    /// (a tally whose top K is not yet full keeps every game).
    fn covered(&self, keep_cards: u32, kept: &[(usize, Played)]) -> bool;
    /// Adds the finished games `digest` added up (not its kept ones), `leader` leading every
    /// deal.
    fn add_digest(&mut self, digest: &Digest, leader: Player);
}

/// Finished games a batch should keep when a tally's own threshold keeps them all: about this
/// many of a batch's best, by the histogram of the batch before (see [`guess_threshold`]).
const GUESS_KEPT: u64 = 256;

/// The cards from which `digest`'s batch had at least [`GUESS_KEPT`] finished games (added
/// up or kept), to the histogram's bin.
fn guess_threshold(digest: &Digest, bin: u32) -> u32 {
    let mut bins = digest.histogram.clone();
    for (_, p) in &digest.kept {
        if let Played::Finished { cards, .. } = p {
            let b = (cards / bin) as usize;
            if bins.len() <= b {
                bins.resize(b + 1, 0);
            }
            bins[b] += 1;
        }
    }
    let mut above = 0;
    for (b, &n) in bins.iter().enumerate().rev() {
        above += n;
        if above >= GUESS_KEPT {
            return u32::try_from(b).map_or(u32::MAX, |b| b.saturating_mul(bin));
        }
    }
    0
}

/// A numbered family of deals in which one seat leads every deal.
pub trait Deals: Sync {
    /// Cards in one deal.
    fn deal_len(&self) -> usize;
    /// Cards of the leader, whose hand comes first in the codes the kernel gets (two
    /// players; unused by the reference engine).
    fn split(&self) -> usize;
    /// Writes deals `first..first + out.len() / deal_len()` into `out` (codes 0 plain, 1 J
    /// .. 5 joker), in the layout [`Self::position`] reads; for two players, the leader's
    /// hand first, as the kernels want.
    fn fill(&self, first: DealIndex, out: &mut [u8]);
    /// Deals `first..first + out.len()` by their penalty cards, as the streaming kernels take
    /// them ([`KernelBuffers::play_marked`]: nothing laid out), where this source can make them
    /// so; `false` (nothing written) otherwise, and [`Self::fill`] deals them.
    fn fill_marked(&self, first: DealIndex, out: &mut Marked) -> bool {
        let _ = (first, out);
        false
    }
    /// One deal's codes (as `fill` wrote them) as the position a person reads: seats in
    /// their order, the leader named. The exact hand-over plays it; reports print it.
    fn position(&self, codes: &[u8]) -> Position;
    /// The seat that leads every deal.
    fn leader(&self) -> Player;
    /// Seats at the table.
    fn players(&self) -> usize {
        2
    }
    /// [`Self::position`]'s deal text, which the top-K tie-break asks for often on reduced
    /// decks (neighbouring deals tie on cards and tricks); override it with a direct path.
    fn deal_text(&self, codes: &[u8]) -> String {
        self.position(codes).deal_text()
    }
    /// Deals `first..first + count` as a device makes them, to be played with at most `cap`
    /// tricks (the games' `max_tricks`), if a device can (two players, at most 64 cards);
    /// `None` keeps them on the CPU.
    fn device_deals(&self, first: DealIndex, count: usize, cap: u32) -> Option<DeviceBatch<'_>> {
        let _ = (first, count, cap);
        None
    }
}

/// `H1/H2` straight from codes (player 1's `split` cards first), without building a
/// `Position`: 3% of an enumeration's instructions went to `Position` and its text.
pub fn two_hand_text(codes: &[u8], split: usize) -> String {
    const SYMBOLS: &[u8; 6] = b"-JQKAX";
    let mut text = String::with_capacity(codes.len() + 1);
    for (i, &c) in codes.iter().enumerate() {
        if i == split {
            text.push('/');
        }
        text.push(char::from(SYMBOLS[usize::from(c)]));
    }
    text
}

/// A game's exact result from the kernel's: the kernel's own when it finished (its winner 0
/// is the leader), the reference engine's from `start` after a cap (asked for only then).
pub fn exact(kernel: Played, leader: Player, start: impl FnOnce() -> Position) -> Outcome {
    match kernel {
        Played::Finished {
            winner,
            cards,
            tricks,
        } => Outcome::Finished {
            winner: Player((leader.index() + usize::from(winner)) % 2),
            cards: u64::from(cards),
            tricks: u64::from(tricks),
        },
        Played::Capped { .. } => play_out(&Rules::STANDARD, &start()),
    }
}

/// Plays deals `first..end` of `deals` on `engine` (on a kernel, games past `max_tricks`
/// tricks go to exact cycle detection) and adds them to `tally`.
pub fn play_deals(
    deals: &impl Deals,
    engine: Engine,
    max_tricks: u32,
    first: DealIndex,
    end: DealIndex,
    tally: &mut impl Tally,
) {
    if let Engine::Device { device, cpu, share } = engine {
        let batch = DealIndex::from(device.0.batch_games().max(1));
        let mut start = first;
        while start < end {
            let stop = end.min(start + batch);
            if !play_on_device(deals, device, share, max_tricks, start, stop, tally) {
                play_deals(deals, Engine::Kernel(cpu), max_tricks, start, stop, tally);
            }
            start = stop;
        }
        return;
    }
    let len = deals.deal_len();
    let mut codes = vec![0u8; BATCH * len];
    let mut outcomes = vec![Played::default(); BATCH];
    let mut buffers = KernelBuffers::default();
    let mut marked = Marked::default();
    let mut start = first;
    while start < end {
        let n = (end - start).min(BATCH as DealIndex) as usize;
        // A streaming kernel takes the deals by their penalty cards where the source can make
        // them so; a deal is laid out only for a game that needs its cards (capped, or kept).
        let streaming = match engine {
            Engine::Kernel(kernel) if kernel.streams() => Some(kernel),
            _ => None,
        };
        if let Some(kernel) = streaming
            && deals.fill_marked(start, marked.resized(n))
        {
            let out = &mut outcomes[..n];
            let split = deals.split();
            buffers.play_marked(kernel, &marked, len, split, max_tricks, out);
            record_games(deals, tally, start, out, |i| {
                let mut deal = vec![0u8; len];
                marked.lay_out(i, &mut deal);
                deal
            });
            start += n as DealIndex;
            continue;
        }
        let batch = &mut codes[..n * len];
        deals.fill(start, batch);
        match engine {
            Engine::Reference { rules, give_up } => {
                for (i, deal) in batch.chunks_exact(len).enumerate() {
                    let result = play_out_within(&rules, &deals.position(deal), give_up);
                    record(tally, start + i as DealIndex, result, || {
                        deals.deal_text(deal)
                    });
                }
            }
            Engine::Kernel(kernel) => {
                let out = &mut outcomes[..n];
                buffers.play(kernel, batch, len, deals.split(), max_tricks, out);
                let batch = &*batch;
                record_games(deals, tally, start, out, |i| &batch[i * len..(i + 1) * len]);
            }
            Engine::Device { .. } => unreachable!("a device's batches are played above"),
        }
        start += n as DealIndex;
    }
}

/// Records the kernel's games of the deals from `first` on (`cards(i)`: deal `first + i`
/// laid out, asked for only where a game needs it): where the tally takes a digest, the CPU
/// adds the batch up as a device does ([`Digest::of`]) and only the games the digest keeps
/// (capped ones, those that may enter a top K) are recorded one by one. Measured on the
/// Paulhus n = 16 enumeration (Zen 5): recording every game through the tally was 11% of it.
fn record_games<T: Tally, C: AsRef<[u8]>>(
    deals: &impl Deals,
    tally: &mut T,
    first: DealIndex,
    out: &[Played],
    cards: impl Fn(usize) -> C,
) {
    let leader = deals.leader();
    let one = |tally: &mut T, i: usize, played: Played| {
        let result = exact(played, leader, || deals.position(cards(i).as_ref()));
        record(tally, first + i as DealIndex, Some(result), || {
            deals.deal_text(cards(i).as_ref())
        });
    };
    let digest = tally.digest_sink().map(|sink| {
        let digest = Digest::of(out, sink.digest_spec());
        sink.add_digest(&digest, leader);
        digest
    });
    match digest {
        Some(digest) => digest.kept.iter().for_each(|&(i, p)| one(tally, i, p)),
        None => out.iter().enumerate().for_each(|(i, &p)| one(tally, i, p)),
    }
}

/// Adds one game's result to `tally` (`None`: the reference engine gave up on it).
fn record(
    tally: &mut impl Tally,
    index: DealIndex,
    result: Option<Outcome>,
    text: impl FnOnce() -> String,
) {
    match result {
        Some(Outcome::Finished {
            winner,
            cards,
            tricks,
        }) => tally.record_finished(index, cards, tricks, winner.number(), text),
        Some(Outcome::Cycle(c)) => tally.record_cycle(index, &c, text),
        None => tally.record_unresolved(index, text),
    }
}

/// `batch`'s digest for `sink` from `device`. Where the sink's own threshold would keep every
/// game (a fresh tally's top K is empty), a higher one is tried first: the guess from the batch
/// before, or with none yet one read off this batch's histogram by a first pass that keeps no
/// finished game (cheaper than reading every game back and recording it on the CPU). If it
/// kept too little, the batch is played again with the sink's own. `None` if the device is busy
/// (and `share` says not to wait) or fails.
fn digest_on(
    device: Device,
    batch: &DeviceBatch<'_>,
    sink: &dyn DigestSink,
    share: bool,
) -> Option<Digest> {
    let spec = sink.digest_spec();
    if spec.keep_cards != 0 {
        return device.0.digest(batch, spec, !share).ok()?;
    }
    let with = |keep_cards| DigestSpec { keep_cards, ..spec };
    let mut wait = !share;
    // The threshold tried first when a tally's own keeps every game (its top K not yet full,
    // as in every fresh unit's tally): the cards above which the device's last digest had
    // about [`GUESS_KEPT`] games. A wrong one costs a batch played twice (when
    // [`DigestSink::covered`] says no), never a wrong result.
    let mut guess = device.0.digest_guess().load(Ordering::Relaxed);
    if guess == 0 {
        let probe = device.0.digest(batch, with(u32::MAX), wait).ok()??;
        guess = guess_threshold(&probe, spec.bin);
        wait = true;
    }
    let digest = match device.0.digest(batch, with(guess), wait).ok()?? {
        d if guess == 0 || sink.covered(guess, &d.kept) => d,
        _ => device.0.digest(batch, spec, true).ok()??,
    };
    let next = guess_threshold(&digest, spec.bin);
    device.0.digest_guess().store(next, Ordering::Relaxed);
    Some(digest)
}

/// Plays deals `first..end` on `device` into `tally`; false (nothing added) if the device
/// cannot make these deals, is busy and `share` says not to wait, or fails. A tally that takes
/// totals gets them from the device; only the games it keeps (capped ones for the exact
/// hand-over, those that may enter the top K), or every game for other tallies, are dealt
/// again on the CPU and recorded one by one.
fn play_on_device(
    deals: &impl Deals,
    device: Device,
    share: bool,
    max_tricks: u32,
    first: DealIndex,
    end: DealIndex,
    tally: &mut impl Tally,
) -> bool {
    let count = (end - first) as usize;
    let Some(batch) = deals.device_deals(first, count, max_tricks) else {
        return false;
    };
    let leader = deals.leader();
    let games: Vec<(usize, Played)> = match tally.digest_sink() {
        Some(sink) => match digest_on(device, &batch, &*sink, share) {
            Some(digest) => {
                sink.add_digest(&digest, leader);
                digest.kept
            }
            None => return false,
        },
        None => {
            let mut outcomes = vec![Played::default(); count];
            if !matches!(device.0.play(&batch, &mut outcomes, !share), Ok(true)) {
                return false;
            }
            outcomes.into_iter().enumerate().collect()
        }
    };
    let len = deals.deal_len();
    let codes = |index: DealIndex| {
        let mut deal = vec![0u8; len];
        deals.fill(index, &mut deal);
        deal
    };
    for (i, played) in games {
        let index = first + i as DealIndex;
        let result = exact(played, leader, || deals.position(&codes(index)));
        record(tally, index, Some(result), || {
            deals.deal_text(&codes(index))
        });
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::{DeviceDeals, DeviceError, DevicePlayer};
    use crate::summary::Summary;
    use std::borrow::Cow;
    use std::sync::atomic::AtomicU32;

    /// A device that returns the same games for any batch.
    struct Canned(Vec<Played>, AtomicU32);

    impl DevicePlayer for Canned {
        fn name(&self) -> &'static str {
            "canned"
        }
        fn play(
            &self,
            b: &DeviceBatch<'_>,
            out: &mut [Played],
            _: bool,
        ) -> Result<bool, DeviceError> {
            out.copy_from_slice(&self.0[..b.count]);
            Ok(true)
        }
        fn first_error(&self) -> Option<DeviceError> {
            None
        }
        fn digest_guess(&self) -> &AtomicU32 {
            &self.1
        }
    }

    /// A summary of `games`, recorded one by one or through a digest with `guess` tried first,
    /// and the device's next guess.
    fn summary(games: &[Played], guess: Option<u32>) -> (Summary, u32) {
        let mut s = Summary::new(10);
        let record = |s: &mut Summary, i: usize, p: Played| {
            if let Played::Finished {
                winner,
                cards,
                tricks,
            } = p
            {
                let deal = || format!("deal{i}");
                s.record_finished(
                    i as u128,
                    cards.into(),
                    tricks.into(),
                    usize::from(winner) + 1,
                    deal,
                );
            }
        };
        let Some(guess) = guess else {
            games
                .iter()
                .enumerate()
                .for_each(|(i, &p)| record(&mut s, i, p));
            return (s, 0);
        };
        let canned = Canned(games.to_vec(), AtomicU32::new(guess));
        let device: &'static Canned = Box::leak(Box::new(canned));
        let batch = DeviceBatch {
            deals: DeviceDeals::Stream {
                seed: 0,
                first: 0,
                deck: Cow::Owned(vec![0; 4]),
                segment: 4,
                stream: bmn_deals::Stream::V1,
            },
            count: games.len(),
            len: 4,
            first_hand: 2,
            leader: 0,
            max_tricks: 100,
        };
        let d = digest_on(Device(device), &batch, &s, false).unwrap();
        s.add_digest(&d, Player(0));
        d.kept.iter().for_each(|&(i, p)| record(&mut s, i, p));
        (s, device.1.load(Ordering::Relaxed))
    }

    #[test]
    fn a_guessed_threshold_gives_the_summary_of_every_game() {
        let games: Vec<Played> = (0..5000u32)
            .map(|i| Played::Finished {
                winner: (i % 3 % 2) as u8,
                cards: (i * 7919) % 3001 + 20 * (i % 5),
                tricks: i % 97,
            })
            .collect();
        let (every, _) = summary(&games, None);
        // No guess, one that keeps a few dozen games, one so high it keeps none (played again
        // with the tally's own threshold), and one that keeps them all.
        for guess in [0, 2_900, 10_000, 1] {
            let (got, next) = summary(&games, Some(guess));
            assert_eq!(got, every, "guess {guess}");
            // The next guess: the cards above which about GUESS_KEPT games lay.
            assert!((2_500..3_000).contains(&next), "guess {guess}: next {next}");
        }
    }

    #[test]
    fn a_shared_device_gives_its_cpu_workers_the_kernel_and_waits_on_its_own() {
        let device = Device(Box::leak(Box::new(Canned(Vec::new(), AtomicU32::new(0)))));
        let cpu = Kernel::ScalarQueue;
        let shared = Engine::Kernel(cpu).on_device(device, true);
        assert_eq!(shared.on(Worker::Cpu), Engine::Kernel(cpu));
        assert_eq!(
            shared.on(Worker::Device),
            Engine::Kernel(cpu).on_device(device, false)
        );
        let batch = device.0.batch_games() / 16;
        assert_eq!(
            shared.claims(16),
            Claims::Paced {
                max: batch,
                shared: true
            }
        );
        assert_eq!(Engine::Kernel(cpu).claims(16), Claims::Each(1));
        assert_eq!(Engine::Kernel(cpu).on(Worker::Device), Engine::Kernel(cpu));
    }
}
