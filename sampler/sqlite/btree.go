package sqlite

import (
	"encoding/binary"
	"fmt"
)

// Table b-tree page types ([sqlite-fileformat] §1.6).
const (
	interiorTable = 0x05
	leafTable     = 0x0d
)

// maxDepth bounds the descent: a real table b-tree of a few billion rows is
// under 10 levels deep; deeper is a damaged file.
const maxDepth = 40

// scan walks one table b-tree in rowid order.
type scan struct {
	db      *DB
	visited []uint64 // a bit per page: a page met twice is a cycle or a shared page
	bufs    [][]byte // a page buffer per level
	payload []byte   // a payload assembled from overflow pages
	ovbuf   []byte   // the overflow page being read
	row     []Value
	ncols   int
	alias   int // the INTEGER PRIMARY KEY column, which holds the rowid; -1 when none
	real    []bool
	fn      func(rowid int64, row []Value) error
}

func (s *scan) visit(n uint32) error {
	if n < 1 || n > s.db.pageCount {
		return fmt.Errorf("damaged SQLite database: a reference to page %d, outside its %d pages", n, s.db.pageCount)
	}
	w, bit := (n-1)/64, uint64(1)<<((n-1)%64)
	if s.visited[w]&bit != 0 {
		return fmt.Errorf("damaged SQLite database: page %d is reached twice (a cycle)", n)
	}
	s.visited[w] |= bit
	return nil
}

func (s *scan) buf(depth int) []byte {
	for len(s.bufs) <= depth {
		s.bufs = append(s.bufs, make([]byte, s.db.pageSize))
	}
	return s.bufs[depth]
}

// walk reads page n, depth levels below the root, and everything under it.
func (s *scan) walk(n uint32, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("damaged SQLite database: the b-tree is over %d levels deep at page %d", maxDepth, n)
	}
	if err := s.visit(n); err != nil {
		return err
	}
	p := s.buf(depth)
	if err := s.db.page(n, p); err != nil {
		return err
	}
	off := 0
	if n == 1 {
		off = headerSize
	}
	typ := p[off]
	hdr := 8
	if typ == interiorTable {
		hdr = 12
	} else if typ != leafTable {
		return fmt.Errorf("damaged SQLite database: page %d is not a table b-tree page (type 0x%02x)", n, typ)
	}
	cells := int(binary.BigEndian.Uint16(p[off+3:]))
	ptrs := off + hdr
	if ptrs+2*cells > s.db.usable {
		return fmt.Errorf("damaged SQLite database: page %d says %d cells, more than fit", n, cells)
	}
	for i := range cells {
		c := int(binary.BigEndian.Uint16(p[ptrs+2*i:]))
		if c < ptrs+2*cells || c >= s.db.usable {
			return fmt.Errorf("damaged SQLite database: cell %d of page %d is at offset %d, outside the page's cell area", i, n, c)
		}
		if typ == interiorTable {
			if c+4 > s.db.usable {
				return fmt.Errorf("damaged SQLite database: cell %d of page %d runs off the page", i, n)
			}
			if err := s.walk(binary.BigEndian.Uint32(p[c:]), depth+1); err != nil {
				return err
			}
			continue
		}
		if err := s.leafCell(p[:s.db.usable], c, n); err != nil {
			return err
		}
	}
	if typ == interiorTable {
		return s.walk(binary.BigEndian.Uint32(p[off+8:]), depth+1)
	}
	return nil
}

// leafCell decodes the cell at offset c of leaf page n and hands its row on.
func (s *scan) leafCell(p []byte, c int, n uint32) error {
	size, k := uvarint(p[c:])
	if k == 0 {
		return fmt.Errorf("damaged SQLite database: a cell of page %d runs off the page", n)
	}
	rowid, k2 := uvarint(p[c+k:])
	if k2 == 0 {
		return fmt.Errorf("damaged SQLite database: a cell of page %d runs off the page", n)
	}
	c += k + k2
	// No payload is larger than the file's pages could hold.
	if size > uint64(s.db.pageCount)*uint64(s.db.usable) {
		return fmt.Errorf("damaged SQLite database: a row of page %d says %d bytes, more than the file holds", n, size)
	}
	local := s.db.localSize(int(size))
	if c+local > len(p) {
		return fmt.Errorf("damaged SQLite database: a row of page %d runs off the page", n)
	}
	payload := p[c : c+local]
	if local < int(size) {
		if c+local+4 > len(p) {
			return fmt.Errorf("damaged SQLite database: a row of page %d runs off the page", n)
		}
		var err error
		if payload, err = s.overflow(payload, int(size), binary.BigEndian.Uint32(p[c+local:])); err != nil {
			return err
		}
	}
	row, err := decodeRecord(payload, s.row[:0], s.ncols)
	if err != nil {
		return fmt.Errorf("damaged SQLite database: row %d (page %d): %w", int64(rowid), n, err)
	}
	s.row = row
	if s.alias >= 0 && s.alias < len(row) && row[s.alias].Type == Null {
		row[s.alias] = Value{Type: Integer, Int: int64(rowid)}
	}
	for i, r := range s.real {
		if r && i < len(row) && row[i].Type == Integer {
			row[i] = Value{Type: Float, Float: float64(row[i].Int)} // stored as an integer to save space, read as REAL
		}
	}
	return s.fn(int64(rowid), row)
}

// localSize is how much of a payload of size bytes sits on the leaf page
// itself; the rest is on overflow pages ([sqlite-fileformat] §1.6).
func (db *DB) localSize(size int) int {
	u := db.usable
	x := u - 35
	if size <= x {
		return size
	}
	m := (u-12)*32/255 - 23
	k := m + (size-m)%(u-4)
	if k <= x {
		return k
	}
	return m
}

// overflow joins the local part of a payload with its overflow chain.
func (s *scan) overflow(local []byte, size int, next uint32) ([]byte, error) {
	s.payload = append(s.payload[:0], local...)
	if s.ovbuf == nil {
		s.ovbuf = make([]byte, s.db.pageSize)
	}
	buf := s.ovbuf
	for len(s.payload) < size {
		if next == 0 {
			return nil, fmt.Errorf("damaged SQLite database: a row's overflow chain ends %d bytes early", size-len(s.payload))
		}
		if err := s.visit(next); err != nil {
			return nil, err
		}
		if err := s.db.page(next, buf); err != nil {
			return nil, err
		}
		take := min(size-len(s.payload), s.db.usable-4)
		s.payload = append(s.payload, buf[4:4+take]...)
		next = binary.BigEndian.Uint32(buf)
	}
	return s.payload, nil
}
