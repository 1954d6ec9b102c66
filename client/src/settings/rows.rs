//! The settings screen's rows: which there are, their labels and help, what Enter does on each
//! (and the footer that says so), and how their values step.

use sevenbag_core::Handling;

use crate::account::rows::AccountRow;
use crate::input::Action;
use crate::sound::theme::Group;

/// Which key map a key row edits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum MapId {
    Solo,
    LocalLeft,
    LocalRight,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Row {
    Section(&'static str),
    Name,
    Server,
    TrustCert,
    Account(AccountRow),
    Das,
    Arr,
    Dcd,
    Sdf,
    Irs,
    Ihs,
    Volume,
    /// One sound group's share of the volume (movement, clears, alerts).
    GroupVolume(Group),
    /// The background: the gradient or one plain colour.
    Background,
    /// The block skin: default, a built-in, or from a file.
    Skin,
    /// The skin file's path (not in a browser).
    SkinFile,
    /// Whether the skin in force is published to servers for others to see.
    ShareSkin,
    /// Whose skins other players' boards show online.
    OthersSkins,
    /// The piece palette (guideline or a colour-blind-safe one).
    Palette,
    /// Each block's piece letter on or off.
    Letters,
    /// The high-contrast skin on or off.
    HighContrast,
    /// Reduced motion on or off.
    ReducedMotion,
    /// The chat filter: off or on.
    ChatFilter,
    Key(MapId, Action),
    /// A gamepad binding (builds with the `gamepad` feature).
    Pad(Action),
    /// When the touch controls show.
    TouchMode,
    /// Their size.
    TouchSize,
    /// Their distance from the sides.
    TouchInset,
    /// Their height above the bottom.
    TouchRaise,
    Save,
    Discard,
    Defaults,
}

pub(super) fn rows() -> Vec<Row> {
    let mut v = vec![
        Row::Section("PLAYER"),
        Row::Name,
        Row::Server,
        Row::TrustCert,
        Row::Section("ACCOUNT"),
        Row::Account(AccountRow::Recovery),
        Row::Account(AccountRow::Import),
        Row::Account(AccountRow::Rename),
        Row::Section("HANDLING"),
        Row::Das,
        Row::Arr,
        Row::Dcd,
        Row::Sdf,
        Row::Irs,
        Row::Ihs,
    ];
    // A build without the `audio` feature is silent: no volume to set, so no slider.
    if cfg!(feature = "audio") {
        v.extend([Row::Section("AUDIO"), Row::Volume]);
        v.extend(Group::ALL.map(Row::GroupVolume));
    }
    // The skin file row: a path natively, a link in a page.
    v.extend([
        Row::Section("DISPLAY"),
        Row::Background,
        Row::Skin,
        Row::SkinFile,
    ]);
    v.extend([Row::ShareSkin, Row::OthersSkins, Row::ChatFilter]);
    v.extend([
        Row::Section("ACCESSIBILITY"),
        Row::Palette,
        Row::Letters,
        Row::HighContrast,
        Row::ReducedMotion,
    ]);
    v.extend([
        Row::Section("TOUCH CONTROLS"),
        Row::TouchMode,
        Row::TouchSize,
        Row::TouchInset,
        Row::TouchRaise,
    ]);
    for (title, map) in [
        ("KEYS · SOLO AND ONLINE", MapId::Solo),
        ("KEYS · LOCAL LEFT PLAYER", MapId::LocalLeft),
        ("KEYS · LOCAL RIGHT PLAYER", MapId::LocalRight),
    ] {
        v.push(Row::Section(title));
        v.extend(Action::ALL.into_iter().map(|a| Row::Key(map, a)));
    }
    if cfg!(feature = "gamepad") {
        v.push(Row::Section("GAMEPAD"));
        v.extend(Action::ALL.into_iter().map(Row::Pad));
    }
    v.extend([Row::Section(""), Row::Save, Row::Discard, Row::Defaults]);
    v
}
/// What Enter does on a row: the handler acts on it and the footer says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum EnterDoes {
    /// Waits for the key (or pad button) to bind.
    Rebind,
    /// Flips an on/off setting.
    Toggle,
    /// Saves and leaves.
    Save,
    /// Leaves without saving.
    Discard,
    /// Puts handling, volume and keys back to their defaults.
    Defaults,
    /// Asks the server (an ACCOUNT row).
    Ask(AccountRow),
    /// Moves to the next row (a text field).
    NextField,
    /// Loads the skin file whose path is typed.
    LoadSkin,
    /// Nothing: a number changed with ← →.
    Nothing,
}

/// Whether `row` is a text field: typed into while the cursor is on it.
pub(super) fn is_text_field(row: Row) -> bool {
    matches!(
        row,
        Row::Name | Row::Server | Row::TrustCert | Row::SkinFile | Row::Account(AccountRow::Import)
    )
}

/// What Enter does on `row`.
pub(super) fn enter_does(row: Row) -> EnterDoes {
    match row {
        Row::Key(..) | Row::Pad(_) => EnterDoes::Rebind,
        Row::Irs | Row::Ihs | Row::Background | Row::Skin | Row::ChatFilter => EnterDoes::Toggle,
        Row::ShareSkin | Row::OthersSkins => EnterDoes::Toggle,
        Row::SkinFile => EnterDoes::LoadSkin,
        Row::Palette | Row::Letters | Row::HighContrast | Row::ReducedMotion => EnterDoes::Toggle,
        Row::Save => EnterDoes::Save,
        Row::Discard => EnterDoes::Discard,
        Row::Defaults => EnterDoes::Defaults,
        Row::Account(which) => EnterDoes::Ask(which),
        Row::Name | Row::Server | Row::TrustCert => EnterDoes::NextField,
        Row::Das | Row::Arr | Row::Dcd | Row::Sdf | Row::Volume | Row::Section(_) => {
            EnterDoes::Nothing
        }
        Row::GroupVolume(_) => EnterDoes::Nothing,
        Row::TouchMode | Row::TouchSize | Row::TouchInset | Row::TouchRaise => EnterDoes::Nothing,
    }
}

/// Adds `d` to a percentage, kept inside `(lo, hi)`.
pub(super) fn step_percent(v: &mut u8, d: i32, (lo, hi): (u8, u8)) {
    *v = (i32::from(*v) + d).clamp(i32::from(lo), i32::from(hi)) as u8;
}

/// The footer's right-hand text.
pub const FOOTER_RIGHT: &str = "Esc always opens the menu in a match";
/// The footer's right-hand text on a touch screen.
pub const FOOTER_RIGHT_TOUCH: &str = "‹ pauses a match";

/// The footer's right-hand text as shown.
pub fn footer_right() -> &'static str {
    crate::input::taps::hint(FOOTER_RIGHT, FOOTER_RIGHT_TOUCH)
}

/// The footer's key hints on `row` (when no key is being captured): they name what Enter does
/// there ([`enter_does`]).
pub(super) fn footer_hint(row: Row) -> &'static str {
    match enter_does(row) {
        EnterDoes::Rebind => "↑ ↓ choose   ← → key slot   Enter rebind   Del clear   Esc save",
        EnterDoes::Toggle => "↑ ↓ choose   ← → or Enter change   Esc save and back",
        EnterDoes::Save => "↑ ↓ choose   Enter save and back   Esc save and back",
        EnterDoes::Discard => "↑ ↓ choose   Enter discard changes   Esc save and back",
        EnterDoes::Defaults => "↑ ↓ choose   Enter restore defaults   Esc save and back",
        EnterDoes::Ask(AccountRow::Recovery) => "↑ ↓ choose   Enter show the code   Esc save",
        EnterDoes::Ask(AccountRow::Import) => {
            "Type the code   Enter import   ↑ ↓ choose   Esc save"
        }
        EnterDoes::Ask(AccountRow::Rename) => "↑ ↓ choose   Enter rename   Esc save and back",
        EnterDoes::NextField => "Type to edit   Enter next   ↑ ↓ choose   Esc save",
        EnterDoes::LoadSkin => "Type a PNG's path   Enter load   ↑ ↓ choose   Esc save",
        EnterDoes::Nothing => "↑ ↓ choose   ← → change   Esc save and back",
    }
}

/// What the screen says in words besides its footer's hints, for the touch wording test.
#[cfg(test)]
pub fn touch_texts() -> Vec<String> {
    let account = crate::account::rows::AccountRows::default();
    let mut texts = vec![
        footer_right().to_owned(),
        account.value(AccountRow::Recovery, "Player"),
    ];
    for row in [AccountRow::Recovery, AccountRow::Import, AccountRow::Rename] {
        texts.push(account.help(row).1);
    }
    texts
}

/// Every footer the screen shows, for the layout tests.
#[cfg(test)]
pub fn footers() -> Vec<&'static str> {
    let mut v: Vec<&str> = rows().into_iter().map(footer_hint).collect();
    v.extend([
        "Press the key to bind   Esc cancel",
        "Press the gamepad button to bind   Esc (keyboard) cancel",
    ]);
    v.sort_unstable();
    v.dedup();
    v
}

/// Every value row's label with the widest values it shows (selected, with its ‹ › hints), and
/// whether players type it (typed values may be cut with "…"), for the layout tests.
#[cfg(test)]
pub fn value_rows() -> Vec<(&'static str, Vec<String>, bool)> {
    let arrows = |v: &str| format!("‹  {v}  ›");
    rows()
        .into_iter()
        .filter_map(|row| {
            let (values, typed): (Vec<String>, bool) = match row {
                Row::Name | Row::Server | Row::TrustCert | Row::SkinFile => (vec![], true),
                // A refused file's reason is cut to the row; the help panel has all of it.
                Row::Skin => (
                    crate::config::SkinChoice::all()
                        .into_iter()
                        .map(|c| arrows(c.label()))
                        .collect(),
                    true,
                ),
                Row::Account(AccountRow::Import) => (vec![], true),
                Row::Account(AccountRow::Recovery) => (
                    vec![
                        "asking the server…".into(),
                        "Enter to show".into(),
                        "WWWWW-WWWWW-WWWWW-WWWWW".into(),
                    ],
                    false,
                ),
                Row::Account(AccountRow::Rename) => (
                    vec!["asking the server…".into(), "to WWWWWWWWWWWWWWWW".into()],
                    false,
                ),
                Row::Das | Row::Arr | Row::Dcd => (
                    vec![arrows("60 f  (1000 ms)"), arrows("0  (instant)")],
                    false,
                ),
                Row::Sdf => (vec![arrows("∞  (instant)"), arrows("60×")], false),
                Row::Irs | Row::Ihs => (vec![arrows("off")], false),
                Row::Background => (vec![arrows("gradient"), arrows("plain")], false),
                Row::Palette => (
                    crate::render::look::Palette::ALL
                        .iter()
                        .map(|p| arrows(p.label()))
                        .collect(),
                    false,
                ),
                Row::Letters | Row::HighContrast | Row::ReducedMotion => {
                    (vec![arrows("off"), arrows("on")], false)
                }
                Row::ChatFilter | Row::ShareSkin => (vec![arrows("off"), arrows("on")], false),
                Row::OthersSkins => (
                    crate::render::skin::Others::ALL
                        .iter()
                        .map(|o| arrows(o.label()))
                        .collect(),
                    false,
                ),
                Row::Volume | Row::GroupVolume(_) => (vec![arrows("100%")], false),
                Row::TouchMode => (vec![arrows("auto"), arrows("off")], false),
                Row::TouchSize | Row::TouchInset | Row::TouchRaise => {
                    (vec![arrows("160%"), arrows("30%")], false)
                }
                _ => return None,
            };
            Some((row_label(row), values, typed))
        })
        .collect()
}

/// Every key row's label (the actions), for the layout tests.
#[cfg(test)]
pub fn key_row_labels() -> Vec<&'static str> {
    Action::ALL.iter().map(|a| a.label()).collect()
}

/// The label of a settings row with a value ([`value_row`]); empty for the others.
pub(super) fn row_label(row: Row) -> &'static str {
    match row {
        Row::Name => "Name",
        Row::Server => "Server",
        Row::TrustCert => "Trusted cert",
        Row::Account(AccountRow::Recovery) => "Recovery code",
        Row::Account(AccountRow::Import) => "Import recovery code",
        Row::Account(AccountRow::Rename) => "Rename on server",
        Row::Das => "DAS  delayed auto shift",
        Row::Arr => "ARR  auto repeat rate",
        Row::Dcd => "DCD  DAS cut delay",
        Row::Sdf => "SDF  soft drop factor",
        Row::Irs => "IRS  initial rotation",
        Row::Ihs => "IHS  initial hold",
        Row::Volume => "Volume",
        Row::GroupVolume(Group::Movement) => "  Moves and locks",
        Row::GroupVolume(Group::Clears) => "  Line clears",
        Row::GroupVolume(Group::Alerts) => "  Garbage and alerts",
        Row::Background => "Background",
        Row::Skin => "Block skin",
        Row::SkinFile if cfg!(target_arch = "wasm32") => "Skin link",
        Row::SkinFile => "Skin file",
        Row::ShareSkin => "Share my skin",
        Row::OthersSkins => "Others' boards",
        Row::Palette => "Piece colours",
        Row::Letters => "Piece letters",
        Row::HighContrast => "High contrast",
        Row::ReducedMotion => "Reduced motion",
        Row::ChatFilter => "Chat filter",
        Row::TouchMode => "Touch controls",
        Row::TouchSize => "Button size",
        Row::TouchInset => "From the sides",
        Row::TouchRaise => "From the bottom",
        Row::Key(_, a) | Row::Pad(a) => a.label(),
        Row::Section(title) => title,
        Row::Save | Row::Discard | Row::Defaults => "",
    }
}

/// The sounds of group `g`, for its row's help.
fn group_sounds(g: Group) -> &'static str {
    match g {
        Group::Movement => "Moving, rotating, holding and locking pieces, and menu moves, play",
        Group::Clears => "Line clears, T-spins, combos and perfect clears play",
        Group::Alerts => {
            "Garbage coming in, topping out, the countdown and the end of a match play"
        }
    }
}

pub(super) fn help(row: Row, h: &Handling) -> (&'static str, String) {
    match row {
        Row::Name => ("Name", "Shown to opponents and spectators, and registered with your first Ranked match: 3 to 16 of A–Z a–z 0–9 _ -. \"Rename on server\" (ACCOUNT) changes a registered name.".into()),
        Row::Server => ("Server", "The Sevenbag server for online play, as host:port, or wss://host:port/ for a server with TLS. LAN games use the host's address instead.".into()),
        Row::TrustCert => ("Trusted cert", "A PEM certificate file to trust for wss:// servers besides the public web's authorities: a LAN or test server's self-signed one. Empty: none.".into()),
        Row::Das => ("DAS", format!("How long a direction key is held before the piece starts sliding on its own. 0–60 frames; now {} frames. Lower is faster; 6–10 is common.", h.das)),
        Row::Arr => ("ARR", "Frames between steps once the piece slides. 0 sends it straight to the wall; 0–30.".into()),
        Row::Dcd => ("DCD", "After a rotation, hold or new piece, sliding waits this many frames, so a slide does not carry over by accident. 0–30.".into()),
        Row::Sdf => ("SDF", "How many times faster than gravity soft drop falls, 1–60×; past 60 is ∞: instantly to the floor (as TETR.IO and Jstris), without locking.".into()),
        Row::Irs => ("IRS", "A rotate key held when a piece appears rotates it right away.".into()),
        Row::Ihs => ("IHS", "The hold key held when a piece appears holds it right away.".into()),
        Row::Volume => ("Volume", "Sound effects volume (0 mutes). Without a sound device the game stays silent.".into()),
        Row::GroupVolume(g) => (row_label(row).trim(), format!("{} at this share of the volume above (0 mutes them; a sound theme's files play at it too).", group_sounds(g))),
        Row::Background => ("Background", "Gradient: a violet glow from the top. Plain: one dark colour, which costs less on a computer drawing without a graphics driver (software rendering).".into()),
        Row::Skin if cfg!(target_arch = "wasm32") => ("Block skin", "Default: the flat blocks in the piece colours. Bevel, flat outline and connected: skins the game ships, drawn from their tiles. From file…: the skin PNG last dropped on the page (or opened with Replays › Open a file, or read from the Skin link below): a TETR.IO (12 tiles, 12.4 times as wide as high) or Jstris one (9 tiles, 9 times), or a connected sheet. Letters and high contrast draw over any skin.".into()),
        Row::Skin => ("Block skin", "Default: the flat blocks in the piece colours. Bevel and flat outline: skins the game ships. From file…: a TETR.IO skin PNG (12 tiles, 12.4 times as wide as high) or a Jstris one (9 tiles, 9 times), its path typed on the next row. Letters and high contrast draw over any skin.".into()),
        Row::SkinFile if cfg!(target_arch = "wasm32") => ("Skin link", "A link to a skin PNG (https://…), typed or pasted; Enter reads it and, if the skin rules take it, puts it in force as From file… (the site must let other pages read its files: most image hosts do). A file the game cannot use is refused with the reason, and the skin in force stays.".into()),
        Row::SkinFile => ("Skin file", "The path of a skin PNG of at most 256 KiB; Enter loads it. A file the game cannot use is refused with the reason, and the skin in force stays.".into()),
        Row::ShareSkin => ("Share my skin", "On: online, your skin is published to the server, and your opponents and spectators see your boards in it (a server may take no skins; guests' boards show in the default blocks). Off: your skin shows on your screen only.".into()),
        Row::OthersSkins => ("Others' boards", "Online, what other players' boards are drawn in: their own skins (the ones they share), your skin, or the default blocks. Letters, high contrast and the piece colours apply to every board.".into()),
        Row::Palette => ("Piece colours", "Guideline: the usual colours. Red–green safe: the Okabe–Ito colours, told apart with deuteranopia or protanopia. Blue–yellow safe: colours told apart with tritanopia.".into()),
        Row::Letters => ("Piece letters", "Draws each piece's letter (I O T S Z J L) on its blocks, on the board, in hold and in the queue, so pieces are told apart without colour.".into()),
        Row::HighContrast => ("High contrast", "A black background and well, white outlines on every block, a stronger grid and a brighter ghost.".into()),
        Row::ReducedMotion => ("Reduced motion", "No screen shake, no flashes on locks and line clears, no hard-drop trails, no pulsing or popping, no drifting shapes behind the menus.".into()),
        Row::ChatFilter => ("Chat filter", "On: common insults and slurs in room chat and direct messages show as asterisks. To hide a player altogether, type /mute NAME in chat (this session) or /block NAME (kept by the server; never matched with them again).".into()),
        Row::Key(_, action) => (action.label(), "Enter (or click a key cap) and press the new key. Each key does one thing per key map: binding it here removes it elsewhere in the same map. Escape is always the menu key.".into()),
        Row::Pad(action) => (action.label(), "Enter, then press a gamepad button. A button does one thing: binding it here removes it from another action. Start is always the menu button; B is Back in menus and in play unless you bind it to an action. The d-pad and the left stick are the same buttons.".into()),
        Row::TouchMode => ("Touch controls", "Buttons on the screen for every action, in two clusters for your thumbs: the d-pad (move, soft drop below, hard drop above) and the rotations with hold. Auto shows them on a touch screen; on and off as they say. They use your DAS, ARR and SDF like keys, and several fingers at once work.".into()),
        Row::TouchSize => ("Button size", "The touch buttons' size, 60–160% of a thumb's width.".into()),
        Row::TouchInset => ("From the sides", "How far the two clusters sit from the screen's sides, as a share of its width.".into()),
        Row::TouchRaise => ("From the bottom", "How high the clusters sit above the bottom edge, as a share of the screen's height.".into()),
        Row::Save => ("Save", "Write the settings file and use these settings from now on.".into()),
        Row::Discard => ("Discard", "Leave without keeping any change made on this screen.".into()),
        Row::Defaults => ("Defaults", "Guideline keys, default handling (DAS 10, ARR 2, DCD 0, SDF 20), volume, the gradient background and the accessibility choices off. Name and server stay.".into()),
        Row::Section(_) | Row::Account(_) => ("", String::new()),
    }
}

/// SDF one step up or down the scale players expect: 1×, 2×, … 60×, then ∞ (stored as 0, the
/// core's instant soft drop) at the fast end.
pub(super) fn step_sdf(sdf: u8, d: i32) -> u8 {
    let infinite = i32::from(MAX_SDF) + 1;
    let at = if sdf == 0 { infinite } else { i32::from(sdf) };
    match (at + d).clamp(1, infinite) {
        v if v == infinite => 0,
        v => v as u8,
    }
}

/// The largest finite SDF (`Handling::validate`'s bound).
pub(super) const MAX_SDF: u8 = 60;
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_action_of_every_map_has_a_row() {
        let rows = rows();
        for map in [MapId::Solo, MapId::LocalLeft, MapId::LocalRight] {
            for a in Action::ALL {
                assert!(rows.contains(&Row::Key(map, a)));
            }
        }
        assert!(
            !matches!(rows[1], Row::Section(_)),
            "the cursor starts on a real row"
        );
    }

    #[test]
    fn the_footer_says_what_enter_does_on_each_row() {
        for row in rows() {
            let hint = footer_hint(row);
            let says = match enter_does(row) {
                EnterDoes::Rebind => "Enter rebind",
                EnterDoes::Toggle => "Enter change",
                EnterDoes::Save => "Enter save",
                EnterDoes::Discard => "Enter discard",
                EnterDoes::Defaults => "Enter restore defaults",
                EnterDoes::Ask(AccountRow::Recovery) => "Enter show",
                EnterDoes::Ask(AccountRow::Import) => "Enter import",
                EnterDoes::Ask(AccountRow::Rename) => "Enter rename",
                EnterDoes::NextField => "Enter next",
                EnterDoes::LoadSkin => "Enter load",
                EnterDoes::Nothing => {
                    assert!(!hint.contains("Enter"), "{row:?}: {hint}");
                    continue;
                }
            };
            assert!(hint.contains(says), "{row:?}: {hint}");
        }
    }

    #[test]
    fn sdf_infinity_sits_past_60_at_the_fast_end() {
        assert_eq!(step_sdf(60, 1), 0, "60× then ∞");
        assert_eq!(step_sdf(0, 1), 0, "∞ is the top");
        assert_eq!(step_sdf(0, -1), 60);
        assert_eq!(step_sdf(1, -1), 1, "1× is the bottom");
        assert_eq!(step_sdf(20, 1), 21);
    }
}
