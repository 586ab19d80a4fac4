//! Node kinds: the kinds of tree-sitter-bash nodes the analyser tells apart, found by number.
//!
//! [`Node::kind`] names a node with a C string that is measured and checked for UTF-8 on every
//! call, and the walker asks it of every node, often more than once. A node's `kind_id` is a
//! number: a table built once from the grammar gives each id the [`Kind`] its name stands for,
//! so the walker matches an enum of the very names it used to compare.

#[cfg(test)]
#[path = "kind_tests.rs"]
mod tests;

use std::sync::LazyLock;

use tree_sitter::{Language, Node};

/// Declares [`Kind`], one variant per grammar name, and the name each stands for.
macro_rules! kinds {
    ($($(#[$doc:meta])* $kind:ident = $name:literal,)*) => {
        /// A node kind the analyser tells apart; every other kind is `Other`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub(super) enum Kind {
            $($(#[$doc])* $kind,)*
            /// A kind none of the above names.
            Other,
        }

        impl Kind {
            /// The kind of the grammar's name `name`, as [`Node::kind`] spells it.
            pub fn named(name: &str) -> Kind {
                match name {
                    $($name => Kind::$kind,)*
                    _ => Kind::Other,
                }
            }

            /// Every kind but `Other`, with its name.
            #[cfg(test)]
            const NAMES: &[(Kind, &str)] = &[$((Kind::$kind, $name),)*];
        }
    };
}

kinds! {
    /// Where tree-sitter could not parse; its id lies beyond the grammar's own.
    Error = "ERROR",
    Program = "program",
    List = "list",
    Pipeline = "pipeline",
    Subshell = "subshell",
    CompoundStatement = "compound_statement",
    DoGroup = "do_group",
    IfStatement = "if_statement",
    ElifClause = "elif_clause",
    ElseClause = "else_clause",
    WhileStatement = "while_statement",
    ForStatement = "for_statement",
    CStyleForStatement = "c_style_for_statement",
    CaseStatement = "case_statement",
    CaseItem = "case_item",
    NegatedCommand = "negated_command",
    FunctionDefinition = "function_definition",
    Command = "command",
    CommandName = "command_name",
    RedirectedStatement = "redirected_statement",
    DeclarationCommand = "declaration_command",
    UnsetCommand = "unset_command",
    TestCommand = "test_command",
    VariableAssignment = "variable_assignment",
    VariableAssignments = "variable_assignments",
    FileRedirect = "file_redirect",
    HeredocRedirect = "heredoc_redirect",
    HerestringRedirect = "herestring_redirect",
    HeredocStart = "heredoc_start",
    HeredocBody = "heredoc_body",
    HeredocContent = "heredoc_content",
    HeredocEnd = "heredoc_end",
    FileDescriptor = "file_descriptor",
    CommandSubstitution = "command_substitution",
    ProcessSubstitution = "process_substitution",
    ArithmeticExpansion = "arithmetic_expansion",
    Expansion = "expansion",
    SimpleExpansion = "simple_expansion",
    BinaryExpression = "binary_expression",
    UnaryExpression = "unary_expression",
    TernaryExpression = "ternary_expression",
    PostfixExpression = "postfix_expression",
    ParenthesizedExpression = "parenthesized_expression",
    Word = "word",
    Number = "number",
    String = "string",
    StringContent = "string_content",
    RawString = "raw_string",
    AnsiCString = "ansi_c_string",
    TranslatedString = "translated_string",
    Concatenation = "concatenation",
    BraceExpression = "brace_expression",
    Array = "array",
    Subscript = "subscript",
    VariableName = "variable_name",
    SpecialVariableName = "special_variable_name",
    TestOperator = "test_operator",
    Regex = "regex",
    ExtglobPattern = "extglob_pattern",
    Comment = "comment",
    /// The `;;` that ends a `case` item.
    DoubleSemicolon = ";;",
    /// The `"` around a double-quoted string.
    Quote = "\"",
    /// A `$` that starts no expansion.
    Dollar = "$",
    /// The `<<-` of a here-document whose leading tabs are removed.
    HeredocStripTabs = "<<-",
}

/// The [`Kind`] of every id of the grammar, built once from its names.
static BY_ID: LazyLock<Vec<Kind>> = LazyLock::new(|| {
    let language = Language::from(tree_sitter_bash::LANGUAGE);
    (0..language.node_kind_count())
        .map(|id| {
            u16::try_from(id)
                .ok()
                .and_then(|id| language.node_kind_for_id(id))
                .map_or(Kind::Other, Kind::named)
        })
        .collect()
});

/// A node's [`Kind`].
pub(super) trait KindOf {
    /// The same answer as `Kind::named(self.kind())`, found by the node's id.
    fn kind_of(&self) -> Kind;
}

impl KindOf for Node<'_> {
    fn kind_of(&self) -> Kind {
        match BY_ID.get(usize::from(self.kind_id())) {
            Some(kind) => *kind,
            None => Kind::named(self.kind()),
        }
    }
}

impl Kind {
    /// Kinds that only hold other nodes; the walker checks their children.
    pub fn is_container(self) -> bool {
        matches!(
            self,
            Kind::Program
                | Kind::List
                | Kind::Pipeline
                | Kind::Subshell
                | Kind::CompoundStatement
                | Kind::DoGroup
                | Kind::ElseClause
                | Kind::ElifClause
                | Kind::NegatedCommand
                | Kind::IfStatement
                | Kind::WhileStatement
                | Kind::CaseStatement
                | Kind::CaseItem
                | Kind::CStyleForStatement
                | Kind::CommandSubstitution
                | Kind::ProcessSubstitution
                | Kind::BinaryExpression
                | Kind::UnaryExpression
                | Kind::TernaryExpression
                | Kind::PostfixExpression
                | Kind::ParenthesizedExpression
                | Kind::ArithmeticExpansion
                | Kind::Expansion
                | Kind::SimpleExpansion
                | Kind::String
                | Kind::Concatenation
                | Kind::Array
                | Kind::Subscript
                | Kind::Number
                | Kind::BraceExpression
                | Kind::TranslatedString
                | Kind::CommandName
        )
    }

    /// Kinds that hold no command and need no judgement.
    pub fn is_leaf(self) -> bool {
        matches!(
            self,
            Kind::Word
                | Kind::RawString
                | Kind::AnsiCString
                | Kind::StringContent
                | Kind::VariableName
                | Kind::SpecialVariableName
                | Kind::TestOperator
                | Kind::Regex
                | Kind::ExtglobPattern
                | Kind::Comment
                | Kind::FileDescriptor
                | Kind::HeredocContent
                | Kind::HeredocStart
                | Kind::HeredocEnd
        )
    }
}
