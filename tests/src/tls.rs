//! [`TestCertificates`]: a private certificate authority made fresh by each test, and a server
//! certificate it signs for `localhost` and `127.0.0.1`.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use cardroom_server::TlsIdentity;
use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair};

/// A test CA and the server certificate it signed, all as PEM.
pub struct TestCertificates {
    /// The CA's certificate: what a client trusts.
    pub ca_pem: String,
    /// The server's certificate, valid for `localhost` and `127.0.0.1`.
    pub cert_pem: String,
    /// The server certificate's private key.
    pub key_pem: String,
}

/// Where [`TestCertificates::write`] put the PEM files.
pub struct CertificateFiles {
    /// The CA's certificate.
    pub ca: PathBuf,
    /// The server's certificate.
    pub cert: PathBuf,
    /// The server's private key.
    pub key: PathBuf,
}

impl TestCertificates {
    /// A new CA (named `cardroom test CA`, its process and a number) and a server certificate
    /// signed by it, for `localhost` and `127.0.0.1`.
    ///
    /// # Panics
    ///
    /// When rcgen cannot make a key or a certificate.
    pub fn new() -> TestCertificates {
        TestCertificates::for_names(&["localhost", "127.0.0.1"])
    }

    /// A new CA and a server certificate it signs for `names` alone (host names or addresses).
    ///
    /// # Panics
    ///
    /// When rcgen cannot make a key or a certificate.
    pub fn for_names(names: &[&str]) -> TestCertificates {
        let mut ca_params = CertificateParams::new(Vec::new()).expect("CA parameters");
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        // Each CA its own name, so that one CA's certificate is never taken for another's.
        static MADE: AtomicU64 = AtomicU64::new(0);
        let n = MADE.fetch_add(1, Ordering::Relaxed);
        let name = format!("cardroom test CA {} #{n}", std::process::id());
        ca_params.distinguished_name.push(DnType::CommonName, name);
        let ca_key = KeyPair::generate().expect("a CA key");
        let ca = CertifiedIssuer::self_signed(ca_params, ca_key).expect("a CA certificate");

        let names = names.iter().map(|name| (*name).to_owned()).collect::<Vec<_>>();
        let params = CertificateParams::new(names).expect("server certificate parameters");
        let key = KeyPair::generate().expect("a server key");
        let cert = params.signed_by(&key, &ca).expect("a server certificate");
        TestCertificates { ca_pem: ca.pem(), cert_pem: cert.pem(), key_pem: key.serialize_pem() }
    }

    /// The server's identity, for [`cardroom_server::Config::tls`].
    ///
    /// # Panics
    ///
    /// When the server refuses it (it never should).
    pub fn identity(&self) -> TlsIdentity {
        TlsIdentity::from_pem(self.cert_pem.as_bytes(), self.key_pem.as_bytes())
            .expect("the test certificate is a valid identity")
    }

    /// Writes `ca.pem`, `cert.pem` and `key.pem` into `dir`.
    ///
    /// # Panics
    ///
    /// When a file cannot be written.
    pub fn write(&self, dir: &Path) -> CertificateFiles {
        let files = CertificateFiles {
            ca: dir.join("ca.pem"),
            cert: dir.join("cert.pem"),
            key: dir.join("key.pem"),
        };
        for (path, pem) in
            [(&files.ca, &self.ca_pem), (&files.cert, &self.cert_pem), (&files.key, &self.key_pem)]
        {
            std::fs::write(path, pem).expect("a PEM file written");
        }
        files
    }
}

impl Default for TestCertificates {
    fn default() -> TestCertificates {
        TestCertificates::new()
    }
}
