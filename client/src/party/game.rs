//! A free-for-all match played here: the core's `Battle`, your seat's keys and chosen target, a
//! bot for every other seat (under the `manual` rule each picks its target by
//! [`sevenbag_bot::manual_target`]), and the figures the results table shows. No window is needed, so
//! tests play whole matches; every rule (routing, knock-outs, places, badges) is the core's.

use sevenbag_bot::manual_target;
use sevenbag_core::{
    Battle, BattleError, BattleHeader, Handling, Input, MAX_SEATS, Seat, SeatInput, Targeting,
};

use super::PartySetup;
use crate::opponent::{AutoPlayer, Opponent, Planning, SeatView};

/// Your seat: always the first.
pub const YOU: Seat = Seat::First;

/// One seat's line of the results table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Figures {
    /// Place in the last round played (1 is its winner), once decided.
    pub place: Option<u8>,
    /// Knock-outs over the match.
    pub kos: u32,
    /// Lines sent over the match, after cancelling.
    pub sent: u32,
    /// Badge points at the end of the last round.
    pub badges: u8,
}

/// The match and its seats.
pub struct PartyGame {
    header: BattleHeader,
    battle: Battle,
    /// The bots of seats 1.. (index 0 is seat 1).
    bots: Vec<Box<dyn AutoPlayer>>,
    /// How to make the bots again for a rematch.
    make: BotMaker,
    /// The opponent you chose to attack (sent every frame; the core uses it under `manual`).
    target: Option<Seat>,
    /// Figures of rounds already over.
    past: [Figures; MAX_SEATS],
    /// Lines sent in the round being played.
    sent_now: [u32; MAX_SEATS],
    /// Which bot is asked first this frame (turns round, so bots that think inside the frame
    /// share its allowance fairly).
    first_bot: usize,
}

/// How the bots are made.
#[derive(Clone, Copy, Debug)]
struct BotMaker {
    level: sevenbag_bot::Level,
    planning: Option<Planning>,
}

impl BotMaker {
    fn bots(&self, seats: usize, seed: u64) -> Vec<Box<dyn AutoPlayer>> {
        let opponent = Opponent::Bot(self.level);
        (1..seats)
            .map(|i| {
                let seed = seed ^ (0x5EED * i as u64);
                match self.planning {
                    Some(planning) => opponent.player_with(seed, planning),
                    None => opponent.player(seed),
                }
            })
            .collect()
    }
}

impl PartyGame {
    /// A match of `setup` on `seed`, your seat with `handling`; bots plan as the platform's
    /// game does (a worker thread each natively, slices of the frame on the page).
    pub fn new(
        setup: &PartySetup,
        seed: u64,
        handling: Handling,
    ) -> Result<PartyGame, BattleError> {
        PartyGame::build(setup, seed, handling, None)
    }

    /// Same, the bots planning as `planning` says ([`Planning::Inline`] is deterministic).
    pub fn with_planning(
        setup: &PartySetup,
        seed: u64,
        handling: Handling,
        planning: Planning,
    ) -> Result<PartyGame, BattleError> {
        PartyGame::build(setup, seed, handling, Some(planning))
    }

    fn build(
        setup: &PartySetup,
        seed: u64,
        handling: Handling,
        planning: Option<Planning>,
    ) -> Result<PartyGame, BattleError> {
        let header = setup.header(seed, handling);
        header.validate()?;
        let battle = Battle::new(header)?;
        let make = BotMaker {
            level: setup.level,
            planning,
        };
        Ok(PartyGame {
            header,
            battle,
            bots: make.bots(setup.seats(), seed),
            make,
            target: None,
            past: Default::default(),
            sent_now: [0; MAX_SEATS],
            first_bot: 0,
        })
    }

    /// The match `battle` from where it stands (a replay's frame: "continue from here"), you
    /// in the first seat and a bot of `level` in each other, planning as the platform's game
    /// does. The figures count from here.
    pub fn from_battle(battle: Battle, level: sevenbag_bot::Level) -> PartyGame {
        let header = *battle.header();
        let make = BotMaker {
            level,
            planning: None,
        };
        PartyGame {
            header,
            battle,
            bots: make.bots(battle.seats(), header.seed ^ u64::from(battle.frame().0)),
            make,
            target: None,
            past: Default::default(),
            sent_now: [0; MAX_SEATS],
            first_bot: 0,
        }
    }

    /// The match.
    pub fn battle(&self) -> &Battle {
        &self.battle
    }

    /// How many seats play.
    pub fn seats(&self) -> usize {
        self.battle.seats()
    }

    /// The opponent you chose to attack.
    pub fn target(&self) -> Option<Seat> {
        self.target
    }

    /// Your opponents still in the round, in seat order.
    fn live_opponents(&self) -> Vec<Seat> {
        let b = &self.battle;
        let mates = b.members(b.team_of(YOU));
        b.alive().without(mates).iter().collect()
    }

    /// Chooses `seat` as your target, if it is an opponent still in; true if it was.
    pub fn choose_target(&mut self, seat: Seat) -> bool {
        let ok = self.live_opponents().contains(&seat);
        if ok {
            self.target = Some(seat);
        }
        ok
    }

    /// Moves your target to the next live opponent after it (`step` 1) or before it (-1).
    pub fn cycle_target(&mut self, step: i32) {
        let live = self.live_opponents();
        if live.is_empty() {
            return;
        }
        let n = live.len() as i32;
        let at = self
            .target
            .and_then(|t| live.iter().position(|&s| s == t))
            .map_or(if step > 0 { -1 } else { 0 }, |i| i as i32);
        self.target = Some(live[(at + step).rem_euclid(n) as usize]);
    }

    /// Simulates one frame: your keys, then every bot's, in turn from a different bot each
    /// frame (the inputs all go in together, so the order changes nothing in the match).
    pub fn step(&mut self, you: Input) {
        // A target that went out is dropped: the core would fall back on its own anyway.
        if let Some(t) = self.target
            && !self.live_opponents().contains(&t)
        {
            self.target = None;
        }
        let mut inputs = [SeatInput::NONE; MAX_SEATS];
        inputs[0] = SeatInput {
            keys: you,
            target: self.target,
        };
        let n = self.bots.len();
        let manual = self.header.options.targeting == Targeting::Manual;
        for k in 0..n {
            let i = (self.first_bot + k) % n;
            if let Some(seat) = Seat::new(i + 1) {
                let view = SeatView::of_battle(&self.battle, seat);
                inputs[i + 1].keys = self.bots[i].next_for(view);
                // Under `manual` the bots choose too, by the bot's documented rule.
                inputs[i + 1].target = manual.then(|| manual_target(&self.battle, seat)).flatten();
            }
        }
        self.first_bot = (self.first_bot + 1) % n.max(1);
        self.battle.step(&inputs);
        let events = *self.battle.events();
        if events.new_round {
            self.sent_now = [0; MAX_SEATS];
        }
        for (from, row) in events.sent.iter().enumerate() {
            self.sent_now[from] += row.iter().map(|&l| u32::from(l)).sum::<u32>();
        }
        if events.round_over.is_some() {
            self.close_round();
        }
    }

    /// Adds the round just over to the match's figures.
    fn close_round(&mut self) {
        for seat in Seat::all(self.seats()) {
            let f = &mut self.past[seat.index()];
            f.place = self.battle.placement(seat);
            f.kos += u32::from(self.battle.kos(seat));
            f.sent += self.sent_now[seat.index()];
            f.badges = self.battle.badges(seat);
        }
        self.sent_now = [0; MAX_SEATS];
    }

    /// `seat`'s figures so far: past rounds, plus the round being played.
    pub fn figures(&self, seat: Seat) -> Figures {
        let past = &self.past[seat.index()];
        let b = &self.battle;
        let between_rounds = matches!(
            b.phase(),
            sevenbag_core::Phase::RoundOver { .. } | sevenbag_core::Phase::MatchOver { .. }
        );
        if between_rounds {
            return past.clone();
        }
        Figures {
            place: b.placement(seat),
            kos: past.kos + u32::from(b.kos(seat)),
            sent: past.sent + self.sent_now[seat.index()],
            badges: b.badges(seat),
        }
    }

    /// The results table: every seat, best place first (seat order among equals).
    pub fn results(&self) -> Vec<(Seat, Figures)> {
        let mut rows: Vec<(Seat, Figures)> = Seat::all(self.seats())
            .map(|s| (s, self.figures(s)))
            .collect();
        rows.sort_by_key(|(s, f)| (f.place.unwrap_or(u8::MAX), s.index()));
        rows
    }

    /// A new match of the same setup on `seed`, with fresh bots.
    pub fn rematch(&mut self, seed: u64) {
        self.header.seed = seed;
        if let Ok(battle) = Battle::new(self.header) {
            self.battle = battle;
        }
        self.bots = self.make.bots(self.seats(), seed);
        self.target = None;
        self.past = Default::default();
        self.sent_now = [0; MAX_SEATS];
        self.first_bot = 0;
    }
}
