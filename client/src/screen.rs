//! What a screen is, and the stack that holds them (zemeroth's idea).
//!
//! A screen never touches the stack: its `update` returns a [`Transition`] and [`Stack::apply`]
//! carries it out. Every screen gets the shared [`Ctx`] (settings, fonts, sound) and the frame's
//! [`FrameIo`] (keyboard, mouse, elapsed time, simulation steps due, window size).

use std::any::Any;
use std::path::PathBuf;

use macroquad::color::Color;
use macroquad::math::{Rect, Vec2};

use crate::config::Config;
use crate::input::Keyboard;
use crate::net::battle::BattleOnline;
use crate::net::links::Link;
use crate::platform::clipboard::{self, Copying};
use crate::render::backdrop::Backdrop;
use crate::render::gfx::Gfx;
use crate::render::theme;
use crate::sound::audio::Audio;
use crate::sound::sfx::Sfx;

/// What a screen asks the stack to do after its update.
pub enum Transition {
    /// Stay.
    None,
    /// Open a screen on top of this one.
    Push(Box<dyn Screen>),
    /// Close this screen and go back to the one below.
    Pop,
    /// Swap this screen for another.
    Replace(Box<dyn Screen>),
    /// Close the game.
    Quit,
}

/// A screen of the game: the menu, a mode's screen, a form. The game holds its screens on a
/// [`Stack`]; a screen opens another by returning it in a [`Transition`], so no list of every
/// screen is kept here. `Any` lets the browser build's test hook look into the screen on top.
pub trait Screen: Any {
    /// Handles one frame of input and time.
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Transition;

    /// Draws the screen.
    fn draw(&self, ctx: &Ctx, io: &FrameIo);

    /// True for screens with nothing moving but the backdrop and the selection's glow (menus,
    /// lists and forms): left alone, they are drawn at a low rate
    /// ([`crate::platform::pacer::CALM_FPS`]). Anything that runs a match, a replay or a live
    /// room is drawn at the full rate.
    fn calm(&self) -> bool {
        false
    }

    /// Whether a player's board takes input now (a match, a solo run, a puzzle): on a touch
    /// screen the on-screen controls show ([`crate::input::touch`]).
    fn plays_by_touch(&self) -> bool {
        false
    }

    /// The screen's text fields (in its layout for `io`), for the on-screen keyboard of a touch
    /// screen: the one being typed in is `active`.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    fn text_fields(&self, ctx: &Ctx, io: &FrameIo) -> Vec<TextField> {
        let _ = (ctx, io);
        Vec::new()
    }

    /// The keys whose key button opens one of the screen's text fields (a room's Chat): on a
    /// touch screen a tap on such a button is a text zone too, so the page focuses its input
    /// within the tap, the only moment a phone lets the keyboard come up.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    fn field_keys(&self) -> &'static [macroquad::input::KeyCode] {
        &[]
    }

    /// The screen's name in the browser build's test hook (`menu`, `play`, ...).
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    fn name(&self) -> &'static str;
}

/// What a text field takes, for the on-screen keyboard's layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub enum TextKind {
    /// Words (names, chat).
    Plain,
    /// A code (capitals and digits).
    Code,
    /// A server address.
    Address,
}

/// A text field on screen.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub struct TextField {
    /// What it takes.
    pub kind: TextKind,
    /// What it holds.
    pub text: String,
    /// Where it is (logical pixels).
    pub rect: Rect,
    /// Typing goes to it now.
    pub active: bool,
}

/// The screens, bottom to top; only the top one updates and draws.
pub struct Stack {
    screens: Vec<Box<dyn Screen>>,
}

impl Stack {
    /// A stack holding `screens` (the last is on top).
    pub fn new(screens: Vec<Box<dyn Screen>>) -> Stack {
        Stack { screens }
    }

    /// The screen on top.
    pub fn top_mut(&mut self) -> Option<&mut Box<dyn Screen>> {
        self.screens.last_mut()
    }

    /// The screen on top.
    pub fn top(&self) -> Option<&dyn Screen> {
        self.screens.last().map(|s| &**s)
    }

    /// How many screens are open.
    pub fn depth(&self) -> usize {
        self.screens.len()
    }

    /// Carries out `t`. Returns false when the game should close (a Quit, or the last screen
    /// popped).
    pub fn apply(&mut self, t: Transition) -> bool {
        match t {
            Transition::None => {}
            Transition::Push(s) => self.screens.push(s),
            Transition::Pop => {
                self.screens.pop();
            }
            Transition::Replace(s) => {
                self.screens.pop();
                self.screens.push(s);
            }
            Transition::Quit => return false,
        }
        !self.screens.is_empty()
    }
}

/// The mouse as seen on one rendered frame.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mouse {
    /// Pointer position in logical pixels.
    pub pos: Vec2,
    /// The pointer moved this frame.
    pub moved: bool,
    /// The left button was pressed this frame.
    pub clicked: bool,
    /// Wheel movement this frame (positive = up).
    pub wheel: f32,
}

impl Mouse {
    /// True when the pointer is over `r`.
    pub fn over(&self, r: Rect) -> bool {
        r.contains(self.pos)
    }
}

/// One rendered frame's input and timing, sampled once in the input step of the tick.
#[derive(Clone, Debug, Default)]
pub struct FrameIo {
    /// Keyboard state.
    pub keyboard: Keyboard,
    /// Mouse state.
    pub mouse: Mouse,
    /// Real seconds since the last frame.
    pub dt: f32,
    /// Simulation steps due this frame (from the fixed 60 Hz clock).
    pub steps: u32,
    /// Window width in logical pixels.
    pub width: f32,
    /// Window height in logical pixels.
    pub height: f32,
}

/// A message shown at the bottom of the screen for a few seconds.
pub struct Notice {
    /// The text.
    pub text: String,
    /// Its accent colour.
    pub colour: Color,
    /// Seconds left.
    pub left: f32,
}

/// What every screen shares.
pub struct Ctx {
    /// The settings in force.
    pub config: Config,
    /// Where settings are saved (`None` when the system has no config directory).
    pub config_path: Option<PathBuf>,
    /// The notice on screen, if any.
    pub notice: Option<Notice>,
    /// Sound effects.
    pub audio: Audio,
    /// Fonts and text drawing.
    pub gfx: Gfx,
    /// Seconds since start (for animations).
    pub time: f32,
    /// The drifting pieces behind the menus.
    pub backdrop: Backdrop,
    /// A link being copied to the clipboard, and the link (the loop says when it is done).
    pub copying: Option<(Copying, String)>,
    /// Opens the screen of a room of several seats that a two-seat connection turned out to
    /// have joined (the party's room screen, which sits above the versus screens that find one).
    pub open_battle_room: BattleRoomOpener,
    /// Opens the room screen over a room this machine hosts on the LAN (its server and beacon
    /// live with the screen).
    pub open_lan_room: LanRoomOpener,
    /// Opens the list of online friends a room screen offers to invite (the Friends screen's
    /// picker, which sits above the room screens that show it).
    pub open_friend_picker: FriendPickerOpener,
}

/// What a [`FriendPicker`] made of the frame.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Picked {
    /// Still choosing.
    Nothing,
    /// This friend was chosen (the picker is done).
    Friend(String),
    /// Closed without a choice.
    Closed,
}

/// A box over a room's lobby listing the player's online friends: the room screen owns it,
/// feeds it the frame while it is open (so it takes the keys) and sends the invite itself, on
/// its own connection, when a friend is chosen.
pub trait FriendPicker {
    /// Handles one frame of input; says whether a friend was chosen or the box closed.
    fn update(&mut self, ctx: &mut Ctx, io: &FrameIo) -> Picked;

    /// Draws the box over whatever the room screen drew.
    fn draw(&self, ctx: &Ctx, io: &FrameIo);
}

/// Makes the picker of online friends for a room screen's Invite a friend, for the room of
/// this code (its friends already in it are marked, not offered).
pub type FriendPickerOpener = fn(&Ctx, Option<&str>) -> Box<dyn FriendPicker>;

/// Makes the screen that takes a free-for-all room's connection over.
pub type BattleRoomOpener = fn(BattleOnline) -> Box<dyn Screen>;

/// Makes the room screen of a room hosted here on the LAN.
pub type LanRoomOpener = fn(BattleOnline, crate::net::lan::LanHosting) -> Box<dyn Screen>;

impl Ctx {
    /// Shows `text` for a few seconds.
    pub fn notify(&mut self, text: impl Into<String>, colour: Color) {
        let text = text.into();
        tracing::info!(%text, "notice");
        let left = 3.0 + text.len() as f32 / 25.0;
        self.notice = Some(Notice { text, colour, left });
    }

    /// Plays a sound effect.
    pub fn play(&self, sfx: Sfx) {
        self.audio.play(sfx);
    }

    /// Copies `link` to the clipboard; a notice says when it is there (or why not).
    pub fn copy_link(&mut self, link: String) {
        self.copying = Some((clipboard::copy(&link), link));
    }

    /// Copies the game's `link` on the server in Settings, or says there is no server address.
    pub fn copy_game_link(&mut self, link: &Link) {
        match link.url(&self.config.server) {
            Some(url) => self.copy_link(url),
            None => self.notify(
                "No server address to make a link with (Settings › Server).",
                theme::BAD,
            ),
        }
    }

    /// Once a copy is done: the notice saying so (called once a frame by the loop).
    pub fn poll_copying(&mut self) {
        let Some(result) = self.copying.as_ref().and_then(|(c, _)| c.poll()) else {
            return;
        };
        let Some((_, link)) = self.copying.take() else {
            return;
        };
        match result {
            Ok(()) => self.notify(format!("Link copied: {link}"), theme::GOOD),
            Err(why) => self.notify(
                format!("Could not copy the link ({why}): {link}"),
                theme::BAD,
            ),
        }
    }
}
