//! Drawing the settings screen: the rows with their values, the key being bound, the help line
//! and the footer.

use macroquad::prelude::Rect;

use crate::account::rows::AccountRow;
use crate::input::keys::key_label;
use crate::layout::list_layout;
use crate::render::gfx::background;
use crate::render::widgets::{
    RowState, footer, heading, key_row, menu_row, scroll_marks, section_row, side_panel, value_row,
};
use crate::screen::{Ctx, FrameIo};

use super::SettingsScreen;
use super::rows::{Row, footer_hint, footer_right, help, row_label};

impl SettingsScreen {
    /// Draws the screen.
    pub(super) fn draw_view(&self, ctx: &Ctx, io: &FrameIo) {
        let gfx = &ctx.gfx;
        background(io.width, io.height);
        ctx.backdrop.draw();
        let l = list_layout(io.width, io.height, self.rows.len());
        heading(
            gfx,
            l.title,
            l.unit,
            "Settings",
            "Saved to your config directory when you leave",
        );
        let h = self.draft.handling;
        // Frames at 60 Hz in milliseconds, rounded: 10 f is 167 ms.
        let ms = |f: u8| format!("{f} f  ({} ms)", (u32::from(f) * 1000 + 30) / 60);
        let on = |b: bool| if b { "on".to_owned() } else { "off".to_owned() };
        let shown = self.nav.visible(&l, self.rows.len());
        scroll_marks(gfx, &shown, self.rows.len(), l.unit);
        for (i, r) in shown {
            let row = self.rows[i];
            let selected = i == self.nav.selected;
            let state = RowState {
                selected,
                enabled: true,
            };
            let arrows = |v: String| {
                if selected {
                    format!("‹  {v}  ›")
                } else {
                    v
                }
            };
            let t = ctx.time;
            match row {
                Row::Section(title) => section_row(gfx, r, l.unit, title),
                Row::Name => value_row(
                    gfx,
                    r,
                    l.unit,
                    row_label(row),
                    &self.draft.player_name,
                    state,
                    selected,
                    t,
                ),
                Row::Server => value_row(
                    gfx,
                    r,
                    l.unit,
                    row_label(row),
                    &self.draft.server,
                    state,
                    selected,
                    t,
                ),
                Row::TrustCert => value_row(
                    gfx,
                    r,
                    l.unit,
                    row_label(row),
                    &self.trust_text,
                    state,
                    selected,
                    t,
                ),
                Row::Account(which) => value_row(
                    gfx,
                    r,
                    l.unit,
                    row_label(row),
                    &self.account.value(which, &self.draft.player_name),
                    state,
                    selected && which == AccountRow::Import,
                    t,
                ),
                Row::Das => value_row(
                    gfx,
                    r,
                    l.unit,
                    row_label(row),
                    &arrows(ms(h.das)),
                    state,
                    false,
                    t,
                ),
                Row::Arr => value_row(
                    gfx,
                    r,
                    l.unit,
                    row_label(row),
                    &arrows(if h.arr == 0 {
                        "0  (instant)".into()
                    } else {
                        ms(h.arr)
                    }),
                    state,
                    false,
                    t,
                ),
                Row::Dcd => value_row(
                    gfx,
                    r,
                    l.unit,
                    row_label(row),
                    &arrows(ms(h.dcd)),
                    state,
                    false,
                    t,
                ),
                Row::Sdf => value_row(
                    gfx,
                    r,
                    l.unit,
                    row_label(row),
                    &arrows(if h.sdf == 0 {
                        "∞  (instant)".into()
                    } else {
                        format!("{}×", h.sdf)
                    }),
                    state,
                    false,
                    t,
                ),
                Row::Irs => value_row(
                    gfx,
                    r,
                    l.unit,
                    row_label(row),
                    &arrows(on(h.irs)),
                    state,
                    false,
                    t,
                ),
                Row::Ihs => value_row(
                    gfx,
                    r,
                    l.unit,
                    row_label(row),
                    &arrows(on(h.ihs)),
                    state,
                    false,
                    t,
                ),
                Row::Volume => value_row(
                    gfx,
                    r,
                    l.unit,
                    row_label(row),
                    &arrows(format!("{}%", self.draft.volume)),
                    state,
                    false,
                    t,
                ),
                Row::GroupVolume(g) => value_row(
                    gfx,
                    r,
                    l.unit,
                    row_label(row),
                    &arrows(format!("{}%", self.draft.sound_groups[g as usize])),
                    state,
                    false,
                    t,
                ),
                Row::Skin => value_row(
                    gfx,
                    r,
                    l.unit,
                    row_label(row),
                    &arrows(self.skin.value()),
                    state,
                    false,
                    t,
                ),
                Row::ShareSkin | Row::OthersSkins => {
                    let value = match row {
                        Row::ShareSkin => on(self.draft.share_skin),
                        _ => self.draft.others_skins.label().to_owned(),
                    };
                    value_row(
                        gfx,
                        r,
                        l.unit,
                        row_label(row),
                        &arrows(value),
                        state,
                        false,
                        t,
                    )
                }
                Row::SkinFile => value_row(
                    gfx,
                    r,
                    l.unit,
                    row_label(row),
                    &self.skin.path,
                    state,
                    selected,
                    t,
                ),
                Row::Background => value_row(
                    gfx,
                    r,
                    l.unit,
                    row_label(row),
                    &arrows(if self.draft.plain_background {
                        "plain".into()
                    } else {
                        "gradient".into()
                    }),
                    state,
                    false,
                    t,
                ),
                Row::Palette | Row::Letters | Row::HighContrast | Row::ReducedMotion => {
                    let look = self.draft.look;
                    let value = match row {
                        Row::Palette => look.palette.label().to_owned(),
                        Row::Letters => on(look.letters),
                        Row::HighContrast => on(look.high_contrast),
                        _ => on(look.reduced_motion),
                    };
                    value_row(
                        gfx,
                        r,
                        l.unit,
                        row_label(row),
                        &arrows(value),
                        state,
                        false,
                        t,
                    )
                }
                Row::ChatFilter => value_row(
                    gfx,
                    r,
                    l.unit,
                    row_label(row),
                    &arrows(if self.draft.chat_filter {
                        "on".into()
                    } else {
                        "off".into()
                    }),
                    state,
                    false,
                    t,
                ),
                Row::TouchMode | Row::TouchSize | Row::TouchInset | Row::TouchRaise => {
                    let touch = &self.draft.touch;
                    let value = match row {
                        Row::TouchMode => touch.mode.name().to_owned(),
                        Row::TouchSize => format!("{}%", touch.size),
                        Row::TouchInset => format!("{}%", touch.inset),
                        _ => format!("{}%", touch.raise),
                    };
                    value_row(
                        gfx,
                        r,
                        l.unit,
                        row_label(row),
                        &arrows(value),
                        state,
                        false,
                        t,
                    )
                }
                Row::Key(map, action) => {
                    let keys = self.map(map).keys(action).map(|k| k.map(key_label));
                    let capturing = self
                        .capture
                        .is_some_and(|(m, a, _)| m == map && a == action);
                    key_row(
                        gfx,
                        r,
                        l.unit,
                        action.label(),
                        keys,
                        self.slot,
                        capturing,
                        state,
                        t,
                    );
                }
                Row::Pad(action) => {
                    let buttons = self
                        .draft
                        .pad
                        .buttons(action)
                        .map(|b| b.map(|b| b.name().to_owned()));
                    let capturing = self.pad_capture.is_some_and(|(a, _)| a == action);
                    key_row(
                        gfx,
                        r,
                        l.unit,
                        action.label(),
                        buttons,
                        self.slot,
                        capturing,
                        state,
                        t,
                    );
                }
                Row::Save => menu_row(gfx, r, l.unit, "Save and go back", "Esc", state, t),
                Row::Discard => menu_row(gfx, r, l.unit, "Discard changes", "", state, t),
                Row::Defaults => menu_row(gfx, r, l.unit, "Restore defaults", "", state, t),
            }
        }
        let (title, body) = match self.rows[self.nav.selected] {
            Row::Account(which) => self.account.help(which),
            row @ (Row::Skin | Row::SkinFile) if self.skin.error.is_some() => {
                let (title, body) = help(row, &self.draft.handling);
                let why = self.skin.error.clone().unwrap_or_default();
                (title, format!("Refused: {why}. {body}"))
            }
            row => help(row, &self.draft.handling),
        };
        let used = side_panel(gfx, l.side, l.unit, title, &body);
        let row = self.rows[self.nav.selected];
        let about_skins = matches!(
            row,
            Row::Skin | Row::SkinFile | Row::ShareSkin | Row::OthersSkins
        );
        let preview = Rect::new(
            used.x,
            used.bottom() + l.unit * 0.6,
            used.w,
            super::skin_preview::height(l.unit),
        );
        if about_skins && used.h > 0.0 && preview.bottom() <= l.side.bottom() {
            super::skin_preview::draw(preview, l.unit);
        }
        let hints = if self.capture.is_some() {
            "Press the key to bind   Esc cancel"
        } else if self.pad_capture.is_some() {
            "Press the gamepad button to bind   Esc (keyboard) cancel"
        } else {
            footer_hint(self.rows[self.nav.selected])
        };
        footer(gfx, l.footer, l.unit, hints, footer_right());
    }
}
