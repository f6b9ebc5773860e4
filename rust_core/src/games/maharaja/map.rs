//! The map: cities, roads and the villages on them, read from a text file.
//!
//! The format is documented in the header of the built-in map,
//! `rust_core/src/games/maharaja/maharaja_map.txt` (the engine's own map, not the publisher's):
//! `start NAME X Y`, 7 × `city NAME X Y HOME`, then `road A B V` lines. Loading checks
//! every rule and reports the first broken one naming the city or road, e.g.
//! `road Agra-Agra: a road must join two different cities` or `city Bhopal: on 2 roads,
//! needs at least 3`.
//!
//! Nodes are numbered: the starting city 0, the 7 cities 1..=7 in file order, then the
//! villages 8.. in road order. A *site* (where a house may stand) is a city or a village
//! node index.

/// The built-in map (the engine's own, see the file header).
pub const BUILTIN: &str = include_str!("maharaja_map.txt");

/// The starting city plus the 7 scoring cities.
pub const N_CITIES: usize = 8;
/// Scoring cities (one governor each).
pub const N_SCORING: usize = 7;
pub const START: usize = 0;
/// Most villages and roads a map may have (bit sets and fixed arrays).
pub const MAX_VILLAGES: usize = 56;
pub const MAX_ROADS: usize = 40;
pub const MAX_SITES: usize = N_CITIES + MAX_VILLAGES;
pub const NO_VILLAGE: u8 = u8::MAX;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Road {
    pub a: u8,
    pub b: u8,
    /// Village nodes from `a` to `b` (`NO_VILLAGE` when the road has only one).
    pub villages: [u8; 2],
}

impl Road {
    pub fn villages(&self) -> impl Iterator<Item = usize> + '_ {
        self.villages.iter().filter(|v| **v != NO_VILLAGE).map(|v| *v as usize)
    }
    /// The other end of the road seen from `city`.
    pub fn other(&self, city: usize) -> usize {
        if self.a as usize == city {
            self.b as usize
        } else {
            self.a as usize
        }
    }
}

/// A validated map.
#[derive(Debug, Clone, PartialEq)]
pub struct Map {
    /// City names: the starting city first, then the 7 cities in file order.
    pub names: Vec<String>,
    pub positions: Vec<(f64, f64)>,
    /// `home[c]` = the character number (1..=7) picturing city `c` (0 for the start).
    pub home: [u8; N_CITIES],
    pub roads: Vec<Road>,
    pub n_villages: usize,
    /// For each city, the indices of its roads.
    pub city_roads: [Vec<u8>; N_CITIES],
    /// For each village node, its road.
    pub village_road: Vec<u8>,
}

impl Map {
    /// The built-in map (checked by a test, so this cannot fail).
    pub fn builtin() -> Map {
        Map::parse(BUILTIN).expect("the built-in map is valid")
    }

    pub fn n_sites(&self) -> usize {
        N_CITIES + self.n_villages
    }

    /// The villages of the map as node indices.
    pub fn villages(&self) -> std::ops::Range<usize> {
        N_CITIES..N_CITIES + self.n_villages
    }

    pub fn is_village(site: usize) -> bool {
        site >= N_CITIES
    }

    /// The readable name of a node: the city's name, or `village 5 (Agra-Jaipur)`.
    pub fn site_name(&self, site: usize) -> String {
        if site < N_CITIES {
            return self.names[site].clone();
        }
        let road = &self.roads[self.village_road[site - N_CITIES] as usize];
        format!("village {} ({}-{})", site - N_CITIES + 1, self.names[road.a as usize], self.names[road.b as usize])
    }

    /// The city whose character-card picture is `character` (1..=7).
    pub fn home_city(&self, character: usize) -> usize {
        (1..N_CITIES).find(|&c| self.home[c] as usize == character).expect("every character has a home city")
    }

    /// A 64-bit FNV-1a fingerprint of the map (to tell maps apart in logs).
    pub fn fingerprint(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |bytes: &[u8]| {
            for &b in bytes {
                h ^= b as u64;
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        };
        for (name, home) in self.names.iter().zip(self.home) {
            eat(name.as_bytes());
            eat(&[home, b' ']);
        }
        for r in &self.roads {
            eat(&[r.a, r.b, r.villages[0], r.villages[1]]);
        }
        h
    }

    /// Parses and validates a map file; the error names the line, city or road and the rule.
    pub fn parse(text: &str) -> Result<Map, String> {
        let mut cities: Vec<(String, (f64, f64), u8, bool)> = Vec::new();
        let mut roads_raw: Vec<(String, String, usize, usize)> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let words: Vec<&str> = line.split_whitespace().collect();
            match words[0] {
                "start" | "city" => cities.push(parse_city(&words, line_no)?),
                "road" => {
                    if words.len() != 4 {
                        return Err(format!("line {line_no}: expected `road A B V`, found `{line}`"));
                    }
                    let v = words[3].parse::<usize>().map_err(|_| {
                        format!("road {}-{}: village count `{}` is not a number", words[1], words[2], words[3])
                    })?;
                    roads_raw.push((words[1].to_string(), words[2].to_string(), v, line_no));
                }
                other => {
                    return Err(format!("line {line_no}: unknown entry `{other}`; allowed: start, city, road"));
                }
            }
        }
        let starts: Vec<_> = cities.iter().filter(|c| c.3).collect();
        if starts.len() != 1 {
            return Err(format!("{} `start` lines, need exactly 1 starting city", starts.len()));
        }
        let n_scoring = cities.len() - 1;
        if n_scoring != N_SCORING {
            return Err(format!("{n_scoring} `city` lines, need exactly {N_SCORING} (one per governor)"));
        }
        // The starting city first, then the others in file order.
        cities.sort_by_key(|c| !c.3);
        let names: Vec<String> = cities.iter().map(|c| c.0.clone()).collect();
        for (i, n) in names.iter().enumerate() {
            if names[..i].contains(n) {
                return Err(format!("city {n}: the name is used twice"));
            }
        }
        let mut home = [0u8; N_CITIES];
        for (c, city) in cities.iter().enumerate().skip(1) {
            if home[1..c].contains(&city.2) {
                return Err(format!("city {}: home character {} is already another city's", city.0, city.2));
            }
            home[c] = city.2;
        }
        let positions: Vec<(f64, f64)> = cities.iter().map(|c| c.1).collect();
        let map = build_roads(names, positions, home, &roads_raw)?;
        map.check_graph()?;
        Ok(map)
    }

    /// Degrees, connectivity and planarity (straight roads between the positions).
    fn check_graph(&self) -> Result<(), String> {
        for c in 0..N_CITIES {
            let d = self.city_roads[c].len();
            if d < 3 {
                return Err(format!("city {}: on {d} roads, needs at least 3", self.names[c]));
            }
        }
        let mut seen = [false; N_CITIES];
        let mut stack = vec![START];
        seen[START] = true;
        while let Some(c) = stack.pop() {
            for &r in &self.city_roads[c] {
                let o = self.roads[r as usize].other(c);
                if !seen[o] {
                    seen[o] = true;
                    stack.push(o);
                }
            }
        }
        if let Some(c) = (0..N_CITIES).find(|&c| !seen[c]) {
            return Err(format!("city {}: not reachable from the starting city {}", self.names[c], self.names[START]));
        }
        for c in 0..N_CITIES {
            if let Some(d) = (0..c).find(|&d| self.positions[d] == self.positions[c]) {
                return Err(format!("city {}: at the same position as city {}", self.names[c], self.names[d]));
            }
        }
        for (i, r) in self.roads.iter().enumerate() {
            let (a, b) = (self.positions[r.a as usize], self.positions[r.b as usize]);
            for c in 0..N_CITIES {
                if c != r.a as usize && c != r.b as usize && on_segment(a, b, self.positions[c]) {
                    return Err(format!("road {}: passes through city {}", self.road_name(i), self.names[c]));
                }
            }
            for (j, s) in self.roads[..i].iter().enumerate() {
                let shared = [s.a, s.b].iter().any(|x| *x == r.a || *x == r.b);
                let (c, d) = (self.positions[s.a as usize], self.positions[s.b as usize]);
                if !shared && segments_cross(a, b, c, d) {
                    return Err(format!(
                        "road {}: crosses road {} (the map must be planar: roads drawn straight between the \
                         cities' positions may not cross)",
                        self.road_name(i),
                        self.road_name(j)
                    ));
                }
            }
        }
        Ok(())
    }

    pub fn road_name(&self, r: usize) -> String {
        let road = &self.roads[r];
        format!("{}-{}", self.names[road.a as usize], self.names[road.b as usize])
    }
}

fn parse_city(words: &[&str], line_no: usize) -> Result<(String, (f64, f64), u8, bool), String> {
    let start = words[0] == "start";
    let want = if start { 4 } else { 5 };
    if words.len() != want {
        let form = if start { "start NAME X Y" } else { "city NAME X Y HOME" };
        return Err(format!("line {line_no}: expected `{form}`, found `{}`", words.join(" ")));
    }
    let name = words[1].to_string();
    let coord = |w: &str| {
        w.parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .ok_or_else(|| format!("city {name}: position `{w}` is not a number"))
    };
    let pos = (coord(words[2])?, coord(words[3])?);
    let home = if start {
        0
    } else {
        words[4]
            .parse::<u8>()
            .ok()
            .filter(|h| (1..=7).contains(h))
            .ok_or_else(|| format!("city {name}: home character `{}` is not a number 1-7", words[4]))?
    };
    Ok((name, pos, home, start))
}

fn build_roads(
    names: Vec<String>,
    positions: Vec<(f64, f64)>,
    home: [u8; N_CITIES],
    raw: &[(String, String, usize, usize)],
) -> Result<Map, String> {
    if raw.len() > MAX_ROADS {
        return Err(format!("{} roads, at most {MAX_ROADS} allowed", raw.len()));
    }
    let find = |n: &str, a: &str, b: &str| {
        names.iter().position(|x| x == n).ok_or_else(|| format!("road {a}-{b}: unknown city {n}"))
    };
    let mut roads: Vec<Road> = Vec::with_capacity(raw.len());
    let mut city_roads: [Vec<u8>; N_CITIES] = Default::default();
    let mut village_road = Vec::new();
    for (an, bn, v, _) in raw {
        let (a, b) = (find(an, an, bn)?, find(bn, an, bn)?);
        if a == b {
            return Err(format!("road {an}-{bn}: a road must join two different cities"));
        }
        if roads.iter().any(|r| (r.a as usize, r.b as usize) == (a, b) || (r.a as usize, r.b as usize) == (b, a)) {
            return Err(format!("road {an}-{bn}: a second road between the same two cities"));
        }
        if !(1..=2).contains(v) {
            return Err(format!("road {an}-{bn}: {v} villages, allowed 1 or 2"));
        }
        let mut villages = [NO_VILLAGE; 2];
        for slot in villages.iter_mut().take(*v) {
            if village_road.len() == MAX_VILLAGES {
                return Err(format!("road {an}-{bn}: more than {MAX_VILLAGES} villages in all"));
            }
            *slot = (N_CITIES + village_road.len()) as u8;
            village_road.push(roads.len() as u8);
        }
        city_roads[a].push(roads.len() as u8);
        city_roads[b].push(roads.len() as u8);
        roads.push(Road { a: a as u8, b: b as u8, villages });
    }
    Ok(Map { names, positions, home, n_villages: village_road.len(), roads, city_roads, village_road })
}

fn orient(a: (f64, f64), b: (f64, f64), c: (f64, f64)) -> f64 {
    (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0)
}

/// Whether `p` lies on the closed segment `a`-`b`.
fn on_segment(a: (f64, f64), b: (f64, f64), p: (f64, f64)) -> bool {
    orient(a, b, p) == 0.0 && p.0 >= a.0.min(b.0) && p.0 <= a.0.max(b.0) && p.1 >= a.1.min(b.1) && p.1 <= a.1.max(b.1)
}

/// Whether segments `a`-`b` and `c`-`d` (no shared end) meet.
fn segments_cross(a: (f64, f64), b: (f64, f64), c: (f64, f64), d: (f64, f64)) -> bool {
    let (o1, o2, o3, o4) = (orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b));
    if o1 * o2 < 0.0 && o3 * o4 < 0.0 {
        return true;
    }
    on_segment(a, b, c) || on_segment(a, b, d) || on_segment(c, d, a) || on_segment(c, d, b)
}
