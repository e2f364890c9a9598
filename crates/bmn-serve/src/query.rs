//! Query strings: each endpoint's parameters are one struct (`#[derive(Deserialize)]`,
//! `#[serde(deny_unknown_fields)]`), read by one extractor, [`Params`], that holds the rules
//! every endpoint shares, so that no endpoint can forget one:
//!
//! - at most `limits.request_bytes` bytes of query string (`request too large: ...`);
//! - each parameter at most once (`repeated parameter 'NAME'`): a form decoder takes the
//!   last of a repeated name without a word, and `deal=a&deal=b` is more likely a mistake
//!   than a wish;
//! - no parameter the endpoint does not take (`unknown parameter 'NAME' (this endpoint takes
//!   ...)`), the list being the struct's fields;
//! - a blank value counts as absent; a number is read as the command line reads one (`1000`,
//!   `1_000`, `1e3`; `bad NAME: 'v' is not a number: ...`, `bad NAME: -1 is negative`), a flag `true`/`1`/`yes` or `false`/`0`/`no` (`bad NAME: 'v' is not true or
//!   false`).
//!
//! An endpoint that runs a command ([`command`]) takes the parameters of the command's bmn-app
//! request that it lists, read through the request's own declaration (`bmn_app::front`: the
//! command line's names, types, number syntax and refusals), beside a few of its own (a
//! search's `seconds` and `stream`), which are read by [`Text`], a serde deserializer of one
//! parameter's text that knows its name, so each message names the parameter it is about;
//! what the client sent is quoted with its control characters escaped, so a message stays on
//! one line.

use std::collections::HashSet;
use std::fmt;

use axum::extract::{FromRequestParts, Query};
use axum::http::Uri;
use axum::http::request::Parts;
use serde::de::value::MapDeserializer;
use serde::de::{self, DeserializeOwned, IntoDeserializer, Visitor};

use crate::Shared;
use crate::error::ApiError;

/// An endpoint's parameters `T`, read from the query string by the rules of the module's doc.
pub struct Params<T>(pub T);

impl<T: DeserializeOwned + Send> FromRequestParts<Shared> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, shared: &Shared) -> Result<Self, ApiError> {
        read(&parts.uri, shared.limits.request_bytes).map(Params)
    }
}

fn bad(message: String) -> ApiError {
    ApiError::bad(message)
}

/// Reads `uri`'s query string, of at most `limit` bytes, as `T`.
pub fn read<T: DeserializeOwned>(uri: &Uri, limit: usize) -> Result<T, ApiError> {
    let pairs = pairs(uri, limit)?
        .into_iter()
        .map(|(name, value)| (name.clone(), Text { name, value }));
    T::deserialize(MapDeserializer::new(pairs)).map_err(|e| bad(e.0))
}

/// What an endpoint that runs a command takes.
pub struct Endpoint {
    /// Every parameter, in the order a refusal lists them: the request's that it exposes
    /// (by the request's names, or by `renamed`'s) and its own.
    pub takes: &'static [&'static str],
    /// Its own parameters, read as `O`.
    pub own: &'static [&'static str],
    /// `(the request's name, the endpoint's)` where they differ (basin's `position` is
    /// `deal`).
    pub renamed: &'static [(&'static str, &'static str)],
}

/// Reads `uri`'s query string as the endpoint's command request `R` and its own parameters `O`.
pub fn command<R, O>(uri: &Uri, limit: usize, endpoint: &Endpoint) -> Result<(R, O), ApiError>
where
    R: bmn_app::front::Request,
    O: DeserializeOwned,
{
    use bmn_app::front::{Refusal, Value};
    let (mut own, mut given) = (Vec::new(), Vec::new());
    for (name, value) in pairs(uri, limit)? {
        if !endpoint.takes.contains(&name.as_str()) {
            return Err(unknown(&name, endpoint.takes));
        }
        if endpoint.own.contains(&name.as_str()) {
            own.push((name.clone(), Text { name, value }));
        } else {
            let field = bmn_app::name_of(endpoint.renamed, &name);
            // Blank is absent, as for the endpoint's own parameters.
            if !value.trim().is_empty() {
                given.push((field.to_string(), Value::Text(value)));
            }
        }
    }
    let own = O::deserialize(MapDeserializer::new(own.into_iter())).map_err(|e| bad(e.0))?;
    let request = bmn_app::front::request::<R>(given).map_err(|refusal| match refusal {
        Refusal::Unknown(name) => unknown(&name, endpoint.takes),
        Refusal::Kind { name, why } => bad(format!("bad {name}: {why}")),
        Refusal::Bad(e) => bad(e.spelled(bmn_app::Spelling::Renamed(endpoint.renamed))),
    })?;
    Ok((request, own))
}

fn unknown(name: &str, takes: &[&str]) -> ApiError {
    bad(QueryError::unknown_field_in(name, takes).0)
}

/// Every pair of `uri`'s query string, of at most `limit` bytes, in order: each name once.
fn pairs(uri: &Uri, limit: usize) -> Result<Vec<(String, String)>, ApiError> {
    let bytes = uri.query().map_or(0, str::len);
    if bytes > limit {
        return Err(bad(format!(
            "request too large: {bytes} bytes of parameters, at most {limit}"
        )));
    }
    // Every pair, in order, repeats included (a map would keep only the last).
    let Query(pairs) = Query::<Vec<(String, String)>>::try_from_uri(uri)
        .map_err(|e| bad(format!("bad query: {}", e.body_text())))?;
    let mut seen = HashSet::new();
    if let Some((name, _)) = pairs.iter().find(|(name, _)| !seen.insert(name.as_str())) {
        return Err(bad(format!(
            "repeated parameter '{}': give each parameter once",
            name.escape_debug()
        )));
    }
    Ok(pairs)
}

/// Why a query string was refused: the one line of the answer's `error`.
#[derive(Debug)]
pub struct QueryError(String);

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for QueryError {}

impl de::Error for QueryError {
    fn custom<T: fmt::Display>(message: T) -> QueryError {
        QueryError(message.to_string())
    }

    /// What `deny_unknown_fields` says, in the API's words: the name, and the names there are.
    fn unknown_field(field: &str, expected: &'static [&'static str]) -> QueryError {
        QueryError::unknown_field_in(field, expected)
    }

    // Repeats are refused before deserializing, with the same message; this is for safety.
    fn duplicate_field(field: &'static str) -> QueryError {
        QueryError(format!(
            "repeated parameter '{field}': give each parameter once"
        ))
    }
}

impl QueryError {
    fn unknown_field_in(field: &str, expected: &[&str]) -> QueryError {
        let takes = if expected.is_empty() {
            "no parameters".to_string()
        } else {
            expected.join(", ")
        };
        QueryError(format!(
            "unknown parameter '{}' (this endpoint takes {takes})",
            field.escape_debug()
        ))
    }
}

/// One parameter's value, with its name for the messages.
struct Text {
    name: String,
    value: String,
}

impl Text {
    fn refuse(&self, why: &str) -> QueryError {
        QueryError(format!(
            "bad {}: '{}' {why}",
            self.name.escape_debug(),
            self.value.escape_debug()
        ))
    }

    fn blank(&self) -> bool {
        self.value.trim().is_empty()
    }
}

impl<'de> IntoDeserializer<'de, QueryError> for Text {
    type Deserializer = Text;

    fn into_deserializer(self) -> Text {
        self
    }
}

/// A whole number of type `$t` in bmn's one syntax (`1000`, `1_000`, `1e3`: bmn-app's
/// `numbers`, as the command line reads it), the value's spaces around it ignored.
macro_rules! whole_number {
    ($($method:ident $visit:ident $t:ty),*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, QueryError> {
            match bmn_app::numbers::count::<$t>(self.value.trim()) {
                Ok(n) => visitor.$visit(n),
                Err(why) => Err(QueryError(format!(
                    "bad {}: {}",
                    self.name.escape_debug(),
                    bmn_app::one_line(&why)
                ))),
            }
        }
    )*};
}

impl<'de> de::Deserializer<'de> for Text {
    type Error = QueryError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, QueryError> {
        visitor.visit_string(self.value)
    }

    /// Blank is absent.
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, QueryError> {
        if self.blank() {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    /// Blank is absent, that is false.
    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, QueryError> {
        match self.value.as_str() {
            "true" | "1" | "yes" => visitor.visit_bool(true),
            "false" | "0" | "no" => visitor.visit_bool(false),
            _ if self.blank() => visitor.visit_bool(false),
            _ => Err(self.refuse("is not true or false")),
        }
    }

    whole_number!(
        deserialize_u8 visit_u8 u8,
        deserialize_u16 visit_u16 u16,
        deserialize_u32 visit_u32 u32,
        deserialize_u64 visit_u64 u64
    );

    serde::forward_to_deserialize_any! {
        i8 i16 i32 i64 i128 u128 f32 f64 char str string bytes byte_buf unit unit_struct
        newtype_struct seq tuple tuple_struct map struct enum identifier ignored_any
    }
}

#[cfg(test)]
mod tests {
    use serde::Deserialize;

    use super::read;

    #[derive(Debug, Default, Deserialize, PartialEq)]
    #[serde(default, deny_unknown_fields)]
    struct Q {
        deal: Option<String>,
        leader: Option<u64>,
        top: Option<usize>,
        trace: bool,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Nothing {}

    fn q(query: &str) -> Result<Q, String> {
        read(&format!("/x?{query}").parse().unwrap(), 100).map_err(|e| e.message)
    }

    #[test]
    fn parameters_are_read_by_one_rule() {
        assert_eq!(q("").unwrap(), Q::default());
        assert_eq!(
            q("deal=a%2Fb&leader=+2+&top=3&trace=yes").unwrap(),
            Q {
                deal: Some("a/b".into()),
                leader: Some(2),
                top: Some(3),
                trace: true
            }
        );
        // Blank is absent.
        assert_eq!(q("deal=&leader=%20&trace=").unwrap(), Q::default());
        // Numbers as the command line reads them.
        for top in ["1e3", "1_000", "1000", "1.0e3"] {
            assert_eq!(q(&format!("top={top}")).unwrap().top, Some(1000), "{top}");
        }
        assert_eq!(
            q("colour=red").unwrap_err(),
            "unknown parameter 'colour' (this endpoint takes deal, leader, top, trace)"
        );
        assert_eq!(
            q("colour=").unwrap_err(),
            "unknown parameter 'colour' (this endpoint takes deal, leader, top, trace)"
        );
        assert_eq!(
            q("deal=a&deal=b").unwrap_err(),
            "repeated parameter 'deal': give each parameter once"
        );
        assert_eq!(
            q("leader=x%0A").unwrap_err(),
            "bad leader: 'x' is not a number: give digits, e.g. 1000000, 1_000_000 or 1e6"
        );
        assert_eq!(
            q("leader=1%0A2").unwrap_err(),
            "bad leader: '1\\n2' is not a number: give digits, e.g. 1000000, 1_000_000 or 1e6"
        );
        assert_eq!(q("leader=-1").unwrap_err(), "bad leader: -1 is negative");
        assert_eq!(
            q("leader=1e30").unwrap_err(),
            "bad leader: 1e30 is too big: at most 18446744073709551615"
        );
        assert_eq!(
            q("trace=maybe").unwrap_err(),
            "bad trace: 'maybe' is not true or false"
        );
        assert_eq!(
            q(&format!("deal={}", "-".repeat(100))).unwrap_err(),
            "request too large: 105 bytes of parameters, at most 100"
        );
        let nothing = |query: &str| {
            read::<Nothing>(&format!("/x?{query}").parse().unwrap(), 100).map_err(|e| e.message)
        };
        assert!(nothing("").is_ok());
        assert_eq!(
            nothing("a=1").unwrap_err(),
            "unknown parameter 'a' (this endpoint takes no parameters)"
        );
    }
}
