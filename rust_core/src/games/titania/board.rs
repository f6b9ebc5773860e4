//! The board: hex spaces, fog tiles and score tiles, read from a text file.
//!
//! The format is documented in the header of the built-in board,
//! `rust_core/src/games/titania/titania_board.txt` (the engine's own design, not the publisher's):
//! `space Q R KIND ARGS`, `fog_tiles COUNT ICON`, `score_tiles COUNT VALUE`. Loading checks
//! every rule of the reference and reports the first broken one naming the space (by its
//! coordinate) or the tile, e.g. `space (4, -1) site: no crane next to it`.

/// The built-in board (the engine's own, see the file header).
pub const BUILTIN: &str = include_str!("titania_board.txt");

/// Most spaces a board may have (space sets are `u128` bit sets).
pub const MAX_SPACES: usize = 128;
/// Most tower sites (site sets are `u32` bit sets).
pub const MAX_SITES: usize = 32;
pub const START_SPACES: usize = 3;
pub const FOG_TILES: usize = 22;
pub const SCORE_TILES: usize = 30;

pub const SHIP_COLOURS: [&str; 3] = ["red", "blue", "yellow"];
pub const SHELL_COLOURS: [&str; 4] = ["white", "black", "green", "brown"];
/// `Icon::Shells { colour: ANY, .. }`: shells of one colour of the player's choice.
pub const ANY: u8 = 4;

/// What a space, bonus space or fog tile gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Icon {
    /// `n` shells of a printed colour (0..4) or of one colour of choice ([`ANY`]).
    Shells {
        colour: u8,
        n: u8,
    },
    Star(u8),
    /// A score tile from the face-down pile.
    Tile,
    /// Another ship of the entering ship's colour onto a neighbouring space.
    Ship,
    Points(u8),
    Cards(u8),
}

impl Icon {
    fn parse(s: &str) -> Option<Icon> {
        let parts: Vec<&str> = s.split(':').collect();
        let num = |w: &str| w.parse::<u8>().ok().filter(|n| (1..=9).contains(n));
        Some(match parts.as_slice() {
            ["tile"] => Icon::Tile,
            ["ship"] => Icon::Ship,
            ["star", n] => Icon::Star(num(n)?),
            ["points", n] => Icon::Points(num(n)?),
            ["cards", n] => Icon::Cards(num(n)?),
            ["shells", c, n] => {
                let colour = if *c == "any" { ANY } else { shell_colour(c)? };
                Icon::Shells { colour, n: num(n)? }
            }
            _ => return None,
        })
    }

    /// The file notation of the icon (`shells:white:2`, `star:1`, `ship`...).
    pub fn name(self) -> String {
        match self {
            Icon::Shells { colour: ANY, n } => format!("shells:any:{n}"),
            Icon::Shells { colour, n } => format!("shells:{}:{n}", SHELL_COLOURS[colour as usize]),
            Icon::Star(n) => format!("star:{n}"),
            Icon::Tile => "tile".into(),
            Icon::Ship => "ship".into(),
            Icon::Points(n) => format!("points:{n}"),
            Icon::Cards(n) => format!("cards:{n}"),
        }
    }
}

fn shell_colour(s: &str) -> Option<u8> {
    SHELL_COLOURS.iter().position(|c| *c == s).map(|i| i as u8)
}

fn ship_colour(s: &str) -> Option<u8> {
    SHIP_COLOURS.iter().position(|c| *c == s).map(|i| i as u8)
}

/// What a space is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A start space with its two flag colours.
    Start([u8; 2]),
    Fog,
    /// A tower site: bit set of its shell colours (tower icons); ships never enter it.
    Site(u8),
    Crane,
    Reward(Icon),
    Bonus([Icon; 2]),
}

impl Kind {
    pub fn label(&self) -> &'static str {
        match self {
            Kind::Start(_) => "start",
            Kind::Fog => "fog",
            Kind::Site(_) => "site",
            Kind::Crane => "crane",
            Kind::Reward(_) => "reward",
            Kind::Bonus(_) => "bonus",
        }
    }
}

/// The six axial neighbour offsets.
pub const DIRS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

/// A validated board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    pub coords: Vec<(i32, i32)>,
    pub kinds: Vec<Kind>,
    /// Neighbouring spaces of each space.
    pub neigh: Vec<u128>,
    /// Spaces ships may enter (all but tower sites).
    pub ship_spaces: u128,
    pub cranes: u128,
    pub fog: u128,
    /// Space of each tower site (site index → space).
    pub sites: Vec<u8>,
    /// Site index of each space (`NONE` for non-sites).
    pub site_of: Vec<u8>,
    /// Shell-colour bit set of each site.
    pub site_colours: Vec<u8>,
    /// Tower sites next to each space (bit set of site indices).
    pub near_sites: Vec<u32>,
    /// Fog spaces in file order (fog slot → space) and slot of each space (`NONE` else).
    pub fog_spaces: Vec<u8>,
    pub fog_slot: Vec<u8>,
    pub starts: Vec<u8>,
    pub fog_tiles: Vec<Icon>,
    pub score_tiles: Vec<u8>,
}

pub const NONE: u8 = u8::MAX;

impl Board {
    /// The built-in board (checked by a test, so this cannot fail).
    pub fn builtin() -> Board {
        Board::parse(BUILTIN).expect("the built-in board is valid")
    }

    pub fn len(&self) -> usize {
        self.coords.len()
    }

    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    /// `space (q, r) kind` for messages.
    pub fn name(&self, space: usize) -> String {
        let (q, r) = self.coords[space];
        format!("space ({q}, {r}) {}", self.kinds[space].label())
    }

    /// The space at a coordinate, if any.
    pub fn at(&self, q: i32, r: i32) -> Option<usize> {
        self.coords.iter().position(|&c| c == (q, r))
    }

    /// Parses and validates a board file; the error names the space or tile and the rule.
    pub fn parse(text: &str) -> Result<Board, String> {
        let mut coords = Vec::new();
        let mut kinds = Vec::new();
        let mut lines_of = Vec::new();
        let mut fog_tiles = Vec::new();
        let mut score_tiles = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            match words[0] {
                "space" => {
                    let (q, r, kind) = parse_space(&words).map_err(|m| format!("line {line_no}: {m}"))?;
                    if let Some(j) = coords.iter().position(|&c| c == (q, r)) {
                        return Err(format!("space ({q}, {r}): listed twice (lines {} and {line_no})", lines_of[j]));
                    }
                    coords.push((q, r));
                    kinds.push(kind);
                    lines_of.push(line_no);
                }
                "fog_tiles" => {
                    let (count, icon) = parse_fog(&words).map_err(|m| format!("line {line_no}: {m}"))?;
                    fog_tiles.extend(std::iter::repeat_n(icon, count));
                }
                "score_tiles" => {
                    let count = words.get(1).and_then(|w| w.parse::<usize>().ok());
                    let value = words.get(2).and_then(|w| w.parse::<u8>().ok()).filter(|v| (1..=20).contains(v));
                    match (count, value, words.len()) {
                        (Some(c), Some(v), 3) => score_tiles.extend(std::iter::repeat_n(v, c)),
                        _ => return Err(format!("line {line_no}: expected `score_tiles COUNT VALUE` (value 1-20)")),
                    }
                }
                other => {
                    return Err(format!(
                        "line {line_no}: unknown line kind `{other}`; allowed: space, fog_tiles, score_tiles"
                    ))
                }
            }
        }
        Board::build(coords, kinds, fog_tiles, score_tiles)
    }

    fn build(
        coords: Vec<(i32, i32)>,
        kinds: Vec<Kind>,
        fog_tiles: Vec<Icon>,
        score_tiles: Vec<u8>,
    ) -> Result<Board, String> {
        let n = coords.len();
        if n > MAX_SPACES {
            return Err(format!("{n} spaces, allowed at most {MAX_SPACES}"));
        }
        let bit = |i: usize| 1u128 << i;
        let mut neigh = vec![0u128; n];
        let mut edge = vec![false; n];
        for (i, &(q, r)) in coords.iter().enumerate() {
            for (dq, dr) in DIRS {
                match coords.iter().position(|&c| c == (q + dq, r + dr)) {
                    Some(j) => neigh[i] |= bit(j),
                    None => edge[i] = true,
                }
            }
        }
        let of = |pred: &dyn Fn(&Kind) -> bool| -> Vec<u8> {
            (0..n).filter(|&i| pred(&kinds[i])).map(|i| i as u8).collect()
        };
        let starts = of(&|k| matches!(k, Kind::Start(_)));
        let sites = of(&|k| matches!(k, Kind::Site(_)));
        let fog_spaces = of(&|k| matches!(k, Kind::Fog));
        let set = |v: &[u8]| v.iter().fold(0u128, |m, &i| m | bit(i as usize));
        let cranes = set(&of(&|k| matches!(k, Kind::Crane)));
        let name = |i: usize| format!("space ({}, {}) {}", coords[i].0, coords[i].1, kinds[i].label());
        if starts.len() != START_SPACES {
            return Err(format!("{} start spaces, need exactly {START_SPACES}", starts.len()));
        }
        let flags = starts.iter().fold(0u8, |m, &s| match kinds[s as usize] {
            Kind::Start([a, b]) => m | 1 << a | 1 << b,
            _ => m,
        });
        if flags != 0b111 {
            let missing: Vec<&str> = (0..3).filter(|c| flags >> c & 1 == 0).map(|c| SHIP_COLOURS[c as usize]).collect();
            return Err(format!("no start space shows a {} flag: every ship colour needs one", missing.join(", ")));
        }
        if fog_spaces.len() != FOG_TILES {
            return Err(format!("{} fog spaces, need exactly {FOG_TILES}", fog_spaces.len()));
        }
        if fog_tiles.len() != FOG_TILES {
            return Err(format!("{} fog tiles, need exactly {FOG_TILES} (one per fog space)", fog_tiles.len()));
        }
        if score_tiles.len() != SCORE_TILES {
            return Err(format!("{} score tiles, need exactly {SCORE_TILES}", score_tiles.len()));
        }
        if sites.is_empty() || sites.len() > MAX_SITES {
            return Err(format!("{} tower sites, allowed 1 to {MAX_SITES}", sites.len()));
        }
        for &s in &sites {
            if neigh[s as usize] & cranes == 0 {
                return Err(format!("{}: no crane next to it (every tower site needs one)", name(s as usize)));
            }
        }
        let site_set = set(&sites);
        for c in 0..n {
            if cranes >> c & 1 == 1 && neigh[c] & site_set == 0 {
                return Err(format!("{}: no tower site next to it (a crane builds on a neighbouring site)", name(c)));
            }
            if matches!(kinds[c], Kind::Bonus(_)) && !edge[c] {
                return Err(format!("{}: not on the edge of the board (bonus spaces lie on the edge)", name(c)));
            }
        }
        let ship_spaces = (0..n).filter(|&i| !matches!(kinds[i], Kind::Site(_))).fold(0u128, |m, i| m | bit(i));
        // Flood fill from the start spaces through spaces ships may enter.
        let mut reached = set(&starts);
        let mut frontier = reached;
        while frontier != 0 {
            let i = frontier.trailing_zeros() as usize;
            frontier &= frontier - 1;
            let new = neigh[i] & ship_spaces & !reached;
            reached |= new;
            frontier |= new;
        }
        if let Some(i) = (0..n).find(|&i| ship_spaces >> i & 1 == 1 && reached >> i & 1 == 0) {
            return Err(format!(
                "{}: not connected to the start spaces through spaces ships may enter (tower sites block)",
                name(i)
            ));
        }
        let mut site_of = vec![NONE; n];
        let mut site_colours = Vec::new();
        for (k, &s) in sites.iter().enumerate() {
            site_of[s as usize] = k as u8;
            if let Kind::Site(c) = kinds[s as usize] {
                site_colours.push(c);
            }
        }
        let near_sites = (0..n)
            .map(|i| (0..sites.len()).filter(|&k| neigh[i] >> sites[k] & 1 == 1).fold(0u32, |m, k| m | 1 << k))
            .collect();
        let mut fog_slot = vec![NONE; n];
        for (k, &s) in fog_spaces.iter().enumerate() {
            fog_slot[s as usize] = k as u8;
        }
        Ok(Board {
            fog: set(&fog_spaces),
            coords,
            kinds,
            neigh,
            ship_spaces,
            cranes,
            sites,
            site_of,
            site_colours,
            near_sites,
            fog_spaces,
            fog_slot,
            starts,
            fog_tiles,
            score_tiles,
        })
    }

    /// The code of fog tile `i`: the index of the first tile with the same icon (tiles
    /// with equal icons are interchangeable).
    pub fn fog_code(&self, i: usize) -> u8 {
        let icon = self.fog_tiles[i];
        self.fog_tiles.iter().position(|&t| t == icon).unwrap_or(i) as u8
    }

    /// The board in the file format, one line per space (file order), per fog tile and per
    /// score tile, without comments: [`Board::parse`] of these lines gives this board back.
    pub fn lines(&self) -> Vec<String> {
        let colours = |bits: u8| -> String {
            (0..4).filter(|c| bits >> c & 1 == 1).map(|c| SHELL_COLOURS[c]).collect::<Vec<_>>().join(" ")
        };
        let mut out: Vec<String> = self
            .coords
            .iter()
            .zip(&self.kinds)
            .map(|(&(q, r), kind)| {
                let args = match *kind {
                    Kind::Start([a, b]) => format!(" {} {}", SHIP_COLOURS[a as usize], SHIP_COLOURS[b as usize]),
                    Kind::Site(bits) => format!(" {}", colours(bits)),
                    Kind::Reward(icon) => format!(" {}", icon.name()),
                    Kind::Bonus([a, b]) => format!(" {} {}", a.name(), b.name()),
                    Kind::Fog | Kind::Crane => String::new(),
                };
                format!("space {q} {r} {}{args}", kind.label())
            })
            .collect();
        out.extend(self.fog_tiles.iter().map(|t| format!("fog_tiles 1 {}", t.name())));
        out.extend(self.score_tiles.iter().map(|v| format!("score_tiles 1 {v}")));
        out
    }

    /// A 64-bit FNV-1a hash of [`Board::lines`] joined by newlines (to tell boards apart in
    /// logs; a reader can recompute it from the lines in the set-up event).
    pub fn fingerprint(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in self.lines().join("\n").bytes() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h
    }
}

fn parse_space(words: &[&str]) -> Result<(i32, i32, Kind), String> {
    let coord = |i: usize| words.get(i).and_then(|w| w.parse::<i32>().ok()).filter(|v| v.abs() <= 100);
    let (Some(q), Some(r)) = (coord(1), coord(2)) else {
        return Err("expected `space Q R KIND ...` with integer coordinates".into());
    };
    let at = format!("space ({q}, {r})");
    let Some(&kind) = words.get(3) else {
        return Err(format!("{at}: no kind; allowed: start, fog, site, crane, reward, bonus"));
    };
    let args = &words[4..];
    let count = |want: usize| {
        if args.len() == want {
            Ok(())
        } else {
            Err(format!("{at} {kind}: {} arguments, need {want}", args.len()))
        }
    };
    let icon = |w: &str| {
        Icon::parse(w).ok_or_else(|| {
            format!(
                "{at} {kind}: unknown icon `{w}`; allowed: shells:COLOUR:N, shells:any:N, star:N, tile, ship, \
                 points:N, cards:N (N 1-9; colours white, black, green, brown)"
            )
        })
    };
    let k = match kind {
        "start" => {
            count(2)?;
            let c = |w: &str| {
                ship_colour(w)
                    .ok_or_else(|| format!("{at} start: unknown ship colour `{w}`; allowed: red, blue, yellow"))
            };
            let (a, b) = (c(args[0])?, c(args[1])?);
            if a == b {
                return Err(format!("{at} start: both flags are {}, need two different colours", args[0]));
            }
            Kind::Start([a, b])
        }
        "fog" => {
            count(0)?;
            Kind::Fog
        }
        "crane" => {
            count(0)?;
            Kind::Crane
        }
        "site" => {
            if args.is_empty() || args.len() > 4 {
                return Err(format!("{at} site: {} tower icons, need 1 to 4", args.len()));
            }
            let mut set = 0u8;
            for w in args {
                let c = shell_colour(w).ok_or_else(|| {
                    format!("{at} site: unknown shell colour `{w}`; allowed: white, black, green, brown")
                })?;
                if set >> c & 1 == 1 {
                    return Err(format!("{at} site: tower icon {w} twice (a site shows different colours)"));
                }
                set |= 1 << c;
            }
            Kind::Site(set)
        }
        "reward" => {
            count(1)?;
            Kind::Reward(icon(args[0])?)
        }
        "bonus" => {
            count(2)?;
            Kind::Bonus([icon(args[0])?, icon(args[1])?])
        }
        other => return Err(format!("{at}: unknown kind `{other}`; allowed: start, fog, site, crane, reward, bonus")),
    };
    Ok((q, r, k))
}

fn parse_fog(words: &[&str]) -> Result<(usize, Icon), String> {
    let count = words.get(1).and_then(|w| w.parse::<usize>().ok());
    let icon = words.get(2).and_then(|w| Icon::parse(w));
    match (count, icon, words.len()) {
        (Some(c), Some(i), 3) => match i {
            Icon::Points(_) | Icon::Cards(_) => {
                Err(format!("fog tile {}: fog tiles show shells, starfish, a ship or a score tile", i.name()))
            }
            _ => Ok((c, i)),
        },
        _ => Err("expected `fog_tiles COUNT ICON`".into()),
    }
}
