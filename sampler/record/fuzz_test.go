package record

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"testing"
)

func FuzzReader(f *testing.F) {
	hdr := `{"gpuscope_recording":1,"host":"h","gpus":[{"index":0}],"interval_ms":1000,"source":"nvml","started":"2026-05-01T12:00:00Z"}` + "\n"
	snap, _ := json.Marshal(Entry{Snapshot: realisticSnapshot(1)})
	f.Add([]byte(hdr + string(snap) + "\n"))
	f.Add([]byte(hdr + `{"gpus":[{"index":0,"util":null,"clock_events":["idle"]}]}` + "\n{"))
	f.Add([]byte(""))
	f.Add([]byte(`{"gpuscope_recording":9}`))
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(hdr + string(snap) + "\n"))
	zw.Flush()
	f.Add(gz.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, lenient := range []bool{false, true} {
			r, err := NewReader(bytes.NewReader(data), "fuzz", Options{Lenient: lenient})
			if err != nil {
				continue
			}
			for range 10000 {
				if _, err := r.Next(); err != nil {
					break
				}
			}
			_ = r.Warnings()
			r.Close()
		}
	})
}
