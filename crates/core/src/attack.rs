//! Line clears and the lines they send (SPEC §5): the attack table, back-to-back and combo.

use serde::{Deserialize, Serialize};

/// Whether a lock counted as a T-spin.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Spin {
    /// No spin.
    #[default]
    None,
    /// A T-spin mini (only one front corner filled, no kick-4 upgrade).
    Mini,
    /// A full T-spin.
    Full,
}

/// What one lock cleared, as far as the attack table cares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Clear {
    /// Rows removed (0..=4).
    pub lines: u8,
    /// The T-spin kind of the lock.
    pub spin: Spin,
    /// The board was empty afterwards.
    pub perfect: bool,
}

/// Combo bonus by combo count (0 on the first of consecutive clearing pieces), capped at 10.
pub const COMBO_TABLE: [u16; 11] = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5];
/// Lines a perfect clear adds on top of the clear's own attack.
pub const PERFECT_CLEAR_BONUS: u16 = 10;

impl Clear {
    /// True for the clears that keep back-to-back: quads and T-spin clears (minis included).
    pub const fn is_difficult(&self) -> bool {
        self.lines == 4 || (self.lines > 0 && !matches!(self.spin, Spin::None))
    }

    /// Lines sent by the clear alone, before back-to-back, combo and perfect-clear bonuses.
    pub const fn base_attack(&self) -> u16 {
        match (self.spin, self.lines) {
            (Spin::None, 2) => 1,
            (Spin::None, 3) => 2,
            (Spin::None, 4) => 4,
            (Spin::Full, 1) => 2,
            (Spin::Full, 2) => 4,
            (Spin::Full, 3) => 6,
            (Spin::Mini, 2) => 1,
            _ => 0,
        }
    }
}

/// Back-to-back and combo counters a player carries from lock to lock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Chain {
    /// Consecutive clearing pieces minus one; `None` after a lock that cleared nothing.
    pub combo: Option<u8>,
    /// Consecutive difficult clears; 0 when the last clear was not difficult.
    pub b2b: u16,
}

/// The outcome of one lock for attack purposes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AttackResult {
    /// Total lines sent before cancelling.
    pub lines: u16,
    /// The +1 for back-to-back applied.
    pub b2b_bonus: bool,
    /// The combo count of this lock, if it cleared.
    pub combo: Option<u8>,
}

impl Chain {
    /// Applies one lock's clear to the chain and returns the lines it sends.
    pub fn apply(&mut self, clear: Clear) -> AttackResult {
        if clear.lines == 0 {
            self.combo = None;
            return AttackResult::default();
        }
        let combo = self.combo.map_or(0, |c| c.saturating_add(1));
        self.combo = Some(combo);
        let b2b_bonus = clear.is_difficult() && self.b2b > 0;
        self.b2b = if clear.is_difficult() {
            self.b2b.saturating_add(1)
        } else {
            0
        };
        let mut lines = clear.base_attack() + COMBO_TABLE[usize::from(combo.min(10))];
        lines += u16::from(b2b_bonus);
        if clear.perfect {
            lines += PERFECT_CLEAR_BONUS;
        }
        AttackResult {
            lines,
            b2b_bonus,
            combo: Some(combo),
        }
    }
}

/// A multiplier on a seat's attack (badges, the team boost): `lines × num ÷ den`, rounded down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AttackScale {
    num: u16,
    den: u16,
}

impl AttackScale {
    /// No change.
    pub const ONE: AttackScale = AttackScale { num: 1, den: 1 };

    /// `num ÷ den`; `None` if `den` is 0.
    pub const fn new(num: u16, den: u16) -> Option<AttackScale> {
        if den == 0 {
            None
        } else {
            Some(AttackScale { num, den })
        }
    }

    /// The numerator and denominator.
    pub const fn ratio(self) -> (u16, u16) {
        (self.num, self.den)
    }

    /// `lines` scaled, rounded down.
    pub const fn apply(self, lines: u16) -> u16 {
        if self.num == self.den {
            return lines;
        }
        let scaled = lines as u32 * self.num as u32 / self.den as u32;
        if scaled > u16::MAX as u32 {
            u16::MAX
        } else {
            scaled as u16
        }
    }
}

impl Default for AttackScale {
    fn default() -> Self {
        AttackScale::ONE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clear(lines: u8, spin: Spin) -> Clear {
        Clear {
            lines,
            spin,
            perfect: false,
        }
    }

    fn first(c: Clear) -> u16 {
        Chain::default().apply(c).lines
    }

    #[test]
    fn plain_clears_send_0_1_2_4() {
        assert_eq!(first(clear(1, Spin::None)), 0);
        assert_eq!(first(clear(2, Spin::None)), 1);
        assert_eq!(first(clear(3, Spin::None)), 2);
        assert_eq!(first(clear(4, Spin::None)), 4);
    }

    #[test]
    fn t_spins_send_2_4_6() {
        assert_eq!(first(clear(1, Spin::Full)), 2);
        assert_eq!(first(clear(2, Spin::Full)), 4);
        assert_eq!(first(clear(3, Spin::Full)), 6);
    }

    #[test]
    fn t_spin_minis_send_0_and_1() {
        assert_eq!(first(clear(1, Spin::Mini)), 0);
        assert_eq!(first(clear(2, Spin::Mini)), 1);
    }

    #[test]
    fn spins_without_lines_send_nothing_and_keep_the_chain() {
        let mut chain = Chain {
            combo: None,
            b2b: 3,
        };
        assert_eq!(chain.apply(clear(0, Spin::Full)).lines, 0);
        assert_eq!(chain.b2b, 3);
    }

    #[test]
    fn perfect_clear_adds_ten() {
        assert_eq!(
            first(Clear {
                lines: 4,
                spin: Spin::None,
                perfect: true
            }),
            14
        );
        assert_eq!(
            first(Clear {
                lines: 1,
                spin: Spin::None,
                perfect: true
            }),
            10
        );
    }

    #[test]
    fn back_to_back_quads_add_one() {
        let mut chain = Chain::default();
        assert_eq!(chain.apply(clear(4, Spin::None)).lines, 4);
        chain.apply(clear(0, Spin::None));
        let second = chain.apply(clear(4, Spin::None));
        assert!(second.b2b_bonus);
        assert_eq!(second.lines, 5);
    }

    #[test]
    fn back_to_back_chains_across_quads_and_t_spins_including_minis() {
        let mut chain = Chain::default();
        chain.apply(clear(2, Spin::Full));
        chain.apply(clear(0, Spin::None));
        assert_eq!(chain.apply(clear(1, Spin::Mini)).lines, 1);
        chain.apply(clear(0, Spin::None));
        assert_eq!(chain.apply(clear(4, Spin::None)).lines, 5);
        assert_eq!(chain.b2b, 3);
    }

    #[test]
    fn a_plain_clear_breaks_back_to_back() {
        let mut chain = Chain::default();
        chain.apply(clear(4, Spin::None));
        chain.apply(clear(0, Spin::None));
        chain.apply(clear(1, Spin::None));
        chain.apply(clear(0, Spin::None));
        let quad = chain.apply(clear(4, Spin::None));
        assert!(!quad.b2b_bonus);
        assert_eq!(quad.lines, 4);
    }

    #[test]
    fn combo_follows_the_table_and_caps_at_ten() {
        let mut chain = Chain::default();
        let sent: Vec<u16> = (0..13)
            .map(|_| chain.apply(clear(1, Spin::None)).lines)
            .collect();
        assert_eq!(sent, vec![0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 5]);
    }

    #[test]
    fn a_lock_without_lines_ends_the_combo() {
        let mut chain = Chain::default();
        chain.apply(clear(1, Spin::None));
        chain.apply(clear(1, Spin::None));
        chain.apply(clear(0, Spin::None));
        assert_eq!(chain.apply(clear(1, Spin::None)).combo, Some(0));
    }

    #[test]
    fn a_scale_rounds_down_after_multiplying() {
        let five_fourths = AttackScale::new(5, 4).expect("scale");
        assert_eq!(five_fourths.apply(4), 5);
        assert_eq!(five_fourths.apply(3), 3);
        assert_eq!(AttackScale::ONE.apply(7), 7);
        assert_eq!(AttackScale::new(1, 0), None);
    }
}
