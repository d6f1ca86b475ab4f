package promexport

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"
)

// testCA makes a CA and a certificate it signed for 127.0.0.1, written as
// PEM files in dir: ca.pem, <name>.pem, <name>.key.
func testCA(t *testing.T, dir string, names ...string) {
	t.Helper()
	caKey, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"}, IsCA: true,
		BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ := x509.ParseCertificate(caDER)
	write := func(name, typ string, der []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("ca.pem", "CERTIFICATE", caDER)
	for i, n := range names {
		key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(int64(i + 2)), Subject: pkix.Name{CommonName: n},
			IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
			ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth}, KeyUsage: x509.KeyUsageDigitalSignature}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		kb, _ := x509.MarshalECPrivateKey(key)
		write(n+".pem", "CERTIFICATE", der)
		write(n+".key", "EC PRIVATE KEY", kb)
	}
}

// serveWith starts the exporter with the web config body (paths relative
// to the config's directory, as exporters read them) and returns its address.
func serveWith(t *testing.T, dir, config string) string {
	t.Helper()
	path := filepath.Join(dir, "web.yml")
	if err := os.WriteFile(path, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := ValidateWebConfig(path); err != nil {
		t.Fatal(err)
	}
	h, _ := Handler(published(testNode(1, 0)), Options{Own: true})
	ctx, cancel := context.WithCancel(context.Background())
	addr := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- Serve(ctx, h, ServeConfig{Listen: "127.0.0.1:0", WebConfigFile: path, ErrorLog: io.Discard,
			Started: func(a net.Addr) { addr <- a }})
	}()
	t.Cleanup(func() { cancel(); <-done })
	select {
	case a := <-addr:
		return a.String()
	case err := <-done:
		t.Fatalf("Serve: %v", err)
	}
	return ""
}

func tlsClient(t *testing.T, dir string, cert string) *http.Client {
	t.Helper()
	pool := x509.NewCertPool()
	b, _ := os.ReadFile(filepath.Join(dir, "ca.pem"))
	pool.AppendCertsFromPEM(b)
	tc := &tls.Config{RootCAs: pool}
	if cert != "" {
		c, err := tls.LoadX509KeyPair(filepath.Join(dir, cert+".pem"), filepath.Join(dir, cert+".key"))
		if err != nil {
			t.Fatal(err)
		}
		tc.Certificates = []tls.Certificate{c}
	}
	return &http.Client{Transport: &http.Transport{TLSClientConfig: tc}, Timeout: 5 * time.Second}
}

func TestServeTLSWithHeaders(t *testing.T) {
	dir := t.TempDir()
	testCA(t, dir, "server")
	addr := serveWith(t, dir, "tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n  min_version: TLS13\n"+
		"http_server_config:\n  headers:\n    Strict-Transport-Security: max-age=31536000\n")
	resp, err := tlsClient(t, dir, "").Get("https://" + addr + MetricsPath)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.TLS == nil || resp.TLS.Version != tls.VersionTLS13 ||
		resp.Header.Get("Strict-Transport-Security") != "max-age=31536000" {
		t.Errorf("TLS scrape: %d, TLS %v, HSTS %q", resp.StatusCode, resp.TLS != nil, resp.Header.Get("Strict-Transport-Security"))
	}
	// Go's TLS server answers plain HTTP with a 400 and no data.
	if resp, err := http.Get("http://" + addr + MetricsPath); err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("plain HTTP on the TLS port: %d, want 400", resp.StatusCode)
		}
	}
}

func TestServeRequiresAClientCertificate(t *testing.T) {
	dir := t.TempDir()
	testCA(t, dir, "server", "prom")
	addr := serveWith(t, dir, "tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n"+
		"  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca.pem\n")
	if resp, err := tlsClient(t, dir, "").Get("https://" + addr + MetricsPath); err == nil {
		resp.Body.Close()
		t.Errorf("no client certificate: HTTP %d, want the handshake refused", resp.StatusCode)
	}
	resp, err := tlsClient(t, dir, "prom").Get("https://" + addr + MetricsPath)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("with a client certificate: %d", resp.StatusCode)
	}
}

func TestWebConfigRefusesWhatItDoesNotDo(t *testing.T) {
	dir := t.TempDir()
	testCA(t, dir, "server")
	tlsOK := "tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n"
	for config, want := range map[string]string{
		"rate_limit:\n  burst: 5\n":                                      "rate_limit",
		"basic_auth_users:\n  prom: plaintext\n":                         `"prom": not a bcrypt hash`,
		"tls_server_config:\n  cert_file: server.pem\n":                  "missing one of key or key_file",
		tlsOK + "  min_version: SSL3\n":                                  `min_version "SSL3"`,
		tlsOK + "  client_auth_type: Sometimes\n":                        `client_auth_type "Sometimes"`,
		tlsOK + "  client_ca_file: ca.pem\n":                             "client_auth_type is not",
		tlsOK + "  cipher_suites: [TLS_MADE_UP]\n":                       `cipher_suites "TLS_MADE_UP"`,
		tlsOK + "  client_allowed_sans: [a]\n":                           "client_allowed_sans",
		"http_server_config:\n  headers:\n    Set-Cookie: x=1\n":         `headers "Set-Cookie"`,
		"tls_server_config:\n  client_auth_type: RequireAnyClientCert\n": "need cert_file and key_file",
	} {
		path := filepath.Join(dir, "web.yml")
		_ = os.WriteFile(path, []byte(config), 0o600)
		_, _, err := ValidateWebConfig(path)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v, want one line with %q", config, err, want)
		}
	}
	path := filepath.Join(dir, "web.yml")
	_ = os.WriteFile(path, []byte(tlsOK+"  cipher_suites: [TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256]\n  prefer_server_cipher_suites: true\n"), 0o600)
	if on, auth, err := ValidateWebConfig(path); err != nil || !on || auth {
		t.Errorf("TLS with cipher suites: tls %v auth %v, %v", on, auth, err)
	}
}

// A remembered password does not let another one in, nor another user.
func TestBasicAuthRemembersOnlyTheRightPassword(t *testing.T) {
	b, err := bcrypt.GenerateFromPassword([]byte("s3cret"), bcrypt.MinCost)
	if err != nil {
		t.Fatal(err)
	}
	c := &webConfig{Users: map[string]string{"prom": string(b)}}
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusTeapot) })
	h := c.basicAuth(ok)
	try := func(user, pass string) int {
		req, _ := http.NewRequest(http.MethodGet, "/metrics", nil)
		req.SetBasicAuth(user, pass)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	for i, c := range []struct {
		user, pass string
		want       int
	}{{"prom", "s3cret", 418}, {"prom", "s3cret", 418}, {"prom", "wrong", 401}, {"other", "s3cret", 401}, {"prom", "s3cret", 418}} {
		if got := try(c.user, c.pass); got != c.want {
			t.Errorf("try %d (%s/%s): %d, want %d", i, c.user, c.pass, got, c.want)
		}
	}
}
