//! `gatehouse install claude`: adding and removing gatehouse's hook in Claude Code's settings.
pub fn placeholder() {}
