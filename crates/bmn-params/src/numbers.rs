//! The one syntax of numbers every front end reads: `1000000`, `1_000_000`, `1e6`, `2.5e6`,
//! for counts (any integer type), ranks of any size and reals, with one set of words for what
//! is wrong (negative, too big, not a number). The CLI's flags, the server's queries and the
//! Python package's string arguments all read through here, so `1e3` means a thousand to each.

/// A number as bmn reads one everywhere: `value = digits × 10^exponent`, from digits with `_`
/// between them if liked, an optional fraction and an optional exponent: `1000000`,
/// `1_000_000`, `1e6`, `2.5e6`, `3.2E9`, `+7`.
struct Decimal {
    digits: String,
    exponent: i64,
}

/// The longest number [`whole`] writes out: far past any count a command takes (a deck's deal
/// count has about 70 digits), short of what a typo such as `1e999999999` would allocate.
const MAX_DIGITS: usize = 10_000;

/// What every number flag says of text that is not a number.
fn not_a_number(text: &str) -> String {
    format!("'{text}' is not a number: give digits, e.g. 1000000, 1_000_000 or 1e6")
}

/// Whether `text` is a negative number (which every number flag refuses in words: it is not
/// a flag, nor garbage).
fn negative(text: &str) -> bool {
    text.strip_prefix('-')
        .is_some_and(|rest| Decimal::parse(rest).is_ok())
}

impl Decimal {
    /// `text` read as a number; a sign other than `+` is not part of bmn's syntax (the callers
    /// say "negative" for a `-`: [`negative`]).
    fn parse(text: &str) -> Result<Decimal, String> {
        // Digit runs joined by single underscores, as Rust writes literals.
        fn run(part: &str) -> Option<&str> {
            let ok = !part.is_empty()
                && !part.starts_with('_')
                && !part.ends_with('_')
                && !part.contains("__")
                && part.chars().all(|c| c.is_ascii_digit() || c == '_');
            ok.then_some(part)
        }
        let body = text.strip_prefix('+').unwrap_or(text);
        let (mantissa, exponent) = match body.split_once(['e', 'E']) {
            Some((m, e)) => {
                let sign = if e.starts_with('-') { -1 } else { 1 };
                let e = run(e.strip_prefix(['+', '-']).unwrap_or(e))
                    .ok_or_else(|| not_a_number(text))?
                    .replace('_', "");
                // Past MAX_DIGITS the value is refused anyway; saturate rather than overflow.
                let e: i64 = e.parse().unwrap_or(i64::MAX / 2).min(i64::MAX / 2);
                (m, sign * e)
            }
            None => (body, 0),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        // `.5` and `5.` are numbers too (as Rust's f64 reads them); `.` is not.
        let part = |p: &str| p.is_empty() || run(p).is_some();
        if (int.is_empty() && frac.is_empty()) || !part(int) || !part(frac) {
            return Err(not_a_number(text));
        }
        let frac = frac.replace('_', "");
        Ok(Decimal {
            digits: format!("{}{frac}", int.replace('_', "")),
            exponent: exponent - frac.len() as i64,
        })
    }
}

/// A whole number of any size in bmn's syntax ([`Decimal`]), as plain decimal digits without
/// leading zeros: what the flags that take ranks (`bmn unrank`, `--rank`, `--from`) read.
pub fn whole(text: &str) -> Result<String, String> {
    if negative(text.trim()) {
        return Err(format!("{text} is negative: give a whole number from 0"));
    }
    let Decimal {
        mut digits,
        exponent,
    } = Decimal::parse(text.trim())?;
    if exponent < 0 {
        let cut = usize::try_from(-exponent).unwrap_or(usize::MAX);
        let keep = digits.len().saturating_sub(cut);
        if !digits[keep..].bytes().all(|b| b == b'0') {
            return Err(format!("{text} is not a whole number"));
        }
        digits.truncate(keep);
    } else if exponent > 0 && digits.bytes().any(|b| b != b'0') {
        let zeros = usize::try_from(exponent).unwrap_or(usize::MAX);
        if digits.len().saturating_add(zeros) > MAX_DIGITS {
            return Err(format!("{text} is too big ({MAX_DIGITS} digits at most)"));
        }
        digits.push_str(&"0".repeat(zeros));
    }
    let digits = digits.trim_start_matches('0');
    Ok(if digits.is_empty() { "0" } else { digits }.to_string())
}

/// The unsigned integer types number flags have.
pub trait Count: TryFrom<u128> + Copy + Send + Sync + 'static {
    const MAX: u128;
}

macro_rules! counts {
    ($($t:ty),*) => {$(
        impl Count for $t {
            const MAX: u128 = <$t>::MAX as u128;
        }
    )*};
}
counts!(u8, u16, u32, u64, usize);

/// A count of type `T` in bmn's syntax ([`whole`]), the bound it passes said when it is out of
/// range. Only the bound: whether 0 is taken is each flag's own (`--games 0` is refused by the
/// plan, `--port 0` is not), so a refusal here never offers a range the flag would refuse.
pub fn count<T: Count>(text: &str) -> Result<T, String> {
    if negative(text) {
        return Err(format!("{text} is negative"));
    }
    let digits = whole(text)?;
    digits
        .parse::<u128>()
        .ok()
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| format!("{text} is too big: at most {}", T::MAX))
}

/// `--leader`: a seat, numbered from 1, in bmn's number syntax. A negative number is refused
/// here, in words; 0 is the plan's to refuse (`bmn_app::input::seat`), as for every front end.
pub fn seat(text: &str) -> Result<u64, String> {
    match count::<u64>(text) {
        Err(_) if negative(text) => {
            Err(format!("{text} is not a seat: players are numbered from 1"))
        }
        other => other,
    }
}

/// A real number in bmn's syntax ([`Decimal`]: `1e12`, `3.2e9`, `.995`, `1_000`), for the
/// flags that take reals (`odds --games`, `--rate`, `climb --cooling`): none takes a negative.
pub fn real(text: &str) -> Result<f64, String> {
    if negative(text) {
        return Err(format!("{text} is negative"));
    }
    let d = Decimal::parse(text)?;
    let x: f64 = format!("{}e{}", d.digits, d.exponent)
        .parse()
        .map_err(|_| not_a_number(text))?;
    if x.is_finite() {
        Ok(x)
    } else {
        Err(format!("{text} is too big for a real number"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_syntax_for_every_count() {
        for (text, n) in [
            ("0", 0),
            ("1000000", 1_000_000),
            ("1_000_000", 1_000_000),
            ("1e6", 1_000_000),
            ("1E6", 1_000_000),
            ("2.5e6", 2_500_000),
            ("+7", 7),
            ("007", 7),
            ("1000e-3", 1),
            ("18446744073709551615", u64::MAX),
        ] {
            assert_eq!(count::<u64>(text), Ok(n), "{text}");
        }
        for (text, says) in [
            ("-1", "-1 is negative"),
            ("2.5", "2.5 is not a whole number"),
            ("1e-3", "1e-3 is not a whole number"),
            (
                "18446744073709551616",
                "is too big: at most 18446744073709551615",
            ),
            ("1e20", "is too big"),
            ("1e999999999", "is too big"),
            ("x", "'x' is not a number"),
            ("-x", "'-x' is not a number"),
            ("1__0", "not a number"),
            ("_1", "not a number"),
            ("1e", "not a number"),
            ("", "not a number"),
            ("0x10", "not a number"),
        ] {
            let err = count::<u64>(text).unwrap_err();
            assert!(err.contains(says), "{text}: {err}");
        }
        assert!(count::<u16>("65536").unwrap_err().contains("at most 65535"));
    }

    #[test]
    fn ranks_of_any_size_and_seats_from_one() {
        assert_eq!(whole("1e30").unwrap(), format!("1{}", "0".repeat(30)));
        assert_eq!(whole("0e5").unwrap(), "0");
        assert_eq!(whole("12_345").unwrap(), "12345");
        assert!(whole("-1").unwrap_err().contains("-1 is negative"));
        assert_eq!(seat("1"), Ok(1));
        assert_eq!(seat("0"), Ok(0), "the plan refuses 0, for every front end");
        assert!(
            seat("-1")
                .unwrap_err()
                .contains("players are numbered from 1")
        );
        assert_eq!(real("1e12"), Ok(1e12));
        assert_eq!(real("3.2e9"), Ok(3.2e9));
        assert_eq!(real("1.5"), Ok(1.5));
        assert_eq!(real(".995"), Ok(0.995));
        assert_eq!(real("2."), Ok(2.0));
        assert_eq!(real("1e-9"), Ok(1e-9));
        assert_eq!(real("1_000.25"), Ok(1000.25));
        assert!(real(".").unwrap_err().contains("not a number"));
        assert!(real("inf").unwrap_err().contains("not a number"));
        assert!(real("1e400").unwrap_err().contains("too big"));
        assert!(real("-1").unwrap_err().contains("negative"));
    }
}
