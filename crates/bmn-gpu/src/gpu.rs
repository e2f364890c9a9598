//! `Gpu`: one opened adapter with the compiled kernel, and the batch loop that feeds it.

use std::borrow::Cow;
use std::sync::{Arc, Mutex, OnceLock, TryLockError};

use bmn_kernel::Played;
use bmn_search::device::{DeviceBatch, DeviceDeals, DevicePlayer};

use crate::MAX_BATCH;
use crate::adapters::{AdapterSummary, all, instance, summary};
use crate::error::GpuError;
use bmn_deals::stream::GAMMA;

/// Invocations per workgroup (the shader's `@workgroup_size`).
const WORKGROUP: u32 = 64;

/// Bytes of the shader's `Params` (twelve u32s).
const PARAMS_BYTES: u64 = 48;

/// An opened adapter: its device and queue, the kernel's pipeline, and buffers reused from
/// batch to batch (the lock on them also makes batches take turns on the device).
pub struct Gpu {
    adapter: AdapterSummary,
    device: wgpu::Device,
    queue: wgpu::Queue,
    pipeline: wgpu::ComputePipeline,
    buffers: Mutex<Option<Buffers>>,
    /// The first error the device reported outside a batch's own checks.
    errors: Arc<Mutex<Option<String>>>,
    /// The first batch that failed.
    failure: OnceLock<String>,
}

/// The buffers of one batch: parameters, deals in, results out and their copy to read back.
struct Buffers {
    params: wgpu::Buffer,
    input: wgpu::Buffer,
    results: wgpu::Buffer,
    readback: wgpu::Buffer,
    bind: wgpu::BindGroup,
    /// Words `input` holds; games `results` holds.
    input_words: usize,
    games: usize,
}

/// The adapter `index` (as `bmn devices` numbers them), opened once per process and kept.
pub fn open(index: usize) -> Result<&'static Gpu, GpuError> {
    static OPENED: OnceLock<Mutex<Vec<(usize, &'static Gpu)>>> = OnceLock::new();
    let opened = OPENED.get_or_init(|| Mutex::new(Vec::new()));
    let mut opened = opened.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&(_, gpu)) = opened.iter().find(|(i, _)| *i == index) {
        return Ok(gpu);
    }
    let gpu: &'static Gpu = Box::leak(Box::new(Gpu::new(index)?));
    opened.push((index, gpu));
    Ok(gpu)
}

impl Gpu {
    fn new(index: usize) -> Result<Gpu, GpuError> {
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
        let fail = |reason: String| GpuError::Open {
            index,
            name: info.name.clone(),
            reason,
        };
        // The adapter's own storage limits: a batch's buffers are sized to fit them.
        let limits = adapter.limits();
        let desc = wgpu::DeviceDescriptor {
            label: Some("bmn"),
            required_limits: limits,
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
            label: Some("play.wgsl"),
            source: wgpu::ShaderSource::Wgsl(include_str!("play.wgsl").into()),
        });
        let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
            label: Some("play"),
            layout: None,
            module: &module,
            entry_point: Some("main"),
            compilation_options: Default::default(),
            cache: None,
        });
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(fail(format!("the kernel did not compile: {e}")));
        }
        Ok(Gpu {
            adapter: info,
            device,
            queue,
            pipeline,
            buffers: Mutex::new(None),
            errors,
            failure: OnceLock::new(),
        })
    }

    /// The adapter this GPU is.
    pub fn adapter(&self) -> &AdapterSummary {
        &self.adapter
    }

    /// Buffers for `games` results and `words` input words, reusing the last ones if they fit.
    fn buffers<'b>(
        &self,
        slot: &'b mut Option<Buffers>,
        games: usize,
        words: usize,
    ) -> &'b Buffers {
        let fits = slot
            .as_ref()
            .is_some_and(|b| b.games >= games && b.input_words >= words);
        if !fits {
            let (games, words) = slot.as_ref().map_or((games, words), |b| {
                (b.games.max(games), b.input_words.max(words))
            });
            *slot = Some(self.make_buffers(games, words));
        }
        slot.as_ref().expect("just made")
    }

    fn make_buffers(&self, games: usize, words: usize) -> Buffers {
        let d = &self.device;
        let buffer = |label, size: u64, usage| {
            d.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage,
                mapped_at_creation: false,
            })
        };
        use wgpu::BufferUsages as U;
        let params = buffer("params", PARAMS_BYTES, U::UNIFORM | U::COPY_DST);
        let input = buffer("input", (words.max(1) * 4) as u64, U::STORAGE | U::COPY_DST);
        let out_bytes = (games.max(1) * 8) as u64;
        let results = buffer("results", out_bytes, U::STORAGE | U::COPY_SRC);
        let readback = buffer("readback", out_bytes, U::MAP_READ | U::COPY_DST);
        let layout = self.pipeline.get_bind_group_layout(0);
        let bind = d.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("play"),
            layout: &layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: params.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: input.as_entire_binding(),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: results.as_entire_binding(),
                },
            ],
        });
        Buffers {
            params,
            input,
            results,
            readback,
            bind,
            input_words: words,
            games,
        }
    }

    /// Plays one batch of at most [`MAX_BATCH`] games on buffers the caller holds.
    fn run(
        &self,
        slot: &mut Option<Buffers>,
        batch: &DeviceBatch<'_>,
        out: &mut [Played],
    ) -> Result<(), String> {
        let n = batch.count;
        // Mode, the SplitMix64 counter of the first deal, segment, deals per start,
        // invocations, and the codes the shader reads (the deck, or the starts).
        let (mode, base, segment, per_start, threads, codes) = match &batch.deals {
            DeviceDeals::Stream {
                seed,
                first,
                deck,
                segment,
            } => {
                // As bmn_deals::deal_rng: deal k's counter is seed + 4k * GAMMA.
                let base = seed.wrapping_add(first.wrapping_mul(4).wrapping_mul(GAMMA));
                (0, base, *segment, 1, n, deck.as_ref())
            }
            DeviceDeals::Arrangements { starts, per_start } => (
                1,
                0,
                0,
                *per_start,
                n.div_ceil(*per_start),
                starts.as_slice(),
            ),
        };
        let input: Vec<u8> = codes
            .iter()
            .flat_map(|&c| u32::from(c).to_le_bytes())
            .collect();
        let params: [u32; 12] = [
            base as u32,
            (base >> 32) as u32,
            n as u32,
            batch.len as u32,
            batch.first_hand as u32,
            u32::from(batch.leader),
            batch.max_tricks,
            mode,
            segment as u32,
            per_start as u32,
            0,
            0,
        ];
        let b = self.buffers(slot, n, codes.len());
        let params: Vec<u8> = params.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.queue.write_buffer(&b.params, 0, &params);
        self.queue.write_buffer(&b.input, 0, &input);
        let groups = (threads as u32).div_ceil(WORKGROUP).max(1);
        let x = groups.min(65_535);
        let y = groups.div_ceil(x);
        let mut encoder = self.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_compute_pass(&Default::default());
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &b.bind, &[]);
            pass.dispatch_workgroups(x, y, 1);
        }
        let out_bytes = (n * 8) as u64;
        encoder.copy_buffer_to_buffer(&b.results, 0, &b.readback, 0, out_bytes);
        let scope = self.device.push_error_scope(wgpu::ErrorFilter::Validation);
        self.queue.submit([encoder.finish()]);
        if let Some(e) = pollster::block_on(scope.pop()) {
            return Err(e.to_string());
        }
        let slice = b.readback.slice(..out_bytes);
        let (tx, rx) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map_err(|e| e.to_string())?;
        rx.recv()
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())?;
        {
            let view = slice.get_mapped_range().map_err(|e| e.to_string())?;
            for (o, w) in out.iter_mut().zip(view.chunks_exact(8)) {
                let cards = u32::from_le_bytes([w[0], w[1], w[2], w[3]]);
                let word = u32::from_le_bytes([w[4], w[5], w[6], w[7]]);
                let tricks = word & ((1 << 30) - 1);
                *o = match word >> 30 {
                    2 => Played::Capped { cards, tricks },
                    w => Played::Finished {
                        winner: w as u8,
                        cards,
                        tricks,
                    },
                };
            }
        }
        b.readback.unmap();
        Ok(())
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
    ) -> Result<bool, String> {
        let played = self.play_batch(batch, out, wait);
        if let Err(e) = &played {
            let _ = self.failure.set(e.clone());
        }
        played
    }

    fn first_error(&self) -> Option<String> {
        self.failure.get().cloned()
    }
}

impl Gpu {
    fn play_batch(
        &self,
        batch: &DeviceBatch<'_>,
        out: &mut [Played],
        wait: bool,
    ) -> Result<bool, String> {
        check(batch, out)?;
        let mut slot = match self.buffers.try_lock() {
            Ok(slot) => slot,
            Err(TryLockError::WouldBlock) if !wait => return Ok(false),
            Err(TryLockError::WouldBlock) => self.buffers.lock().unwrap_or_else(|e| e.into_inner()),
            Err(TryLockError::Poisoned(e)) => e.into_inner(),
        };
        // Large batches go in dispatches of at most MAX_BATCH games (whole runs of
        // arrangements, so each part starts at one of the batch's starts).
        let mut done = 0;
        while done < batch.count {
            let most = match &batch.deals {
                DeviceDeals::Arrangements { per_start, .. } => MAX_BATCH - MAX_BATCH % per_start,
                DeviceDeals::Stream { .. } => MAX_BATCH,
            };
            let n = (batch.count - done).min(most);
            let part = DeviceBatch {
                deals: match &batch.deals {
                    DeviceDeals::Stream {
                        seed,
                        first,
                        deck,
                        segment,
                    } => DeviceDeals::Stream {
                        seed: *seed,
                        first: first + done as u64,
                        deck: Cow::Borrowed(deck.as_ref()),
                        segment: *segment,
                    },
                    DeviceDeals::Arrangements { starts, per_start } => {
                        let from = done / per_start * batch.len;
                        let to = (done + n).div_ceil(*per_start) * batch.len;
                        DeviceDeals::Arrangements {
                            starts: starts[from..to].to_vec(),
                            per_start: *per_start,
                        }
                    }
                },
                count: n,
                ..batch.clone()
            };
            self.run(&mut slot, &part, &mut out[done..done + n])?;
            done += n;
        }
        if let Some(e) = self.errors.lock().unwrap_or_else(|p| p.into_inner()).take() {
            return Err(e);
        }
        Ok(true)
    }
}

/// What the kernel assumes of a batch, checked so that a bad batch is an error, not a wrong
/// answer.
fn check(batch: &DeviceBatch<'_>, out: &[Played]) -> Result<(), String> {
    let len = batch.len;
    if !(1..=64).contains(&len) || batch.first_hand > len || batch.leader > 1 {
        return Err(format!(
            "bad batch shape: {len} cards, {} to player 1",
            batch.first_hand
        ));
    }
    if out.len() != batch.count || batch.max_tricks >= 1 << 30 {
        return Err("bad batch size or trick cap".into());
    }
    let codes_ok = |codes: &[u8]| codes.iter().all(|&c| c <= bmn_kernel::MAX_CODE);
    match &batch.deals {
        DeviceDeals::Stream { deck, segment, .. } => {
            if deck.len() != len
                || *segment == 0
                || !len.is_multiple_of(*segment)
                || !codes_ok(deck)
            {
                return Err("bad stream batch".into());
            }
        }
        DeviceDeals::Arrangements { starts, per_start } => {
            if *per_start == 0
                || starts.len() != batch.count.div_ceil(*per_start) * len
                || !codes_ok(starts)
            {
                return Err("bad arrangement batch".into());
            }
        }
    }
    Ok(())
}
