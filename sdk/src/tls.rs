//! TLS for clients: [`TlsOptions`], and [`endpoint`], the one place the SDK turns a server
//! address into a tonic `Endpoint`: plaintext HTTP/2 for `http://` (or a bare `host:port`),
//! TLS for `https://`, checked against the system's roots or a given CA file.

use std::error::Error as _;
use std::path::PathBuf;
use std::time::Duration;

use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject;
use tonic::Status;
use tonic::transport::{Certificate, ClientTlsConfig, Endpoint};

use crate::runner::RunError;

/// How long a TLS handshake may take before the connection attempt counts as failed.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// How a client checks an `https://` server's certificate. The default trusts the system's
/// roots and expects the certificate to name the URL's host.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TlsOptions {
    /// A PEM file of the certificate authorities to trust instead of the system's roots (for a
    /// server with a self-signed or private CA's certificate).
    pub ca_file: Option<PathBuf>,
    /// The name the server's certificate must carry, when it is not the URL's host (a server
    /// reached by IP address or through a tunnel).
    pub server_name: Option<String>,
}

impl TlsOptions {
    /// Trusts the certificate authorities in the PEM file `path` instead of the system's roots.
    pub fn with_ca_file(path: impl Into<PathBuf>) -> TlsOptions {
        TlsOptions { ca_file: Some(path.into()), server_name: None }
    }

    /// Whether anything differs from the defaults, which is only meaningful for `https://`.
    fn is_set(&self) -> bool {
        self.ca_file.is_some() || self.server_name.is_some()
    }
}

/// The endpoint for `server` (`host:port`, `http://…` or `https://…`), not yet connected.
pub(crate) fn endpoint(server: &str, tls: &TlsOptions) -> Result<Endpoint, RunError> {
    let address =
        if server.contains("://") { server.to_owned() } else { format!("http://{server}") };
    let endpoint = Endpoint::from_shared(address.clone())
        .map_err(|source| RunError::Address { address: address.clone(), source })?;
    if endpoint.uri().scheme_str() != Some("https") {
        if tls.is_set() {
            return Err(RunError::TlsWithoutHttps { address });
        }
        return Ok(endpoint);
    }
    let mut config = ClientTlsConfig::new().timeout(HANDSHAKE_TIMEOUT);
    config = match &tls.ca_file {
        Some(path) => config.ca_certificate(read_ca_file(path)?),
        None => config.with_native_roots(),
    };
    if let Some(name) = &tls.server_name {
        config = config.domain_name(name.clone());
    }
    endpoint.tls_config(config).map_err(|source| RunError::Tls { address, source })
}

/// A channel to `server` (`host:port`, `http://…` or `https://…`, its certificate checked as
/// `tls` says) for unary calls of any kind (the read rpcs, the admin rpcs); it connects on
/// first use.
pub fn channel(server: &str, tls: &TlsOptions) -> Result<tonic::transport::Channel, RunError> {
    Ok(endpoint(server, tls)?.connect_lazy())
}

/// The certificates of a CA file, which must hold at least one.
fn read_ca_file(path: &std::path::Path) -> Result<Certificate, RunError> {
    let error = |cause: String| RunError::CaFile { path: path.to_owned(), cause };
    let pem = std::fs::read(path).map_err(|e| error(e.to_string()))?;
    let certificates = CertificateDer::pem_slice_iter(&pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| error(format!("not PEM certificates: {e}")))?;
    if certificates.is_empty() {
        return Err(error("no `-----BEGIN CERTIFICATE-----` in it".to_owned()));
    }
    Ok(Certificate::from_pem(pem))
}

/// The certificate error behind a failed call, if the server's certificate was refused: no
/// retry can fix that, so the runner stops at once instead of backing off.
pub(crate) fn refused_certificate(status: &Status) -> Option<rustls::Error> {
    let mut cause = status.source();
    while let Some(error) = cause {
        // An io::Error hands out its inner error by `get_ref`, not by `source`.
        let inner = error.downcast_ref::<std::io::Error>().and_then(|io| io.get_ref());
        for candidate in [Some(error), inner.map(|e| e as &(dyn std::error::Error + 'static))] {
            if let Some(rustls::Error::InvalidCertificate(reason)) =
                candidate.and_then(|e| e.downcast_ref::<rustls::Error>())
            {
                return Some(rustls::Error::InvalidCertificate(reason.clone()));
            }
        }
        cause = error.source();
    }
    None
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn tls_settings_need_an_https_url() {
        assert!(endpoint("127.0.0.1:1", &TlsOptions::default()).is_ok());
        let with_ca = TlsOptions::with_ca_file("/nonexistent/ca.pem");
        let plain = endpoint("http://127.0.0.1:1", &with_ca).unwrap_err();
        assert!(matches!(plain, RunError::TlsWithoutHttps { .. }), "{plain}");
        let missing = endpoint("https://127.0.0.1:1", &with_ca).unwrap_err();
        assert!(missing.to_string().contains("/nonexistent/ca.pem"), "{missing}");
    }

    #[test]
    fn a_ca_file_without_a_certificate_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("empty.pem");
        std::fs::write(&path, "not a certificate\n").unwrap();
        let error = endpoint("https://localhost:1", &TlsOptions::with_ca_file(&path)).unwrap_err();
        assert!(matches!(error, RunError::CaFile { .. }), "{error}");
        assert!(error.to_string().contains("BEGIN CERTIFICATE"), "{error}");
    }
}
