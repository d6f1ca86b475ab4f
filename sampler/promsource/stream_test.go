package promsource

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

// fakeAPI answers /api/v1/query and /api/v1/query_range with canned
// bodies; post405 makes it refuse POST, as some proxies do.
func fakeAPI(t *testing.T, post405 bool, bodies map[string]string) *Source {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if post405 && r.Method == http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		if err := r.ParseForm(); err != nil || r.Form.Get("query") == "" {
			t.Errorf("no query in %s %s", r.Method, r.URL)
		}
		body, ok := bodies[r.Form.Get("query")]
		if !ok {
			w.WriteHeader(http.StatusBadRequest)
			body = `{"status":"error","errorType":"bad_data","error":"parse error"}`
		}
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	s, err := New(Config{URL: srv.URL + "/"})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestQueryEachStreamsAVector(t *testing.T) {
	for _, post405 := range []bool{false, true} {
		s := fakeAPI(t, post405, map[string]string{
			"up": `{"status":"success","warnings":["w"],"data":{"resultType":"vector","result":[` +
				`{"metric":{"job":"j","instance":"a"},"value":[1700000000.5,"1"]},` +
				`{"metric":{"job":"j","instance":"b"},"value":[1700000000.5,"0"]}]}}`,
			"scalar": `{"status":"success","data":{"resultType":"scalar","result":[1700000000,"1"]}}`,
		})
		got := map[string]float64{}
		if err := s.queryEach(context.Background(), "up", time.Now(), func(m metric, v float64) { got[string(m["instance"])] = v }); err != nil {
			t.Fatal(err)
		}
		if len(got) != 2 || got["a"] != 1 || got["b"] != 0 {
			t.Errorf("post405 %v: %v", post405, got)
		}
		err := s.queryEach(context.Background(), "scalar", time.Now(), func(metric, float64) {})
		if err == nil || !strings.Contains(err.Error(), "want a vector") {
			t.Errorf("a scalar: %v", err)
		}
		err = s.queryEach(context.Background(), "bad(", time.Now(), func(metric, float64) {})
		if err == nil || !strings.Contains(err.Error(), "bad_data: parse error (HTTP 400)") {
			t.Errorf("a bad query: %v", err)
		}
	}
}

func TestQueryRangeEachStreamsAMatrix(t *testing.T) {
	s := fakeAPI(t, false, map[string]string{
		"m": `{"status":"success","data":{"resultType":"matrix","result":[` +
			`{"metric":{"gpu":"0"},"values":[[1700000000,"1"],[1700000030,"2"]]},` +
			`{"metric":{"gpu":"1"},"values":[[1700000000,"3"]]}]}}`,
	})
	var n, points int
	err := s.queryRangeEach(context.Background(), "m", time.Unix(1700000000, 0), time.Unix(1700000030, 0), 30*time.Second,
		func(ss *sampleStream) { n++; points += len(ss.Values) })
	if err != nil || n != 2 || points != 3 {
		t.Errorf("%d series, %d points, err %v", n, points, err)
	}
}

// A target that never came up has only its up series: it is listed down
// in a job that has GPU nodes, and left out in another job.
func TestFleetListsTargetsThatNeverCameUp(t *testing.T) {
	probe, _ := New(Config{URL: "http://x"})
	inv := probe.inventory(fmt.Sprintf("last_over_time(%s[1h])", probe.names(utilNames)))
	s := fakeAPI(t, false, map[string]string{
		inv: `{"status":"success","data":{"resultType":"vector","result":[` +
			`{"metric":{"job":"gpu","instance":"a:9400","gpu":"0","Hostname":"a"},"value":[1700000000,"50"]}]}}`,
		probe.sel("up"): `{"status":"success","data":{"resultType":"vector","result":[` +
			`{"metric":{"job":"gpu","instance":"a:9400"},"value":[1700000000,"1"]},` +
			`{"metric":{"job":"gpu","instance":"b:9400"},"value":[1700000000,"0"]},` +
			`{"metric":{"job":"node","instance":"c:9100"},"value":[1700000000,"0"]}]}}`,
	})
	f, err := s.Fleet(context.Background(), time.Unix(1700000000, 0), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range f.Nodes {
		got = append(got, fmt.Sprintf("%s up=%v gpus=%d", n.Key.Instance, n.Up, len(n.GPUs)))
	}
	slices.Sort(got)
	if want := []string{"a:9400 up=true gpus=1", "b:9400 up=false gpus=0"}; !slices.Equal(got, want) {
		t.Errorf("nodes %q, want %q", got, want)
	}
}
