//! Named, portable random streams.
//!
//! Every random choice in balancelab comes from ChaCha8 (`rand_chacha`), whose output is
//! specified bit for bit and identical on every platform. A stream is keyed by the study
//! seed and selected by a *purpose* and indices, so that
//!
//! * the **deal** of game *i* (shuffles, bag draws, reshuffles) depends only on
//!   `(seed, deal_index)`, and
//! * each **agent**'s choices depend only on `(seed, game_index, player)`;
//! * the **positions** recorded of game *i* depend only on `(seed, game_index)`.
//!
//! Neither depends on worker count, batch size or retries.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The PRNG used everywhere in the engine.
pub type Rng = ChaCha8Rng;

const DEAL: u64 = 0x6465_616c; // "deal"
const AGENT: u64 = 0x6167_656e; // "agen"
const POSITIONS: u64 = 0x706f_7369; // "posi"
const LABEL: u64 = 0x6c61_6265; // "labe"
const LUCK: u64 = 0x6c75_636b; // "luck"
const LUCK_ROLLOUT: u64 = 0x6c72_6f6c; // "lrol"

/// SplitMix64 step: expands a 64-bit value into well-mixed words.
fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn keyed(seed: u64, purpose: u64, a: u64, b: u64) -> Rng {
    let mut st = seed ^ purpose.rotate_left(32);
    let mut key = [0u8; 32];
    for (i, chunk) in key.chunks_mut(8).enumerate() {
        let mix = match i {
            0 => splitmix64(&mut st),
            1 => splitmix64(&mut st) ^ a,
            2 => splitmix64(&mut st) ^ b.rotate_left(17),
            _ => splitmix64(&mut st) ^ purpose,
        };
        chunk.copy_from_slice(&mix.to_le_bytes());
    }
    // A second mixing pass so that nearby indices give unrelated keys.
    let mut st2 = u64::from_le_bytes(key[8..16].try_into().expect("8 bytes"))
        ^ u64::from_le_bytes(key[16..24].try_into().expect("8 bytes"));
    for chunk in key.chunks_mut(8) {
        let w = u64::from_le_bytes((&*chunk).try_into().expect("8 bytes")) ^ splitmix64(&mut st2);
        chunk.copy_from_slice(&w.to_le_bytes());
    }
    Rng::from_seed(key)
}

/// The stream that deals game number `deal_index` of a study.
pub fn deal_rng(seed: u64, deal_index: u64) -> Rng {
    keyed(seed, DEAL, deal_index, 0)
}

/// The stream of one agent (`player` = index into the study's agent list) in one game.
pub fn agent_rng(seed: u64, game_index: u64, player: u64) -> Rng {
    keyed(seed, AGENT, game_index, player.wrapping_add(1))
}

/// The stream that chooses the recorded positions of game `game_index` (see `batch`).
pub fn positions_rng(seed: u64, game_index: u64) -> Rng {
    keyed(seed, POSITIONS, game_index, 0)
}

/// The stream of the search that labels the recorded position of `player` (index into the
/// agent list) in game `game_index` (see `batch`).
pub fn label_rng(seed: u64, game_index: u64, player: u64) -> Rng {
    keyed(seed, LABEL, game_index, player.wrapping_add(1))
}

/// The stream of the luck measurement of game `game_index` (see `luck`): its resampled chance
/// outcomes and fresh deals, apart from every stream that decides the game.
pub fn luck_rng(seed: u64, game_index: u64) -> Rng {
    keyed(seed, LUCK, game_index, 0)
}

/// The playout streams of the luck measurement's rollout value of game `game_index` (see
/// `luck::LuckValue::Rollout`), apart from the luck stream and every stream that decides the game.
pub fn luck_rollout_rng(seed: u64, game_index: u64) -> Rng {
    keyed(seed, LUCK_ROLLOUT, game_index, 0)
}

/// A uniform integer in `0..n` (`n > 0`), portable across platforms (32-bit sampling).
#[inline]
pub fn below(rng: &mut Rng, n: usize) -> usize {
    use rand::Rng as _;
    debug_assert!(n > 0 && n <= u32::MAX as usize);
    rng.random_range(0..n as u32) as usize
}

/// Shuffles a slice in place (Fisher–Yates with 32-bit index sampling).
pub fn shuffle<T>(rng: &mut Rng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i + 1);
        items.swap(i, j);
    }
}

/// Derives an independent child stream (e.g. to reseed a determinized state).
pub fn child(rng: &mut Rng) -> Rng {
    use rand::RngCore;
    let mut key = [0u8; 32];
    rng.fill_bytes(&mut key);
    Rng::from_seed(key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngCore;

    #[test]
    fn streams_are_reproducible_and_distinct() {
        let a = deal_rng(7, 3).next_u64();
        assert_eq!(a, deal_rng(7, 3).next_u64());
        assert_ne!(a, deal_rng(7, 4).next_u64());
        assert_ne!(a, deal_rng(8, 3).next_u64());
        assert_ne!(agent_rng(7, 3, 0).next_u64(), agent_rng(7, 3, 1).next_u64());
        assert_ne!(agent_rng(7, 3, 0).next_u64(), deal_rng(7, 3).next_u64());
    }

    #[test]
    fn below_is_uniform_enough() {
        let mut r = deal_rng(1, 1);
        let mut hist = [0u32; 6];
        for _ in 0..60_000 {
            hist[below(&mut r, 6)] += 1;
        }
        for h in hist {
            assert!((9_000..11_000).contains(&h), "{hist:?}");
        }
    }
}
