package cli

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gpuscope/gpuscope/sampler/promsource"
	"github.com/gpuscope/gpuscope/ui/fleet"
	"github.com/gpuscope/gpuscope/ui/i18n"
)

// TestFleetEscapesLabelValues: a label value is anyone's to set (a pod
// name, a Hostname label); the fleet view shows it escaped, in the view
// LoadFleet returns and in the --once text, never as a terminal command.
func TestFleetEscapesLabelValues(t *testing.T) {
	const hostile = "node\x1b]0;PWNED\a\x1b[2J"
	labels := fmt.Sprintf(`{"__name__":"DCGM_FI_DEV_GPU_UTIL","job":"dcgm","instance":"10.0.0.1:9400","Hostname":%q,"gpu":"0","UUID":"GPU-1","modelName":"H200","pod":%q}`,
		hostile, hostile)
	labels = strings.NewReplacer(`\x1b`, `\u001b`, `\a`, `\u0007`).Replace(labels)
	now := float64(time.Now().Unix())
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "query_range") {
			fmt.Fprintf(w, `{"status":"success","data":{"resultType":"matrix","result":[{"metric":%s,"values":[[%.0f,"50"],[%.0f,"50"]]}]}}`, labels, now-60, now)
			return
		}
		fmt.Fprintf(w, `{"status":"success","data":{"resultType":"vector","result":[{"metric":%s,"value":[%.0f,"1"]}]}}`, labels, now)
	}))
	defer srv.Close()
	src, err := promsource.New(promsource.Config{URL: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	v, err := LoadFleet(context.Background(), src, 15*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Fleet.Nodes) == 0 {
		t.Fatal("no node read from the fake Prometheus")
	}
	var b bytes.Buffer
	if err := fleet.WriteTextLang(&b, v, i18n.For("zh")); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(b.String(), "\x1b\a") {
		t.Errorf("the fleet's --once text sends a control character:\n%q", b.String())
	}
	if !strings.Contains(b.String(), "^[") {
		t.Errorf("the hostile label is not shown escaped:\n%s", b.String())
	}
}
