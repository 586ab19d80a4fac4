use tree_sitter::{Language, Node};

use super::super::parse::parse;
use super::{Kind, KindOf};
use crate::explain::decode_escaped;

#[test]
fn every_kind_names_a_kind_of_the_grammar() {
    let language = Language::from(tree_sitter_bash::LANGUAGE);
    let ids = 0..u16::try_from(language.node_kind_count()).unwrap();
    for (kind, name) in Kind::NAMES {
        let in_grammar = *name == "ERROR"
            || ids
                .clone()
                .any(|id| language.node_kind_for_id(id) == Some(name));
        assert!(
            in_grammar,
            "{kind:?} names {name:?}, which the grammar lacks"
        );
    }
}

#[test]
fn a_nodes_kind_by_id_is_the_kind_of_its_name() {
    fn check(node: Node, line: &str) {
        assert_eq!(
            node.kind_of(),
            Kind::named(node.kind()),
            "{} in {line:?}",
            node.kind()
        );
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            check(child, line);
        }
    }
    let files = [
        include_str!("../../../tests/data/commands.tsv"),
        include_str!("../../../tests/data/adversarial.tsv"),
    ];
    let lines = files.iter().flat_map(|file| file.lines().skip(1));
    let mut checked = 0;
    for line in lines.filter_map(|line| line.split('\t').next()) {
        let line = decode_escaped(line);
        let tree = parse(&line).expect("a tree");
        check(tree.root_node(), &line);
        checked += 1;
    }
    assert!(checked > 2000, "only {checked} lines");
}
