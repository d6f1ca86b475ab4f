package sqlite

import (
	"encoding/binary"
	"errors"
	"math"
	"strconv"
)

// Type is a value's storage class.
type Type uint8

// The storage classes ([sqlite-fileformat] §2.1).
const (
	Null Type = iota
	Integer
	Float
	Text
	Blob
)

// Value is one column of one row. Bytes (Text, Blob) points into the
// reader's buffers: it is valid only during the Scan callback that got it.
type Value struct {
	Type  Type
	Int   int64
	Float float64
	Bytes []byte
}

// Int64 is the value as an integer: a Float truncated, 0 for anything else.
func (v Value) Int64() int64 {
	switch v.Type {
	case Integer:
		return v.Int
	case Float:
		if v.Float >= math.MinInt64 && v.Float <= math.MaxInt64 {
			return int64(v.Float)
		}
	}
	return 0
}

// String is a Text or Blob value as a string (a copy), an Integer or Float
// in decimal, "" for Null.
func (v Value) String() string {
	switch v.Type {
	case Text, Blob:
		return string(v.Bytes)
	case Integer:
		return strconv.FormatInt(v.Int, 10)
	case Float:
		return strconv.FormatFloat(v.Float, 'g', -1, 64)
	}
	return ""
}

// uvarint is SQLite's varint (big-endian, 7 bits a byte, the ninth byte
// whole: [sqlite-fileformat] §1.7); k is 0 when b ends first.
func uvarint(b []byte) (v uint64, k int) {
	for i := 0; i < 8; i++ {
		if i >= len(b) {
			return 0, 0
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i] < 0x80 {
			return v, i + 1
		}
	}
	if len(b) < 9 {
		return 0, 0
	}
	return v<<8 | uint64(b[8]), 9
}

var errRecord = errors.New("a record's header does not match its body")

// decodeRecord appends the values of a record to row, padded with Nulls to
// ncols (a column added by ALTER TABLE after the row was written is absent
// from it: [sqlite-fileformat] §2.1).
func decodeRecord(p []byte, row []Value, ncols int) ([]Value, error) {
	hs, k := uvarint(p)
	if k == 0 || hs < uint64(k) || hs > uint64(len(p)) {
		return row, errRecord
	}
	head, body := p[k:hs], p[hs:]
	for len(head) > 0 {
		st, n := uvarint(head)
		if n == 0 {
			return row, errRecord
		}
		head = head[n:]
		v, used, err := decodeValue(st, body)
		if err != nil {
			return row, err
		}
		body = body[used:]
		row = append(row, v)
	}
	for len(row) < ncols {
		row = append(row, Value{})
	}
	return row, nil
}

// intSizes are the byte widths of serial types 1 to 6.
var intSizes = [...]int{0, 1, 2, 3, 4, 6, 8}

func decodeValue(st uint64, body []byte) (Value, int, error) {
	switch {
	case st == 0:
		return Value{}, 0, nil
	case st <= 6:
		n := intSizes[st]
		if n > len(body) {
			return Value{}, 0, errRecord
		}
		var u uint64
		for _, c := range body[:n] {
			u = u<<8 | uint64(c)
		}
		shift := uint(64 - 8*n) // sign-extend from n bytes
		return Value{Type: Integer, Int: int64(u<<shift) >> shift}, n, nil
	case st == 7:
		if len(body) < 8 {
			return Value{}, 0, errRecord
		}
		return Value{Type: Float, Float: math.Float64frombits(binary.BigEndian.Uint64(body))}, 8, nil
	case st == 8 || st == 9:
		return Value{Type: Integer, Int: int64(st - 8)}, 0, nil
	case st < 12:
		return Value{}, 0, errors.New("a record uses reserved serial type " + strconv.FormatUint(st, 10))
	}
	n := (st - 12) / 2
	if n > uint64(len(body)) {
		return Value{}, 0, errRecord
	}
	t := Blob
	if st%2 == 1 {
		t = Text
	}
	return Value{Type: t, Bytes: body[:n:n]}, int(n), nil
}
