package promexport

import (
	"crypto/sha256"
	"crypto/subtle"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/crypto/bcrypt"
)

// webConfig is the --web.config.file every Prometheus exporter reads
// ([exporter-toolkit] §web-configuration): TLS, client certificates, basic
// auth with bcrypt hashes, response headers. Read here rather than through
// exporter-toolkit, which with prometheus/common/config cost the binary
// 6 MB (docs/benchmarks.md "What each dependency costs"). A key gpuscope
// does not implement is refused, never silently ignored.
type webConfig struct {
	TLS   tlsServerConfig   `yaml:"tls_server_config"`
	HTTP  httpServerConfig  `yaml:"http_server_config"`
	Users map[string]string `yaml:"basic_auth_users"`
	dir   string            // relative paths are relative to the file
}

type tlsServerConfig struct {
	Cert                     string   `yaml:"cert"`
	Key                      string   `yaml:"key"`
	CertFile                 string   `yaml:"cert_file"`
	KeyFile                  string   `yaml:"key_file"`
	ClientAuth               string   `yaml:"client_auth_type"`
	ClientCAFile             string   `yaml:"client_ca_file"`
	ClientCA                 string   `yaml:"client_ca"`
	CipherSuites             []string `yaml:"cipher_suites"`
	MinVersion               string   `yaml:"min_version"`
	MaxVersion               string   `yaml:"max_version"`
	PreferServerCipherSuites bool     `yaml:"prefer_server_cipher_suites"` // no effect since Go 1.17
}

type httpServerConfig struct {
	HTTP2   *bool             `yaml:"http2"`
	Headers map[string]string `yaml:"headers"`
}

func (t tlsServerConfig) enabled() bool {
	return t.Cert != "" || t.CertFile != "" || t.Key != "" || t.KeyFile != ""
}

// loadWebConfig reads and checks path; "" is plain HTTP with no auth.
func loadWebConfig(path string) (*webConfig, error) {
	c := &webConfig{}
	if path == "" {
		return c, nil
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if err := decodeWebConfig(raw, c); err != nil {
		return nil, fmt.Errorf("%w (keys gpuscope reads: tls_server_config, http_server_config, basic_auth_users)",
			errors.New(strings.ReplaceAll(err.Error(), "\n", "; ")))
	}
	c.dir = filepath.Dir(path)
	for user, hash := range c.Users {
		if _, err := bcrypt.Cost([]byte(hash)); err != nil {
			return nil, fmt.Errorf("basic_auth_users %q: not a bcrypt hash (make one with htpasswd -nBC 10 \"\" | tr -d ':\\n')", user)
		}
	}
	for k := range c.HTTP.Headers {
		switch http.CanonicalHeaderKey(k) {
		case "Strict-Transport-Security", "X-Content-Type-Options", "X-Frame-Options", "X-Xss-Protection", "Content-Security-Policy":
		default:
			return nil, fmt.Errorf("http_server_config.headers %q: only security headers may be set (Strict-Transport-Security, X-Content-Type-Options, X-Frame-Options, X-XSS-Protection, Content-Security-Policy)", k)
		}
	}
	if _, err := c.tlsConfig(); err != nil {
		return nil, err
	}
	return c, nil
}

func (c *webConfig) path(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(c.dir, p)
}

// tlsConfig is nil when TLS is off. The certificate is read again at each
// handshake, so a renewed one needs no restart.
func (c *webConfig) tlsConfig() (*tls.Config, error) {
	t := c.TLS
	if !t.enabled() {
		if t.ClientAuth != "" || t.ClientCAFile != "" || t.ClientCA != "" {
			return nil, errors.New("tls_server_config: client certificates need cert_file and key_file")
		}
		return nil, nil
	}
	if t.Cert == "" && t.CertFile == "" {
		return nil, errors.New("tls_server_config: missing one of cert or cert_file")
	}
	if t.Key == "" && t.KeyFile == "" {
		return nil, errors.New("tls_server_config: missing one of key or key_file")
	}
	load := func() (*tls.Certificate, error) {
		cert, key := []byte(t.Cert), []byte(t.Key)
		var err error
		if t.CertFile != "" {
			if cert, err = os.ReadFile(c.path(t.CertFile)); err != nil {
				return nil, fmt.Errorf("cert_file: %w", err)
			}
		}
		if t.KeyFile != "" {
			if key, err = os.ReadFile(c.path(t.KeyFile)); err != nil {
				return nil, fmt.Errorf("key_file: %w", err)
			}
		}
		pair, err := tls.X509KeyPair(cert, key)
		if err != nil {
			return nil, fmt.Errorf("tls_server_config certificate and key: %w", err)
		}
		return &pair, nil
	}
	if _, err := load(); err != nil {
		return nil, err
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, MaxVersion: tls.VersionTLS13,
		GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return load() }}
	var err error
	if cfg.MinVersion, err = tlsVersion("min_version", t.MinVersion, cfg.MinVersion); err != nil {
		return nil, err
	}
	if cfg.MaxVersion, err = tlsVersion("max_version", t.MaxVersion, cfg.MaxVersion); err != nil {
		return nil, err
	}
	for _, name := range t.CipherSuites {
		id, ok := cipherSuite(name)
		if !ok {
			return nil, fmt.Errorf("tls_server_config.cipher_suites %q: not a TLS 1.2 cipher suite Go offers (e.g. TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256)", name)
		}
		cfg.CipherSuites = append(cfg.CipherSuites, id)
	}
	if t.ClientCAFile != "" || t.ClientCA != "" {
		pem := []byte(t.ClientCA)
		if t.ClientCAFile != "" {
			if pem, err = os.ReadFile(c.path(t.ClientCAFile)); err != nil {
				return nil, fmt.Errorf("client_ca_file: %w", err)
			}
		}
		cfg.ClientCAs = x509.NewCertPool()
		if !cfg.ClientCAs.AppendCertsFromPEM(pem) {
			return nil, errors.New("tls_server_config client CA: no PEM certificate in it")
		}
	}
	modes := map[string]tls.ClientAuthType{"": tls.NoClientCert, "NoClientCert": tls.NoClientCert,
		"RequestClientCert": tls.RequestClientCert, "RequireAnyClientCert": tls.RequireAnyClientCert,
		"RequireClientCert": tls.RequireAnyClientCert, "VerifyClientCertIfGiven": tls.VerifyClientCertIfGiven,
		"RequireAndVerifyClientCert": tls.RequireAndVerifyClientCert}
	mode, ok := modes[t.ClientAuth]
	if !ok {
		return nil, fmt.Errorf("tls_server_config.client_auth_type %q: want NoClientCert, RequestClientCert, RequireAnyClientCert, VerifyClientCertIfGiven or RequireAndVerifyClientCert", t.ClientAuth)
	}
	if cfg.ClientCAs != nil && mode == tls.NoClientCert {
		return nil, errors.New("tls_server_config: a client CA is set but client_auth_type is not (e.g. RequireAndVerifyClientCert)")
	}
	cfg.ClientAuth = mode
	return cfg, nil
}

func tlsVersion(key, s string, def uint16) (uint16, error) {
	v, ok := map[string]uint16{"": def, "TLS10": tls.VersionTLS10, "TLS11": tls.VersionTLS11,
		"TLS12": tls.VersionTLS12, "TLS13": tls.VersionTLS13}[s]
	if !ok {
		return 0, fmt.Errorf("tls_server_config.%s %q: want TLS10, TLS11, TLS12 or TLS13", key, s)
	}
	return v, nil
}

func cipherSuite(name string) (uint16, bool) {
	for _, s := range append(tls.CipherSuites(), tls.InsecureCipherSuites()...) {
		if s.Name == name {
			return s.ID, true
		}
	}
	return 0, false
}

// basicAuth guards h with the configured users. bcrypt is slow by design
// (tens of ms at cost 10), so a checked user/password pair is remembered
// by its SHA-256 and each scrape does not pay it; an unknown user is
// checked against a fixed hash so timing does not tell users apart.
func (c *webConfig) basicAuth(h http.Handler) http.Handler {
	if len(c.Users) == 0 {
		return h
	}
	var mu sync.Mutex
	good := map[string][32]byte{} // user → sha256(password) last accepted
	const decoy = "$2y$10$QOauhQNbBCuQDKes6eFzPeMqBSjb7Mr5DUmpZ/VcEd00UAV/LDeSi"
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pass, ok := r.BasicAuth()
		if ok {
			sum := sha256.Sum256([]byte(pass))
			mu.Lock()
			prev, seen := good[user]
			mu.Unlock()
			if seen && subtle.ConstantTimeCompare(prev[:], sum[:]) == 1 {
				h.ServeHTTP(w, r)
				return
			}
			hash, known := c.Users[user]
			if !known {
				hash = decoy
			}
			mu.Lock() // one bcrypt at a time: a flood of bad guesses costs one core
			err := bcrypt.CompareHashAndPassword([]byte(hash), []byte(pass))
			if known && err == nil {
				good[user] = sum
			}
			mu.Unlock()
			if known && err == nil {
				h.ServeHTTP(w, r)
				return
			}
		}
		w.Header().Set("WWW-Authenticate", "Basic")
		http.Error(w, http.StatusText(http.StatusUnauthorized), http.StatusUnauthorized)
	})
}

// headers sets the configured response headers before h answers.
func (c *webConfig) headers(h http.Handler) http.Handler {
	if len(c.HTTP.Headers) == 0 {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for k, v := range c.HTTP.Headers {
			w.Header().Set(k, v)
		}
		h.ServeHTTP(w, r)
	})
}
