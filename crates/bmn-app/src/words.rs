//! Durations and counts as a person reads them in a report's text: "2.9 years", "6.1 billion".
//! The JSON keeps the plain numbers; these are for the text alone.

/// Seconds in the unit that reads best: `30.0 s`, `10.0 min`, `24.0 h`, `10.0 days`,
/// `2.9 years`, and past ten thousand years the years as a [`count`] (`3.17 trillion years`).
pub fn duration(seconds: f64) -> String {
    const YEAR: f64 = 365.25 * 86_400.0;
    match seconds {
        s if !s.is_finite() => "forever".into(),
        s if s < 120.0 => format!("{s:.1} s"),
        s if s < 7_200.0 => format!("{:.1} min", s / 60.0),
        s if s < 2.0 * 86_400.0 => format!("{:.1} h", s / 3_600.0),
        s if s < YEAR => format!("{:.1} days", s / 86_400.0),
        s if s < 1e4 * YEAR => format!("{:.1} years", s / YEAR),
        s => format!("{} years", count(s / YEAR)),
    }
}

/// A count: whole and with commas below a million (`1,260`), else three significant digits
/// and the number's name (`6.13 million`, `2.18 billion`, `774 trillion`); past the names, in
/// powers of ten (`1.94e24`).
pub fn count(n: f64) -> String {
    const NAMES: [(f64, &str); 5] = [
        (1e18, "quintillion"),
        (1e15, "quadrillion"),
        (1e12, "trillion"),
        (1e9, "billion"),
        (1e6, "million"),
    ];
    if !n.is_finite() {
        return format!("{n}");
    }
    if n.abs() < 1e6 {
        let whole = format!("{:.0}", n.abs());
        let sign = if n < -0.5 { "-" } else { "" };
        return format!("{sign}{}", crate::thousands(&whole));
    }
    if n.abs() >= 1e21 {
        return format!("{n:.2e}");
    }
    let (scale, name) = NAMES
        .iter()
        .copied()
        .find(|&(scale, _)| n.abs() >= scale)
        .expect("a million at least");
    let x = n / scale;
    let digits = if x.abs() >= 100.0 {
        0
    } else if x.abs() >= 10.0 {
        1
    } else {
        2
    };
    format!("{x:.digits$} {name}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_counts_read_as_words() {
        assert_eq!(duration(30.0), "30.0 s");
        assert_eq!(duration(600.0), "10.0 min");
        assert_eq!(duration(86_400.0), "24.0 h");
        assert_eq!(duration(10.0 * 86_400.0), "10.0 days");
        assert_eq!(duration(2.948 * 365.25 * 86_400.0), "2.9 years");
        assert_eq!(duration(1e20), "3.17 trillion years");
        assert_eq!(duration(f64::INFINITY), "forever");
        assert_eq!(count(1260.0), "1,260");
        assert_eq!(count(999_999.0), "999,999");
        assert_eq!(count(6_130_542_113.0), "6.13 billion");
        assert_eq!(count(2.179e9), "2.18 billion");
        assert_eq!(count(774_337_892_328_000.0), "774 trillion");
        assert_eq!(count(1.94e14), "194 trillion");
        assert_eq!(count(4.2e7), "42.0 million");
        assert_eq!(count(6.5e20), "650 quintillion");
        assert_eq!(count(1.94e24), "1.94e24");
    }
}
