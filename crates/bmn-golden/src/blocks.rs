//! The fixture format: blocks of `key value` lines, blank lines between blocks, `#` comments.
//!
//! In the spirit of shakmaty's perft files: plain text a person can read and diff, one case per
//! block, every block naming its `id` and its `source`. A malformed fixture is a broken test
//! set-up, so every accessor panics with the file, line and key at fault.

use std::str::FromStr;

/// One case of a fixture file.
pub struct Block {
    file: &'static str,
    line: usize,
    fields: Vec<(&'static str, &'static str, usize)>,
}

/// Splits a fixture into blocks; panics unless every block has exactly one `id` and `source`.
pub fn parse(file: &'static str, text: &'static str) -> Vec<Block> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut current: Option<Block> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.starts_with('#') {
            continue;
        }
        if line.is_empty() {
            blocks.extend(current.take());
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        current
            .get_or_insert_with(|| Block {
                file,
                line: i + 1,
                fields: Vec::new(),
            })
            .fields
            .push((key, value.trim(), i + 1));
    }
    blocks.extend(current);
    for b in &blocks {
        b.one("id");
        b.one("source");
    }
    blocks
}

impl Block {
    fn fail(&self, key: &str, why: &str) -> ! {
        panic!(
            "{}: the block at line {} ({key}): {why}",
            self.file, self.line
        )
    }

    /// Every value of `key`, in order.
    pub fn many(&self, key: &str) -> Vec<&'static str> {
        self.fields
            .iter()
            .filter(|(k, ..)| *k == key)
            .map(|&(_, v, _)| v)
            .collect()
    }

    /// The one value of `key`.
    pub fn one(&self, key: &str) -> &'static str {
        match self.many(key)[..] {
            [v] if !v.is_empty() => v,
            [_] => self.fail(key, "empty value"),
            [] => self.fail(key, "missing"),
            _ => self.fail(key, "given more than once"),
        }
    }

    pub fn maybe(&self, key: &str) -> Option<&'static str> {
        (!self.many(key).is_empty()).then(|| self.one(key))
    }

    /// The value of `key` as a number (or any `FromStr`).
    pub fn num<T: FromStr>(&self, key: &str) -> T {
        parse_word(self.one(key)).unwrap_or_else(|| self.fail(key, "not a number"))
    }

    /// The value of `key` split into words.
    pub fn words(&self, key: &str) -> Vec<&'static str> {
        self.one(key).split_whitespace().collect()
    }

    /// Panics on any key not in `allowed` (a typo would otherwise drop a figure silently).
    pub fn only(&self, allowed: &[&str]) {
        for &(k, _, line) in &self.fields {
            if !["id", "source"].contains(&k) && !allowed.contains(&k) {
                panic!("{}:{line}: unknown key {k:?}", self.file);
            }
        }
    }

    pub fn id(&self) -> String {
        self.one("id").to_string()
    }

    pub fn source(&self) -> String {
        self.one("source").to_string()
    }

    /// Panics naming the block: for values whose inner shape is wrong.
    pub fn bad(&self, key: &str, why: &str) -> ! {
        self.fail(key, why)
    }
}

/// Parses one word, `None` if it does not parse.
pub fn parse_word<T: FromStr>(word: &str) -> Option<T> {
    word.parse().ok()
}
