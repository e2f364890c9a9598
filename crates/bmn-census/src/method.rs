//! The census's methods: the independent ways it reaches cycles, and their names in text and JSON.

use std::fmt;

/// A way the census reaches cycles.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Method {
    /// The endless-game factory (Casella's construction, then walks toward balance).
    Pieces,
    /// Every position in which one player holds a small hand ([`crate::hands`]).
    Hands,
    /// Every deal: the truth the others are measured against.
    Deals,
}

impl Method {
    /// Every method, in the order a census runs them.
    pub const ALL: [Method; 3] = [Method::Pieces, Method::Hands, Method::Deals];

    /// `pieces`, `hands` or `deals`: the word `--methods` takes and reports print.
    pub fn name(self) -> &'static str {
        match self {
            Method::Pieces => "pieces",
            Method::Hands => "hands",
            Method::Deals => "deals",
        }
    }

    /// The names of `methods` in alphabetical order: the order the census report has always
    /// listed them in (a contract of its JSON), not the order the methods run in.
    pub fn names(methods: &std::collections::BTreeSet<Method>) -> Vec<&'static str> {
        let mut names: Vec<&'static str> = methods.iter().map(|m| m.name()).collect();
        names.sort_unstable();
        names
    }

    /// The method named `word` (exactly as [`Method::name`] spells it).
    pub fn parse(word: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.name() == word)
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `names` lists the methods by name, alphabetically, whatever order they run in.
    #[test]
    fn names_are_alphabetical() {
        use std::collections::BTreeSet;
        let all = BTreeSet::from(Method::ALL);
        assert_eq!(Method::names(&all), ["deals", "hands", "pieces"]);
        let two = BTreeSet::from([Method::Pieces, Method::Hands]);
        assert_eq!(Method::names(&two), ["hands", "pieces"]);
    }

    #[test]
    fn names_read_back() {
        for m in Method::ALL {
            assert_eq!(Method::parse(m.name()), Some(m));
        }
        assert_eq!(Method::parse("Hands"), None);
        assert_eq!(Method::parse(""), None);
    }
}
