// Package sqlite reads SQLite database files, read only, with no C and no
// SQL engine: the file header, table b-trees (interior and leaf pages),
// overflow chains, the record format and the schema in sqlite_master, as
// the file format documents them ([sqlite-fileformat] in
// docs/references.md). It is what gpuscope needs to read an Nsight Systems
// export (`nsys export --type sqlite`) without linking a SQLite library:
// no indexes, no write-ahead log, no writing. Every length and page number
// read from the file is checked against the file, so a damaged file gives
// an error, never a panic, an unbounded allocation or a loop.
package sqlite

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// Magic is the first 16 bytes of every SQLite 3 database file.
const Magic = "SQLite format 3\x00"

// headerSize is the database header at the start of page 1
// ([sqlite-fileformat] §1.3).
const headerSize = 100

// DB is an open database file.
type DB struct {
	r         io.ReaderAt
	closer    io.Closer
	pageSize  int
	usable    int    // page size less the reserved bytes at each page's end
	pageCount uint32 // pages in the file
	tables    []Table
}

// IsSQLite says whether head, the start of a file, is a SQLite 3 database.
func IsSQLite(head []byte) bool { return bytes.HasPrefix(head, []byte(Magic)) }

// Open opens the database at path. A database in write-ahead-log mode whose
// -wal file is not empty is refused: its newest pages are in that log, which
// this reader does not read.
func Open(path string) (*DB, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	db, err := open(f, st.Size())
	if err == nil {
		err = pending(path)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	db.closer = f
	return db, nil
}

// pending refuses a database whose changes are still in a -wal file or a
// hot rollback -journal beside it: the main file alone is not the data.
func pending(path string) error {
	for _, side := range []string{"-wal", "-journal"} {
		if st, err := os.Stat(path + side); err == nil && st.Size() > 0 {
			return fmt.Errorf("%s%s is beside it (%d bytes): the database has changes not yet written into it; open it once with the sqlite3 shell (or let the program that writes it finish) and try again", path, side, st.Size())
		}
	}
	return nil
}

// OpenReaderAt reads a database of size bytes from r (tests, fuzzing).
func OpenReaderAt(r io.ReaderAt, size int64) (*DB, error) { return open(r, size) }

func open(r io.ReaderAt, size int64) (*DB, error) {
	var h [headerSize]byte
	n, err := r.ReadAt(h[:], 0)
	if n < len(Magic) || string(h[:len(Magic)]) != Magic {
		if err != nil && err != io.EOF {
			return nil, err
		}
		return nil, errors.New("not a SQLite database: it does not start with \"SQLite format 3\"")
	}
	if n < headerSize {
		return nil, fmt.Errorf("truncated SQLite database: %d bytes, shorter than its 100-byte header", size)
	}
	db := &DB{r: r}
	db.pageSize = int(binary.BigEndian.Uint16(h[16:]))
	if db.pageSize == 1 {
		db.pageSize = 65536
	}
	if db.pageSize < 512 || db.pageSize&(db.pageSize-1) != 0 {
		return nil, fmt.Errorf("damaged SQLite header: page size %d is not a power of two from 512 to 65536", db.pageSize)
	}
	db.usable = db.pageSize - int(h[20])
	if db.usable < 480 {
		return nil, fmt.Errorf("damaged SQLite header: %d reserved bytes leave too little of a %d-byte page", h[20], db.pageSize)
	}
	if h[21] != 64 || h[22] != 32 || h[23] != 32 {
		return nil, errors.New("damaged SQLite header: the payload fractions are not 64, 32, 32")
	}
	if enc := binary.BigEndian.Uint32(h[56:]); enc > 1 {
		return nil, errors.New("a UTF-16 SQLite database: only UTF-8 databases are read")
	}
	inFile := size / int64(db.pageSize)
	if inFile < 1 {
		return nil, fmt.Errorf("truncated SQLite database: %d bytes, shorter than one %d-byte page", size, db.pageSize)
	}
	count := int64(binary.BigEndian.Uint32(h[28:]))
	if count == 0 || binary.BigEndian.Uint32(h[24:]) != binary.BigEndian.Uint32(h[92:]) {
		count = inFile // the header's count is stale: the file's size says ([sqlite-fileformat] §1.3.8)
	}
	if count > inFile {
		return nil, fmt.Errorf("truncated SQLite database: the header says %d pages of %d bytes, the file holds %d (%d bytes); copy it again", count, db.pageSize, inFile, size)
	}
	db.pageCount = uint32(count)
	if err := db.readSchema(); err != nil {
		return nil, err
	}
	return db, nil
}

// Close closes the file Open opened.
func (db *DB) Close() error {
	if db.closer == nil {
		return nil
	}
	return db.closer.Close()
}

// page reads page number n (1-based) into buf, which is pageSize long.
func (db *DB) page(n uint32, buf []byte) error {
	if n < 1 || n > db.pageCount {
		return fmt.Errorf("damaged SQLite database: a reference to page %d, outside its %d pages", n, db.pageCount)
	}
	got, err := db.r.ReadAt(buf, int64(n-1)*int64(db.pageSize))
	if got == len(buf) {
		err = nil // ReadAt may say EOF with the last page read whole
	} else if err == nil || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	if err != nil {
		return fmt.Errorf("reading page %d: %w", n, err)
	}
	return nil
}
