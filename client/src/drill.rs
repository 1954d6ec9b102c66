//! Finesse training: what a solo run or a practice match does when a piece is placed with
//! more presses than the fewest that reach its placement (the faults counted live). Off, a
//! faulty piece taken back to place again (where play has an undo that restores it exactly:
//! Zen, practice against a bot), or the run or match started over once its faults reach a
//! limit (a solo run cut short is dropped as R's restart drops it, so only a finished run can
//! be a best).

/// The training chosen on the solo screen's list (F cycles it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Drill {
    /// Faults are only counted.
    #[default]
    Off,
    /// A piece placed with a fault is taken back to place again (where play can undo).
    RedoPiece,
    /// The run starts over once its faults reach this many.
    RestartAfter(u32),
}

/// What the drill asks after a piece locked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Take the piece back: it cost this many extra presses.
    Redo(u32),
    /// Start the run over: it has this many faults.
    Restart(u32),
}

impl Drill {
    /// Every choice, in the order F cycles them.
    pub const ALL: [Drill; 5] = [
        Drill::Off,
        Drill::RedoPiece,
        Drill::RestartAfter(1),
        Drill::RestartAfter(3),
        Drill::RestartAfter(10),
    ];

    /// The choice after this one (wrapping).
    pub fn next(self) -> Drill {
        let at = Drill::ALL.iter().position(|&d| d == self).unwrap_or(0);
        Drill::ALL[(at + 1) % Drill::ALL.len()]
    }

    /// It as a setting's value ("Restart after 3 faults").
    pub fn value(self) -> String {
        match self {
            Drill::Off => "Off".to_owned(),
            Drill::RedoPiece => "Redo each faulty piece".to_owned(),
            Drill::RestartAfter(1) => "Restart at the first fault".to_owned(),
            Drill::RestartAfter(n) => format!("Restart after {n} faults"),
        }
    }

    /// The list's words for it.
    pub fn label(self) -> String {
        match self {
            Drill::Off => "Finesse training: off".to_owned(),
            Drill::RedoPiece => "Finesse training: redo each faulty piece".to_owned(),
            Drill::RestartAfter(1) => "Finesse training: restart at the first fault".to_owned(),
            Drill::RestartAfter(n) => format!("Finesse training: restart after {n} faults"),
        }
    }

    /// What to do after a lock took the faults from `before` to `after`, where play can take
    /// a piece back (`can_undo`) or not.
    pub fn judge(self, can_undo: bool, before: u32, after: u32) -> Option<Verdict> {
        if after <= before {
            return None;
        }
        match self {
            Drill::Off => None,
            Drill::RedoPiece if can_undo => Some(Verdict::Redo(after - before)),
            Drill::RedoPiece => None,
            Drill::RestartAfter(n) if after >= n => Some(Verdict::Restart(after)),
            Drill::RestartAfter(_) => None,
        }
    }
}

impl Verdict {
    /// The notice that says what happened.
    pub fn notice(self) -> String {
        let presses = |n: u32| if n == 1 { "press" } else { "presses" };
        match self {
            Verdict::Redo(n) => {
                format!("{n} extra {}: place that piece again", presses(n))
            }
            Verdict::Restart(n) => {
                let faults = if n == 1 { "fault" } else { "faults" };
                format!("{n} finesse {faults}: starting over")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clean_piece_asks_nothing_whatever_the_drill() {
        for d in Drill::ALL {
            assert_eq!(d.judge(true, 2, 2), None, "{d:?}");
        }
    }

    #[test]
    fn redo_takes_a_faulty_piece_back_only_where_play_can_undo() {
        assert_eq!(Drill::RedoPiece.judge(true, 0, 2), Some(Verdict::Redo(2)));
        assert_eq!(Drill::RedoPiece.judge(false, 0, 2), None);
    }

    #[test]
    fn a_run_restarts_once_its_faults_reach_the_limit() {
        let d = Drill::RestartAfter(3);
        assert_eq!(d.judge(false, 1, 2), None);
        assert_eq!(d.judge(false, 2, 4), Some(Verdict::Restart(4)));
        assert_eq!(
            Drill::RestartAfter(1).judge(true, 0, 1),
            Some(Verdict::Restart(1))
        );
    }

    #[test]
    fn f_cycles_every_choice_and_comes_back_to_off() {
        let mut d = Drill::Off;
        for _ in 0..Drill::ALL.len() {
            d = d.next();
        }
        assert_eq!(d, Drill::Off);
    }
}
