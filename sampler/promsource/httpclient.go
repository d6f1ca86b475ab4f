package promsource

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
)

// httpClient builds the client for cfg's authentication and TLS: what
// Prometheus's own scrape and remote configs offer (bearer token file,
// basic auth with a password file, a CA, a client certificate), without
// prometheus/common/config (6 MB of binary with its OAuth2 and proxy
// machinery; docs/benchmarks.md "What each dependency costs"). Token and
// password files are read at each request, so a rotated secret needs no
// restart, as Prometheus does.
func httpClient(cfg Config) (*http.Client, error) {
	if cfg.BearerTokenFile != "" && cfg.BasicAuthUser != "" {
		return nil, errors.New("--bearer-token-file and --basic-auth-user: give one of them")
	}
	if cfg.BasicAuthPasswordFile != "" && cfg.BasicAuthUser == "" {
		return nil, errors.New("--basic-auth-password-file needs --basic-auth-user")
	}
	if (cfg.CertFile == "") != (cfg.KeyFile == "") {
		return nil, errors.New("--tls-cert-file and --tls-key-file go together")
	}
	tc := &tls.Config{InsecureSkipVerify: cfg.InsecureSkipVerify} // #nosec G402 -- the user's explicit flag
	if cfg.CAFile != "" {
		pem, err := os.ReadFile(cfg.CAFile)
		if err != nil {
			return nil, fmt.Errorf("--tls-ca-file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--tls-ca-file %s: no PEM certificate in it", cfg.CAFile)
		}
		tc.RootCAs = pool
	}
	if cfg.CertFile != "" {
		// Loaded per handshake, so a renewed certificate is picked up.
		if _, err := tls.LoadX509KeyPair(cfg.CertFile, cfg.KeyFile); err != nil {
			return nil, fmt.Errorf("--tls-cert-file/--tls-key-file: %w", err)
		}
		tc.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
			c, err := tls.LoadX509KeyPair(cfg.CertFile, cfg.KeyFile)
			return &c, err
		}
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = tc
	return &http.Client{Transport: &authTransport{cfg: cfg, next: tr}}, nil
}

// authTransport adds the credentials and the user agent to each request.
type authTransport struct {
	cfg  Config
	next http.RoundTripper
}

func (a *authTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set("User-Agent", "gpuscope")
	switch {
	case a.cfg.BearerTokenFile != "":
		tok, err := os.ReadFile(a.cfg.BearerTokenFile)
		if err != nil {
			return nil, fmt.Errorf("bearer token file: %w", err)
		}
		req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(tok)))
	case a.cfg.BasicAuthUser != "":
		var pw []byte
		if a.cfg.BasicAuthPasswordFile != "" {
			var err error
			if pw, err = os.ReadFile(a.cfg.BasicAuthPasswordFile); err != nil {
				return nil, fmt.Errorf("basic auth password file: %w", err)
			}
		}
		req.SetBasicAuth(a.cfg.BasicAuthUser, strings.TrimSpace(string(pw)))
	}
	return a.next.RoundTrip(req)
}
