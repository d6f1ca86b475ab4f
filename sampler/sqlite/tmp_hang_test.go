package sqlite

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

func TestTmpHang(t *testing.T) {
	fs, _ := filepath.Glob("testdata/*.sqlite")
	fs = append(fs, "/tmp/nsys/small_p4.sqlite")
	r := rand.New(rand.NewSource(2))
	for _, f := range fs {
		seed, _ := os.ReadFile(f)
		for it := 0; it < 3000; it++ {
			d := append([]byte{}, seed...)
			for k := 0; k < 1+r.Intn(20); k++ {
				switch r.Intn(4) {
				case 0:
					d[r.Intn(len(d))] = byte(r.Intn(256))
				case 1:
					d[r.Intn(len(d))] = 0xff
				case 2:
					d[r.Intn(len(d))] = 0
				case 3:
					i := r.Intn(len(d) - 4)
					d[i], d[i+1] = 0, byte(r.Intn(8))
				}
			}
			done := make(chan struct{})
			go func() {
				defer close(done)
				db, err := OpenReaderAt(bytes.NewReader(d), int64(len(d)))
				if err != nil {
					return
				}
				for _, tb := range db.Tables() {
					db.Scan(&tb, func(int64, []Value) error { return nil })
				}
			}()
			select {
			case <-done:
			case <-time.After(3 * time.Second):
				os.WriteFile("/tmp/nsys/hang.bin", d, 0o644)
				buf := make([]byte, 1<<20)
				n := runtime.Stack(buf, true)
				t.Fatalf("hang:\n%s", buf[:n])
			}
		}
	}
}
