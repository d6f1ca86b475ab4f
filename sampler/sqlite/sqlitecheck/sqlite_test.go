package sqlitecheck

import (
	"database/sql"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpuscope/gpuscope/sampler/sqlite"
)

// build writes a database with SQLite itself (modernc, tests only).
func build(t testing.TB, name string, stmts ...string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	conn, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetMaxOpenConns(1)
	for _, s := range stmts {
		if _, err := conn.Exec(s); err != nil {
			t.Fatalf("%.80s: %v", s, err)
		}
	}
	return path
}

// insertMany inserts n rows with SQL's own generator.
func insertMany(table, values string, n int) string {
	return fmt.Sprintf(`WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM c WHERE i < %d) INSERT INTO %s SELECT %s FROM c`, n, table, values)
}

func TestEveryStorageClassAndWidth(t *testing.T) {
	stmts := []string{`CREATE TABLE v (a, b REAL, c TEXT, d BLOB)`}
	for _, i := range []int64{0, 1, -1, 127, -128, 128, 32767, -32769, 1 << 23, -(1 << 23) - 1, 1 << 31, 1<<47 - 1, -(1 << 47), math.MaxInt64, math.MinInt64} {
		stmts = append(stmts, fmt.Sprintf(`INSERT INTO v VALUES (%d, %d.5, 'x%d', x'%016x')`, i, i%1000, i, uint64(i)))
	}
	stmts = append(stmts, `INSERT INTO v VALUES (NULL, NULL, '', x'')`, `INSERT INTO v VALUES (1e308, -0.0, 'ünïcødé ☃', NULL)`,
		`INSERT INTO v VALUES ('text in an untyped column', 3, 4, 5)`)
	tables, rows := crossCheck(t, build(t, "types.sqlite", stmts...))
	if tables != 1 || rows != len(stmts)-1 {
		t.Fatalf("checked %d tables, %d rows", tables, rows)
	}
}

func TestDeepTreesAndOverflowAtEveryPageSize(t *testing.T) {
	for _, ps := range []int{512, 4096, 65536} {
		t.Run(fmt.Sprint(ps), func(t *testing.T) {
			path := build(t, "deep.sqlite",
				fmt.Sprintf(`PRAGMA page_size=%d`, ps),
				`CREATE TABLE kernels (start INTEGER NOT NULL, "end" INTEGER, name TEXT, blob BLOB)`,
				insertMany("kernels", `i*1000, i*1000+i%97, 'kernel_'||(i%50), NULL`, 20000),
				// payloads from a few bytes to many overflow pages
				`CREATE TABLE big (id INTEGER PRIMARY KEY, body TEXT, data BLOB)`,
				insertMany("big", `i*7, printf('%.*c', i*i*13 % 300000, 'z'), randomblob(i*997 % 200000)`, 60),
				`DELETE FROM kernels WHERE start % 3000 = 0`, // freeblocks and emptied pages
				`UPDATE big SET body = body || 'tail' WHERE id % 2 = 0`,
			)
			if _, rows := crossCheck(t, path); rows < 13000 {
				t.Fatalf("only %d rows", rows)
			}
		})
	}
}

func TestRowidAliasesAndAddedColumns(t *testing.T) {
	path := build(t, "alias.sqlite",
		// nsys's StringIds: id INTEGER NOT NULL PRIMARY KEY is the rowid
		`CREATE TABLE StringIds (
    -- Consolidation of repetitive string values.
    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- ID reference value (a, b).
    value                       TEXT      NOT NULL                     -- String value.
)`,
		`INSERT INTO StringIds VALUES (-5, 'neg'), (0, 'zero'), (1000000000000, 'big')`,
		`CREATE TABLE "odd name" ([col one] int, "col ""two""" text, `+"`three`"+` real, PRIMARY KEY ("col ""two"""))`,
		`INSERT INTO "odd name" VALUES (1, 'a', 1.5), (2, 'b', NULL)`,
		`CREATE TABLE tk (x text, k INTEGER, y, PRIMARY KEY (k))`,
		`INSERT INTO tk VALUES ('p', 7, 1), ('q', 9, 2)`,
		`CREATE TABLE desc_key (k INTEGER PRIMARY KEY DESC, v)`,
		`INSERT INTO desc_key VALUES (3, 'c'), (1, 'a')`,
		`CREATE TABLE grows (a INTEGER)`,
		`INSERT INTO grows VALUES (1), (2)`,
		`ALTER TABLE grows ADD COLUMN b TEXT`,
		`INSERT INTO grows VALUES (3, 'three')`,
	)
	crossCheck(t, path)
	db, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got := db.Table("odd name").Columns; strings.Join(got, "|") != `col one|col "two"|three` {
		t.Errorf("columns %q", got)
	}
}

func TestAutoVacuumPointerMapsAndWithoutRowid(t *testing.T) {
	path := build(t, "av.sqlite", `PRAGMA auto_vacuum=FULL`, `PRAGMA page_size=1024`,
		`CREATE TABLE a (x, y)`, insertMany("a", `i, randomblob(700)`, 3000),
		`CREATE TABLE w (k TEXT PRIMARY KEY, v) WITHOUT ROWID`, `INSERT INTO w VALUES ('a', 1)`,
		`DELETE FROM a WHERE x % 2 = 1`)
	db, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Scan(db.Table("w"), func(int64, []sqlite.Value) error { return nil })
	if err == nil || !strings.Contains(err.Error(), "WITHOUT ROWID") {
		t.Errorf("WITHOUT ROWID table: %v", err)
	}
	n := 0
	if err := db.Scan(db.Table("a"), func(int64, []sqlite.Value) error { n++; return nil }); err != nil || n != 1500 {
		t.Errorf("a: %d rows, %v", n, err)
	}
}

func TestPendingWriteAheadLogRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "wal.sqlite")
	conn, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetMaxOpenConns(1)
	for _, s := range []string{`PRAGMA journal_mode=WAL`, `PRAGMA wal_autocheckpoint=0`, `CREATE TABLE t (a)`, `INSERT INTO t VALUES (1)`} {
		if _, err := conn.Exec(s); err != nil {
			t.Fatal(err)
		}
	}
	if st, err := os.Stat(path + "-wal"); err != nil || st.Size() == 0 {
		t.Skipf("no pending -wal to test with: %v", err)
	}
	_, err = sqlite.Open(path)
	if err == nil || !strings.Contains(err.Error(), "-wal is beside it") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("pending WAL: %v", err)
	}
}

func TestBadFilesOneLineEach(t *testing.T) {
	good := build(t, "good.sqlite", `CREATE TABLE t (a, b)`, insertMany("t", `i, randomblob(300)`, 200))
	raw, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		data []byte
		want string
	}{
		"not sqlite":  {[]byte("{\"traceEvents\": []}"), "not a SQLite database"},
		"header only": {raw[:60], "truncated"},
		"cut":         {raw[:len(raw)/2], "truncated"},
		"page size":   {patch(raw, 16, 0, 3), "page size"},
		"utf16":       {patch(raw, 56, 0, 0, 0, 2), "UTF-16"},
	} {
		_, err := sqlite.OpenReaderAt(strings.NewReader(string(tc.data)), int64(len(tc.data)))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line with %q", name, err, tc.want)
		}
	}
}

func patch(b []byte, at int, with ...byte) []byte {
	out := append([]byte{}, b...)
	copy(out[at:], with)
	return out
}

// TestRealExportsReadAsSQLiteReadsThem: every table of every real Nsight
// Systems export in the corpus (sampler/trace/testdata/INDEX.md), and the
// fuzzing seed, read alike.
func TestRealExportsReadAsSQLiteReadsThem(t *testing.T) {
	paths, _ := filepath.Glob("../../trace/testdata/*.sqlite")
	paths = append(paths, "../testdata/small.sqlite")
	if len(paths) < 5 {
		t.Fatalf("only %d databases: %v", len(paths), paths)
	}
	for _, p := range paths {
		tables, rows := crossCheck(t, p)
		if tables < 2 || rows == 0 {
			t.Errorf("%s: %d tables, %d rows checked", p, tables, rows)
		}
	}
}
