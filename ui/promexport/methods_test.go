package promexport

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
)

// Only GET and HEAD are answered: any other method gets 405 and no data,
// over a real socket.
func TestOtherMethodsGet405(t *testing.T) {
	h, _ := Handler(published(testNode(2, 1)), Options{Own: true, DCGM: true})
	addr := serveTest(t, h, ServeConfig{})
	for _, m := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch, "PROPFIND"} {
		for _, p := range []string{MetricsPath, SnapshotPath, FindingsPath, HealthyPath, "/"} {
			req, _ := http.NewRequest(m, "http://"+addr+p, strings.NewReader("x"))
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusMethodNotAllowed || bytes.Contains(body, []byte("gpuscope_gpu")) || bytes.Contains(body, []byte(`"gpus"`)) {
				t.Errorf("%s %s: %d, %d bytes; want 405 and no data", m, p, resp.StatusCode, len(body))
			}
			if a := resp.Header.Get("Allow"); !strings.Contains(a, "GET") || !strings.Contains(a, "HEAD") {
				t.Errorf("%s %s: Allow %q, want GET and HEAD", m, p, a)
			}
		}
	}
	resp, err := http.Head("http://" + addr + MetricsPath)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Errorf("HEAD /metrics: %v %v", resp.StatusCode, err)
	}
}
