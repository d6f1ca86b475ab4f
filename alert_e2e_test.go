package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// serve --alert-webhook posts the node's findings to a real local
// receiver: the demo's thermal throttling (GPU 0) opens within a few
// seconds of the start, as the JSON body says, its fix without the
// article citations no reader can open.
func TestServeAlertsToWebhook(t *testing.T) {
	var mu sync.Mutex
	var events []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var ev map[string]any
		b, _ := io.ReadAll(r.Body)
		if json.Unmarshal(b, &ev) == nil {
			mu.Lock()
			events = append(events, ev)
			mu.Unlock()
		}
	}))
	defer srv.Close()
	bin := buildBinary(t)
	startExporter(t, bin, "thermal_throttle", 1, "--alert-webhook", srv.URL+"/hook", "--alert-format", "json")
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		mu.Lock()
		for _, ev := range events {
			if ev["rule"] == "thermal_throttle" && ev["event"] == "opened" && ev["gpu"] == 0.0 && !strings.Contains(ev["fix"].(string), "[gpu-idle") {
				mu.Unlock()
				return
			}
		}
		mu.Unlock()
		time.Sleep(100 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	t.Fatalf("no thermal_throttle opened on GPU 0 (fix without citations) within 20 s; received %v", events)
}
