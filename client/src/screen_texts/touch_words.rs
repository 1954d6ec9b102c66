//! On a touch screen no line names a key a phone does not have: each screen's words, read with
//! key buttons shown ([`crate::input::taps::hint`]), name the buttons (the back button `‹`, a
//! Save or Rematch button, a tap on a board) instead. Footers' key hints are left out on a
//! touch screen by the footer itself.

use crate::input::taps;

/// Words that name a keyboard key.
const KEY_WORDS: [&str; 11] = [
    "Esc",
    "Escape",
    "Enter",
    "Space",
    "Tab",
    "Backspace",
    "Del",
    "PgUp",
    "PgDn",
    "Home",
    "Shift",
];

/// The first key `text` names, if any.
fn named_key(text: &str) -> Option<String> {
    if text.contains("↑ ↓") || text.contains("← →") {
        return Some("the arrow keys".into());
    }
    text.split(|c: char| !c.is_alphanumeric())
        .find(|word| KEY_WORDS.contains(word))
        .map(str::to_owned)
}

/// Every screen's words that depend on the input, as shown now.
fn every_text() -> Vec<String> {
    use crate::menu::welcome;
    use crate::party;
    use crate::settings;
    use crate::versus::{online, setup};
    [
        welcome::touch_texts(),
        setup::touch_texts(),
        settings::touch_texts(),
        online::touch_texts(),
        party::setup::touch_texts(),
        party::screen::touch_texts(),
        party::online::touch_texts(),
        crate::replays::touch_texts(),
        crate::friends::touch_texts(),
    ]
    .concat()
}

#[test]
fn no_line_on_a_touch_screen_names_a_key() {
    taps::set_shown(true);
    let texts = every_text();
    taps::set_shown(false);
    for text in &texts {
        assert_eq!(named_key(text), None, "on a touch screen: {text:?}");
    }
    // The same lines name the keys on a desktop: the check reads what it should.
    let desktop = every_text();
    assert!(
        desktop.iter().all(|t| named_key(t).is_some()),
        "{desktop:?}"
    );
}
