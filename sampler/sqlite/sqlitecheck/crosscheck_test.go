package sqlitecheck

import (
	"database/sql"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler/sqlite"

	_ "modernc.org/sqlite" // tests only: writes the databases and is the reference reader
)

// sqlRows reads every row of table with SQLite itself: rowid first.
func sqlRows(t testing.TB, conn *sql.DB, table string) [][]any {
	t.Helper()
	rows, err := conn.Query(fmt.Sprintf(`SELECT rowid, * FROM "%s" ORDER BY rowid`, strings.ReplaceAll(table, `"`, `""`)))
	if err != nil {
		t.Fatalf("%s: %v", table, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out [][]any
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, vals)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// ourRows reads the same with this package, in the same shape.
func ourRows(t testing.TB, db *sqlite.DB, table *sqlite.Table) [][]any {
	t.Helper()
	var out [][]any
	err := db.Scan(table, func(rowid int64, row []sqlite.Value) error {
		vals := []any{rowid}
		for _, v := range row[:len(table.Columns)] {
			vals = append(vals, goValue(v))
		}
		out = append(out, vals)
		return nil
	})
	if err != nil {
		t.Fatalf("%s: %v", table.Name, err)
	}
	return out
}

func goValue(v sqlite.Value) any {
	switch v.Type {
	case sqlite.Integer:
		return v.Int
	case sqlite.Float:
		return v.Float
	case sqlite.Text:
		return string(v.Bytes)
	case sqlite.Blob:
		return append([]byte{}, v.Bytes...)
	}
	return nil
}

// crossCheck holds every table of the database at path equal, row by row
// and value by value, as SQLite reads it and as this package reads it.
func crossCheck(t *testing.T, path string) (tables, rows int) {
	t.Helper()
	conn, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	db, err := sqlite.Open(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	defer db.Close()
	var names []string
	r, err := conn.Query(`SELECT name FROM sqlite_master WHERE type='table' AND rootpage > 0`)
	if err != nil {
		t.Fatal(err)
	}
	for r.Next() {
		var n string
		r.Scan(&n)
		names = append(names, n)
	}
	r.Close()
	if len(names) != len(db.Tables()) {
		t.Errorf("%s: SQLite sees %d tables, we see %d", filepath.Base(path), len(names), len(db.Tables()))
	}
	for _, name := range names {
		tb := db.Table(name)
		if tb == nil {
			t.Errorf("%s: table %s not found", filepath.Base(path), name)
			continue
		}
		want, got := sqlRows(t, conn, name), ourRows(t, db, tb)
		if len(want) != len(got) {
			t.Errorf("%s.%s: SQLite reads %d rows, we read %d", filepath.Base(path), name, len(want), len(got))
			continue
		}
		for i := range want {
			if !sameRow(want[i], got[i]) {
				t.Errorf("%s.%s row %d: SQLite %v, we %v", filepath.Base(path), name, i, want[i], got[i])
				break
			}
		}
		tables, rows = tables+1, rows+len(want)
	}
	return tables, rows
}

func sameRow(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		switch x := a[i].(type) {
		case []byte:
			y, ok := b[i].([]byte)
			if !ok || string(x) != string(y) {
				return false
			}
		case float64:
			y, ok := b[i].(float64)
			if !ok || (x != y && !(math.IsNaN(x) && math.IsNaN(y))) {
				return false
			}
		default:
			if a[i] != b[i] {
				return false
			}
		}
	}
	return true
}
