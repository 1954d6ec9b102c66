//! A skin file brought to the page (picked or dropped, like a replay): checked by the skin
//! decoder's own rules (`sevenbag_skin::check`: size, signature, chunks, header, limits,
//! layout), its pixels decoded by the browser, the skin made from them under the same layout
//! rules, kept in the page's files (`config::page_skin`) and put in force as the settings'
//! skin, as the native game's Settings › Block skin › from file… does. A link typed or
//! pasted on Settings › Skin link is read by the browser first ([`fetch`]), then taken the
//! same way.

use std::cell::RefCell;

use crate::config::{SkinChoice, page_skin};
use crate::platform::web_files::{self, Poll, Request};
use crate::render::theme;
use crate::screen::Ctx;

/// A file being decoded by the browser: its name, and the request.
struct Decoding {
    name: String,
    /// The file, kept beside the decoded skin to publish it online.
    png: Vec<u8>,
    request: Request,
}

/// A skin link being read by the browser: the link, and the request.
struct Fetching {
    link: String,
    request: Request,
}

thread_local! {
    static DECODING: RefCell<Option<Decoding>> = const { RefCell::new(None) };
    static FETCHING: RefCell<Option<Fetching>> = const { RefCell::new(None) };
    /// Set when a skin has been kept and put in force, until the settings screen sees it.
    static LANDED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether a skin landed since the last call (the settings screen's draft follows it).
pub fn take_landed() -> bool {
    LANDED.with(|l| l.replace(false))
}

/// Has the browser read the skin PNG at the link `typed` (checked first: http or https, no
/// spaces); [`pump`] takes the file as a dropped one once it has come.
pub fn fetch(ctx: &mut Ctx, typed: &str) {
    let link = match super::skin_link::check(typed) {
        Ok(link) => link.to_owned(),
        Err(e) => {
            ctx.notify(format!("The skin link was not read: {e}"), theme::BAD);
            return;
        }
    };
    let most = sevenbag_skin::limits::MAX_FILE_BYTES as u32;
    let request = web_files::fetch_file(&link, most);
    ctx.notify(format!("Reading {link}…"), theme::ACCENT2);
    FETCHING.with(|f| *f.borrow_mut() = Some(Fetching { link, request }));
}

/// Each frame: a link's file that has come is taken as a dropped one.
fn pump_fetch(ctx: &mut Ctx) {
    let done = FETCHING.with(|f| {
        let mut f = f.borrow_mut();
        let poll = f.as_ref()?.request.poll();
        match poll {
            Poll::Pending => None,
            Poll::Done | Poll::Failed(_) => f.take().map(|fetching| (fetching, poll)),
        }
    });
    let Some((fetching, poll)) = done else {
        return;
    };
    let link = fetching.link;
    let bytes = match poll {
        Poll::Failed(why) => Err(why),
        _ => fetching
            .request
            .take(sevenbag_skin::limits::MAX_FILE_BYTES)
            .ok_or_else(|| "the page gave no file".to_owned()),
    };
    match bytes {
        Ok(bytes) => open(ctx, &super::skin_link::file_name(&link), &bytes),
        Err(why) => ctx.notify(format!("{link} was not read: {why}"), theme::BAD),
    }
}

/// Takes skin file `name`: refused in words at once if the skin rules refuse it, else
/// handed to the browser to decode ([`pump`] finishes it).
pub fn open(ctx: &mut Ctx, name: &str, bytes: &[u8]) {
    if let Err(e) = sevenbag_skin::check(bytes) {
        ctx.notify(
            format!("{name} is not a skin the game can use: {e}"),
            theme::BAD,
        );
        return;
    }
    let most = sevenbag_skin::limits::MAX_PIXELS as u32;
    let request = web_files::decode_image(bytes, most);
    ctx.notify(format!("Reading the skin {name}…"), theme::ACCENT2);
    DECODING.with(|d| {
        *d.borrow_mut() = Some(Decoding {
            name: name.to_owned(),
            png: bytes.to_vec(),
            request,
        })
    });
}

/// Each frame: once the browser has decoded the skin, makes it under the skin rules, keeps
/// it in the page's files, saves it as the settings' skin and puts it in force.
pub fn pump(ctx: &mut Ctx) {
    pump_fetch(ctx);
    let done = DECODING.with(|d| {
        let mut d = d.borrow_mut();
        let poll = d.as_ref()?.request.poll();
        match poll {
            Poll::Pending => None,
            Poll::Done | Poll::Failed(_) => d.take().map(|decoding| (decoding, poll)),
        }
    });
    let Some((decoding, poll)) = done else {
        return;
    };
    let name = decoding.name;
    let pixels = match poll {
        Poll::Failed(why) => Err(why),
        _ => decoding
            .request
            .take(8 + sevenbag_skin::limits::MAX_DECODED_BYTES)
            .ok_or_else(|| "the page gave no pixels".to_owned()),
    };
    let made = pixels.and_then(|p| page_skin::from_sized_rgba(&p).map(|skin| (skin, p)));
    let (skin, pixels) = match made {
        Ok(made) => made,
        Err(e) => {
            ctx.notify(
                format!("{name} is not a skin the game can use: {e}"),
                theme::BAD,
            );
            return;
        }
    };
    let Some(path) = page_skin::page_skin_path() else {
        return;
    };
    let mut kept = page_skin::MAGIC.to_vec();
    kept.extend_from_slice(&pixels);
    if let Err(e) = crate::platform::files::write(&path, &kept) {
        ctx.notify(format!("The skin could not be kept: {e}"), theme::BAD);
        return;
    }
    crate::render::skin::set(Some(&skin));
    // Kept to publish: a missing copy only keeps the skin off others' screens.
    if let Some(png_path) = page_skin::page_skin_png_path()
        && crate::platform::files::write(&png_path, &decoding.png).is_ok()
    {
        crate::render::skin::set_source(Some(decoding.png));
    }
    ctx.config.skin = SkinChoice::File;
    ctx.config.skin_file = Some(path);
    LANDED.with(|l| l.set(true));
    if let Some(config_path) = ctx.config_path.clone()
        && let Err(e) = ctx.config.save(&config_path)
    {
        ctx.notify(format!("The settings could not be saved: {e}"), theme::BAD);
        return;
    }
    ctx.notify(
        format!(
            "Skin {name}: {} layout, {} px tiles. Settings › Block skin changes it.",
            skin.layout().name(),
            skin.tile()
        ),
        theme::GOOD,
    );
}
