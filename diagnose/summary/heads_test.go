package summary

import (
	"reflect"
	"testing"

	jsonv1 "github.com/go-json-experiment/json/v1"
)

var headSeeds = []string{
	`[]`,
	` [ ] `,
	`[{"rule":"thermal_throttle","severity":"warning","gpu":3,"pid":0,"title":"t \"q\" {x}","evidence":"e","since":"2026-05-01T12:00:00Z","last_seen":"2026-05-01T12:00:00Z","i18n":{"title":{"id":"a","args":{"gpu":"7","rule":"x"}}},"uses":[{"gpu":1}]}]`,
	`[{"rule":"a","severity":"critical","gpu":-1,"pid":4242},{"rule":"b","severity":"info","gpu":0,"pid":0}]`,
	`[{"rule":"a","rule":"b","gpu":1,"gpu":2}]`,
	`[{}]`,
	`[{"Rule":"a"}]`,
	`[{"g_pu":2}]`,
	`[{"rule":"a\u00e9"}]`,
	`[{"rule":"é"}]`,
	`[{"rule":null}]`,
	`[null]`,
	`null`,
	`{}`,
	`[{"gpu":1.0}]`,
	`[{"gpu":01}]`,
	`[{"gpu":1e2}]`,
	`[{"gpu":99999999999999999999}]`,
	`[{"severity":"warn"}]`,
	`[{"severity":"nope"}]`,
	`[{"severity":1}]`,
	`[{"x":[1,{"y":"}"}],"rule":"r"}]`,
	`[{"rule":"a"},]`,
	`[{"rule":"a"}] x`,
}

// readHeads reads a list as jsonv1 does, or leaves it to jsonv1.
func checkHeads(t *testing.T, list string) (fast bool) {
	got, ok := readHeads([]byte(list), make([]findingHead, 1, 4))
	var want []findingHead
	err := jsonv1.Unmarshal([]byte(list), &want)
	if !ok {
		return false
	}
	if err != nil {
		t.Fatalf("%s: read as %+v, the general decoder fails: %v", list, got, err)
	}
	if len(got) == 0 && len(want) == 0 {
		return true
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: read as %+v, want %+v", list, got, want)
	}
	return true
}

func TestReadHeadsAgrees(t *testing.T) {
	fast := 0
	for _, s := range headSeeds {
		if checkHeads(t, s) {
			fast++
		}
	}
	for _, s := range headSeeds[:5] { // as the recorder writes them
		if !checkHeads(t, s) {
			t.Fatalf("%s left to the general decoder", s)
		}
	}
	if fast == len(headSeeds) {
		t.Fatal("nothing left to the general decoder")
	}
}

func FuzzReadHeads(f *testing.F) {
	for _, s := range headSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !jsonv1.Valid([]byte(s)) {
			return // readHeads is given valid JSON only
		}
		checkHeads(t, s)
	})
}
