package promexport

import (
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v2"
)

// webConfigSeeds are web configs as the exporter-toolkit documents them and
// as people write them: files, inline PEM, lists both ways, quotes,
// comments, headers, users.
var webConfigSeeds = []string{
	"tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\n",
	"# TLS\ntls_server_config:\n  cert_file: \"/etc/gpuscope/tls.crt\"   # the chain\n  key_file: '/etc/gpuscope/tls.key'\n  client_auth_type: RequireAndVerifyClientCert\n  client_ca_file: ca.pem\n  min_version: TLS12\n  max_version: TLS13\n",
	"tls_server_config:\n  cipher_suites:\n  - TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256\n  - TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256\n  prefer_server_cipher_suites: yes\n",
	"tls_server_config:\n  cipher_suites: [TLS_AES_128_GCM_SHA256, \"TLS_CHACHA20_POLY1305_SHA256\"]\n",
	"tls_server_config:\n  cert: |\n    -----BEGIN CERTIFICATE-----\n    MIIBszCCAVmgAwIBAgIBAjAKBggqhkjOPQQDAjASMRAwDgYDVQQDEwd0ZXN0IENB\n    -----END CERTIFICATE-----\n  key: |-\n    -----BEGIN EC PRIVATE KEY-----\n    MHcCAQEEIGx\n    -----END EC PRIVATE KEY-----\n",
	"http_server_config:\n  http2: false\n  headers:\n    Strict-Transport-Security: max-age=31536000; includeSubDomains\n    X-Frame-Options: deny\n",
	"basic_auth_users:\n  prometheus: $2y$10$X0h1gDsPszWURQaxFh.zoubFi6DXncSjhoQNJgRrnGs7EsimhC7zG\n  \"alice\": '$2b$12$hNf2lSsxfm0.i4a.1kVpSOVyBCfIB51VRjgBUyv6kdnyTlgWj81Ay'\n",
	"basic_auth_users:\n",
	"",
	"tls_server_config:\n  cert: |\n    a\n\n    b\n\n  key: x\n",
}

func TestWebYAMLReadsWhatYAMLReads(t *testing.T) {
	for _, src := range webConfigSeeds {
		var want, got webConfig
		if err := yaml.UnmarshalStrict([]byte(src), &want); err != nil {
			t.Fatalf("the seed is not valid YAML: %v\n%s", err, src)
		}
		if err := decodeWebConfig([]byte(src), &got); err != nil {
			t.Errorf("refused %q: %v", src, err)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q:\nread   %+v\nyaml   %+v", src, got, want)
		}
	}
}

// What it does not read it refuses in one line that says where, never
// reads as something else.
func TestWebYAMLRefusesInOneLine(t *testing.T) {
	for src, want := range map[string]string{
		"tls_server_config:\n  cert_file: &a x\n":              "line 2",
		"tls_server_config:\n\tcert_file: x\n":                 "tab",
		"tls_server_config:\n  cert_file: x\n    y: z\n":       "line 3",
		"basic_auth_users: {a: b}\n":                           "flow maps",
		"tls_server_config:\n  cert: >\n    a\n":               "block scalars",
		"tls_server_config:\n  cert_file: x\n  cert_file: y\n": `"cert_file" is already set`,
		"tls_server_config:\n  cipher_suites: x\n":             "want a list",
		"http_server_config:\n  http2: maybe\n":                "want true or false",
		"tls_server_config:\n  oops: 1\n":                      "tls_server_config.oops: not a key",
		"---\ntls_server_config:\n":                            "document markers",
	} {
		var c webConfig
		err := decodeWebConfig([]byte(src), &c)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v, want one line with %q", src, err, want)
		}
	}
}

// Whatever it reads, go.yaml.in/yaml reads the same: the small reader
// never gives a setting another value than the library would.
func FuzzWebYAML(f *testing.F) {
	for _, s := range webConfigSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		var got webConfig
		if decodeWebConfig([]byte(src), &got) != nil {
			return
		}
		var want webConfig
		if err := yaml.UnmarshalStrict([]byte(src), &want); err != nil {
			t.Fatalf("read %q, which yaml refuses: %v", src, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\nread   %#v\nyaml   %#v", src, got, want)
		}
	})
}
