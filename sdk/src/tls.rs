//! TLS for clients: [`TlsOptions`], and [`endpoint`], the one place the SDK turns a server
//! address into a tonic `Endpoint`: plaintext HTTP/2 for `http://` (or a bare `host:port`),
//! TLS for `https://`, checked against the system's roots or a given CA file, and plaintext
//! over a Unix socket for `unix:PATH` (or `unix:///ABSOLUTE/PATH`), how a hosted bot in its
//! sandbox reaches the server.

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

/// A server's endpoint, not yet connected, and the Unix socket it is reached through, if any.
pub(crate) struct ServerEndpoint {
    /// The endpoint: its settings, and for TCP its address.
    pub(crate) endpoint: Endpoint,
    /// The Unix socket every connection goes to instead of the endpoint's address.
    socket: Option<PathBuf>,
}

impl ServerEndpoint {
    /// A channel that connects on first use.
    pub(crate) fn connect_lazy(self) -> tonic::transport::Channel {
        #[cfg(unix)]
        if let Some(socket) = self.socket {
            let socket = std::sync::Arc::new(socket);
            let connector = tower::service_fn(move |_: tonic::codegen::http::Uri| {
                let socket = std::sync::Arc::clone(&socket);
                async move {
                    let stream = tokio::net::UnixStream::connect(socket.as_path()).await?;
                    Ok::<_, std::io::Error>(hyper_util::rt::TokioIo::new(stream))
                }
            });
            return self.endpoint.connect_with_connector_lazy(connector);
        }
        self.endpoint.connect_lazy()
    }
}

/// The socket path of a `unix:PATH` or `unix:///ABSOLUTE/PATH` server, `None` for any other.
fn unix_socket(server: &str) -> Option<&str> {
    match server.strip_prefix("unix://") {
        Some(path) => Some(path),
        None => server.strip_prefix("unix:"),
    }
}

/// The endpoint for `server` (`host:port`, `http://…`, `https://…` or `unix:PATH`), not yet
/// connected.
pub(crate) fn endpoint(server: &str, tls: &TlsOptions) -> Result<ServerEndpoint, RunError> {
    if let Some(path) = unix_socket(server) {
        let address = server.to_owned();
        if tls.is_set() {
            return Err(RunError::TlsOverUnixSocket { address });
        }
        // `unix://` takes an absolute path only: `unix://run/x.sock` is a mistake, not a path.
        let named = !path.is_empty() && (path.starts_with('/') || !server.starts_with("unix://"));
        if !named || cfg!(not(unix)) {
            return Err(RunError::UnixSocketPath { address });
        }
        // The URI only fills the requests' `:authority`; connections go to the socket.
        let endpoint = Endpoint::from_static("http://localhost");
        return Ok(ServerEndpoint { endpoint, socket: Some(PathBuf::from(path)) });
    }
    tcp_endpoint(server, tls).map(|endpoint| ServerEndpoint { endpoint, socket: None })
}

/// The endpoint for `server` (`host:port`, `http://…` or `https://…`), not yet connected.
fn tcp_endpoint(server: &str, tls: &TlsOptions) -> Result<Endpoint, RunError> {
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

/// A channel to `server` (`host:port`, `http://…`, `unix:PATH` or `https://…`, its certificate
/// checked as `tls` says) for unary calls of any kind (the read rpcs, the admin rpcs); it connects on
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
    fn a_unix_server_is_a_socket_path_in_plaintext() {
        for (server, path) in [
            ("unix:/run/cardroom.sock", "/run/cardroom.sock"),
            ("unix:cardroom.sock", "cardroom.sock"),
            ("unix:///run/cardroom.sock", "/run/cardroom.sock"),
        ] {
            let target = endpoint(server, &TlsOptions::default()).unwrap();
            assert_eq!(target.socket.as_deref(), Some(std::path::Path::new(path)), "{server}");
            assert_eq!(target.endpoint.uri().scheme_str(), Some("http"), "{server}");
        }
        for server in ["unix:", "unix://relative.sock"] {
            let error = endpoint(server, &TlsOptions::default()).err().unwrap();
            assert!(matches!(error, RunError::UnixSocketPath { .. }), "{server}: {error}");
        }
        let with_ca = TlsOptions::with_ca_file("ca.pem");
        let error = endpoint("unix:/run/cardroom.sock", &with_ca).err().unwrap();
        assert!(matches!(error, RunError::TlsOverUnixSocket { .. }), "{error}");
        assert!(error.to_string().contains("Unix socket"), "{error}");
    }

    #[test]
    fn tls_settings_need_an_https_url() {
        assert!(endpoint("127.0.0.1:1", &TlsOptions::default()).is_ok());
        let with_ca = TlsOptions::with_ca_file("/nonexistent/ca.pem");
        let plain = endpoint("http://127.0.0.1:1", &with_ca).err().unwrap();
        assert!(matches!(plain, RunError::TlsWithoutHttps { .. }), "{plain}");
        let missing = endpoint("https://127.0.0.1:1", &with_ca).err().unwrap();
        assert!(missing.to_string().contains("/nonexistent/ca.pem"), "{missing}");
    }

    #[test]
    fn a_ca_file_without_a_certificate_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("empty.pem");
        std::fs::write(&path, "not a certificate\n").unwrap();
        let error =
            endpoint("https://localhost:1", &TlsOptions::with_ca_file(&path)).err().unwrap();
        assert!(matches!(error, RunError::CaFile { .. }), "{error}");
        assert!(error.to_string().contains("BEGIN CERTIFICATE"), "{error}");
    }
}
