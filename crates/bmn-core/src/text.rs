//! A value serialized as the text it displays as: how reports write cycle ids (hex), pieces
//! and compositions, for `#[serde(serialize_with = "bmn_core::as_text")]`.

use std::fmt::Display;

/// Serializes `value` as its `Display` text.
pub fn as_text<T: Display + ?Sized, S: serde::Serializer>(
    value: &T,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_str(value)
}
