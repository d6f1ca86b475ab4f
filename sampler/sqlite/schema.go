package sqlite

import (
	"fmt"
	"strings"
)

// Table is one table of the schema.
type Table struct {
	Name string
	// Columns are the declared columns in order; nil when the statement
	// could not be read (the rows still come, by position).
	Columns []string
	root    uint32
	alias   int // the INTEGER PRIMARY KEY column (it holds the rowid); -1 when none
	noRowid bool
	real    []bool // columns of REAL affinity, whose integral values are stored as integers
}

// Column is the index of the column named name (SQLite's names are
// case-insensitive), -1 when the table has none: a column a newer writer
// added is then read as absent.
func (t *Table) Column(name string) int {
	for i, c := range t.Columns {
		if strings.EqualFold(c, name) {
			return i
		}
	}
	return -1
}

// Tables are the schema's tables, in sqlite_master's order.
func (db *DB) Tables() []Table { return db.tables }

// Table finds a table by name (case-insensitive); nil when there is none.
func (db *DB) Table(name string) *Table {
	for i := range db.tables {
		if strings.EqualFold(db.tables[i].Name, name) {
			return &db.tables[i]
		}
	}
	return nil
}

// Scan calls fn for every row of t in rowid order. row has at least
// len(t.Columns) values; it and the bytes in it are reused after fn returns.
// Scan stops at fn's first error and returns it.
func (db *DB) Scan(t *Table, fn func(rowid int64, row []Value) error) error {
	if t.noRowid {
		return fmt.Errorf("table %s is WITHOUT ROWID, which this reader does not read", t.Name)
	}
	s := &scan{db: db, visited: make([]uint64, (db.pageCount+63)/64), ncols: len(t.Columns), alias: t.alias, real: t.real, fn: fn}
	return s.walk(t.root, 0)
}

// readSchema reads sqlite_master, the table b-tree rooted at page 1
// ([sqlite-fileformat] §2.6).
func (db *DB) readSchema() error {
	master := &Table{Name: "sqlite_master", Columns: []string{"type", "name", "tbl_name", "rootpage", "sql"}, root: 1, alias: -1}
	return db.Scan(master, func(_ int64, row []Value) error {
		if string(row[0].Bytes) != "table" || row[0].Type != Text {
			return nil
		}
		root := row[3].Int64()
		if root <= 0 || root > int64(db.pageCount) {
			return nil // a virtual table has no b-tree; a damaged entry reads as no table
		}
		cols, alias, noRowid, real := parseCreate(string(row[4].Bytes))
		db.tables = append(db.tables, Table{Name: row[1].String(), Columns: cols, root: uint32(root), alias: alias, noRowid: noRowid, real: real})
		return nil
	})
}

// parseCreate reads the column names of a CREATE TABLE statement, which
// column is the rowid's alias (an INTEGER PRIMARY KEY: [sqlite-createtable]
// "ROWIDs and the INTEGER PRIMARY KEY"), whether it is WITHOUT ROWID, and
// which columns have REAL affinity.
func parseCreate(sql string) (cols []string, alias int, noRowid bool, real []bool) {
	alias = -1
	toks := tokens(sql)
	open := -1
	for i, t := range toks {
		if t == "(" {
			open = i
			break
		}
	}
	if open < 0 {
		return nil, -1, false, nil
	}
	var defs [][]string
	depth, cur := 0, []string(nil)
	end := len(toks)
	for i := open + 1; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t == "(":
			depth++
		case t == ")" && depth == 0:
			end = i
		case t == ")":
			depth--
		case t == "," && depth == 0:
			defs, cur = append(defs, cur), nil
			continue
		}
		if end != len(toks) {
			break
		}
		cur = append(cur, t)
	}
	defs = append(defs, cur)
	for _, t := range toks[min(end+1, len(toks)):] {
		if strings.EqualFold(t, "ROWID") {
			noRowid = true
		}
	}
	types := map[string]string{}
	var pkCols []string
	for _, d := range defs {
		if len(d) == 0 {
			continue
		}
		switch strings.ToUpper(d[0]) {
		case "CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN":
			if len(d) > 3 && strings.EqualFold(d[0], "PRIMARY") {
				pkCols = tableKey(d)
			}
			continue
		}
		name := unquote(d[0])
		typ := ""
		if len(d) > 1 && !isConstraintWord(d[1]) {
			typ = strings.ToUpper(unquote(d[1]))
		}
		types[strings.ToLower(name)] = typ
		if typ == "INTEGER" && hasPrimaryKey(d) {
			alias = len(cols)
		}
		cols = append(cols, name)
		real = append(real, realAffinity(d[1:]))
	}
	if len(pkCols) == 1 && types[strings.ToLower(pkCols[0])] == "INTEGER" {
		for i, c := range cols {
			if strings.EqualFold(c, pkCols[0]) {
				alias = i
			}
		}
	}
	if noRowid {
		alias = -1
	}
	return cols, alias, noRowid, real
}

// realAffinity: the declared type's words hold REAL, FLOA or DOUB and no INT
// ([sqlite-datatypes] §3.1 "Determination of column affinity").
func realAffinity(def []string) bool {
	var typ []string
	for _, t := range def {
		if isConstraintWord(t) || t == "(" {
			break
		}
		typ = append(typ, strings.ToUpper(unquote(t)))
	}
	s := strings.Join(typ, " ")
	return !strings.Contains(s, "INT") && !strings.Contains(s, "CHAR") && !strings.Contains(s, "CLOB") && !strings.Contains(s, "TEXT") &&
		(strings.Contains(s, "REAL") || strings.Contains(s, "FLOA") || strings.Contains(s, "DOUB"))
}

// hasPrimaryKey: PRIMARY KEY among a column's constraints, not DESC (an
// "INTEGER PRIMARY KEY DESC" column is no alias of the rowid).
func hasPrimaryKey(d []string) bool {
	for i := 2; i+1 < len(d); i++ {
		if strings.EqualFold(d[i], "PRIMARY") && strings.EqualFold(d[i+1], "KEY") {
			return i+2 >= len(d) || !strings.EqualFold(d[i+2], "DESC")
		}
	}
	return false
}

// tableKey is the columns of a table constraint PRIMARY KEY (a, b).
func tableKey(d []string) []string {
	var out []string
	for _, t := range d[2:] {
		switch t {
		case "(", ")", ",":
			continue
		}
		if strings.EqualFold(t, "ASC") || strings.EqualFold(t, "DESC") || strings.EqualFold(t, "COLLATE") {
			return nil // no plain key: not an alias
		}
		out = append(out, unquote(t))
	}
	return out
}

func isConstraintWord(t string) bool {
	switch strings.ToUpper(t) {
	case "CONSTRAINT", "PRIMARY", "NOT", "NULL", "UNIQUE", "CHECK", "DEFAULT", "COLLATE", "REFERENCES", "GENERATED", "AS":
		return true
	}
	return false
}

func unquote(t string) string {
	if len(t) >= 2 {
		switch {
		case t[0] == '"' && t[len(t)-1] == '"':
			return strings.ReplaceAll(t[1:len(t)-1], `""`, `"`)
		case t[0] == '`' && t[len(t)-1] == '`':
			return strings.ReplaceAll(t[1:len(t)-1], "``", "`")
		case t[0] == '[' && t[len(t)-1] == ']':
			return t[1 : len(t)-1]
		case t[0] == '\'' && t[len(t)-1] == '\'':
			return strings.ReplaceAll(t[1:len(t)-1], "''", "'")
		}
	}
	return t
}

// tokens splits SQL into words, quoted names and strings, and the single
// characters ( ) , — skipping comments (nsys's schema has a comment, with
// parentheses in it, after every column).
func tokens(sql string) []string {
	var out []string
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			for i < len(sql) && sql[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			j := strings.Index(sql[i+2:], "*/")
			if j < 0 {
				return out
			}
			i += j + 4
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case c == '(' || c == ')' || c == ',':
			out = append(out, sql[i:i+1])
			i++
		case c == '"' || c == '`' || c == '\'' || c == '[':
			closer := c
			if c == '[' {
				closer = ']'
			}
			j := i + 1
			for j < len(sql) {
				if sql[j] == closer {
					if closer != ']' && j+1 < len(sql) && sql[j+1] == closer {
						j += 2 // a doubled quote inside
						continue
					}
					break
				}
				j++
			}
			j = min(j+1, len(sql))
			out = append(out, sql[i:j])
			i = j
		default:
			j := i
			for j < len(sql) && !strings.ContainsRune(" \t\n\r\f(),\"`'[", rune(sql[j])) && !(sql[j] == '-' && j+1 < len(sql) && sql[j+1] == '-') {
				j++
			}
			if j == i {
				j++
			}
			out = append(out, sql[i:j])
			i = j
		}
	}
	return out
}
