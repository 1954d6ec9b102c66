//! `POST /admin/skins/{id}/remove`: takes a published skin down (`crate::skins`).

use std::sync::Arc;

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Extension, Path, State};
use serde_json::json;
use sevenbag_storage::Action;
use sevenbag_storage::skins::is_skin_id;

use super::{Answer, Operator, Why, act, bad, body, reason};
use crate::shared::Shared;

/// `POST /admin/skins/{id}/remove` with `{"reason": "..."}`: the skin's file is dropped (every
/// board wearing it shows the default blocks to players who fetch it from now on) and the
/// same pixels are refused if published again; `404` for a skin not published here.
pub(super) async fn remove(
    State(shared): State<Arc<Shared>>,
    Extension(operator): Extension<Operator>,
    Path(id): Path<String>,
    b: Result<Json<Why>, JsonRejection>,
) -> Answer {
    if !is_skin_id(&id) {
        return Err(bad("a skin id is 64 lowercase hexadecimal digits"));
    }
    let why = reason(&body(b)?.reason)?;
    let action = Action::RemoveSkin { id: id.clone() };
    act(&shared, &operator, action, why, json!({ "skin": id })).await
}
