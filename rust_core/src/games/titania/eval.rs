//! The evaluation behind the `greedy` agent (and greedy rollouts of `mcts`).
//!
//! `greedy` looks one ply ahead and scores each legal action by what the acting player
//! `p` gains, in points, against stopping now. It reads only what `p` knows: the board,
//! the face-up fog tiles, every player's public holdings and `p`'s own hand and score
//! tiles; a face-down fog tile is worth the mean of the tiles still face down, a score
//! tile the mean of the tiles `p` has not seen.
//!
//! * **Resources**: a point is 1; a shell of a colour is [`SHELL`] while some tower of
//!   that colour can still grow (a site with room and floors in the supply), else
//!   [`DEAD_SHELL`]; a starfish [`STAR`]; a card in hand [`CARD`]; a score tile the mean
//!   unseen value.
//! * **A space** is worth its icons (a bonus space both), the shells and starfish the
//!   supply can still pay; a fog space its tile (face up) or the mean face-down tile; a
//!   crane its best affordable floor; a ship reward the best space its ship could enter
//!   (one level deep, then [`SHIP`]).
//! * **A floor** is worth its points (3, or 4 on a decorated site) minus the shells it
//!   costs at their worth, so greedy builds floors 1–3 and a 4th only on a decorated site.
//! * **A decoration** is worth its points plus [`FUTURE_FLOOR`] per floor the site can still
//!   take, minus the starfish it costs at [`STAR`] (one stays on the site).
//! * **Cards**: playing a card costs the card and changes the end-of-turn draw; the value of
//!   `Play` is the space's worth plus [`CARD`] times the change of the hand compared with
//!   stopping now and drawing the most allowed (a two-colour card costs [`FLEX`] more, as it
//!   is worth keeping); `Draw { count }` is [`CARD`] × (count − the most allowed), so
//!   drawing the most is 0 and greedy plays a card only when its space is worth more than
//!   the cards it costs.
//! * Colour of shells of choice: the shells' worth in that colour plus [`ENABLES`] per floor
//!   the new shells make affordable. Stopping to build or decorate is 0.
//!
//! The `mcts` win estimate is a softmax, scale [`ESTIMATE_SCALE`]
//! points, over points + score tiles + shells, starfish and cards at the worths above.

use super::board::{Icon, Kind, ANY};
use super::state::{
    bits32, Action, Phase, Titania, CARDS_PER_TURN, CARD_COLOURS, DECORATED_FLOOR_POINTS, FLOOR_POINTS, HAND_LIMIT,
    MAX_FLOOR, MAX_PLAYERS,
};
use crate::game::{lead, Evaluate, ScoreEstimate, MAX_SEATS};

pub const SHELL: f64 = 0.8;
pub const DEAD_SHELL: f64 = 0.1;
pub const STAR: f64 = 1.5;
pub const CARD: f64 = 0.6;
pub const SHIP: f64 = 1.0;
pub const FLEX: f64 = 0.2;
pub const FUTURE_FLOOR: f64 = 0.15;
pub const ENABLES: f64 = 0.3;
pub const ESTIMATE_SCALE: f64 = 8.0;

/// The features of a position (see [`Evaluate::features`]); leads are against the best
/// opponent. The epoch (0 or 1) and the cards left in the draw pile (/36); the leads in
/// points, score tiles (the player's own values; another player's count times the mean
/// unseen tile), the estimate of the win estimate (points, tiles, shells, starfish and
/// cards at their worths, cards counted as below), shells, starfish, cards and floors (/5);
/// own shells and cards (/5); start player.
///
/// "Cards" counts the hand plus, for the player whose turn it is, the cards its turn will
/// still draw if it stops now ([`Titania::max_draw`]): cards played and drawn make 3 a turn,
/// so mid-turn the hand alone undercounts by the draw to come (after one card played, the
/// hand is one smaller and two cards are still owed). Without it every position inside a
/// turn looked cards short of the position after the turn's draw, and a fitted card worth
/// made the search stop playing cards.
pub const FEATURES: &[&str] = &[
    "epoch",
    "pile_left",
    "points_lead",
    "tiles_lead",
    "estimate_lead",
    "shells_lead",
    "stars_lead",
    "cards_lead",
    "floors_lead",
    "shells",
    "cards",
    "start_player",
];

/// Values shared by the actions of one decision.
pub struct Ctx {
    p: usize,
    shell: [f64; 4],
    tile: f64,
    /// Mean worth of a face-down fog tile for a ship of each colour entering a fog space
    /// (the ship-reward part depends on the space; it counts [`SHIP`]).
    fog: f64,
    /// The change of the end-of-turn draw when the player plays a card now (see `Play`; the
    /// same for every card of a decision, so counted once).
    draw_delta: f64,
}

impl Titania {
    fn ctx(&self, p: usize) -> Ctx {
        let mut shell = [DEAD_SHELL; 4];
        for (c, w) in shell.iter_mut().enumerate() {
            if self.floor_supply[c] > 0
                && (0..self.board.sites.len())
                    .any(|k| self.board.site_colours[k] >> c & 1 == 1 && self.towers[k][c] < MAX_FLOOR)
            {
                *w = SHELL;
            }
        }
        let me = &self.players[p];
        let all: u32 = self.board.score_tiles.iter().map(|&v| v as u32).sum();
        let own: u32 = me.tiles[..me.n_tiles as usize].iter().map(|&v| v as u32).sum();
        let unseen = self.board.score_tiles.len() as u32 - me.n_tiles as u32;
        let tile = if unseen == 0 { 0.0 } else { (all - own) as f64 / unseen as f64 };
        let room_after = HAND_LIMIT.saturating_sub(me.hand_size().saturating_sub(1));
        let draw_after = CARDS_PER_TURN.saturating_sub(self.played + 1).min(room_after);
        let draw_delta = draw_after as f64 - 1.0 - self.max_draw() as f64;
        let mut ctx = Ctx { p, shell, tile, fog: 0.0, draw_delta };
        let (mut sum, mut count) = (0.0, 0);
        for slot in 0..self.board.fog_spaces.len() {
            if self.fog_up >> slot & 1 == 0 {
                sum += self.icon_value(&ctx, self.board.fog_tiles[self.fog_tile[slot] as usize], 0, 0, 0);
                count += 1;
            }
        }
        ctx.fog = if count == 0 { 0.0 } else { sum / count as f64 };
        ctx
    }

    fn icon_value(&self, ctx: &Ctx, icon: Icon, colour: usize, space: usize, depth: u8) -> f64 {
        let me = &self.players[ctx.p];
        match icon {
            Icon::Shells { colour: ANY, n } => {
                (0..4).map(|c| n.min(self.shell_supply[c]) as f64 * ctx.shell[c]).fold(0.0, f64::max)
            }
            Icon::Shells { colour: c, n } => n.min(self.shell_supply[c as usize]) as f64 * ctx.shell[c as usize],
            Icon::Star(n) => n.min(self.star_supply) as f64 * STAR,
            Icon::Tile => {
                if self.tile_len > 0 {
                    ctx.tile
                } else {
                    0.0
                }
            }
            Icon::Points(n) => n as f64,
            Icon::Cards(n) => n.min(HAND_LIMIT.saturating_sub(me.hand_size())) as f64 * CARD,
            Icon::Ship => {
                if depth == 0 {
                    return SHIP;
                }
                if self.ship_supply[colour] == 0 {
                    return 0.0;
                }
                let room = self.enterable(ctx.p, colour, self.board.neigh[space]);
                super::state::spaces(room).map(|s| self.space_value(ctx, colour, s, depth - 1)).fold(0.0, f64::max)
            }
        }
    }

    /// What a ship of `colour` entering `space` gives the player of `ctx`.
    fn space_value(&self, ctx: &Ctx, colour: usize, space: usize, depth: u8) -> f64 {
        match self.board.kinds[space] {
            Kind::Reward(i) => self.icon_value(ctx, i, colour, space, depth),
            Kind::Bonus([a, b]) => {
                self.icon_value(ctx, a, colour, space, depth) + self.icon_value(ctx, b, colour, space, depth)
            }
            Kind::Fog => {
                let slot = self.board.fog_slot[space] as usize;
                if self.fog_up >> slot & 1 == 1 {
                    self.icon_value(ctx, self.board.fog_tiles[self.fog_tile[slot] as usize], colour, space, depth)
                } else {
                    ctx.fog
                }
            }
            Kind::Crane => bits32(self.board.near_sites[space])
                .flat_map(|k| (0..4).map(move |c| (k, c)))
                .filter(|&(k, c)| self.can_build(ctx.p, k, c))
                .map(|(k, c)| self.floor_value(ctx, k, c))
                .fold(0.0, f64::max),
            Kind::Start(_) | Kind::Site(_) => 0.0,
        }
    }

    fn floor_value(&self, ctx: &Ctx, site: usize, colour: usize) -> f64 {
        let points = if self.decorated >> site & 1 == 1 { DECORATED_FLOOR_POINTS } else { FLOOR_POINTS };
        points as f64 - (self.towers[site][colour] + 1) as f64 * ctx.shell[colour]
    }

    fn value_in(&self, ctx: &Ctx, a: &Action) -> f64 {
        let p = ctx.p;
        match *a {
            Action::Play { card, colour, space } => {
                let delta = ctx.draw_delta; // a card is in hand: its `hand_size() - 1` did not saturate
                let flex = if CARD_COLOURS[card as usize].count_ones() == 2 { FLEX } else { 0.0 };
                self.space_value(ctx, colour as usize, space as usize, 1) + CARD * delta - flex
            }
            Action::Draw { count } => CARD * (count as f64 - self.max_draw() as f64),
            Action::Colour { colour } => {
                let Phase::Colour { n } = self.phase else { return 0.0 };
                let c = colour as usize;
                let got = n.min(self.shell_supply[c]);
                let held = self.players[p].shells[c];
                let affordable = |shells: u8| {
                    (0..self.board.sites.len())
                        .filter(|&k| {
                            let h = self.towers[k][c];
                            self.board.site_colours[k] >> c & 1 == 1 && h < MAX_FLOOR && shells > h
                        })
                        .count() as f64
                };
                got as f64 * ctx.shell[c] + ENABLES * (affordable(held + got) - affordable(held))
            }
            Action::Ship { space } => {
                let Phase::Ship { colour, .. } = self.phase else { return 0.0 };
                self.space_value(ctx, colour as usize, space as usize, 1)
            }
            Action::Build { site, colour } => self.floor_value(ctx, site as usize, colour as usize),
            Action::Decorate { site } => {
                let k = site as usize;
                let icons = self.board.site_colours[k].count_ones() as f64;
                let floors: u8 = self.towers[k].iter().sum();
                let room = icons * MAX_FLOOR as f64 - floors as f64;
                icons + floors as f64 + FUTURE_FLOOR * room - icons * STAR
            }
            Action::EndBuild | Action::EndDecorate => 0.0,
        }
    }
}

/// The greedy evaluation (see the module doc) and the win estimate.
impl Evaluate for Titania {
    /// Measured: `bench/tune_mcts.py` (`bench/results/tune-mcts.json`).
    const MCTS_DEFAULTS: &'static str = "bias=3";
    /// Measured (`bench/equal_time.py titania --old mcts --new xmcts --params bias=B --ms 5`, 200
    /// paired games each, 100 at 3): `bias` 3 (as `mcts`) 0.360, 1 0.565 [0.502, 0.628], 0.5 0.560;
    /// with `bias=1`, `depth=20` 0.375; confirmed on a fresh seed, 400 games: 0.519 [0.469, 0.569].
    /// Re-measured with the weights of *What a turn still owes* (README; 200 games, seed 23):
    /// `bias` 1 0.645, 1.5 0.665, 2 0.718 [0.657, 0.778], 3 0.590. On the fresh seed (400 games)
    /// `bias=2` reads 0.689 at 5 ms but 0.613 at 50 ms, where `bias=1` reads 0.625 and 0.670: the
    /// smaller bias scales better with CPU and stays (README, *Titania's progressive bias*).
    const XMCTS_DEFAULTS: &'static str = "bias=1";

    const FEATURE_NAMES: &'static [&'static str] = FEATURES;
    const EVAL_WEIGHTS: &'static str = include_str!("titania_eval_weights.txt");

    /// See [`FEATURES`]: public holdings, the player's own score tiles, never another
    /// player's hand or score tiles (their counts instead).
    fn features(&self, player: usize, out: &mut [f32]) {
        let n = self.n;
        let unseen_tile = self.ctx(player).tile;
        let (mut points, mut tiles, mut shells, mut stars, mut cards, mut floors, mut est) = (
            [0.0; MAX_PLAYERS],
            [0.0; MAX_PLAYERS],
            [0.0; MAX_PLAYERS],
            [0.0; MAX_PLAYERS],
            [0.0; MAX_PLAYERS],
            [0.0; MAX_PLAYERS],
            [0.0; MAX_PLAYERS],
        );
        for (q, pl) in self.players.iter().enumerate().take(n) {
            points[q] = pl.points as f64;
            tiles[q] = if q == player { pl.tile_points() as f64 } else { unseen_tile * pl.n_tiles as f64 };
            shells[q] = pl.shell_value() as f64;
            stars[q] = pl.stars as f64;
            cards[q] = pl.hand_size() as f64;
            if q == self.current && self.phase != Phase::Over {
                cards[q] += self.max_draw() as f64;
            }
            floors[q] = pl.floors as f64;
            est[q] = points[q] + tiles[q] + SHELL * shells[q] + STAR * stars[q] + CARD * cards[q];
        }
        let values = [
            self.epoch as f32,
            self.pile_len as f32 / 36.0,
            lead(&points, player, n) / 10.0,
            lead(&tiles, player, n) / 10.0,
            lead(&est, player, n) / 10.0,
            lead(&shells, player, n) / 5.0,
            lead(&stars, player, n) / 5.0,
            lead(&cards, player, n) / 5.0,
            lead(&floors, player, n) / 5.0,
            shells[player] as f32 / 5.0,
            cards[player] as f32 / 5.0,
            f32::from(u8::from(player == 0)),
        ];
        out.copy_from_slice(&values);
    }

    fn greedy_value(&self, player: usize, a: &Action) -> f64 {
        self.value_in(&self.ctx(player), a)
    }
    fn greedy_values(&self, player: usize, actions: &[Action], out: &mut Vec<f64>) {
        if actions.is_empty() {
            return;
        }
        let ctx = self.ctx(player);
        out.extend(actions.iter().map(|a| self.value_in(&ctx, a)));
    }
    /// A softmax (scale [`ESTIMATE_SCALE`]) over points + score tiles + resources at their worth.
    fn estimated_scores(&self) -> Option<ScoreEstimate> {
        let mut scores = [0.0; MAX_SEATS];
        for (p, e) in scores.iter_mut().enumerate().take(self.n) {
            let me = &self.players[p];
            *e = (me.points + me.tile_points()) as f64
                + SHELL * me.shell_value() as f64
                + STAR * me.stars as f64
                + CARD * me.hand_size() as f64;
        }
        Some(ScoreEstimate { n: self.n, scores, scale: ESTIMATE_SCALE })
    }
}
