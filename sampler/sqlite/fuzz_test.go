package sqlite

import (
	"bytes"
	"os"
	"testing"
)

// FuzzOpenAndScan: any bytes give a database or an error, and every table
// of one scans to its end or to an error: never a panic, a hang, or memory
// beyond the file's size (docs/fuzzing.md). Seeds (testdata/INDEX.md): a
// real Nsight Systems export cut to five tables on 512-byte pages, and a
// small database with overflow chains. The fuzzer minimises every new input
// it keeps, which takes minutes for one of hundreds of KiB, so the larger
// real exports are left to the tests (sqlitecheck).
func FuzzOpenAndScan(f *testing.F) {
	for _, p := range []string{"testdata/nsys_seed.sqlite", "testdata/small.sqlite"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		db, err := OpenReaderAt(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		for _, tb := range db.Tables() {
			rows := 0
			_ = db.Scan(&tb, func(_ int64, row []Value) error {
				rows++
				if len(row) < len(tb.Columns) {
					t.Fatalf("%s: a row of %d values, %d columns", tb.Name, len(row), len(tb.Columns))
				}
				return nil
			})
			if max := len(data) / 2; rows > max {
				t.Fatalf("%s: %d rows from %d bytes", tb.Name, rows, len(data))
			}
		}
	})
}
