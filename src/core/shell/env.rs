//! Variables: which assignments cannot change what a later command runs.
//!
//! An assignment is harmless when its name is on the allow-list of well-known harmless
//! variables (`LANG`, `LC_*`, `TZ`, `NO_COLOR`, `RUST_LOG`…), or when the name carries none of
//! the marks of a variable that programs read to find code, config, helpers or a shell
//! (`PATH`, `LD_`, `GIT_`, `PAGER`, `EDITOR`, `BASH`, `ENV`, `OPTIONS`, `CONFIG`, …). Pager
//! variables are fine only with the value `cat`.

use tree_sitter::Node;

use super::kind::{Kind, KindOf};
use super::parse::child_nodes;
use super::programs::Judgement;
use super::walk::Walker;
use super::words::word_of;
use super::{Command, Risk, Safety, escape};

/// Names that are harmless whatever their value.
#[rustfmt::skip]
const HARMLESS: &[&str] = &[
    "LANG", "LANGUAGE", "TZ", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "FORCE_COLOR", "COLUMNS",
    "LINES", "TERM", "RUST_LOG", "RUST_BACKTRACE", "COLORTERM", "GREP_COLOR", "GREP_COLORS",
    "LS_COLORS", "TIME_STYLE", "POSIXLY_CORRECT", "QUOTING_STYLE", "BLOCK_SIZE", "DF_BLOCK_SIZE",
    "DU_BLOCK_SIZE", "GIT_TERMINAL_PROMPT", "GIT_OPTIONAL_LOCKS", "DEBUG", "VERBOSE", "CI",
];

/// Names that may hold a program to run; harmless only when that program is `cat`.
const PAGERS: &[&str] = &[
    "PAGER",
    "GIT_PAGER",
    "MANPAGER",
    "SYSTEMD_PAGER",
    "BAT_PAGER",
    "DELTA_PAGER",
];

/// Parts of names that programs or the shell read to find code, config, libraries or helpers.
#[rustfmt::skip]
const DANGER_MARKS: &[&str] = &[
    "PATH", "LD_", "DYLD_", "GIT", "BASH", "SHELL", "ENV", "PAGER", "EDITOR", "VISUAL", "LESS",
    "OPT", "CONF", "ENGINE", "MODULE", "GPG", "FILE", "RC", "CMD", "COMMAND", "HOOK", "PROG", "PROMPT", "PS4", "HOME",
    "STARTUP", "PYTHON", "PERL", "RUBY", "NODE", "JAVA", "LUA", "TCL", "SSH", "ASKPASS", "PRELOAD",
    "LIB", "PLUGIN", "TMPDIR", "DOTDIR", "PS0", "PS1", "PS2", "XDG", "DOCKER", "KUBE", "PROXY", "SOCK", "HOST", "EXEC", "SUDO",
    "TERMINFO", "MAGIC", "INPUTRC", "HIST", "CDPATH", "GLOBIGNORE", "FUNCNEST", "MAIL", "OLDPWD",
    "PWD", "SHLVL", "BROWSER", "DIFF", "MERGE", "TOOL", "HELPER", "SECCOMP", "TAR_", "GZIP", "ZSTD",
    "XZ_", "BZIP", "UNZIP", "COMPRESS", "GREP_OPTIONS", "RIPGREP", "FZF", "WRAPPER", "SPAWN", "RUN", "TAPE",
];

/// The risk of an unverified assignment (every unverified one has a risk, as the model is
/// never shown an assignment): a value from a command or a name that is not plain is only
/// known when the line runs; a pager variable opens a pager; a `*PATH*` variable makes a bare
/// name run a file from a directory of the line's choosing; the other marked names are read
/// by programs or the shell to find code to run. `None` for an assignment that is settled.
fn known_risk(name: &str, safety: Safety, has_substitution: bool) -> Option<Risk> {
    if safety != Safety::Unverified {
        return None;
    }
    if has_substitution || !is_valid_name(name) {
        return Some(Risk::Dynamic);
    }
    let upper = name.to_ascii_uppercase();
    Some(if PAGERS.contains(&upper.as_str()) {
        Risk::Pager
    } else if upper.contains("PATH") {
        Risk::PathQualified
    } else {
        Risk::RunsCode
    })
}

/// Judges assigning `value` to `name` where it could affect later commands (a prefix of a
/// command, `export`, `declare`, a plain assignment). `has_substitution` is true when the value
/// holds `$( )` or backticks.
pub(super) fn judge_assignment(
    name: &str,
    value: Option<&str>,
    has_substitution: bool,
) -> (Safety, String) {
    if !is_valid_name(name) {
        return (Safety::Unverified, "not a plain variable name".to_string());
    }
    let upper = name.to_ascii_uppercase();
    if PAGERS.contains(&upper.as_str()) {
        return match value {
            Some("cat") => (Safety::ReadOnly, "pager set to cat".to_string()),
            _ => (
                Safety::Unverified,
                "sets a program that runs as a pager".to_string(),
            ),
        };
    }
    if HARMLESS.contains(&name) || name.starts_with("LC_") {
        return (Safety::ReadOnly, "harmless variable".to_string());
    }
    if let Some(mark) = DANGER_MARKS.iter().find(|mark| upper.contains(*mark)) {
        return (
            Safety::Unverified,
            format!("variables named like *{mark}* can change what programs run"),
        );
    }
    // A value from a command is as unknown as an inherited one: the command is judged where
    // it stands, and every use of the name is judged as a word only known when the line runs.
    match has_substitution {
        true => (
            Safety::ReadOnly,
            "plain variable, set from a command".to_string(),
        ),
        false => (Safety::ReadOnly, "plain variable".to_string()),
    }
}

/// True for `NAME`, `name_2`: what bash accepts as a variable name.
pub(super) fn is_valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

impl Walker<'_> {
    pub(super) fn assignment(&mut self, node: Node) {
        self.children(node);
        // `a[i]=x` and `a=([i]=x)` evaluate the subscripts.
        if let Some(name) = node.child_by_field_name("name")
            && name.kind_of() == Kind::Subscript
            && let Some(index) = name.child_by_field_name("index")
        {
            self.arith_node(index);
        }
        if let Some(value) = node.child_by_field_name("value")
            && value.kind_of() == Kind::Array
        {
            let mut cursor = value.walk();
            let elements: Vec<Node> = value.named_children(&mut cursor).collect();
            for element in elements {
                let text = self.text(element);
                if let Some((index, _)) = text.strip_prefix('[').and_then(|t| t.split_once("]=")) {
                    self.arith_text(index);
                }
            }
        }
        let source = self.text(node);
        let name = node
            .child_by_field_name("name")
            .map_or("", |n| self.text(n));
        if let Some(value) = node.child_by_field_name("value") {
            self.bound.record(name, self.text(value));
        }
        let value = node
            .child_by_field_name("value")
            .map(|v| word_of(v, self.src));
        let substitution = node
            .child_by_field_name("value")
            .is_some_and(has_substitution);
        let mut literal = value
            .as_ref()
            .and_then(|v| v.literal_text().map(str::to_string));
        // `x=$(( … ))` always holds a number (its operands are judged where they stand).
        let arithmetic = node.child_by_field_name("value").is_some_and(|v| {
            v.kind_of() == Kind::ArithmeticExpansion
                || (v.kind_of() == Kind::String
                    && v.named_child_count() == 1
                    && v.named_child(0)
                        .is_some_and(|c| c.kind_of() == Kind::ArithmeticExpansion)
                    && self.text(v).starts_with("\"$"))
        });
        if arithmetic && !substitution {
            literal = Some("0".to_string());
        }
        self.judge_variable(source, name, literal.as_deref(), substitution);
    }

    pub fn judge_variable(&mut self, what: &str, name: &str, value: Option<&str>, subst: bool) {
        let (safety, why) = judge_assignment(name, value, subst);
        if !self.in_arithmetic {
            let names_integer = |v: &str| {
                is_valid_name(v) && self.integers.contains(v) && !self.non_integers.contains(v)
            };
            let integer = !subst
                && value.is_some_and(|v| super::arith::is_integer_word(v) || names_integer(v));
            match value {
                Some(v) if !subst && is_valid_name(v) && self.conditional == 0 => {
                    self.name_values.insert(name.to_string())
                }
                _ => self.other_values.insert(name.to_string()),
            };
            if self.integer_names.contains(name) && !integer {
                // An integer name evaluates what it is given.
                match value {
                    Some(text) => self.arith_text(text),
                    None => self.risk_finding(
                        what,
                        Risk::RunsCode,
                        "an integer variable evaluates its value",
                    ),
                }
            }
            self.note_value(name, integer || self.integer_names.contains(name));
        }
        match known_risk(name, safety, subst) {
            Some(risk) => self.risk_finding(what, risk, &why),
            None => self.finding(what, safety, &why),
        }
    }

    /// `declare`, `export`, `local`, `readonly`, `typeset`.
    pub(super) fn declaration(&mut self, node: Node) {
        let children: Vec<Node> = child_nodes(node).collect();
        let mut words = Vec::new();
        let mut judgement = Judgement::read_only("declares variables");
        let integer = children.iter().any(|c| {
            c.kind_of() == Kind::Word && {
                let t = self.text(*c);
                t.starts_with(['-', '+']) && t.contains('i')
            }
        });
        if integer {
            for child in &children {
                if child.kind_of() == Kind::VariableAssignment
                    && let Some(name) = child.child_by_field_name("name")
                {
                    let name = self.text(name).to_string();
                    self.integer_names.insert(name);
                } else if child.kind_of() == Kind::VariableName || child.kind_of() == Kind::Word {
                    let name = self.text(*child);
                    if is_valid_name(name) {
                        self.integer_names.insert(name.to_string());
                    }
                }
            }
        }
        for child in children {
            if !child.is_named() {
                words.push(child.kind().to_string());
                continue;
            }
            match child.kind_of() {
                Kind::VariableAssignment => self.assignment(child),
                Kind::VariableName => {}
                _ => {
                    self.visit(child);
                    let word = word_of(child, self.src);
                    let allowed = [
                        "-p", "-x", "-r", "-i", "-a", "-A", "-g", "-l", "-u", "-f", "-F",
                    ];
                    let flags_ok = word.is_static
                        && word.text.starts_with(['-', '+'])
                        && word.text[1..].chars().all(|c| "pxriaAglufF".contains(c));
                    if !flags_ok && !allowed.contains(&word.text.as_str()) {
                        judgement =
                            Judgement::unverified(format!("unknown option {}", escape(&word.text)));
                    }
                }
            }
            words.push(self.text(child).to_string());
        }
        self.commands.push(Command {
            origins: vec![super::Origin::Plain; words.len()],
            words,
            is_static: true,
            safety: judgement.safety,
            obstacle: judgement.obstacle,
            why: judgement.why,
        });
    }
}

impl Walker<'_> {
    /// Walks an arithmetic node with `in_arithmetic` set, except a C-style `for`'s body.
    pub(super) fn arithmetic(&mut self, node: Node) {
        let outer = self.in_arithmetic;
        let children: Vec<Node> = child_nodes(node).collect();
        for child in children {
            self.in_arithmetic =
                !matches!(child.kind_of(), Kind::DoGroup | Kind::CompoundStatement);
            self.visit_child(node, child);
        }
        self.in_arithmetic = outer;
    }

    /// `${NAME:=value}` and `${NAME=value}` assign when NAME is unset; `${NAME@P}` expands the
    /// value like a prompt, command substitutions included.
    pub(super) fn expansion_assignment(&mut self, node: Node) {
        if self.text(node).ends_with("@P}") {
            let what = self.text(node);
            self.risk_finding(what, Risk::RunsCode, "prompt expansion can run commands");
        }
        let children: Vec<Node> = child_nodes(node).collect();
        let assigns = children
            .iter()
            .any(|c| !c.is_named() && matches!(c.kind(), "=" | ":="));
        let name = children.iter().find(|c| c.kind_of() == Kind::VariableName);
        if let (true, Some(name)) = (assigns, name) {
            let name = self.text(*name);
            self.judge_variable(self.text(node), name, None, has_substitution(node));
        }
    }

    /// `NAME = 1`, `NAME += 1`, `NAME++` inside arithmetic assign to NAME.
    pub(super) fn arithmetic_assignment(&mut self, node: Node) {
        const ASSIGNING: &[&str] = &[
            "=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|=", "++", "--",
        ];
        let children: Vec<Node> = child_nodes(node).collect();
        if !children
            .iter()
            .any(|c| !c.is_named() && ASSIGNING.contains(&c.kind()))
        {
            return;
        }
        for child in children
            .iter()
            .filter(|c| matches!(c.kind_of(), Kind::VariableName | Kind::Word))
        {
            let name = self.text(*child);
            if is_valid_name(name) {
                self.judge_variable(name, name, None, false);
            }
        }
    }
}

/// True when a value holds `$( )` or backticks anywhere.
pub(super) fn has_substitution(node: Node) -> bool {
    if node.kind_of() == Kind::CommandSubstitution || node.kind_of() == Kind::ProcessSubstitution {
        return true;
    }
    child_nodes(node).any(has_substitution)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locale_and_timezone_variables_are_harmless() {
        assert_eq!(
            judge_assignment("LC_ALL", Some("C"), false).0,
            Safety::ReadOnly
        );
        assert_eq!(
            judge_assignment("TZ", Some("UTC"), false).0,
            Safety::ReadOnly
        );
    }

    #[test]
    fn variables_that_find_code_are_not_harmless() {
        for name in [
            "PATH",
            "LD_PRELOAD",
            "BASH_ENV",
            "ENV",
            "GIT_DIR",
            "PYTHONSTARTUP",
            "LESSOPEN",
        ] {
            assert_eq!(
                judge_assignment(name, Some("x"), false).0,
                Safety::Unverified,
                "{name}"
            );
        }
    }

    #[test]
    fn a_pager_is_harmless_only_when_it_is_cat() {
        assert_eq!(
            judge_assignment("GIT_PAGER", Some("cat"), false).0,
            Safety::ReadOnly
        );
        assert_eq!(
            judge_assignment("PAGER", Some("less"), false).0,
            Safety::Unverified
        );
    }

    #[test]
    fn a_value_from_a_command_is_judged_by_its_name_as_a_literal_one_is() {
        assert_eq!(
            judge_assignment("FOO", Some("$(x)"), true).0,
            Safety::ReadOnly
        );
        for name in ["PATH", "LD_PRELOAD", "PAGER", "GIT_DIR", "BASH_ENV", "a-b"] {
            assert_eq!(
                judge_assignment(name, Some("$(x)"), true).0,
                Safety::Unverified,
                "{name}"
            );
        }
    }
}
