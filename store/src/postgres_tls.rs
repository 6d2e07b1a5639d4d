//! TLS to PostgreSQL. A store's URL asks for it as libpq's own does: `sslmode=verify-full`
//! (or `require`, or `verify-ca`), with `sslrootcert=FILE` naming the certificate authorities
//! to trust when they are not the system's. psql takes the same URL.
//!
//! Whatever mode asks for TLS, the server's certificate chain and its name (the URL's host) are
//! checked, through rustls as the game server's own TLS: a `require` that trusted any
//! certificate, as libpq's does, would let whoever sits on the path read the store. A URL that
//! asks for no TLS (`disable`, `allow`, `prefer`, or no `sslmode`) connects in clear, as before:
//! `prefer` without a check protects nothing against an attacker on the path.

use std::path::Path;
use std::sync::Arc;

use percent_encoding::percent_decode_str;
use rustls::pki_types::CertificateDer;
use rustls::pki_types::pem::PemObject as _;
use tokio_postgres::config::SslMode;
use tokio_postgres_rustls::MakeRustlsConnect;

use crate::StoreError;

/// What a store's connections go through: TLS where the URL asks for it; the same type either
/// way, so that the pool and the schedulers' sessions connect alike.
pub(crate) type Connector = MakeRustlsConnect;

/// Reads a store's URL: tokio-postgres's configuration, TLS required or switched off as
/// `sslmode` says, and the connector whose certificate check `sslrootcert` (or the system's
/// roots) sets.
pub(crate) fn parse(url: &str) -> Result<(tokio_postgres::Config, Connector), StoreError> {
    let (base, query) = url.split_once('?').unwrap_or((url, ""));
    let mut mode = None;
    let mut root_file = None;
    let mut kept = Vec::new();
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let decoded = || percent_decode_str(value).decode_utf8_lossy().into_owned();
        match key {
            "sslmode" => mode = Some(decoded()),
            "sslrootcert" => root_file = Some(decoded()),
            _ => kept.push(pair),
        }
    }
    let tls = match mode.as_deref() {
        None | Some("disable" | "allow" | "prefer") => false,
        Some("require" | "verify-ca" | "verify-full") => true,
        Some(other) => {
            return Err(StoreError::StoreTls(format!(
                "sslmode={} is not one of disable, allow, prefer, require, verify-ca, verify-full",
                crate::Echo(other)
            )));
        }
    };
    if root_file.is_some() && !tls {
        return Err(StoreError::StoreTls(
            "sslrootcert is given but sslmode asks for no TLS: add sslmode=verify-full".to_owned(),
        ));
    }
    let rest = if kept.is_empty() { String::new() } else { format!("?{}", kept.join("&")) };
    let mut config: tokio_postgres::Config =
        format!("{base}{rest}").parse().map_err(|_| StoreError::BadUrl(without_password(url)))?;
    config.ssl_mode(if tls { SslMode::Require } else { SslMode::Disable });
    let roots = match root_file {
        Some(file) => roots_from_file(Path::new(&file))?,
        None if tls => system_roots(),
        // No TLS: the connector is never asked to connect.
        None => rustls::RootCertStore::empty(),
    };
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let client = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|error| StoreError::StoreTls(error.to_string()))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok((config, MakeRustlsConnect::new(client)))
}

/// Whether `url` (a URL's query, or libpq's `key=value` form) gives the parameter `key`.
pub(crate) fn names(url: &str, key: &str) -> bool {
    url.split(['?', '&', ' ']).any(|pair| pair.split_once('=').is_some_and(|(k, _)| k == key))
}

/// `url` with its password, if it has one, written `***`: what an error may say of it.
fn without_password(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_owned() };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let Some(at) = rest[..authority_end].rfind('@') else { return url.to_owned() };
    match rest[..at].split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***{}", &rest[at..]),
        None => url.to_owned(),
    }
}

/// The certificate authorities in the PEM file at `path` (libpq's `sslrootcert`).
fn roots_from_file(path: &Path) -> Result<rustls::RootCertStore, StoreError> {
    let unreadable = |error: &dyn std::fmt::Display| {
        StoreError::StoreTls(format!("sslrootcert {}: {error}", path.display()))
    };
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_file_iter(path).map_err(|error| unreadable(&error))? {
        let cert = cert.map_err(|error| unreadable(&error))?;
        roots.add(cert).map_err(|error| unreadable(&error))?;
    }
    if roots.is_empty() {
        return Err(unreadable(&"it holds no certificate"));
    }
    Ok(roots)
}

/// The system's certificate authorities, as the platform lists them; those it cannot read are
/// left out (and logged).
fn system_roots() -> rustls::RootCertStore {
    let found = rustls_native_certs::load_native_certs();
    for error in &found.errors {
        tracing::warn!(%error, "a system certificate authority could not be read");
    }
    let mut roots = rustls::RootCertStore::empty();
    let (_, ignored) = roots.add_parsable_certificates(found.certs);
    if ignored > 0 {
        tracing::warn!(ignored, "system certificate authorities rustls cannot use");
    }
    roots
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn tls_is_asked_for_by_sslmode_and_kept_out_of_tokio_postgres_options() {
        let url = "postgres://u@db.example:5433/d?options=-csearch_path%3Dx&sslmode=verify-full";
        let (config, _) = parse(url).unwrap();
        assert_eq!(config.get_ssl_mode(), SslMode::Require);
        assert_eq!(config.get_options(), Some("-csearch_path=x"));
        for clear in [
            "postgres://u@h/d",
            "postgres://u@h/d?sslmode=prefer",
            "postgres://u@h/d?sslmode=disable",
        ] {
            assert_eq!(parse(clear).unwrap().0.get_ssl_mode(), SslMode::Disable, "{clear}");
        }
    }

    #[test]
    fn the_parameters_a_url_gives_are_named() {
        let url = "postgres://u@h/d?connect_timeout=3&keepalives_idle=5";
        assert!(names(url, "connect_timeout") && names(url, "keepalives_idle"));
        assert!(!names(url, "keepalives") && !names("postgres://u@h/connect_timeout", "d"));
        assert!(names("host=h tcp_user_timeout=1000", "tcp_user_timeout"));
    }

    #[test]
    fn a_bad_url_is_named_without_its_password() {
        let bad = refusal("postgres://cardroom:hunter2@db:notaport/d?sslmode=verify-full");
        assert!(!bad.contains("hunter2"), "{bad}");
        assert!(bad.contains("postgres://cardroom:***@db:notaport/d"), "{bad}");
        assert_eq!(without_password("postgres://u@h/d"), "postgres://u@h/d");
    }

    /// Why `url` is refused.
    fn refusal(url: &str) -> String {
        match parse(url) {
            Ok(_) => panic!("{url} is taken"),
            Err(error) => error.to_string(),
        }
    }

    #[test]
    fn a_bad_mode_or_a_root_file_without_tls_is_refused_with_the_reason() {
        let bad = refusal("postgres://u@h/d?sslmode=sometimes");
        assert!(bad.contains("sslmode=\"sometimes\" is not one of"), "{bad}");
        let lonely = refusal("postgres://u@h/d?sslrootcert=%2Ftmp%2Fca.pem");
        assert!(lonely.contains("add sslmode=verify-full"), "{lonely}");
        let missing =
            refusal("postgres://u@h/d?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem");
        assert!(missing.contains("sslrootcert /nonexistent/ca.pem"), "{missing}");
    }
}
