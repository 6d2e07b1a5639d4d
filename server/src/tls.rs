//! TLS: the certificate chain and private key the server presents ([`TlsIdentity`]), checked
//! when they are loaded, so that a server never starts with an identity it cannot serve.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

/// The server's TLS identity: a PEM certificate chain (the server's own certificate first) and
/// the PEM private key of its first certificate. With one in [`Config::tls`](crate::Config),
/// the server speaks only TLS (HTTP/2 negotiated by ALPN), on every service: cardroom, gRPC
/// health and reflection.
#[derive(Clone)]
pub struct TlsIdentity {
    cert_pem: Vec<u8>,
    key_pem: Vec<u8>,
}

/// Why a certificate and key cannot be the server's TLS identity.
#[derive(Debug, thiserror::Error)]
pub enum TlsError {
    /// A file could not be read.
    #[error("reading the TLS {what} file {}: {source}", path.display())]
    Read {
        /// `certificate` or `key`.
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The certificate PEM holds no `CERTIFICATE` block, or one that cannot be decoded.
    #[error(
        "the TLS certificate is not a PEM certificate chain (`-----BEGIN CERTIFICATE-----`): {0}"
    )]
    Certificate(rustls::pki_types::pem::Error),
    /// The key PEM holds no private key (PKCS#8, PKCS#1 or SEC1), or one that cannot be decoded.
    #[error("the TLS key is not a PEM private key (PKCS#8, PKCS#1 or SEC1): {0}")]
    Key(rustls::pki_types::pem::Error),
    /// rustls refuses the pair: the key does not match the certificate, or is of a kind it
    /// cannot sign with.
    #[error("the TLS certificate and key cannot serve: {0}")]
    Refused(rustls::Error),
}

impl TlsIdentity {
    /// The identity in these PEM texts, once rustls has accepted them (the key must match the
    /// first certificate).
    pub fn from_pem(
        cert_pem: impl Into<Vec<u8>>,
        key_pem: impl Into<Vec<u8>>,
    ) -> Result<TlsIdentity, TlsError> {
        let identity = TlsIdentity { cert_pem: cert_pem.into(), key_pem: key_pem.into() };
        identity.check()?;
        Ok(identity)
    }

    /// The identity in these two PEM files (see [`TlsIdentity::from_pem`]).
    pub fn from_pem_files(cert: &Path, key: &Path) -> Result<TlsIdentity, TlsError> {
        let read = |what, path: &Path| {
            std::fs::read(path).map_err(|source| TlsError::Read {
                what,
                path: path.to_owned(),
                source,
            })
        };
        TlsIdentity::from_pem(read("certificate", cert)?, read("key", key)?)
    }

    /// tonic's form of the identity, for its TLS acceptor.
    pub(crate) fn to_tonic(&self) -> tonic::transport::Identity {
        tonic::transport::Identity::from_pem(&self.cert_pem, &self.key_pem)
    }

    /// Parses both PEM texts and has rustls build a server configuration from them, as tonic's
    /// acceptor will: every error it would meet is met here, with its cause named.
    fn check(&self) -> Result<(), TlsError> {
        let chain = CertificateDer::pem_slice_iter(&self.cert_pem)
            .collect::<Result<Vec<_>, _>>()
            .map_err(TlsError::Certificate)?;
        if chain.is_empty() {
            return Err(TlsError::Certificate(rustls::pki_types::pem::Error::NoItemsFound));
        }
        let key = PrivateKeyDer::from_pem_slice(&self.key_pem).map_err(TlsError::Key)?;
        rustls::ServerConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .map_err(TlsError::Refused)?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .map_err(TlsError::Refused)?;
        Ok(())
    }
}

/// Never prints the key.
impl fmt::Debug for TlsIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TlsIdentity").field("cert_pem_bytes", &self.cert_pem.len()).finish()
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    fn generated(names: &[&str]) -> rcgen::CertifiedKey<rcgen::KeyPair> {
        let names: Vec<String> = names.iter().map(|&n| n.to_owned()).collect();
        rcgen::generate_simple_self_signed(names).unwrap()
    }

    #[test]
    fn a_matching_certificate_and_key_make_an_identity() {
        let pair = generated(&["localhost"]);
        let identity =
            TlsIdentity::from_pem(pair.cert.pem(), pair.signing_key.serialize_pem()).unwrap();
        assert!(!format!("{identity:?}").contains("PRIVATE KEY"));
    }

    #[test]
    fn each_wrong_input_is_named() {
        let pair = generated(&["localhost"]);
        let other = generated(&["localhost"]);
        let (cert, key) = (pair.cert.pem(), pair.signing_key.serialize_pem());

        let swapped = TlsIdentity::from_pem(key.clone(), cert.clone()).unwrap_err();
        assert!(matches!(swapped, TlsError::Certificate(_)), "{swapped}");
        let no_key = TlsIdentity::from_pem(cert.clone(), cert.clone()).unwrap_err();
        assert!(matches!(no_key, TlsError::Key(_)), "{no_key}");
        let mismatch =
            TlsIdentity::from_pem(cert.clone(), other.signing_key.serialize_pem()).unwrap_err();
        assert!(matches!(mismatch, TlsError::Refused(_)), "{mismatch}");

        let missing = TlsIdentity::from_pem_files(
            Path::new("/nonexistent/cert.pem"),
            Path::new("/nonexistent/key.pem"),
        )
        .unwrap_err();
        assert!(missing.to_string().contains("/nonexistent/cert.pem"), "{missing}");
    }
}
