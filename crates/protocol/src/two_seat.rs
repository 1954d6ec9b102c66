//! A plain two-seat battle as the versus match it is: the same header and inputs step the
//! versus `Match` to the same hashes (a property test in the core proves it), so a room of two
//! seats can be stored, rated and restored as a versus match without playing anything again
//! by hand.

use sevenbag_core::{BattleHeader, MatchHeader, Seat};

use crate::battle_replay::BattleSim;
use crate::replay::ConfirmedSim;

/// The versus header of a plain two-seat battle (two seats, default options); `None` for any
/// other battle.
pub fn versus_header(h: &BattleHeader) -> Option<MatchHeader> {
    (h.seats == 2 && h.options == Default::default()).then(|| MatchHeader {
        rules: h.rules,
        seed: h.seed,
        handling: [h.handling[0], h.handling[1]],
    })
}

impl BattleSim {
    /// The versus header when this battle is a versus match: a plain two-seat battle (see
    /// [`versus_header`]) in which no seat chose a target. `None` otherwise.
    pub fn versus(&self) -> Option<MatchHeader> {
        let header = versus_header(self.game().header())?;
        let targets_chosen =
            (0..2).any(|b| self.log(b).is_some_and(|l| !l.target_changes().is_empty()));
        (!targets_chosen).then_some(header)
    }

    /// This battle's confirmed inputs stepped as a versus match, as far as they are confirmed.
    /// Refused (with why) for a battle that is not one ([`BattleSim::versus`]).
    pub fn to_versus(&self) -> Result<ConfirmedSim, String> {
        let header = self.versus().ok_or_else(|| {
            format!(
                "a battle of {} seats, or one with chosen targets, is no versus match",
                self.game().seats()
            )
        })?;
        let mut sim = ConfirmedSim::new(header);
        for seat in Seat::BOTH {
            let log = self
                .log(seat.index())
                .ok_or_else(|| "a seat without a log".to_owned())?;
            sim.extend(seat, log.key_changes(), log.confirmed())
                .map_err(|e| format!("inputs of {seat:?}: {e}"))?;
        }
        sim.advance();
        Ok(sim)
    }
}

#[cfg(test)]
mod tests {
    use sevenbag_core::{Input, MatchHeader};

    use super::*;
    use crate::InputChange;

    #[test]
    fn a_two_seat_battle_steps_to_the_versus_match_hash() {
        let versus = MatchHeader::versus(7);
        let mut battle = BattleSim::new(BattleHeader::versus(&versus)).expect("valid");
        let change = |frame, input| InputChange { frame, input };
        for seat in 0..2 {
            let at = 10 + seat as u32;
            let changes = [
                change(at, Input::HARD_DROP),
                change(at + 1, Input::NONE),
                change(40, Input::HARD_DROP),
                change(41, Input::NONE),
            ];
            battle.extend(seat, &changes, &[], 600).expect("inputs");
        }
        battle.advance();
        let sim = battle.to_versus().expect("a plain two-seat battle");
        assert_eq!(sim.frame(), battle.frame());
        assert_eq!(sim.game().state_hash(), battle.game().state_hash());
    }

    #[test]
    fn a_battle_of_three_is_no_versus_match() {
        let mut header = BattleHeader::versus(&MatchHeader::versus(7));
        header.seats = 3;
        let battle = BattleSim::new(header).expect("valid");
        assert!(battle.to_versus().is_err());
    }
}
