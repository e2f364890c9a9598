//! The host↔shader contract: [`Params`], the uniform every dispatch writes, and the layout of
//! the `tally` buffer, defined once here as `shader/common.wgsl` declares them. A test parses
//! the shader with naga (the compiler wgpu runs) and checks every field and word against these,
//! so a change to one side that the other lacks fails a test rather than a GPU run.

use bmn_play::device::{DIGEST_BINS, LENGTH_CARDS, LENGTH_TRICKS};

/// Declares `Params` with its fields' names for the test that reads the shader.
macro_rules! params {
    ($($(#[$doc:meta])* $field:ident,)*) => {
        /// A dispatch's parameters, field for field (all `u32`, in order) as the shader's
        /// `struct Params`; see there for what each means.
        #[repr(C)]
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, bytemuck::Pod, bytemuck::Zeroable)]
        pub(crate) struct Params {
            $($(#[$doc])* pub $field: u32,)*
        }

        #[cfg(test)]
        impl Params {
            /// The fields' names, in order.
            pub(crate) const FIELDS: &[&str] = &[$(stringify!($field)),*];
        }
    };
}

params! {
    /// Stream mode: the SplitMix64 counter of the first deal; rank mode: its rank (low, high).
    base_lo,
    base_hi,
    count,
    len,
    first_hand,
    /// 0: player 1 leads; 1: player 2.
    leader,
    max_tricks,
    /// 0 the seeded stream, 1 arrangements from the host's starts, 2 ranks unranked here.
    mode,
    segment,
    per_item,
    lanes,
    /// 1: finished games added up in `tally`, 0: every result written.
    tally,
    bin,
    keep_cards,
    kept_cap,
    /// Rank mode: the deck's arrangements (low, high).
    block_lo,
    block_hi,
    lane_games,
    /// 1: the event kernel's lanes take games from the queue.
    queue,
    /// 1: finished games also counted by exact cards and tricks.
    lengths,
    /// Stream mode: 1 or 2; on stream 2, a segment's background code and marked cards.
    stream,
    background,
    marked,
}

/// Declares the `tally` words with their names for the test that reads the shader.
macro_rules! words {
    ($($(#[$doc:meta])* $name:ident = $value:expr;)*) => {
        $($(#[$doc])* pub(crate) const $name: usize = $value;)*

        /// Every word's name and index, as the shader's constants name them.
        #[cfg(test)]
        const LAYOUT: &[(&str, usize)] = &[$((stringify!($name), $name)),*];
    };
}

words! {
    /// Games kept for the host (all of them, even past `kept_cap`).
    TALLY_KEPT = 0;
    /// Finished games added up, and their wins by the leader and by the other player.
    TALLY_FINISHED = 1;
    TALLY_WINS = 2;
    /// Their cards and tricks (64-bit, low word first).
    TALLY_CARDS = 4;
    TALLY_TRICKS = 6;
    /// Games recorded (kept, added up or written): the host checks that every game was.
    TALLY_RECORDED = 8;
    /// The event kernel's queue: the next game a lane takes (the shader's alone: the host
    /// only clears it with the rest).
    #[allow(dead_code)]
    TALLY_NEXT = 9;
    /// The event kernel's schedule (64-bit): lane-steps that played, lane-steps held, events.
    TALLY_USEFUL = 10;
    TALLY_HELD = 12;
    TALLY_EVENTS = 14;
    /// The histogram of finished games' cards.
    TALLY_HIST = 16;
    /// Finished games by exact cards, then by exact tricks (with `DigestSpec::lengths`).
    TALLY_BY_CARDS = TALLY_HIST + DIGEST_BINS;
    TALLY_BY_TRICKS = TALLY_BY_CARDS + LENGTH_CARDS;
    /// Words in all.
    TALLY_WORDS = TALLY_BY_TRICKS + LENGTH_TRICKS;
}

#[cfg(test)]
mod tests {
    use naga::{Expression, Literal, Module, Scalar, ScalarKind, TypeInner};

    use super::*;

    fn shader() -> Module {
        naga::front::wgsl::parse_str(crate::gpu::SHADER).expect("the shader parses")
    }

    /// The value of the shader's `u32` constant `name`.
    fn constant(module: &Module, name: &str) -> Option<usize> {
        let (_, c) = module
            .constants
            .iter()
            .find(|(_, c)| c.name.as_deref() == Some(name))?;
        match module.global_expressions[c.init] {
            Expression::Literal(Literal::U32(v)) => Some(v as usize),
            ref other => panic!("{name} is {other:?}, not a u32 literal"),
        }
    }

    #[test]
    fn params_are_the_shader_s_field_for_field() {
        let module = shader();
        let (_, ty) = module
            .types
            .iter()
            .find(|(_, t)| t.name.as_deref() == Some("Params"))
            .expect("struct Params");
        let TypeInner::Struct { members, span } = &ty.inner else {
            panic!("Params is not a struct");
        };
        let names: Vec<&str> = members.iter().filter_map(|m| m.name.as_deref()).collect();
        assert_eq!(names, Params::FIELDS);
        for (i, m) in members.iter().enumerate() {
            assert_eq!(m.offset as usize, 4 * i, "{:?}", m.name);
            let u32 = TypeInner::Scalar(Scalar {
                kind: ScalarKind::Uint,
                width: 4,
            });
            assert_eq!(module.types[m.ty].inner, u32, "{:?}", m.name);
        }
        assert_eq!(*span as usize, std::mem::size_of::<Params>());
    }

    #[test]
    fn the_tally_s_words_are_the_shader_s() {
        let module = shader();
        for &(name, at) in LAYOUT {
            // The shader has no constant for the total: its last block ends the buffer.
            if name != "TALLY_WORDS" {
                assert_eq!(constant(&module, name), Some(at), "{name}");
            }
        }
        assert_eq!(constant(&module, "BINS"), Some(DIGEST_BINS));
        assert_eq!(constant(&module, "LENGTH_CARDS"), Some(LENGTH_CARDS));
        assert_eq!(constant(&module, "LENGTH_TRICKS"), Some(LENGTH_TRICKS));
    }
}
