package record

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"strconv"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/compress/gzip"
)

// A gzip recording's footer is one or more last gzip members that inflate
// to nothing: its payload is in their headers' extra fields (RFC 1952 §2.3.1.1,
// subfield "GS"), which gzip -dc, zcat and every gzip reader skip, so text
// tools see the lines they saw before. It holds a report's state of the
// whole file (summary.State, JSON, deflated), for report and compare to
// read instead of the lines, and what ties it to them:
//
//	version     footerVersion
//	crc         the CRC-32 (IEEE) of every byte before the footer
//	size        how many bytes that is
//	last        where the last member of lines starts
//	seq         the seq of the last line
//	state       the state, deflated
//	length      4 bytes: the footer's length, its members' headers included
//	magic       "GSF1"
//
// the first five 8 bytes each, all little-endian, cut into members of up
// to 64 KiB. Each member ends as an empty one does: 03 00 (an empty
// final block), a zero CRC and a zero length. ReadFooter finds it from the
// file's end and believes it only when every check holds
// (docs/user-guide.md, "The footer").
const (
	footerVersion = 1
	footerMagic   = "GSF1"
	footerFields  = 5 // version, crc, size, last, seq
	footerFixed   = footerFields*8 + 4 + len(footerMagic)
	// footerHead is a member's header up to the subfield's data: gzip's
	// magic, deflate, FEXTRA; no time, no OS; XLEN; "GS" and its length.
	footerHead = 10 + 2 + 4
	footerTail = 10 // 03 00, CRC-32 and ISIZE of nothing
	// maxFooterData is what one extra subfield holds (XLEN is 16 bits): a
	// larger state is cut over several such members.
	maxFooterData = 0xffff - 4
	// maxState bounds the state, deflated and inflated (a day of 8 GPUs
	// is ~40 KB deflated).
	maxState = 16 << 20
)

var (
	footerEnd = []byte{3, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	// errNoFooter is every way a file's end is not a footer that matches it.
	errNoFooter = errors.New("footer: none that matches the file")
)

// AppendFooter appends state, deflated, as the footer of the closed gzip
// recording at path. A file whose last member does not end in a line with
// a seq gets no footer (an error; the recording reads as before).
func AppendFooter(path string, state []byte) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	size, crc, err := sizeCRC(f, -1)
	if err != nil {
		return err
	}
	last, seq, err := findLastMember(f, size)
	if err != nil {
		return err
	}
	var d []byte
	for _, v := range [footerFields]uint64{footerVersion, uint64(crc), uint64(size), uint64(last), seq} {
		d = binary.LittleEndian.AppendUint64(d, v)
	}
	z := bytes.NewBuffer(d)
	fw, _ := flate.NewWriter(z, flate.BestCompression)
	fw.Write(state)
	if err := fw.Close(); err != nil {
		return err
	}
	d = z.Bytes()
	members := (len(d) + 8 + maxFooterData - 1) / maxFooterData
	d = binary.LittleEndian.AppendUint32(d, uint32(len(d)+8+members*(footerHead+footerTail)))
	d = append(d, footerMagic...)
	var m []byte
	for len(d) > 0 {
		n := min(len(d), maxFooterData)
		m = append(m, 0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 255, byte(n+4), byte((n+4)>>8), 'G', 'S', byte(n), byte(n>>8))
		m = append(append(m, d[:n]...), footerEnd...)
		d = d[n:]
	}
	if _, err := f.WriteAt(m, size); err != nil {
		return err
	}
	return f.Close()
}

// sizeCRC is the CRC-32 of f's first n bytes (n < 0: its size).
func sizeCRC(f *os.File, n int64) (int64, uint32, error) {
	if n < 0 {
		st, err := f.Stat()
		if err != nil {
			return 0, 0, err
		}
		n = st.Size()
	}
	crc := crc32.NewIEEE()
	_, err := io.Copy(crc, io.NewSectionReader(f, 0, n))
	return n, crc.Sum32(), err
}

// findLastMember is where the last member of f's first size bytes starts
// and the seq of its last line: the last gzip header that inflates whole to
// exactly size, searched back from the end within maxSegmentComp.
func findLastMember(f io.ReaderAt, size int64) (int64, uint64, error) {
	from := max(0, size-maxSegmentComp)
	tail := make([]byte, size-from)
	if _, err := f.ReadAt(tail, from); err != nil {
		return 0, 0, err
	}
	for hi := len(tail); ; {
		i := bytes.LastIndex(tail[:hi], []byte{0x1f, 0x8b, 8})
		if i < 0 {
			return 0, 0, errors.New("footer: no last member of lines found")
		}
		if seq, ok := lastSeq(tail[i:]); ok {
			return from + int64(i), seq, nil
		}
		hi = i + 2 // before this one
	}
}

// lastSeq inflates b as exactly one gzip member and reads the seq of its
// last line.
func lastSeq(b []byte) (uint64, bool) {
	r := bytes.NewReader(b)
	z, err := gzip.NewReader(r)
	if err != nil {
		return 0, false
	}
	z.Multistream(false)
	text, err := io.ReadAll(io.LimitReader(z, maxSegmentText+1))
	if err != nil || len(text) > maxSegmentText || r.Len() != 0 {
		return 0, false
	}
	text = bytes.TrimSuffix(text, []byte("\n"))
	line := text[bytes.LastIndexByte(text, '\n')+1:]
	// The writer's lines begin {"time":"…","seq":N (encode.go).
	rest, ok := bytes.CutPrefix(line, []byte(`{"time":"`))
	if q := bytes.IndexByte(rest, '"'); ok && q >= 0 {
		if digits, ok := bytes.CutPrefix(rest[q+1:], []byte(`,"seq":`)); ok {
			end := 0
			for end < len(digits) && digits[end] >= '0' && digits[end] <= '9' {
				end++
			}
			seq, err := strconv.ParseUint(string(digits[:end]), 10, 64)
			return seq, err == nil
		}
	}
	return 0, false
}

// ReadFooter is the state a gzip recording's footer holds, once every
// check holds: the footer is the file's last members and nothing follows
// them, the bytes before have its size and CRC-32, and its last member of
// lines inflates whole to the footer and ends with its seq. Any other
// file, old recordings included, is an error: the caller reads the lines.
func ReadFooter(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	size := st.Size()
	var end [len(footerMagic) + 4 + footerTail]byte
	if !st.Mode().IsRegular() || size < int64(len(end)) {
		return nil, errNoFooter
	}
	if _, err := f.ReadAt(end[:], size-int64(len(end))); err != nil {
		return nil, err
	}
	mlen := int64(binary.LittleEndian.Uint32(end[:]))
	if string(end[4:8]) != footerMagic || !bytes.Equal(end[8:], footerEnd) || mlen > maxState || mlen > size {
		return nil, errNoFooter
	}
	m := make([]byte, mlen)
	if _, err := f.ReadAt(m, size-mlen); err != nil {
		return nil, err
	}
	prefix := size - mlen
	d, ok := footerData(m)
	if !ok {
		return nil, errNoFooter
	}
	var v [footerFields]uint64
	for i := range v {
		v[i] = binary.LittleEndian.Uint64(d[8*i:])
	}
	last := int64(v[3])
	if v[0] != footerVersion || int64(v[2]) != prefix || last < 0 || last >= prefix || prefix-last > maxSegmentComp {
		return nil, errNoFooter
	}
	if _, crc, err := sizeCRC(f, prefix); err != nil || uint64(crc) != v[1] {
		return nil, errNoFooter
	}
	tail := make([]byte, prefix-last)
	if _, err := f.ReadAt(tail, last); err != nil {
		return nil, err
	}
	if seq, ok := lastSeq(tail); !ok || seq != v[4] {
		return nil, errNoFooter
	}
	r := flate.NewReader(bytes.NewReader(d[footerFields*8 : len(d)-4-len(footerMagic)]))
	b, err := io.ReadAll(io.LimitReader(r, maxState+1))
	if err != nil || len(b) > maxState {
		return nil, errNoFooter
	}
	return b, nil
}

// footerData checks that m is footer members only, each one GS subfield
// and nothing inflated, and returns their data joined, whose fixed part
// is there.
func footerData(m []byte) ([]byte, bool) {
	var d []byte
	for len(m) > 0 {
		if len(m) < footerHead+footerTail || string(m[:4]) != "\x1f\x8b\x08\x04" {
			return nil, false
		}
		n := int(binary.LittleEndian.Uint16(m[14:]))
		if int(binary.LittleEndian.Uint16(m[10:])) != n+4 || string(m[12:14]) != "GS" ||
			len(m) < footerHead+n+footerTail || !bytes.Equal(m[footerHead+n:footerHead+n+footerTail], footerEnd) {
			return nil, false
		}
		d = append(d, m[footerHead:footerHead+n]...)
		m = m[footerHead+n+footerTail:]
	}
	return d, len(d) >= footerFixed
}
