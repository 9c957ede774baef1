//! HTTPS for the fake API server: a certificate authority made at start (rcgen), a
//! server certificate it issues, client certificates issued on request, and rustls'
//! blocking server side, which fits the server's thread per connection.

use rcgen::{
    BasicConstraints, CertificateParams, DistinguishedName, DnType, ExtendedKeyUsagePurpose, IsCa,
    Issuer, KeyPair, KeyUsagePurpose,
};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use rustls::server::WebPkiClientVerifier;
use rustls::{ServerConfig, ServerConnection, StreamOwned};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::{Arc, Mutex};

/// The names the server's certificate is valid for.
pub const SERVER_NAMES: &[&str] = &["127.0.0.1", "localhost", "fake-apiserver.test"];

/// One server's certificate authority and TLS settings.
pub struct Tls {
    pub ca_pem: String,
    issuer: Issuer<'static, KeyPair>,
    config: Arc<ServerConfig>,
    /// Client certificates issued (DER), with the name each was issued to.
    issued: Mutex<Vec<(Vec<u8>, String)>>,
}

fn named(cn: &str) -> DistinguishedName {
    let mut dn = DistinguishedName::new();
    dn.push(DnType::CommonName, cn);
    dn
}

impl Tls {
    /// A new authority and server certificate; `require_client_certs` refuses clients
    /// without a certificate from this authority (others are accepted and logged).
    pub fn new(require_client_certs: bool) -> Tls {
        let ca_key = KeyPair::generate().expect("CA key");
        let mut ca = CertificateParams::new(Vec::<String>::new()).expect("CA params");
        // A name of its own: two servers' authorities must differ as real ones do.
        static MADE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = MADE.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        ca.distinguished_name = named(&format!("fake-apiserver-ca-{}-{n}", std::process::id()));
        ca.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca.key_usages = vec![
            KeyUsagePurpose::KeyCertSign,
            KeyUsagePurpose::CrlSign,
            KeyUsagePurpose::DigitalSignature,
        ];
        let ca_cert = ca.self_signed(&ca_key).expect("CA certificate");
        let issuer = Issuer::new(ca, ca_key);

        let server_key = KeyPair::generate().expect("server key");
        let mut server = CertificateParams::new(
            SERVER_NAMES
                .iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>(),
        )
        .expect("server params");
        server.distinguished_name = named("fake-apiserver");
        server.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        let server_cert = server
            .signed_by(&server_key, &issuer)
            .expect("server certificate");

        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let mut roots = rustls::RootCertStore::empty();
        roots.add(ca_cert.der().clone()).expect("CA root");
        let verifier =
            WebPkiClientVerifier::builder_with_provider(Arc::new(roots), provider.clone());
        let verifier = if require_client_certs {
            verifier
        } else {
            verifier.allow_unauthenticated()
        }
        .build()
        .expect("client verifier");
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(server_key.serialize_der()));
        let config = ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("protocol versions")
            .with_client_cert_verifier(verifier)
            .with_single_cert(vec![server_cert.der().clone()], key)
            .expect("server TLS config");
        Tls {
            ca_pem: ca_cert.pem(),
            issuer,
            config: Arc::new(config),
            issued: Mutex::new(Vec::new()),
        }
    }

    /// A client certificate and its key (PEM), issued to `name`.
    pub fn issue_client(&self, name: &str) -> (String, String) {
        let key = KeyPair::generate().expect("client key");
        let mut params = CertificateParams::new(Vec::<String>::new()).expect("client params");
        params.distinguished_name = named(name);
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ClientAuth];
        let cert = params
            .signed_by(&key, &self.issuer)
            .expect("client certificate");
        self.issued
            .lock()
            .unwrap()
            .push((cert.der().to_vec(), name.to_string()));
        (cert.pem(), key.serialize_pem())
    }

    /// The connection, once its handshake is done (None when it failed: the client
    /// refused the server's certificate, or brought none or a foreign one).
    pub fn accept(&self, sock: TcpStream) -> Option<Conn> {
        let _ = sock.set_nodelay(true);
        let conn = ServerConnection::new(self.config.clone()).ok()?;
        let mut stream = StreamOwned::new(conn, sock);
        while stream.conn.is_handshaking() {
            stream.conn.complete_io(&mut stream.sock).ok()?;
        }
        Some(Conn::Tls(Box::new(stream)))
    }

    fn name_of(&self, der: &CertificateDer<'_>) -> String {
        self.issued
            .lock()
            .unwrap()
            .iter()
            .find(|(d, _)| d.as_slice() == der.as_ref())
            .map(|(_, n)| n.clone())
            .unwrap_or_else(|| "unknown".into())
    }
}

/// A client connection, plain or TLS.
pub enum Conn {
    Plain(TcpStream),
    Tls(Box<StreamOwned<ServerConnection, TcpStream>>),
}

impl Conn {
    /// Whose certificate the client showed, if it showed one.
    pub fn client_cert(&self, tls: Option<&Tls>) -> Option<String> {
        match (self, tls) {
            (Conn::Tls(s), Some(tls)) => s
                .conn
                .peer_certificates()
                .and_then(|chain| chain.first())
                .map(|leaf| tls.name_of(leaf)),
            _ => None,
        }
    }
}

impl Read for Conn {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Conn::Plain(s) => s.read(buf),
            Conn::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Conn {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self {
            Conn::Plain(s) => s.write(buf),
            Conn::Tls(s) => s.write(buf),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self {
            Conn::Plain(s) => s.flush(),
            Conn::Tls(s) => s.flush(),
        }
    }
}

/// Standard base64 (for certificate-authority-data and friends in kubeconfigs).
pub fn base64(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}
