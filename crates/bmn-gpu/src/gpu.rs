//! `Gpu`: one opened adapter with the compiled kernel, and the batch loop that feeds it.

use std::borrow::Cow;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use bmn_kernel::Played;
use bmn_play::device::{
    Answer, DIGEST_BINS, DeviceBatch, DeviceDeals, DeviceError, DevicePlayer, Digest, DigestSpec,
    LENGTH_CARDS, LENGTH_TRICKS,
};

use crate::adapters::{AdapterSummary, all, instance, summary};
use crate::contract::{
    Params, TALLY_BY_CARDS, TALLY_BY_TRICKS, TALLY_CARDS, TALLY_EVENTS, TALLY_FINISHED, TALLY_HELD,
    TALLY_HIST, TALLY_KEPT, TALLY_RECORDED, TALLY_TRICKS, TALLY_USEFUL, TALLY_WINS, TALLY_WORDS,
};
use crate::dispatch::Dispatch;
use crate::error::GpuError;
use crate::pool::Pool;
use crate::{CPU_BATCH, MAX_BATCH};

/// Invocations per workgroup (the shader's `@workgroup_size`).
const WORKGROUP: u32 = 64;

/// Invocations a dispatch runs at most on a GPU; each plays work item `i`, `i + lanes`, ...
/// until the batch is done. As many as a dispatch has work items: one item an invocation, and
/// the GPU's scheduler balances games of unequal length. Measured on an H200 (2^22 standard
/// games a dispatch): 2^18 invocations taking 16 items each played 2.20x10^8 games/s, 2^20
/// taking 4 2.37x10^8, 2^22 taking one 2.41x10^8.
const MAX_LANES: usize = MAX_BATCH;

/// The event kernel's lanes a dispatch runs on a GPU: about as many as an H200 holds at once
/// (132 multiprocessors of 2,048), each taking game after game from the dispatch's queue.
const EVENT_LANES: usize = 1 << 18;

/// Games one lane of the event kernel takes at most on a CPU adapter (llvmpipe's loop guard,
/// see `Gpu::lanes`): enough that the 8 lanes llvmpipe runs together stay busy (the sum of 16
/// games varies less than one game does), few enough that a lane of capped games stays far
/// below the guard.
const CPU_LANE_GAMES: usize = 16;

/// Bytes of one game in the event kernel's `dealt` buffer (three 64-bit words).
const DEALT_BYTES: usize = 24;

/// Games a work item of consecutive arrangements plays on a GPU (unranking its first one
/// costs about as much as a few short games), and on a CPU adapter.
const RANK_RUN: usize = 64;
const RANK_RUN_CPU: usize = 8;

/// Kept games read back with the totals in one copy; more take a second.
const KEPT_FIRST: usize = 64;

/// Kept games a batch holds; a batch that keeps more is played again game by game.
const KEPT_CAP: usize = 1 << 16;

/// Batches in flight at once: while one is read back and tallied, the next one plays.
const SLOTS: usize = 2;

/// An opened adapter: its device and queue, the kernel's pipeline, and [`SLOTS`] sets of
/// buffers reused from batch to batch, lent to one batch at a time.
pub struct Gpu {
    adapter: AdapterSummary,
    device: wgpu::Device,
    queue: wgpu::Queue,
    layout: wgpu::BindGroupLayout,
    /// The trick kernel, and the event kernel's three passes (deal, play, record).
    tricks: wgpu::ComputePipeline,
    deal: wgpu::ComputePipeline,
    events: wgpu::ComputePipeline,
    tally: wgpu::ComputePipeline,
    /// A CPU adapter (llvmpipe): short loops per invocation.
    cpu: bool,
    /// The event kernel's lanes take games from the dispatch's queue (a GPU), or each its
    /// own share (a CPU adapter, whose workgroups run in order, a few at a time).
    from_queue: bool,
    /// Every deck on the trick kernel, for measuring one kernel beside the other.
    tricks_only: bool,
    slots: Pool<Option<Buffers>>,
    /// Games one dispatch plays at most ([`MAX_BATCH`] unless tuned lower).
    dispatch: usize,
    /// Invocations one dispatch runs at most, and the games of a work item of arrangements.
    /// On a CPU adapter (lavapipe) one invocation plays one short work item: llvmpipe cuts an
    /// invocation's loops short after a fixed number of iterations (its guard against endless
    /// loops; measured: one invocation playing 64 Camicia deals stopped after about 2,600
    /// tricks), a guard GPU drivers do not have. A cut game is an error, never a result
    /// (`every_game_recorded`).
    lanes: usize,
    rank_run: usize,
    /// The event kernel's lane-steps that played, lane-steps its workgroups held, and the
    /// events played, over every dispatch so far (`LaneSteps`).
    useful: AtomicU64,
    held: AtomicU64,
    played_events: AtomicU64,
    /// Games one dispatch of the event kernel deals at most (its `dealt` buffer's binding).
    most_dealt: usize,
    /// The first error the device reported outside a batch's own checks.
    errors: Arc<Mutex<Option<String>>>,
    /// The first batch that failed.
    failure: OnceLock<DeviceError>,
    /// The digest threshold to try first (`DevicePlayer::digest_guess`).
    guess: AtomicU32,
}

/// The buffers of one batch in flight.
struct Buffers {
    params: wgpu::Buffer,
    input: wgpu::Buffer,
    results: wgpu::Buffer,
    tally: wgpu::Buffer,
    kept: wgpu::Buffer,
    /// Mappable copies: of every game's result; of the totals and the first kept games; of
    /// the rest of the kept games.
    results_back: wgpu::Buffer,
    tally_back: wgpu::Buffer,
    kept_back: wgpu::Buffer,
    bind: wgpu::BindGroup,
    /// Words `input` holds; games `results` holds; games `dealt` holds.
    input_words: usize,
    games: usize,
    dealt_games: usize,
}

/// How a GPU plays its batches where its adapter would decide otherwise: for tests of the
/// loops a GPU or a CPU adapter takes, on either, and for measuring one setting beside
/// another. Results never depend on it. A tuned GPU is opened on its own ([`Gpu::tuned`]):
/// the one every run shares ([`open`]) has none, so no test can leave it in another mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tuning {
    /// Games one dispatch plays at most (1 to [`MAX_BATCH`]); `None`: [`MAX_BATCH`].
    pub dispatch: Option<usize>,
    /// Invocations one dispatch runs at most (at least 1), each taking work item after work
    /// item; `None`: the adapter's (one item each on a CPU adapter).
    pub lanes: Option<usize>,
    /// Whether the event kernel's lanes take games from the dispatch's queue (as on a GPU) or
    /// each its own share (as on a CPU adapter); `None`: as the adapter does.
    pub from_queue: Option<bool>,
    /// Every deck on the trick kernel (`tricks.wgsl`), as before the event kernel.
    pub tricks_only: bool,
}

/// Adapters [`open`] keeps (a machine with more opens the others with [`Gpu::tuned`]).
const SHARED: usize = 16;

/// The adapter `index` (as `bmn devices` numbers them), opened once per process and kept in a
/// `OnceLock`: the GPU every run of the process shares, untuned. An adapter that could not be
/// opened gives the same error for the rest of the process.
pub fn open(index: usize) -> Result<&'static Gpu, GpuError> {
    static OPENED: [OnceLock<Result<Gpu, GpuError>>; SHARED] = [const { OnceLock::new() }; SHARED];
    let Some(slot) = OPENED.get(index) else {
        // Says there is no such adapter, where there is none.
        Gpu::tuned(index, Tuning::default())?;
        return Err(GpuError::Failed(format!(
            "adapter {index}: bmn shares the first {SHARED} adapters only"
        )));
    };
    // Two runs asking at once open it once (the second waits for the first).
    let opened = slot.get_or_init(|| Gpu::tuned(index, Tuning::default()));
    opened.as_ref().map_err(Clone::clone)
}

impl Gpu {
    /// The adapter `index` opened on its own (its own device, buffers and counts), played
    /// as `tuning` says; dropped by its owner.
    pub fn tuned(index: usize, tuning: Tuning) -> Result<Gpu, GpuError> {
        let instance = instance();
        let mut adapters = all(&instance);
        if adapters.is_empty() {
            return Err(GpuError::NoAdapter);
        }
        let count = adapters.len();
        if index >= count {
            return Err(GpuError::NoSuchAdapter { index, count });
        }
        let adapter = adapters.swap_remove(index);
        let info = summary(index, &adapter.get_info());
        let cpu = adapter.get_info().device_type == wgpu::DeviceType::Cpu;
        let fail = |reason: String| GpuError::Open {
            index,
            name: info.name.clone(),
            reason,
        };
        // The adapter's own storage limits: a batch's buffers are sized to fit them.
        let limits = adapter.limits();
        let desc = wgpu::DeviceDescriptor {
            label: Some("bmn"),
            required_limits: limits.clone(),
            ..Default::default()
        };
        let (device, queue) =
            pollster::block_on(adapter.request_device(&desc)).map_err(|e| fail(e.to_string()))?;
        let errors = Arc::new(Mutex::new(None::<String>));
        let sink = Arc::clone(&errors);
        // wgpu's default handler panics; a library reports instead.
        device.on_uncaptured_error(Arc::new(move |e: wgpu::Error| {
            let mut first = sink.lock().unwrap_or_else(|p| p.into_inner());
            first.get_or_insert_with(|| e.to_string());
        }));
        let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("bmn kernels"),
            source: wgpu::ShaderSource::Wgsl(SHADER.into()),
        });
        let layout = bind_group_layout(&device);
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("bmn"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let pipeline = |entry: &str| {
            device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(entry),
                layout: Some(&pipeline_layout),
                module: &module,
                entry_point: Some(entry),
                compilation_options: Default::default(),
                cache: None,
            })
        };
        let (tricks, deal, events, tally) = (
            pipeline("play_tricks"),
            pipeline("deal_events"),
            pipeline("play_events"),
            pipeline("tally_events"),
        );
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(fail(format!("the kernel did not compile: {e}")));
        }
        let binding = limits
            .max_storage_buffer_binding_size
            .min(limits.max_buffer_size);
        Ok(Gpu {
            adapter: info,
            device,
            queue,
            layout,
            tricks,
            deal,
            events,
            tally,
            cpu,
            from_queue: tuning.from_queue.unwrap_or(!cpu),
            tricks_only: tuning.tricks_only,
            slots: Pool::new((0..SLOTS).map(|_| None)),
            dispatch: tuning.dispatch.unwrap_or(MAX_BATCH).clamp(1, MAX_BATCH),
            lanes: tuning
                .lanes
                .unwrap_or(if cpu { usize::MAX } else { MAX_LANES })
                .max(1),
            rank_run: if cpu { RANK_RUN_CPU } else { RANK_RUN },
            useful: AtomicU64::new(0),
            held: AtomicU64::new(0),
            played_events: AtomicU64::new(0),
            most_dealt: (binding / DEALT_BYTES as u64).min(MAX_BATCH as u64) as usize,
            errors,
            failure: OnceLock::new(),
            guess: AtomicU32::new(0),
        })
    }

    /// The adapter this GPU is.
    pub fn adapter(&self) -> &AdapterSummary {
        &self.adapter
    }

    /// The event kernel's schedule so far (see [`LaneSteps`]).
    pub fn lane_steps(&self) -> LaneSteps {
        LaneSteps {
            played: self.useful.load(Ordering::Relaxed),
            held: self.held.load(Ordering::Relaxed),
            events: self.played_events.load(Ordering::Relaxed),
        }
    }

    /// Buffers for `games` results, `words` input words and `dealt` encoded deals, reusing
    /// the last ones if they fit.
    fn buffers<'b>(
        &self,
        slot: &'b mut Option<Buffers>,
        games: usize,
        words: usize,
        dealt: usize,
    ) -> &'b Buffers {
        let fits = slot
            .as_ref()
            .is_some_and(|b| b.games >= games && b.input_words >= words && b.dealt_games >= dealt);
        if !fits {
            let (games, words, dealt) = slot.as_ref().map_or((games, words, dealt), |b| {
                (
                    b.games.max(games),
                    b.input_words.max(words),
                    b.dealt_games.max(dealt),
                )
            });
            *slot = Some(self.make_buffers(games, words, dealt));
        }
        slot.as_ref().expect("just made")
    }

    fn make_buffers(&self, games: usize, words: usize, dealt_games: usize) -> Buffers {
        let d = &self.device;
        let buffer = |label, size: usize, usage| {
            d.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: size.max(16) as u64,
                usage,
                mapped_at_creation: false,
            })
        };
        use wgpu::BufferUsages as U;
        let params = buffer("params", size_of::<Params>(), U::UNIFORM | U::COPY_DST);
        let input = buffer("input", words * 4, U::STORAGE | U::COPY_DST);
        let results = buffer("results", games * 8, U::STORAGE | U::COPY_SRC);
        let tally = buffer(
            "tally",
            TALLY_WORDS * 4,
            U::STORAGE | U::COPY_SRC | U::COPY_DST,
        );
        let kept = buffer("kept", KEPT_CAP * 16, U::STORAGE | U::COPY_SRC);
        // Only the bind group holds it: no copy reads it.
        let dealt = buffer("dealt", dealt_games * DEALT_BYTES, U::STORAGE);
        let back = U::MAP_READ | U::COPY_DST;
        let results_back = buffer("results back", games * 8, back);
        let tally_back = buffer("tally back", TALLY_WORDS * 4 + KEPT_FIRST * 16, back);
        let kept_back = buffer("kept back", KEPT_CAP * 16, back);
        let entries: Vec<wgpu::BindGroupEntry> = [&params, &input, &results, &tally, &kept, &dealt]
            .into_iter()
            .enumerate()
            .map(|(i, b)| wgpu::BindGroupEntry {
                binding: i as u32,
                resource: b.as_entire_binding(),
            })
            .collect();
        let bind = d.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("play"),
            layout: &self.layout,
            entries: &entries,
        });
        Buffers {
            params,
            input,
            results,
            tally,
            kept,
            results_back,
            tally_back,
            kept_back,
            bind,
            input_words: words,
            games,
            dealt_games,
        }
    }

    /// Writes a job's parameters and deals, dispatches it and queues the copies to read back:
    /// with `spec`, the totals and the first kept games; else every game's result.
    fn dispatch(
        &self,
        b: &Buffers,
        job: &Dispatch,
        spec: Option<DigestSpec>,
    ) -> Result<wgpu::SubmissionIndex, DeviceError> {
        let limit = self.lanes;
        // The event kernel: on a GPU, a GPU's worth of lanes taking as many games as they
        // can; on a CPU adapter, a lane per CPU_LANE_GAMES games, none taking more than its
        // share. The trick kernel: a lane per work item.
        let (lanes, lane_games) = if !job.events {
            (job.items(), u32::MAX)
        } else if self.cpu {
            let lanes = job.count.div_ceil(CPU_LANE_GAMES).min(limit).max(1);
            (lanes, job.count.div_ceil(lanes) as u32)
        } else {
            (EVENT_LANES.min(job.count), u32::MAX)
        };
        let lanes = lanes.min(limit).max(1);
        let params = job.params(lanes, lane_games, self.from_queue, spec, KEPT_CAP);
        self.queue
            .write_buffer(&b.params, 0, bytemuck::bytes_of(&params));
        if !job.input.is_empty() {
            self.queue
                .write_buffer(&b.input, 0, bytemuck::cast_slice(&job.input));
        }
        let mut encoder = self.device.create_command_encoder(&Default::default());
        encoder.clear_buffer(&b.tally, 0, None);
        let mut pass = |pipeline: &wgpu::ComputePipeline, invocations: usize| {
            let (x, y) = workgroups(invocations);
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(pipeline);
            pass.set_bind_group(0, &b.bind, &[]);
            pass.dispatch_workgroups(x, y, 1);
        };
        if job.events {
            // Three passes: wgpu orders each one's reads of `dealt` after the last one's writes.
            pass(&self.deal, job.items());
            pass(&self.events, lanes);
            pass(&self.tally, job.count);
        } else {
            pass(&self.tricks, lanes);
        }
        let words = (totals_words(spec) * 4) as u64;
        encoder.copy_buffer_to_buffer(&b.tally, 0, &b.tally_back, 0, words);
        if spec.is_some() {
            let first = (KEPT_FIRST * 16) as u64;
            encoder.copy_buffer_to_buffer(&b.kept, 0, &b.tally_back, words, first);
        } else {
            let out = (job.count * 8) as u64;
            encoder.copy_buffer_to_buffer(&b.results, 0, &b.results_back, 0, out);
        }
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        let index = self.queue.submit([encoder.finish()]);
        match pollster::block_on(scope.pop()) {
            Some(e) => Err(driver(e)),
            None => Ok(index),
        }
    }

    /// The first `bytes` of `buffer` once submission `index` is done.
    fn read(
        &self,
        buffer: &wgpu::Buffer,
        bytes: usize,
        index: wgpu::SubmissionIndex,
    ) -> Result<Vec<u8>, DeviceError> {
        let slice = buffer.slice(..bytes as u64);
        let (tx, rx) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        // Waits for this submission only, so another thread's batch keeps the GPU busy.
        self.device
            .poll(wgpu::PollType::Wait {
                submission_index: Some(index),
                timeout: None,
            })
            .map_err(driver)?;
        rx.recv().map_err(driver)?.map_err(driver)?;
        let data = slice.get_mapped_range().map_err(driver)?.to_vec();
        buffer.unmap();
        Ok(data)
    }

    /// Plays one job of at most [`MAX_BATCH`] games into `out`, one result per game.
    fn run_games(
        &self,
        slot: &mut Option<Buffers>,
        job: &Dispatch,
        out: &mut [Played],
    ) -> Result<(), DeviceError> {
        let b = self.buffers(slot, job.count, job.input.len(), job.dealt());
        let index = self.dispatch(b, job, None)?;
        let data = self.read(&b.results_back, job.count * 8, index.clone())?;
        let totals = self.read(&b.tally_back, totals_words(None) * 4, index)?;
        self.count_steps(&totals);
        every_game_recorded(&totals, job.count)?;
        for (o, w) in out.iter_mut().zip(data.chunks_exact(8)) {
            *o = decode(word(w, 0), word(w, 4))?;
        }
        Ok(())
    }

    /// Plays one job of at most [`MAX_BATCH`] games and returns its digest under `spec`.
    fn run_digest(
        &self,
        slot: &mut Option<Buffers>,
        job: &Dispatch,
        spec: DigestSpec,
    ) -> Result<Digest, DeviceError> {
        let b = self.buffers(slot, 0, job.input.len(), job.dealt());
        let index = self.dispatch(b, job, Some(spec))?;
        let words = totals_words(Some(spec));
        let data = self.read(&b.tally_back, words * 4 + KEPT_FIRST * 16, index)?;
        let (totals, first_kept) = data.split_at(words * 4);
        self.count_steps(totals);
        every_game_recorded(totals, job.count)?;
        let t = |i: usize| u64::from(word(totals, 4 * i));
        let kept_count = t(TALLY_KEPT) as usize;
        if kept_count > KEPT_CAP {
            // Too many to keep on the device (a deck whose games mostly cycle): every game.
            let mut out = vec![Played::default(); job.count];
            self.run_games(slot, job, &mut out)?;
            return Ok(Digest::of(&out, spec));
        }
        // Counts without their trailing zeros, as games added up one by one give them.
        let counts = |from: usize, bins: usize| {
            let mut c: Vec<u64> = (from..from + bins).map(t).collect();
            while c.last() == Some(&0) {
                c.pop();
            }
            c
        };
        let histogram = counts(TALLY_HIST, DIGEST_BINS);
        let (by_cards, by_tricks) = if spec.lengths {
            (
                counts(TALLY_BY_CARDS, LENGTH_CARDS),
                counts(TALLY_BY_TRICKS, LENGTH_TRICKS),
            )
        } else {
            (Vec::new(), Vec::new())
        };
        let more;
        let kept_bytes: &[u8] = if kept_count <= KEPT_FIRST {
            &first_kept[..kept_count * 16]
        } else {
            let mut encoder = self.device.create_command_encoder(&Default::default());
            encoder.copy_buffer_to_buffer(&b.kept, 0, &b.kept_back, 0, (kept_count * 16) as u64);
            let index = self.queue.submit([encoder.finish()]);
            more = self.read(&b.kept_back, kept_count * 16, index)?;
            &more
        };
        let mut kept: Vec<(usize, Played)> = kept_bytes
            .chunks_exact(16)
            .map(|e| Ok((word(e, 0) as usize, decode(word(e, 4), word(e, 8))?)))
            .collect::<Result<_, DeviceError>>()?;
        kept.sort_unstable_by_key(|&(i, _)| i);
        Ok(Digest {
            finished: t(TALLY_FINISHED),
            wins: [t(TALLY_WINS), t(TALLY_WINS + 1)],
            cards: t(TALLY_CARDS) | t(TALLY_CARDS + 1) << 32,
            tricks: t(TALLY_TRICKS) | t(TALLY_TRICKS + 1) << 32,
            histogram,
            by_cards,
            by_tricks,
            kept,
        })
    }

    /// Adds a dispatch's lane-steps (the event kernel's; none from the trick kernel).
    fn count_steps(&self, totals: &[u8]) {
        let wide =
            |at: usize| u64::from(word(totals, 4 * at)) | u64::from(word(totals, 4 * at + 4)) << 32;
        self.useful.fetch_add(wide(TALLY_USEFUL), Ordering::Relaxed);
        self.held.fetch_add(wide(TALLY_HELD), Ordering::Relaxed);
        self.played_events
            .fetch_add(wide(TALLY_EVENTS), Ordering::Relaxed);
    }

    /// The device's first error outside a batch's checks, if any.
    fn take_error(&self) -> Result<(), DeviceError> {
        match self.errors.lock().unwrap_or_else(|p| p.into_inner()).take() {
            Some(e) => Err(DeviceError::Driver(e)),
            None => Ok(()),
        }
    }
}

/// Words of `tally` a dispatch reads back: the counts by exact length only where asked for.
fn totals_words(spec: Option<DigestSpec>) -> usize {
    if spec.is_some_and(|s| s.lengths) {
        TALLY_WORDS
    } else {
        TALLY_BY_CARDS
    }
}

/// The kernels' source: what they share, then each kernel.
pub(crate) const SHADER: &str = concat!(
    include_str!("shader/common.wgsl"),
    include_str!("shader/tricks.wgsl"),
    include_str!("shader/events.wgsl"),
);

/// The kernels' one bind group: `params` (uniform), `input` (read), then `results`, `tally`,
/// `kept` and `dealt` (read and write), as `shader/common.wgsl` declares them.
fn bind_group_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let entry = |binding: u32, ty| wgpu::BindGroupLayoutEntry {
        binding,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty,
            has_dynamic_offset: false,
            min_binding_size: None,
        },
        count: None,
    };
    let storage = |read_only| wgpu::BufferBindingType::Storage { read_only };
    let mut entries = vec![
        entry(0, wgpu::BufferBindingType::Uniform),
        entry(1, storage(true)),
    ];
    entries.extend((2..6).map(|b| entry(b, storage(false))));
    device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some("bmn"),
        entries: &entries,
    })
}

/// Workgroups (x, y) for `invocations` invocations: a dispatch's x is at most 65,535.
fn workgroups(invocations: usize) -> (u32, u32) {
    let groups = (invocations as u32).div_ceil(WORKGROUP).max(1);
    let x = groups.min(65_535);
    (x, groups.div_ceil(x))
}

/// A driver's error (a validation error, a lost device, a failed read-back), in its words.
fn driver(e: impl std::fmt::Display) -> DeviceError {
    DeviceError::Driver(e.to_string())
}

/// An error unless the shader recorded each of a job's `count` games (a driver that cuts
/// loops short leaves some out).
fn every_game_recorded(totals: &[u8], count: usize) -> Result<(), DeviceError> {
    let recorded = word(totals, 4 * TALLY_RECORDED) as usize;
    if recorded == count {
        Ok(())
    } else {
        Err(DeviceError::CutShort(format!(
            "the driver played {recorded} of {count} games to their end"
        )))
    }
}

/// The u32 at byte `at` of what the device wrote (the shader's words, in the host's order as
/// wgpu maps them).
fn word(bytes: &[u8], at: usize) -> u32 {
    bytemuck::pod_read_unaligned(&bytes[at..at + 4])
}

/// A game's result from the shader's (cards, tricks | status << 30).
/// A game the shader left unfinished (status 3) is an error: a driver cut its loop short.
fn decode(cards: u32, word: u32) -> Result<Played, DeviceError> {
    let tricks = word & ((1 << 30) - 1);
    match word >> 30 {
        2 => Ok(Played::Capped { cards, tricks }),
        3 => Err(DeviceError::CutShort(format!(
            "the driver stopped a game after {tricks} tricks, unfinished"
        ))),
        w => Ok(Played::Finished {
            winner: w as u8,
            cards,
            tricks,
        }),
    }
}

impl DevicePlayer for Gpu {
    fn name(&self) -> &'static str {
        "gpu"
    }

    fn play(
        &self,
        batch: &DeviceBatch<'_>,
        out: &mut [Played],
        wait: bool,
    ) -> Result<bool, DeviceError> {
        self.noted(self.play_batch(batch, out, wait))
    }

    fn digest(&self, batch: &DeviceBatch<'_>, spec: DigestSpec, wait: bool) -> Answer<Digest> {
        self.noted(self.digest_batch(batch, spec, wait))
    }

    fn first_error(&self) -> Option<DeviceError> {
        self.failure.get().cloned()
    }

    fn digest_guess(&self) -> &AtomicU32 {
        &self.guess
    }

    fn batch_games(&self) -> u64 {
        let most = if self.cpu { CPU_BATCH } else { MAX_BATCH };
        most.min(self.most_dealt).max(1) as u64
    }
}

impl Gpu {
    /// The job of a batch part, on the kernel it goes to.
    fn job(&self, part: &DeviceBatch<'_>) -> Result<Dispatch, DeviceError> {
        let mut job = Dispatch::new(part, self.rank_run)?;
        job.events &= !self.tricks_only;
        Ok(job)
    }

    /// Games one dispatch plays at most.
    fn most(&self) -> usize {
        self.dispatch.min(self.most_dealt).max(1)
    }

    /// `result`, its error kept as the first failure if it is one.
    fn noted<T>(&self, result: Result<T, DeviceError>) -> Result<T, DeviceError> {
        if let Err(e) = &result {
            let _ = self.failure.set(e.clone());
        }
        result
    }

    fn play_batch(
        &self,
        batch: &DeviceBatch<'_>,
        out: &mut [Played],
        wait: bool,
    ) -> Result<bool, DeviceError> {
        check(batch, out.len())?;
        let Some(mut slot) = self.slots.take(wait) else {
            return Ok(false);
        };
        for (done, part) in parts(batch, self.most()) {
            let job = self.job(&part)?;
            self.run_games(&mut slot, &job, &mut out[done..done + part.count])?;
        }
        self.take_error()?;
        Ok(true)
    }

    fn digest_batch(
        &self,
        batch: &DeviceBatch<'_>,
        spec: DigestSpec,
        wait: bool,
    ) -> Answer<Digest> {
        check(batch, batch.count)?;
        if spec.bin == 0 {
            return Err(DeviceError::BadBatch("bad digest: bins of 0 cards".into()));
        }
        let Some(mut slot) = self.slots.take(wait) else {
            return Ok(None);
        };
        let mut digest = Digest::default();
        for (done, part) in parts(batch, self.most()) {
            let job = self.job(&part)?;
            digest.append(self.run_digest(&mut slot, &job, spec)?, done);
        }
        self.take_error()?;
        Ok(Some(digest))
    }
}

/// A batch cut into parts of at most `most` games (whole runs of arrangements, so each part
/// starts at one of the batch's starts), each with the index of its first game.
fn parts<'a>(
    batch: &'a DeviceBatch<'a>,
    most: usize,
) -> impl Iterator<Item = (usize, DeviceBatch<'a>)> + 'a {
    let most = match &batch.deals {
        DeviceDeals::Arrangements { per_start, .. } => (most - most % per_start).max(*per_start),
        DeviceDeals::Stream { .. } | DeviceDeals::Ranks { .. } => most,
    };
    (0..batch.count).step_by(most).map(move |done| {
        let n = (batch.count - done).min(most);
        let deals = match &batch.deals {
            DeviceDeals::Stream {
                seed,
                first,
                deck,
                segment,
                stream,
            } => DeviceDeals::Stream {
                seed: *seed,
                first: first + done as u64,
                deck: Cow::Borrowed(deck.as_ref()),
                segment: *segment,
                stream: *stream,
            },
            DeviceDeals::Arrangements { starts, per_start } => {
                let from = done / per_start * batch.len;
                let to = (done + n).div_ceil(*per_start) * batch.len;
                DeviceDeals::Arrangements {
                    starts: starts[from..to].to_vec(),
                    per_start: *per_start,
                }
            }
            DeviceDeals::Ranks { first, counts } => DeviceDeals::Ranks {
                first: first + done as u64,
                counts: *counts,
            },
        };
        let part = DeviceBatch {
            deals,
            count: n,
            ..batch.clone()
        };
        (done, part)
    })
}

/// What the kernel assumes of a batch, checked so that a bad batch is an error, not a wrong
/// answer.
fn check(batch: &DeviceBatch<'_>, out: usize) -> Result<(), DeviceError> {
    let len = batch.len;
    if !(1..=64).contains(&len) || batch.first_hand > len || batch.leader > 1 {
        return Err(DeviceError::BadBatch(format!(
            "bad batch shape: {len} cards, {} to player 1",
            batch.first_hand
        )));
    }
    if out != batch.count || batch.max_tricks >= 1 << 30 {
        return Err(DeviceError::BadBatch("bad batch size or trick cap".into()));
    }
    let codes_ok = |codes: &[u8]| codes.iter().all(|&c| c <= bmn_kernel::MAX_CODE);
    match &batch.deals {
        DeviceDeals::Stream { deck, segment, .. } => {
            if deck.len() != len
                || *segment == 0
                || !len.is_multiple_of(*segment)
                || !codes_ok(deck)
            {
                return Err(DeviceError::BadBatch("bad stream batch".into()));
            }
        }
        DeviceDeals::Arrangements { starts, per_start } => {
            if *per_start == 0
                || starts.len() != batch.count.div_ceil(*per_start) * len
                || !codes_ok(starts)
            {
                return Err(DeviceError::BadBatch("bad arrangement batch".into()));
            }
        }
        DeviceDeals::Ranks { counts, .. } => {
            if counts.iter().sum::<u32>() as usize != len {
                return Err(DeviceError::BadBatch(
                    "bad rank batch: the counts are not the deal's cards".into(),
                ));
            }
        }
    }
    Ok(())
}

/// The event kernel's schedule, added up over dispatches: `played` lane-steps that played a
/// step, `held` lane-steps its workgroups held (a workgroup's lanes times its longest lane's
/// steps), and `events` the events those steps played (a penalty card, a player out of cards,
/// a payoff: a step plays a penalty card and the payoff after it at once when it can).
/// `played / held` is the share of lane time that did work (the rest is lanes with no game
/// left while another lane of their workgroup still played); `events / played` the events a
/// step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaneSteps {
    pub played: u64,
    pub held: u64,
    pub events: u64,
}

impl LaneSteps {
    /// What was added since `earlier`.
    pub fn since(self, earlier: LaneSteps) -> LaneSteps {
        LaneSteps {
            played: self.played - earlier.played,
            held: self.held - earlier.held,
            events: self.events - earlier.events,
        }
    }
}
