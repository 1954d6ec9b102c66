//! Where the free-for-all view takes its match from: [`PartyMatch`], made by the practice
//! match played here ([`super::game::PartyGame`]) and by an online room's rollback session
//! (`super::online`). The view draws either unchanged, as the versus view draws any
//! `MatchSource`.

use macroquad::input::KeyCode;
use sevenbag_core::{Battle, Phase, Seat};

use crate::render::key_buttons::KeyChoice;

use super::game::{Figures, PartyGame, YOU};

/// A free-for-all match to draw: the battle, whose seat is shown large, and the figures of
/// the results table.
pub trait PartyMatch {
    /// The match as it stands (predicted, online).
    fn battle(&self) -> &Battle;

    /// The seat drawn large: yours, or the first one for a spectator.
    fn me(&self) -> Seat;

    /// Whether nobody at this screen plays (a spectator): no "you" marks.
    fn watching(&self) -> bool {
        false
    }

    /// `seat`'s figures so far: past rounds, plus the round being played.
    fn figures(&self, seat: Seat) -> Figures;

    /// Whose blocks `seat`'s board is drawn with: the skin in force, unless another player
    /// plays it online.
    fn board_skin(&self, _seat: Seat) -> crate::match_source::BoardSkin<'_> {
        crate::match_source::BoardSkin::Yours
    }

    /// The small boards' seats, in seat order: every seat but [`PartyMatch::me`].
    fn others(&self) -> Vec<Seat> {
        let me = self.me();
        Seat::all(self.battle().seats())
            .filter(|&s| s != me)
            .collect()
    }

    /// The results table: every seat, best place first (seat order among equals).
    fn results(&self) -> Vec<(Seat, Figures)> {
        let mut rows: Vec<(Seat, Figures)> = Seat::all(self.battle().seats())
            .map(|s| (s, self.figures(s)))
            .collect();
        rows.sort_by_key(|(s, f)| (f.place.unwrap_or(u8::MAX), s.index()));
        rows
    }

    /// The keys line under the results table.
    fn results_keys(&self) -> &str {
        "Enter  play again      Esc  menu"
    }

    /// The results table's buttons on a touch screen, for the keys the keys line names.
    fn results_buttons(&self) -> Vec<KeyChoice<'static>> {
        vec![("Play again", KeyCode::Enter), ("Menu", KeyCode::Escape)]
    }
}

impl PartyMatch for PartyGame {
    fn battle(&self) -> &Battle {
        PartyGame::battle(self)
    }

    fn me(&self) -> Seat {
        YOU
    }

    fn figures(&self, seat: Seat) -> Figures {
        PartyGame::figures(self, seat)
    }

    fn results(&self) -> Vec<(Seat, Figures)> {
        PartyGame::results(self)
    }
}

/// Whether `b`'s round is over (between rounds or the match decided).
pub fn round_closed(b: &Battle) -> bool {
    matches!(b.phase(), Phase::RoundOver { .. } | Phase::MatchOver { .. })
}

/// A seat's figures of the round `b` is playing, read from the battle alone: place, knock-outs,
/// lines sent after cancelling, badges.
pub fn round_figures(b: &Battle, seat: Seat) -> Figures {
    Figures {
        place: b.placement(seat),
        kos: u32::from(b.kos(seat)),
        sent: b.player(seat).stats().sent,
        badges: b.badges(seat),
    }
}

/// The figures of rounds already over, tallied from a battle that never rolls back (an online
/// session's confirmed match), each round once as it closes.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    past: Vec<Figures>,
    /// Rounds added so far.
    rounds: u32,
}

impl Tally {
    /// Adds `confirmed`'s round once it is over and not yet added.
    pub fn observe(&mut self, confirmed: &Battle) {
        if !round_closed(confirmed) || confirmed.round() < self.rounds {
            return;
        }
        let n = confirmed.seats();
        self.past.resize(n, Figures::default());
        for seat in Seat::all(n) {
            let now = round_figures(confirmed, seat);
            let f = &mut self.past[seat.index()];
            f.place = now.place;
            f.kos += now.kos;
            f.sent += now.sent;
            f.badges = now.badges;
        }
        self.rounds = confirmed.round() + 1;
    }

    /// `seat`'s figures as `predicted` shows them: past rounds plus the open one.
    pub fn figures(&self, predicted: &Battle, seat: Seat) -> Figures {
        let past = self.past.get(seat.index()).cloned().unwrap_or_default();
        if round_closed(predicted) && predicted.round() < self.rounds {
            return past;
        }
        let now = round_figures(predicted, seat);
        Figures {
            place: now.place,
            kos: past.kos + now.kos,
            sent: past.sent + now.sent,
            badges: now.badges,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::opponent::{AutoPlayer, Planning, SeatView, Stacker};
    use crate::party::PartySetup;
    use sevenbag_bot::Level;

    /// The figures an online match shows (read from the battle, rounds tallied as they close)
    /// are the practice match's (counted from each frame's events), over a match of two rounds.
    #[test]
    fn a_tally_of_the_battle_gives_the_figures_the_practice_match_counts() {
        let setup = PartySetup {
            bots: 2,
            level: Level::Easy,
            first_to: 2,
            ..PartySetup::default()
        };
        let mut game =
            PartyGame::with_planning(&setup, 5, sevenbag_bot::BOT_HANDLING, Planning::Inline)
                .expect("valid");
        let mut you = Stacker::new(5, 3);
        let mut tally = Tally::default();
        let mut rounds_checked = 0;
        for _ in 0..60 * 60 * 15 {
            if matches!(game.battle().phase(), Phase::MatchOver { .. }) {
                break;
            }
            let keys = you.next_for(SeatView::of_battle(game.battle(), YOU));
            game.step(keys);
            tally.observe(game.battle());
            if game.battle().events().round_over.is_some() {
                rounds_checked += 1;
            }
            for seat in Seat::all(3) {
                assert_eq!(
                    tally.figures(game.battle(), seat),
                    PartyGame::figures(&game, seat),
                    "seat {} at frame {}",
                    seat.index(),
                    game.battle().frame().0
                );
            }
        }
        assert!(matches!(game.battle().phase(), Phase::MatchOver { .. }));
        assert!(rounds_checked >= 2, "two rounds or more were played");
    }
}
