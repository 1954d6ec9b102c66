//! The match view's memory: popups, flashes and sounds made from the events of each frame.
//!
//! Like zemeroth's battle view, the renderer hears about rule events and turns them into
//! animations; it never decides anything. [`MatchFx::before_step`] and [`MatchFx::after_step`]
//! bracket every simulated frame (events live for one frame only), and [`MatchFx::advance`] ages
//! the effects in real time once per rendered frame.

use macroquad::color::Color;
use sevenbag_core::{
    Board, Clear, LockEvent, Match, Piece, PieceKind, Player, PlayerEvents, Seat, Spin,
    board::FULL_ROW,
};

use crate::render::theme;
use crate::sound::sfx::Sfx;

/// How long popups stay, in seconds.
pub const POPUP_LIFE: f32 = 1.6;
/// How long a cleared row flashes, in seconds.
pub const ROW_FLASH: f32 = 0.28;

/// A text popup with its age.
#[derive(Clone, Debug, PartialEq)]
pub struct Popup {
    /// What it says.
    pub text: String,
    /// Its colour.
    pub colour: Color,
    /// Seconds since it appeared.
    pub age: f32,
}

impl Popup {
    fn new(text: impl Into<String>, colour: Color) -> Popup {
        Popup {
            text: text.into(),
            colour,
            age: 0.0,
        }
    }

    /// Opacity: full, then fading over the last third of its life.
    pub fn opacity(&self) -> f32 {
        let fade_from = POPUP_LIFE * 0.66;
        if self.age < fade_from {
            1.0
        } else {
            (1.0 - (self.age - fade_from) / (POPUP_LIFE - fade_from)).max(0.0)
        }
    }

    /// The largest [`Popup::pop`] can be (a bound: 1 + 0.25 + 0.15).
    pub const PEAK: f32 = 1.4;

    /// Scale for the pop-in: a quick overshoot during the first tenth of a second.
    pub fn pop(&self) -> f32 {
        if super::look::reduced_motion() {
            return 1.0;
        }
        let t = (self.age / 0.12).min(1.0);
        1.0 + 0.25 * (1.0 - t) * (t * std::f32::consts::PI).sin().max(0.0) + 0.15 * (1.0 - t)
    }
}

/// Effects of one board.
#[derive(Clone, Debug, Default)]
pub struct SeatFx {
    /// "T-SPIN DOUBLE", "QUAD", ...
    pub clear: Option<Popup>,
    /// "B2B ×3".
    pub b2b: Option<Popup>,
    /// "4 COMBO".
    pub combo: Option<Popup>,
    /// "+6" lines sent.
    pub sent: Option<Popup>,
    /// "PERFECT CLEAR", drawn over the well.
    pub perfect: Option<Popup>,
    /// Rows that just cleared (board row index, seconds since).
    pub rows: Vec<(i8, f32)>,
    /// The last locked piece (flashes briefly).
    pub lock: Option<(Piece, f32)>,
    /// A hard drop trail: from where the piece was to where it landed.
    pub trail: Option<(Piece, Piece, f32)>,
    /// Seconds of shake left (garbage rose).
    pub shake: f32,
    prev_board: Board,
    prev_active: Option<Piece>,
}

/// Effects of the whole match.
#[derive(Clone, Debug, Default)]
pub struct MatchFx {
    /// Per board.
    pub seats: [SeatFx; 2],
    /// Seconds since "GO!", while it shows.
    pub go: Option<f32>,
    last_count: Option<u32>,
}

/// The name of a clear for the popup, or `None` for a plain lock.
pub fn clear_label(clear: Clear) -> Option<String> {
    let lines = ["", " SINGLE", " DOUBLE", " TRIPLE", " QUAD"];
    let suffix = lines.get(clear.lines as usize).copied().unwrap_or("");
    match clear.spin {
        Spin::Full => Some(format!("T-SPIN{suffix}")),
        Spin::Mini => Some(format!("T-SPIN MINI{suffix}")),
        Spin::None => match clear.lines {
            0 => None,
            4 => Some("QUAD".to_owned()),
            _ => Some(suffix.trim().to_owned()),
        },
    }
}

/// The back-to-back popup text for a lock whose chain count is now `b2b`: "B2B ×1" on the
/// second difficult clear in a row, and so on.
pub fn b2b_label(lock: &LockEvent) -> Option<String> {
    (lock.clear.is_difficult() && lock.b2b >= 2).then(|| format!("B2B ×{}", lock.b2b - 1))
}

/// The combo popup text ("1 COMBO" on the second clearing piece in a row).
pub fn combo_label(lock: &LockEvent) -> Option<String> {
    match lock.attack.combo {
        Some(c) if c >= 1 => Some(format!("{c} COMBO")),
        _ => None,
    }
}

fn clear_colour(clear: Clear) -> Color {
    match (clear.spin, clear.lines) {
        (Spin::Full | Spin::Mini, _) => theme::piece_colour(PieceKind::T),
        (_, 4) => theme::piece_colour(PieceKind::I),
        _ => theme::TEXT,
    }
}

/// Rows of `board` that `piece` completes (the rows its lock cleared), bottom first.
pub fn completed_rows(board: &Board, piece: &Piece) -> Vec<i8> {
    let mut rows: Vec<i8> = piece.cells().iter().map(|&(_, y)| y).collect();
    rows.sort_unstable();
    rows.dedup();
    rows.retain(|&y| {
        if !(0..sevenbag_core::HEIGHT).contains(&y) {
            return false;
        }
        let mut bits = board.row(y);
        for &(x, cy) in &piece.cells() {
            if cy == y && (0..sevenbag_core::WIDTH).contains(&x) {
                bits |= 1 << x;
            }
        }
        bits == FULL_ROW
    });
    rows
}

/// The sounds of one board's frame: its lock (by the clear it made) and a combo's tone, else
/// a hold or a rotation; garbage rising.
pub fn frame_sounds(ev: &PlayerEvents) -> Vec<Sfx> {
    let mut sounds = Vec::new();
    if let Some(lock) = ev.locked {
        sounds.push(lock_sound(&lock, ev.hard_dropped));
        if combo_label(&lock).is_some() {
            sounds.push(Sfx::Combo);
        }
    } else if ev.held {
        sounds.push(Sfx::Hold);
    } else if ev.rotated {
        sounds.push(Sfx::Rotate);
    }
    if ev.garbage_risen > 0 {
        sounds.push(Sfx::Garbage);
    }
    sounds
}

/// The sound of a lock: the clear it made by kind and size, else the drop or the lock.
pub fn lock_sound(lock: &LockEvent, hard_dropped: bool) -> Sfx {
    match lock.clear {
        c if c.perfect => Sfx::Perfect,
        c if c.lines == 4 => Sfx::BigClear,
        c if c.lines > 0 && c.spin != Spin::None => Sfx::TSpin,
        c if c.lines == 3 => Sfx::Clear3,
        c if c.lines == 2 => Sfx::Clear2,
        c if c.lines > 0 => Sfx::Clear,
        _ if hard_dropped => Sfx::HardDrop,
        _ => Sfx::Lock,
    }
}

impl SeatFx {
    /// Remembers what the board of `p` looked like before a frame is simulated.
    pub fn before_step(&mut self, p: &Player) {
        self.prev_board = *p.board();
        self.prev_active = p.active();
    }

    /// Reads the events of `p`'s frame just simulated; returns the sounds they make.
    pub fn after_step(&mut self, p: &Player) -> Vec<Sfx> {
        let ev = *p.events();
        let fx = self;
        if let Some(lock) = ev.locked {
            fx.lock = Some((lock.piece, 0.0));
            if ev.hard_dropped
                && let Some(from) = fx.prev_active
            {
                fx.trail = Some((from, lock.piece, 0.0));
            }
            if lock.clear.lines > 0 {
                for y in completed_rows(&fx.prev_board, &lock.piece) {
                    fx.rows.push((y, 0.0));
                }
            }
            if let Some(label) = clear_label(lock.clear) {
                fx.clear = Some(Popup::new(label, clear_colour(lock.clear)));
            }
            if let Some(label) = b2b_label(&lock) {
                fx.b2b = Some(Popup::new(label, theme::ACCENT));
            }
            if let Some(label) = combo_label(&lock) {
                fx.combo = Some(Popup::new(label, theme::ACCENT2));
            }
            if lock.attack.lines > 0 {
                fx.sent = Some(Popup::new(format!("+{}", lock.attack.lines), theme::TEXT));
            }
            if lock.clear.perfect {
                fx.perfect = Some(Popup::new("PERFECT CLEAR", theme::ACCENT));
            }
        }
        if ev.garbage_risen > 0 {
            fx.shake = 0.22;
        }
        frame_sounds(&ev)
    }

    /// Ages every effect by `dt` seconds and drops the finished ones.
    pub fn advance(&mut self, dt: f32) {
        let fx = self;
        for popup in [
            &mut fx.clear,
            &mut fx.b2b,
            &mut fx.combo,
            &mut fx.sent,
            &mut fx.perfect,
        ] {
            if let Some(p) = popup {
                p.age += dt;
                if p.age > POPUP_LIFE {
                    *popup = None;
                }
            }
        }
        for (_, age) in &mut fx.rows {
            *age += dt;
        }
        fx.rows.retain(|(_, age)| *age < ROW_FLASH);
        if let Some((_, age)) = &mut fx.lock {
            *age += dt;
            if *age > 0.15 {
                fx.lock = None;
            }
        }
        if let Some((_, _, age)) = &mut fx.trail {
            *age += dt;
            if *age > 0.2 {
                fx.trail = None;
            }
        }
        fx.shake = (fx.shake - dt).max(0.0);
    }
}

/// The countdown's tick: a sound when a new number of `countdown_left` frames (3, 2, 1) shows.
pub fn count_sound(last: &mut Option<u32>, countdown_left: Option<u32>, sfx: &mut Vec<Sfx>) {
    let count = countdown_left.map(|left| left.div_ceil(60));
    if let Some(n) = count
        && n > 0
        && n <= 3
        && *last != Some(n)
    {
        sfx.push(Sfx::Count);
    }
    *last = count;
}

impl MatchFx {
    /// Remembers what the boards looked like before a frame is simulated.
    pub fn before_step(&mut self, m: &Match) {
        for seat in Seat::BOTH {
            self.seats[seat.index()].before_step(m.player(seat));
        }
    }

    /// Reads the events of the frame just simulated. Sounds are pushed to `sfx` for the boards
    /// marked `loud` (the local players), and for the match as a whole; `me` is the seat whose
    /// win is a "win" sound (`None` when nobody local plays, as in the demo).
    pub fn after_step(&mut self, m: &Match, loud: [bool; 2], me: Option<Seat>, sfx: &mut Vec<Sfx>) {
        for seat in Seat::BOTH {
            let sounds = self.seats[seat.index()].after_step(m.player(seat));
            if loud[seat.index()] {
                sfx.extend(sounds);
            }
        }
        let events = m.events();
        count_sound(&mut self.last_count, m.countdown_left(), sfx);
        if events.go {
            self.go = Some(0.0);
            sfx.push(Sfx::Go);
        }
        if events.new_round {
            *self = MatchFx::default();
        }
        if let Some(winner) = events.match_over {
            sfx.push(if me.is_none_or(|me| me == winner) {
                Sfx::Win
            } else {
                Sfx::Lose
            });
        }
    }

    /// Ages every effect by `dt` seconds and drops the finished ones.
    pub fn advance(&mut self, dt: f32) {
        if let Some(go) = &mut self.go {
            *go += dt;
            if *go > 0.8 {
                self.go = None;
            }
        }
        for fx in &mut self.seats {
            fx.advance(dt);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sevenbag_core::{AttackResult, Rotation};

    fn clear(lines: u8, spin: Spin) -> Clear {
        Clear {
            lines,
            spin,
            perfect: false,
        }
    }

    #[test]
    fn clear_names() {
        assert_eq!(clear_label(clear(0, Spin::None)), None);
        assert_eq!(clear_label(clear(1, Spin::None)).as_deref(), Some("SINGLE"));
        assert_eq!(clear_label(clear(4, Spin::None)).as_deref(), Some("QUAD"));
        assert_eq!(
            clear_label(clear(2, Spin::Full)).as_deref(),
            Some("T-SPIN DOUBLE")
        );
        assert_eq!(clear_label(clear(0, Spin::Full)).as_deref(), Some("T-SPIN"));
        assert_eq!(
            clear_label(clear(1, Spin::Mini)).as_deref(),
            Some("T-SPIN MINI SINGLE")
        );
    }

    #[test]
    fn b2b_and_combo_names() {
        let lock = |c: Clear, b2b: u16, combo: Option<u8>| LockEvent {
            piece: Piece::spawn(PieceKind::T),
            clear: c,
            attack: AttackResult {
                lines: 0,
                b2b_bonus: b2b >= 2,
                combo,
            },
            cancelled: 0,
            sent: 0,
            b2b,
        };
        assert_eq!(b2b_label(&lock(clear(4, Spin::None), 1, Some(0))), None);
        assert_eq!(
            b2b_label(&lock(clear(4, Spin::None), 4, Some(0))).as_deref(),
            Some("B2B ×3")
        );
        assert_eq!(b2b_label(&lock(clear(2, Spin::None), 0, Some(0))), None);
        assert_eq!(combo_label(&lock(clear(1, Spin::None), 0, Some(0))), None);
        assert_eq!(
            combo_label(&lock(clear(1, Spin::None), 0, Some(3))).as_deref(),
            Some("3 COMBO")
        );
    }

    #[test]
    fn a_lock_sounds_its_clear_by_kind_and_size_and_a_combo_adds_its_tone() {
        let lock = |c: Clear, combo: Option<u8>| LockEvent {
            piece: Piece::spawn(PieceKind::T),
            clear: c,
            attack: AttackResult {
                lines: 0,
                b2b_bonus: false,
                combo,
            },
            cancelled: 0,
            sent: 0,
            b2b: 0,
        };
        let sizes = [1, 2, 3, 4].map(|n| lock_sound(&lock(clear(n, Spin::None), None), false));
        assert_eq!(sizes, [Sfx::Clear, Sfx::Clear2, Sfx::Clear3, Sfx::BigClear]);
        assert_eq!(
            lock_sound(&lock(clear(2, Spin::Full), None), false),
            Sfx::TSpin
        );
        let perfect = Clear {
            perfect: true,
            ..clear(4, Spin::None)
        };
        assert_eq!(lock_sound(&lock(perfect, None), false), Sfx::Perfect);
        assert_eq!(
            lock_sound(&lock(clear(0, Spin::None), None), true),
            Sfx::HardDrop
        );
        let ev = PlayerEvents {
            locked: Some(lock(clear(1, Spin::None), Some(2))),
            ..PlayerEvents::default()
        };
        assert_eq!(frame_sounds(&ev), [Sfx::Clear, Sfx::Combo]);
    }

    #[test]
    fn a_hold_or_a_rotation_has_its_sound_and_garbage_its_own() {
        let held = PlayerEvents {
            held: true,
            rotated: true,
            ..PlayerEvents::default()
        };
        assert_eq!(frame_sounds(&held), [Sfx::Hold]);
        let turned = PlayerEvents {
            rotated: true,
            garbage_risen: 2,
            ..PlayerEvents::default()
        };
        assert_eq!(frame_sounds(&turned), [Sfx::Rotate, Sfx::Garbage]);
    }

    #[test]
    fn completed_rows_finds_the_cleared_lines() {
        let board = Board::from_rows(&["GGGGGGGG..", "GGGGGGGG.."]);
        let o = Piece {
            kind: PieceKind::O,
            rotation: Rotation::Spawn,
            x: 8,
            y: 0,
        };
        assert_eq!(completed_rows(&board, &o), vec![0, 1]);
        let higher = Piece { y: 1, ..o };
        assert_eq!(completed_rows(&board, &higher), vec![1]);
    }

    #[test]
    fn effects_age_out() {
        let mut fx = MatchFx::default();
        fx.seats[0].clear = Some(Popup::new("QUAD", theme::TEXT));
        fx.seats[0].rows.push((0, 0.0));
        fx.go = Some(0.0);
        fx.advance(0.1);
        assert!(fx.seats[0].clear.is_some() && fx.go.is_some());
        fx.advance(POPUP_LIFE);
        assert!(fx.seats[0].clear.is_none() && fx.seats[0].rows.is_empty() && fx.go.is_none());
    }
}
