package promsource

import (
	"context"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const vectorBody = `{"status":"success","data":{"resultType":"vector","result":[{"metric":{"instance":"a"},"value":[1700000000,"1"]}]}}`

func writeFile(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCredentialsReachTheServerAndRotate(t *testing.T) {
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Header.Get("Authorization")+"|"+r.Header.Get("User-Agent"))
		_, _ = w.Write([]byte(vectorBody))
	}))
	defer srv.Close()
	tok := writeFile(t, "token", "s3cret\n")
	s, err := New(Config{URL: srv.URL, BearerTokenFile: tok})
	if err != nil {
		t.Fatal(err)
	}
	query := func() {
		if err := s.queryEach(context.Background(), "up", time.Now(), func(metric, float64) {}); err != nil {
			t.Fatal(err)
		}
	}
	query()
	if err := os.WriteFile(tok, []byte("rotated"), 0o600); err != nil {
		t.Fatal(err)
	}
	query()
	pw := writeFile(t, "pw", "hunter2\n")
	if s, err = New(Config{URL: srv.URL, BasicAuthUser: "ops", BasicAuthPasswordFile: pw}); err != nil {
		t.Fatal(err)
	}
	query()
	want := []string{"Bearer s3cret|gpuscope", "Bearer rotated|gpuscope", "Basic b3BzOmh1bnRlcjI=|gpuscope"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("server saw %q, want %q", got, want)
	}
}

func TestTLSVerifiesWithTheGivenCA(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte(vectorBody)) }))
	defer srv.Close()
	run := func(cfg Config) error {
		cfg.URL = srv.URL
		s, err := New(cfg)
		if err != nil {
			return err
		}
		return s.queryEach(context.Background(), "up", time.Now(), func(metric, float64) {})
	}
	if err := run(Config{}); err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("an unknown CA: %v", err)
	}
	ca := writeFile(t, "ca.pem", string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})))
	if err := run(Config{CAFile: ca}); err != nil {
		t.Errorf("with the server's CA: %v", err)
	}
	if err := run(Config{InsecureSkipVerify: true}); err != nil {
		t.Errorf("insecure: %v", err)
	}
}

func TestBadAuthFlagsSayWhich(t *testing.T) {
	notPEM := writeFile(t, "ca.pem", "not a certificate")
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{BearerTokenFile: "t", BasicAuthUser: "u"}, "--bearer-token-file and --basic-auth-user"},
		{Config{BasicAuthPasswordFile: "p"}, "--basic-auth-password-file needs --basic-auth-user"},
		{Config{CertFile: "c"}, "--tls-cert-file and --tls-key-file go together"},
		{Config{CAFile: notPEM}, "no PEM certificate"},
		{Config{CAFile: "/nonexistent/ca.pem"}, "--tls-ca-file"},
	} {
		c.cfg.URL = "https://p:9090"
		if _, err := New(c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.cfg, err, c.want)
		}
	}
}
