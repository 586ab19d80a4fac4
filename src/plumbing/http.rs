//! The one way gatehouse makes an HTTP client: the classifier, the OpenCode link and the tests
//! all start here. TLS is rustls with ring, the same crypto the web console's listener uses, so
//! the binary carries one crypto library rather than two (each costs every process start-up,
//! the hook's included, its share of relocations).

use std::sync::Once;

use tokio_rustls::rustls;

/// A client builder with gatehouse's user agent, after ring is installed as the process's TLS
/// crypto (reqwest, built without a provider of its own, would otherwise refuse to build).
pub fn client_builder() -> reqwest::ClientBuilder {
    static CRYPTO: Once = Once::new();
    CRYPTO.call_once(|| {
        // An error only says a provider is already installed, which is all that is needed.
        let _ = rustls::crypto::ring::default_provider().install_default();
    });
    reqwest::Client::builder().user_agent(concat!("gatehouse/", env!("CARGO_PKG_VERSION")))
}

/// A client with the defaults, for callers with nothing to set.
pub fn client() -> reqwest::Client {
    client_builder()
        .build()
        .expect("an HTTP client with ring's TLS and no other options always builds")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_client_builds_with_ring_as_its_tls_crypto() {
        // Building is where a missing TLS provider would panic.
        let _client = client();
        assert!(rustls::crypto::CryptoProvider::get_default().is_some());
    }
}
