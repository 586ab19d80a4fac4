//! Robustness of parsing: what tree-sitter-bash gets wrong or finds hard, and input made to
//! exhaust the analyser.

use tree_sitter::Node;

use super::super::{Safety, analyse};
use super::{MAX_TREE_DEPTH, child_nodes, parse, too_deep};
use crate::core::shell::test_support::{assert_not_read_only, assert_read_only, safety};
use crate::explain::decode_escaped;

#[test]
fn characters_beyond_ascii_do_not_crash_the_parser() {
    // tree-sitter-bash once read out of bounds on `{` followed by a wide character.
    assert_ne!(safety("{\u{e010c}"), Safety::ReadOnly);
    assert_eq!(safety("echo héllo wörld"), Safety::ReadOnly);
    assert_eq!(safety("cat ‚rm"), Safety::ReadOnly);
    assert_ne!(safety("ｒｍ x"), Safety::ReadOnly);
}

#[test]
fn deeply_nested_input_is_refused_without_overflowing_the_stack() {
    let line = format!("echo {}", "$(".repeat(50_000));
    assert_eq!(safety(&line), Safety::Unverified);
    let line = format!("{}ls{}", "(".repeat(20_000), ")".repeat(20_000));
    assert_eq!(safety(&line), Safety::Unverified);
}

#[test]
fn nesting_just_under_the_limit_does_not_overflow_a_test_thread() {
    for depth in [50, 100, 150, 200, 300] {
        let line = format!("echo {}ls{}", "$(echo ".repeat(depth), ")".repeat(depth));
        let _ = analyse(&line);
        let line = format!("{}ls{}", "( ".repeat(depth), " )".repeat(depth));
        let _ = analyse(&line);
        let line = format!("{}ls{}", "{ ".repeat(depth), "; }".repeat(depth));
        let _ = analyse(&line);
        let line = format!("echo \"{}x{}\"", "${a:-".repeat(depth), "}".repeat(depth));
        let _ = analyse(&line);
    }
}

#[test]
fn a_long_chain_of_wrappers_is_refused_without_overflowing_the_stack() {
    let line = format!("{}ls", "nice ".repeat(10_000));
    assert_eq!(safety(&line), Safety::Unverified);
    assert_eq!(safety("nice timeout 5 env ls"), Safety::ReadOnly);
}

#[test]
fn the_depth_limit_is_exact_for_small_and_large_trees() {
    fn depth(node: Node) -> usize {
        let mut cursor = node.walk();
        let deepest = node.children(&mut cursor).map(depth).max();
        deepest.map_or(0, |d| d + 1)
    }
    let mut seen = Vec::new();
    for levels in [1, 390, 395, 396, 397, 398, 399, 400, 401] {
        let line = format!("{}ls{}", "( ".repeat(levels), " )".repeat(levels));
        let tree = parse(&line).expect("a tree");
        let root = tree.root_node();
        let deep = depth(root) > MAX_TREE_DEPTH;
        assert_eq!(too_deep(root), deep, "{levels} levels");
        seen.push(deep);
    }
    assert!(seen.contains(&true) && seen.contains(&false));
}

#[test]
fn a_very_long_line_is_analysed_and_explained_briefly() {
    let line = (0..20_000)
        .map(|i| format!("f{i}"))
        .collect::<Vec<_>>()
        .join(";");
    let analysis = analyse(&line);
    assert_eq!(analysis.safety, Safety::Unverified);
    assert!(
        analysis.explanation().ends_with("and 19988 more"),
        "{}",
        analysis.explanation()
    );
}

#[test]
fn parse_errors_are_never_read_only() {
    assert_not_read_only(&[
        "ls ;; echo",
        "ls |",
        "echo \"$(\"",
        "ls `",
        "&& ls",
        "ls &&",
        "if true; then ls",
    ]);
}

#[test]
fn a_line_continuation_inside_a_word_is_not_trusted() {
    assert_not_read_only(&["r\\\nm x"]);
    assert_read_only(&["ls \\\n  -la"]);
}

#[test]
fn a_quoted_heredoc_delimiter_in_any_form_keeps_the_body_literal() {
    assert_read_only(&["cat <<E\\OF\n$(rm x)\nEOF", "cat << \"EOF\"\n$(rm x)\nEOF"]);
    assert_not_read_only(&["cat <<-EOF\n\t$(rm x)\n\tEOF"]);
}

#[test]
fn child_nodes_are_the_children_tree_sitter_gives() {
    fn check(node: Node, line: &str) {
        let mut cursor = node.walk();
        let expected: Vec<Node> = node.children(&mut cursor).collect();
        let stepped: Vec<Node> = child_nodes(node).collect();
        assert_eq!(stepped, expected, "{} in {line:?}", node.kind());
        for child in expected {
            check(child, line);
        }
    }
    let files = [
        include_str!("../../../tests/data/commands.tsv"),
        include_str!("../../../tests/data/adversarial.tsv"),
    ];
    let lines = files.iter().flat_map(|file| file.lines().skip(1));
    for line in lines.filter_map(|line| line.split('\t').next()) {
        let line = decode_escaped(line);
        let tree = parse(&line).expect("a tree");
        check(tree.root_node(), &line);
    }
}
