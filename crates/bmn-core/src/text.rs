//! Values in reports' shape: a value serialized as the text it displays as (cycle ids in hex,
//! pieces, compositions: `#[serde(serialize_with = "bmn_core::as_text")]`), and
//! [`serialize_fields!`] for a shape written by hand.

use std::fmt::Display;

/// Serializes `value` as its `Display` text.
pub fn as_text<T: Display + ?Sized, S: serde::Serializer>(
    value: &T,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_str(value)
}

/// An `impl Serialize` body: the keys in order, each with the value it is written from, so a
/// report (or a value in a report's shape) serializes itself with no mirror struct to keep in
/// step. The crate using it depends on serde. A key with
/// `if COND` is left out where COND is false (its value is then not computed).
#[macro_export]
macro_rules! serialize_fields {
    ($serializer:expr, $name:literal, {
        $($key:literal $(if $cond:expr)? => $value:expr),* $(,)?
    }) => {{
        use ::serde::ser::SerializeStruct as _;
        // The count of keys, not 0: serde_json writes `{}` at once for a struct of none.
        let mut fields = $serializer.serialize_struct($name, [$($key),*].len())?;
        $(
            if true $(&& $cond)? {
                fields.serialize_field($key, &$value)?;
            } else {
                fields.skip_field($key)?;
            }
        )*
        fields.end()
    }};
}
