use super::*;
use crate::batch;
use crate::game::{ranks_and_wins, View};
use crate::rng::deal_rng;

fn play(v: &Variant, n: usize, deal: u64) -> Coin {
    let mut g = Coin::new(v, n, deal_rng(3, deal));
    let mut buf = Vec::new();
    while !g.is_terminal() {
        buf.clear();
        View::new(&g, g.decision().first()).legal_actions(None, &mut buf);
        assert_eq!(buf.len(), 2);
        g.apply(g.decision().first(), buf[0]);
    }
    g
}

#[test]
fn parses_options_and_rejects_bad_values() {
    let v = parse(&json!({}), 4).unwrap();
    assert_eq!(v.p, vec![0.25; 4]);
    assert_eq!(v.tie, 0.0);
    let v = parse(&json!({"p": [0.7, 0.3], "tie": 0.1}), 2).unwrap();
    assert_eq!(v.p, vec![0.7, 0.3]);
    assert!(parse(&json!({"p": [0.7, 0.3]}), 3).is_err(), "length must match players");
    assert!(parse(&json!({"p": [0.7, 0.4]}), 2).is_err(), "must sum to 1");
    assert!(parse(&json!({"p": [1.5, -0.5]}), 2).is_err(), "each within 0..=1");
    assert!(parse(&json!({"tie": 2}), 2).is_err());
    assert!(parse(&json!({"q": 1}), 2).is_err(), "unknown option");
    assert_eq!(parse(&json!({"first": 0.4}), 3).unwrap().p, vec![0.4, 0.3, 0.3]);
    assert!(parse(&json!({"first": 0.4, "p": [0.5, 0.5]}), 2).is_err(), "not with p");
    assert!(parse(&json!({"first": 1.5}), 2).is_err());
}

#[test]
fn each_player_acts_once_and_the_winner_scores_highest() {
    let v = parse(&json!({"p": [0.0, 1.0, 0.0]}), 3).unwrap();
    for d in 0..50 {
        let g = play(&v, 3, d);
        assert_eq!(g.turns(), 3);
        let (ranks, wins) = ranks_and_wins(&g.scores(), &[]);
        assert_eq!(wins, vec![0.0, 1.0, 0.0], "seat 1 always wins");
        assert_eq!(ranks[1], 1);
    }
}

#[test]
fn ties_give_everyone_a_share() {
    let v = parse(&json!({"tie": 1.0}), 4).unwrap();
    let g = play(&v, 4, 9);
    assert_eq!(ranks_and_wins(&g.scores(), &[]).1, vec![0.25; 4]);
}

#[test]
fn seat_frequencies_match_p() {
    let v = parse(&json!({"p": [0.5, 0.3, 0.2], "tie": 0.1}), 3).unwrap();
    let n_games = 20_000;
    let mut wins = [0.0f64; 3];
    let mut ties = 0;
    for d in 0..n_games {
        let g = play(&v, 3, d);
        let (_, w) = ranks_and_wins(&g.scores(), &[]);
        if w[0] < 1.0 && w[1] < 1.0 && w[2] < 1.0 {
            ties += 1;
        }
        for (total, share) in wins.iter_mut().zip(&w) {
            *total += share;
        }
    }
    let expect = [0.9 * 0.5 + 0.1 / 3.0, 0.9 * 0.3 + 0.1 / 3.0, 0.9 * 0.2 + 0.1 / 3.0];
    for (s, (total, want)) in wins.iter().zip(expect).enumerate() {
        let rate = total / n_games as f64;
        assert!((rate - want).abs() < 0.012, "seat {s}: {rate} vs {want}");
    }
    let tie_rate = ties as f64 / n_games as f64;
    assert!((tie_rate - 0.1).abs() < 0.01, "{tie_rate}");
}

#[test]
fn batch_runs_are_reproducible_and_pair_seats_share_the_deal() {
    let agents = vec!["random".to_string(), "random".to_string()];
    let a = batch::simulate::<Coin>(
        &crate::batch::BatchSpec::new(&json!({"p": [0.6, 0.4]}), &Default::default(), &agents, 5, true),
        0,
        40,
    )
    .unwrap();
    let b = batch::simulate::<Coin>(
        &crate::batch::BatchSpec::new(&json!({"p": [0.6, 0.4]}), &Default::default(), &agents, 5, true),
        0,
        40,
    )
    .unwrap();
    assert_eq!(a, b);
    // Rows come two per game; games 2k and 2k+1 share deal k, so the same seat wins.
    for k in 0..20 {
        let seat_win = |g: usize| (0..2).find(|&r| a.win[2 * g + r] == 1.0).map(|r| a.seat[2 * g + r]);
        assert_eq!(a.deal_index[4 * k], k as i64);
        assert_eq!(seat_win(2 * k), seat_win(2 * k + 1));
    }
}

#[test]
fn determinize_keeps_the_public_state() {
    let v = parse(&json!({}), 2).unwrap();
    let mut g = Coin::new(&v, 2, deal_rng(1, 1));
    g.apply(g.decision().first(), Action(1));
    let mut r = deal_rng(2, 2);
    let d = g.determinize(1, &mut r);
    assert_eq!(d.decision().first(), 1);
    assert_eq!(d.turns(), 1);
    assert!(!d.is_terminal());
}
