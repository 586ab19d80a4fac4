//! What a path, written as a shell word or a tool's argument, may name, and whether it can reach
//! a file of a guarded kind (a credential, one of gatehouse's own files).
//!
//! A word is read as the shell would before looking at the disk: braces expanded, `~`, `~user`,
//! `$HOME` and `${HOME}` made a home folder, a relative path put under the call's folder when it
//! is known, `.` and `..` folded. Every home folder (the user's, `/root`, `/home/NAME`,
//! `/Users/NAME`) becomes one segment `~`, so a pattern written under `~` covers other users'
//! homes too. A segment that holds an expansion stands for any name. Glob characters stay, and
//! a glob meets a pattern when it could match a name the pattern matches.
//!
//! A pattern is anchored (`/etc/shadow`, `~/.aws/credentials`) or a tail (`.env`,
//! `.ssh/**`) that may end any path. Anchored patterns are also reached through a folder above
//! them (`grep -r x ~` reaches `~/.aws/credentials`); a tail is not, since every folder may
//! hold one.

use std::path::Path;

/// Where a word is read: the home folder and the call's folder, when known.
#[derive(Debug, Clone, Copy, Default)]
pub struct Place<'a> {
    pub home: Option<&'a Path>,
    pub cwd: Option<&'a Path>,
}

/// Whether a folder above a match counts as reaching it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reach {
    /// Only a path that names a match (a reader of files).
    Named,
    /// Also a folder that holds one (a recursive reader, a remover or mover of folders).
    Under,
}

/// A path pattern: segments that may hold `*`, `?`, `[...]` and `**` (any number of folders).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathPattern {
    segs: Vec<String>,
    anchored: bool,
}

impl PathPattern {
    /// `~/…` and `/…` are anchored; anything else is a tail. A `~user` or home path becomes
    /// `~` as in a word.
    pub fn new(text: &str) -> PathPattern {
        let text = text.trim();
        let anchored = text.starts_with('/') || text.starts_with('~');
        let segs = match anchored {
            true => homed(fold(&expand_home(text, None))),
            false => text
                .split('/')
                .filter(|s| !s.is_empty() && *s != ".")
                .map(str::to_string)
                .collect(),
        };
        PathPattern { segs, anchored }
    }

    /// True when the candidate (from [`candidates`]) may name a match, or with
    /// [`Reach::Under`] a folder above one.
    pub fn reached_by(&self, candidate: &[String], reach: Reach) -> bool {
        if self.segs.is_empty() {
            return false;
        }
        let under = reach == Reach::Under;
        if self.anchored {
            // The root and the folder of homes hold every home.
            let above_homes = matches!(
                candidate.iter().map(String::as_str).collect::<Vec<_>>()[..],
                ["/"] | ["/", "home" | "Users"]
            );
            if under && above_homes && self.segs[0] == "~" {
                return true;
            }
            let rooted = candidate.first().is_some_and(|s| s == "/" || s == "~");
            return rooted && meets(&self.segs, candidate, under, true);
        }
        // A tail: it must end the candidate, one real segment of it at least, and a word only
        // the running line knows is not taken for one (it is a risk of its own already).
        (0..candidate.len()).any(|start| meets(&self.segs, &candidate[start..], false, false))
    }
}

/// The paths `word` may name, each as segments: a first `/` for the root, `~` for a home
/// folder, or a relative path's first name. At most 64 (braces beyond that are not expanded).
pub fn candidates(word: &str, place: Place) -> Vec<Vec<String>> {
    let word: String = word.chars().filter(|c| *c != '"' && *c != '\'').collect();
    let mut out = Vec::new();
    for text in braces(&word) {
        if text.is_empty() {
            continue;
        }
        let expanded = expand_home(&text, place.home);
        let joined = match (expanded.starts_with('/'), place.cwd) {
            (false, Some(cwd)) => format!("{}/{expanded}", cwd.display()),
            _ => expanded,
        };
        let segs = homed(fold(&joined));
        let segs = match place.home {
            Some(home) => rehome(segs, home),
            None => segs,
        };
        if !out.contains(&segs) {
            out.push(segs);
        }
    }
    out
}

/// `~`, `~user`, `$HOME` and `${HOME}` at the start of a word made the home folder (a
/// placeholder `/home/~` when not known, which [`homed`] turns back into `~`).
fn expand_home(word: &str, home: Option<&Path>) -> String {
    let home = home.map_or("/home/~".to_string(), |h| h.display().to_string());
    for prefix in ["${HOME}", "$HOME"] {
        if let Some(rest) = word.strip_prefix(prefix)
            && (rest.is_empty() || rest.starts_with('/'))
        {
            return format!("{home}{rest}");
        }
    }
    if let Some(rest) = word.strip_prefix('~') {
        let (user, tail) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        return match user {
            "" => format!("{home}{tail}"),
            user => format!("/home/{user}{tail}"),
        };
    }
    word.to_string()
}

/// Splits on `/`, folding `.`, `..` and empty segments; a segment with an expansion becomes
/// [`DYNAMIC`]. An absolute path starts with the segment `/`.
fn fold(path: &str) -> Vec<String> {
    let absolute = path.starts_with('/');
    let mut segs: Vec<String> = Vec::new();
    if absolute {
        segs.push("/".to_string());
    }
    for seg in path.split('/') {
        match seg {
            "" | "." => {}
            ".." => match segs.last().map(String::as_str) {
                Some("/") => {}
                Some("..") | None => segs.push("..".to_string()),
                Some(_) => {
                    segs.pop();
                }
            },
            seg if seg.contains('`') => segs.push(DYNAMIC.to_string()),
            seg if seg.contains('$') => segs.push(expansions_as_globs(seg)),
            seg => segs.push(seg.to_string()),
        }
    }
    segs
}

/// A segment with expansions: [`DYNAMIC`] when it is nothing else, else its text with each
/// `$NAME` or `${…}` made `*`.
fn expansions_as_globs(seg: &str) -> String {
    let mut out = String::new();
    let mut rest = seg;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        out.push('*');
        let after = &rest[at + 1..];
        let end = match after.strip_prefix('{') {
            Some(body) => body.find('}').map_or(after.len(), |e| e + 2),
            None => after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(after.len()),
        };
        rest = &after[end..];
    }
    out.push_str(rest);
    match out.chars().all(|c| c == '*') {
        true => DYNAMIC.to_string(),
        false => out,
    }
}

/// Every home folder as one segment `~`: `/root`, `/home/NAME`, `/Users/NAME`.
fn homed(segs: Vec<String>) -> Vec<String> {
    let at = |n: usize| segs.get(n).map(String::as_str);
    let skip = match (at(0), at(1)) {
        (Some("/"), Some("root")) => 2,
        (Some("/"), Some("home" | "Users")) if segs.len() > 2 => 3,
        _ => return segs,
    };
    std::iter::once("~".to_string())
        .chain(segs[skip..].iter().cloned())
        .collect()
}

/// The user's own home folder, wherever it is, as `~`.
fn rehome(segs: Vec<String>, home: &Path) -> Vec<String> {
    let home = fold(&home.display().to_string());
    if home.len() > 1 && segs.starts_with(&home) {
        std::iter::once("~".to_string())
            .chain(segs[home.len()..].iter().cloned())
            .collect()
    } else {
        segs
    }
}

/// Simple brace expansion (`{a,b}`, nested), at most 64 words; a word with no complete brace
/// pair is itself.
fn braces(word: &str) -> Vec<String> {
    let mut words = vec![word.to_string()];
    for _ in 0..8 {
        let mut next = Vec::new();
        let mut changed = false;
        for w in &words {
            match split_brace(w) {
                Some((pre, alts, post)) if next.len() + alts.len() <= 64 => {
                    changed = true;
                    next.extend(alts.iter().map(|a| format!("{pre}{a}{post}")));
                }
                _ => next.push(w.clone()),
            }
        }
        words = next;
        if !changed {
            break;
        }
    }
    words
}

/// The first `{…,…}` of a word: what comes before, the alternatives, what comes after.
fn split_brace(word: &str) -> Option<(&str, Vec<&str>, &str)> {
    let open = word.find('{')?;
    let mut depth = 0;
    let mut commas = Vec::new();
    for (i, c) in word[open..].char_indices() {
        let at = open + i;
        match c {
            '{' => depth += 1,
            ',' if depth == 1 => commas.push(at),
            '}' => {
                depth -= 1;
                if depth == 0 {
                    if commas.is_empty() {
                        return None;
                    }
                    let mut alts = Vec::new();
                    let mut from = open + 1;
                    for comma in commas {
                        alts.push(&word[from..comma]);
                        from = comma + 1;
                    }
                    alts.push(&word[from..at]);
                    return Some((&word[..open], alts, &word[at + 1..]));
                }
            }
            _ => {}
        }
    }
    None
}

/// A segment only the running line knows: any one name, dot names included.
const DYNAMIC: &str = "\u{1}";

fn has_glob(seg: &str) -> bool {
    seg.contains(['*', '?', '['])
}

/// Pattern segments against candidate segments; `under` lets the candidate stop early (a
/// folder above a match).
/// With `loose` (an anchored pattern), a segment only the running line knows meets any one
/// segment and a bare `*` any name; without (a tail, which any folder may end with), neither
/// does. A folder above a match (`under`) must stop on a name, not on a glob's match.
fn meets(pattern: &[String], candidate: &[String], under: bool, loose: bool) -> bool {
    match (pattern.split_first(), candidate.split_first()) {
        (None, None) => true,
        (None, Some(_)) => false,
        (Some((p, rest)), _) if p == "**" => {
            meets(rest, candidate, under, loose)
                || candidate
                    .split_first()
                    .is_some_and(|(_, tail)| meets(pattern, tail, under, loose))
        }
        (Some(_), None) => under,
        (Some((p, _)), Some((c, _)))
            if !loose && (c == DYNAMIC || has_glob(c) && !has_glob(p) && bare(c)) =>
        {
            false
        }
        (Some((p, prest)), Some((c, crest))) => {
            let stops_on_glob = crest.is_empty() && !prest.is_empty() && has_glob(p);
            seg_meets(p, c) && !(stops_on_glob && under) && meets(prest, crest, under, loose)
        }
    }
}

/// A glob of wildcards only (`*`, `?*`): it names nothing in particular.
fn bare(glob: &str) -> bool {
    glob.chars().all(|c| matches!(c, '*' | '?'))
}

/// One segment of a pattern against one of a candidate: equal names, a glob on either side
/// that matches the other's name (as bash globs: a leading wildcard skips dot names), or the
/// same glob.
fn seg_meets(pattern: &str, candidate: &str) -> bool {
    if candidate == DYNAMIC {
        return true;
    }
    match (has_glob(pattern), has_glob(candidate)) {
        (false, false) => pattern == candidate,
        (true, false) => glob_name(pattern, candidate, false),
        (false, true) => glob_name(candidate, pattern, true),
        (true, true) => pattern == candidate,
    }
}

/// A name against one glob segment: `*` any run, `?` one byte, `[…]` one byte. With
/// `dotted`, a glob not starting with `.` does not match a name that does.
fn glob_name(glob: &str, name: &str, dotted: bool) -> bool {
    if dotted && name.starts_with('.') && !glob.starts_with('.') {
        return false;
    }
    let (glob, name) = (glob.as_bytes(), name.as_bytes());
    // The glob item at `g`: how many bytes it takes in the glob, and the byte it wants (`None`
    // for any one).
    let item = |g: usize| -> (usize, Option<u8>) {
        match glob[g] {
            b'?' => (1, None),
            b'[' => match glob[g + 1..].iter().position(|&b| b == b']') {
                Some(end) => (end + 2, None),
                None => (1, Some(b'[')),
            },
            b => (1, Some(b)),
        }
    };
    let (mut g, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        if g < glob.len() && glob[g] == b'*' {
            star = Some((g, n));
            g += 1;
            continue;
        }
        if g < glob.len() {
            let (width, want) = item(g);
            if want.is_none_or(|b| b == name[n]) {
                g += width;
                n += 1;
                continue;
            }
        }
        match star {
            Some((sg, sn)) => {
                g = sg + 1;
                n = sn + 1;
                star = Some((sg, sn + 1));
            }
            None => return false,
        }
    }
    glob[g..].iter().all(|&c| c == b'*')
}

/// What a literal path must hold for some tail pattern of a set to end it: one of its names,
/// or a name with one of its fixed ends (`*.pem`, `.env.*`). Checked before the patterns, since
/// most words hold none.
#[derive(Debug, Clone, Default)]
pub struct TailHint {
    names: std::collections::HashSet<String>,
    suffixes: Vec<String>,
    prefixes: Vec<String>,
    /// A tail segment the hint cannot sum up: every candidate is checked.
    open: bool,
}

impl TailHint {
    /// The hint for the tails among `patterns`.
    pub fn of<'a>(patterns: impl IntoIterator<Item = &'a PathPattern>) -> TailHint {
        let mut hint = TailHint::default();
        for pattern in patterns.into_iter().filter(|p| !p.anchored) {
            for seg in &pattern.segs {
                let inner = |s: &str| !has_glob(s);
                match (seg.strip_prefix('*'), seg.strip_suffix('*')) {
                    _ if seg == "**" => {}
                    _ if inner(seg) => {
                        hint.names.insert(seg.clone());
                    }
                    (Some(end), _) if inner(end) => hint.suffixes.push(end.to_string()),
                    (_, Some(start)) if inner(start) => hint.prefixes.push(start.to_string()),
                    _ => hint.open = true,
                }
            }
        }
        hint
    }

    /// False when no tail pattern can end `candidate`.
    pub fn may_meet<'a>(&self, candidate: impl IntoIterator<Item = &'a str>) -> bool {
        self.open
            || candidate.into_iter().any(|seg| {
                has_glob(seg)
                    || seg == DYNAMIC
                    || self.names.contains(seg)
                    || self.suffixes.iter().any(|end| seg.ends_with(end.as_str()))
                    || self
                        .prefixes
                        .iter()
                        .any(|start| seg.starts_with(start.as_str()))
            })
    }
}

impl PathPattern {
    /// True for a pattern that may end any path (no leading `/` or `~`).
    pub fn is_tail(&self) -> bool {
        !self.anchored
    }
}

#[cfg(test)]
#[path = "pathword_tests.rs"]
mod tests;
