//! TLS for a web console that listens beyond loopback: a self-signed certificate made once and
//! kept in the state folder (so its fingerprint stays the same across runs, for the phone to
//! check against the one shown beside the QR code). Each handshake runs in its connection's
//! own task, within the listener's bounds ([`super::listen`]), so a client that stalls its
//! handshake holds up nobody else.

use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use sha2::{Digest, Sha256};
use tokio_rustls::TlsAcceptor;
use tokio_rustls::rustls;
use tokio_rustls::rustls::pki_types::pem::PemObject;
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer};

use super::WebError;

/// The certificate and key files in the state folder.
pub const CERT_FILE: &str = "web-cert.pem";
pub const KEY_FILE: &str = "web-key.pem";

/// The console's certificate, loaded from the state folder.
#[derive(Debug, Clone)]
pub struct Certificate {
    pub cert: PathBuf,
    pub key: PathBuf,
    /// SHA-256 of the certificate, as colon-separated uppercase hex pairs.
    pub fingerprint: String,
}

impl Certificate {
    /// The certificate in `state`, made (with a new key, mode 0600) if there is none.
    pub fn load_or_make(state: &Path) -> Result<Certificate, WebError> {
        let cert = state.join(CERT_FILE);
        let key = state.join(KEY_FILE);
        let error = |message: String| WebError::Certificate {
            path: cert.clone(),
            message,
        };
        if !cert.exists() || !key.exists() {
            std::fs::create_dir_all(state).map_err(|e| error(e.to_string()))?;
            let mut names = vec!["localhost".to_string()];
            if let Some(name) = super::http::link_host("0.0.0.0:0".parse().expect("an address"))
                .rsplit_once(':')
                .map(|(name, _)| name.to_string())
            {
                names.push(name);
            }
            let made =
                rcgen::generate_simple_self_signed(names).map_err(|e| error(e.to_string()))?;
            write_private(&key, made.signing_key.serialize_pem().as_bytes())
                .map_err(|e| error(e.to_string()))?;
            write_private(&cert, made.cert.pem().as_bytes()).map_err(|e| error(e.to_string()))?;
        }
        let der = CertificateDer::from_pem_file(&cert).map_err(|e| error(e.to_string()))?;
        Ok(Certificate {
            fingerprint: fingerprint(&der),
            cert,
            key,
        })
    }

    /// What does the handshakes with this certificate.
    pub fn acceptor(&self) -> Result<TlsAcceptor, WebError> {
        Ok(TlsAcceptor::from(Arc::new(self.server_config()?)))
    }

    fn server_config(&self) -> Result<rustls::ServerConfig, WebError> {
        let error = |message: String| WebError::Certificate {
            path: self.cert.clone(),
            message,
        };
        let cert = CertificateDer::from_pem_file(&self.cert).map_err(|e| error(e.to_string()))?;
        let key = PrivateKeyDer::from_pem_file(&self.key).map_err(|e| error(e.to_string()))?;
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map_err(|e| error(e.to_string()))?
            .with_no_client_auth()
            .with_single_cert(vec![cert], key)
            .map_err(|e| error(e.to_string()))
    }
}

fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let mut file = std::fs::OpenOptions::new()
        .create_new(true)
        .write(true)
        .mode(0o600)
        .open(path)?;
    file.write_all(bytes)
}

/// `AB:CD:…`, the way browsers show a certificate's SHA-256 fingerprint.
pub fn fingerprint(der: &[u8]) -> String {
    let digest = Sha256::digest(der);
    let pairs: Vec<String> = digest.iter().map(|b| format!("{b:02X}")).collect();
    pairs.join(":")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_certificate_is_made_once_and_its_fingerprint_kept() {
        let dir = tempfile::tempdir().unwrap();
        let first = Certificate::load_or_make(dir.path()).unwrap();
        let again = Certificate::load_or_make(dir.path()).unwrap();
        assert_eq!(first.fingerprint, again.fingerprint);
        assert_eq!(first.fingerprint.len(), 32 * 3 - 1);
        use std::os::unix::fs::PermissionsExt;
        let key = std::fs::metadata(&first.key).unwrap();
        assert_eq!(key.permissions().mode() & 0o777, 0o600);
        first.server_config().unwrap();
    }

    #[tokio::test]
    async fn a_client_completes_a_handshake_and_trusts_only_this_certificate() {
        let dir = tempfile::tempdir().unwrap();
        let cert = Certificate::load_or_make(dir.path()).unwrap();
        let tcp = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = tcp.local_addr().unwrap().port();
        let app = axum::Router::new().route("/", axum::routing::get(|| async { "over tls" }));
        let limits = super::super::listen::Limits::default();
        let acceptor = Some(cert.acceptor().unwrap());
        let stop = std::future::pending();
        tokio::spawn(super::super::listen::serve(
            tcp, acceptor, app, limits, None, stop,
        ));
        let url = format!("https://localhost:{port}/");

        let pem = std::fs::read(&cert.cert).unwrap();
        let trusting = crate::plumbing::http::client_builder()
            .tls_certs_only([reqwest::Certificate::from_pem(&pem).unwrap()])
            .no_proxy()
            .build()
            .unwrap();
        let body = trusting
            .get(&url)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert_eq!(body, "over tls");

        // The same request without the certificate is refused: it was verified, not waved on.
        let plain = crate::plumbing::http::client_builder()
            .no_proxy()
            .build()
            .unwrap();
        assert!(plain.get(&url).send().await.is_err());
    }
}
