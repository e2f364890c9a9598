//! `ApiError`: an answer of the web API that is not a result (its status and one line), what
//! every endpoint and the query reader answer with.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use bmn_app::Spelling;
use serde_json::json;

/// An answer that is not a result: the status and the one line that says why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub(crate) fn bad(message: impl Into<String>) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.into(),
        }
    }
}

impl From<bmn_app::Error> for ApiError {
    fn from(e: bmn_app::Error) -> ApiError {
        // The query's parameters are spelled `on_empty`, not `--on-empty`.
        let message = e.spelled(Spelling::Names);
        match e {
            bmn_app::Error::Input(_) => ApiError::bad(message),
            bmn_app::Error::Failed(..) => ApiError {
                status: StatusCode::INTERNAL_SERVER_ERROR,
                message,
            },
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}
