//! The agents' side: one module per hook dialect, the synchronous client the hook process
//! uses to reach the console, the hook flow with its static fallback, and the installers that
//! add gatehouse's hook to an agent's settings.

pub mod claude;
pub mod claude_install;
pub mod client;
pub mod hook;
