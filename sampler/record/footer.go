package record

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
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
//	version     1 byte  (footerVersion)
//	crc         4 bytes the CRC-32 (IEEE) of every byte before the footer
//	size        8 bytes how many bytes that is
//	last        8 bytes where the last member of lines starts
//	seq         8 bytes the seq of the last line
//	state       the state, deflated
//	length      4 bytes the footer's length, its members' headers included
//	magic       "GSF1"
//
// all little-endian, cut into members of up to 64 KiB. Each member ends as an empty one does: 03 00 (an empty
// final block), a zero CRC and a zero length. ReadFooter finds it from the
// file's end and believes it only when every check holds
// (docs/user-guide.md, "The footer").
const (
	footerVersion = 1
	footerMagic   = "GSF1"
	footerFixed   = 1 + 4 + 8 + 8 + 8 + 4 + len(footerMagic)
	// footerHead is the member's header up to the subfield's data: gzip's
	// magic, deflate, FEXTRA; no time, no OS; XLEN; "GS" and its length.
	footerHead = 10 + 2 + 4
	footerTail = 10 // 03 00, CRC-32 and ISIZE of nothing
	// maxFooterData is what one extra subfield holds (XLEN is 16 bits): a
	// larger state is cut over several such members.
	maxFooterData = 0xffff - 4
)

var footerEnd = []byte{3, 0, 0, 0, 0, 0, 0, 0, 0, 0}

// AppendFooter appends state, deflated, as the footer of the closed gzip
// recording at path. A state too large for one extra field, or a file
// whose last member does not end in a line with a seq, gets no footer (an
// error says why; the recording reads as before).
func AppendFooter(path string, state []byte) error {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	size := st.Size()
	crc := crc32.NewIEEE()
	if _, err := io.Copy(crc, io.NewSectionReader(f, 0, size)); err != nil {
		return err
	}
	last, seq, err := findLastMember(f, size)
	if err != nil {
		return err
	}
	var z bytes.Buffer
	fw, _ := flate.NewWriter(&z, flate.BestCompression)
	fw.Write(state)
	if err := fw.Close(); err != nil {
		return err
	}
	if z.Len() > maxState {
		return errors.New("footer: the state is too large")
	}
	d := make([]byte, 0, footerFixed+z.Len())
	d = append(d, footerVersion)
	d = binary.LittleEndian.AppendUint32(d, crc.Sum32())
	d = binary.LittleEndian.AppendUint64(d, uint64(size))
	d = binary.LittleEndian.AppendUint64(d, uint64(last))
	d = binary.LittleEndian.AppendUint64(d, seq)
	d = append(d, z.Bytes()...)
	members := (len(d) + 8 + maxFooterData - 1) / maxFooterData
	d = binary.LittleEndian.AppendUint32(d, uint32(len(d)+8+members*(footerHead+footerTail)))
	d = append(d, footerMagic...)
	var m []byte
	for len(d) > 0 {
		n := min(len(d), maxFooterData)
		m = append(m, 0x1f, 0x8b, 8, 4, 0, 0, 0, 0, 0, 255)
		m = binary.LittleEndian.AppendUint16(m, uint16(n+4))
		m = append(m, 'G', 'S')
		m = binary.LittleEndian.AppendUint16(m, uint16(n))
		m = append(m, d[:n]...)
		m = append(m, footerEnd...)
		d = d[n:]
	}
	if _, err := f.WriteAt(m, size); err != nil {
		return err
	}
	return f.Close()
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
			break
		}
		if seq, err := lastSeq(tail[i:]); err == nil {
			return from + int64(i), seq, nil
		}
		hi = i + 2 // before this one
	}
	return 0, 0, errors.New("footer: no last member of lines found")
}

// lastSeq inflates b as exactly one gzip member and reads the seq of its
// last line.
func lastSeq(b []byte) (uint64, error) {
	r := bytes.NewReader(b)
	z, err := gzip.NewReader(r)
	if err != nil {
		return 0, err
	}
	z.Multistream(false)
	text, err := io.ReadAll(io.LimitReader(z, maxSegmentText+1))
	if err != nil {
		return 0, err
	}
	if len(text) > maxSegmentText || r.Len() != 0 {
		return 0, errors.New("footer: not one member to the end")
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
			if seq, err := strconv.ParseUint(string(digits[:end]), 10, 64); err == nil {
				return seq, nil
			}
		}
	}
	return 0, errors.New("footer: the last line has no seq")
}

// ReadFooter is the state a gzip recording's footer holds, once every
// check holds: the footer is the file's last member and nothing follows
// it, the bytes before it have its size and CRC-32, and its last member
// of lines inflates whole to the footer and ends with its seq. Any other
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
	if !st.Mode().IsRegular() {
		return nil, errors.New("footer: not a regular file")
	}
	size := st.Size()
	var end [len(footerMagic) + 4 + footerTail]byte
	if size < int64(len(end)) {
		return nil, errors.New("footer: none")
	}
	if _, err := f.ReadAt(end[:], size-int64(len(end))); err != nil {
		return nil, err
	}
	mlen := int64(binary.LittleEndian.Uint32(end[:]))
	if string(end[4:8]) != footerMagic || !bytes.Equal(end[8:], footerEnd) || mlen > maxState || mlen > size {
		return nil, errors.New("footer: none")
	}
	m := make([]byte, mlen)
	if _, err := f.ReadAt(m, size-mlen); err != nil {
		return nil, err
	}
	prefix := size - mlen
	data, err := footerData(m)
	if err != nil {
		return nil, err
	}
	crc := crc32.NewIEEE()
	if _, err := io.Copy(crc, io.NewSectionReader(f, 0, prefix)); err != nil {
		return nil, err
	}
	at := func(i int) uint64 { return binary.LittleEndian.Uint64(data[i:]) }
	last := int64(at(13))
	switch {
	case data[0] != footerVersion:
		return nil, fmt.Errorf("footer: version %d, this build reads %d", data[0], footerVersion)
	case binary.LittleEndian.Uint32(data[1:]) != crc.Sum32() || int64(at(5)) != prefix:
		return nil, errors.New("footer: the bytes before it are not those it was written after")
	case last < 0 || last >= prefix || prefix-last > maxSegmentComp:
		return nil, errors.New("footer: its last member is out of the file")
	}
	tail := make([]byte, prefix-last)
	if _, err := f.ReadAt(tail, last); err != nil {
		return nil, err
	}
	if seq, err := lastSeq(tail); err != nil || seq != at(21) {
		return nil, errors.New("footer: the last line is not the one it was written after")
	}
	return inflateState(data[29 : len(data)-4-len(footerMagic)])
}

// footerData checks that m is footer members only, each one GS subfield
// and nothing inflated, and returns their data joined, whose fixed part
// is there.
func footerData(m []byte) ([]byte, error) {
	head := []byte{0x1f, 0x8b, 8, 4}
	var d []byte
	for len(m) > 0 {
		if len(m) < footerHead+footerTail || !bytes.Equal(m[:4], head) {
			return nil, errors.New("footer: not a footer member")
		}
		n := int(binary.LittleEndian.Uint16(m[14:]))
		if int(binary.LittleEndian.Uint16(m[10:])) != n+4 || m[12] != 'G' || m[13] != 'S' ||
			len(m) < footerHead+n+footerTail || !bytes.Equal(m[footerHead+n:footerHead+n+footerTail], footerEnd) {
			return nil, errors.New("footer: a member is not one GS subfield and nothing")
		}
		d = append(d, m[footerHead:footerHead+n]...)
		m = m[footerHead+n+footerTail:]
	}
	if len(d) < footerFixed {
		return nil, errors.New("footer: too short")
	}
	return d, nil
}

// maxState bounds the inflated state (a day of 8 GPUs is ~100 KB).
const maxState = 16 << 20

// inflateState inflates the footer's state, bounded by maxState.
func inflateState(z []byte) ([]byte, error) {
	r := flate.NewReader(bytes.NewReader(z))
	defer r.Close()
	b, err := io.ReadAll(io.LimitReader(r, maxState+1))
	if err != nil {
		return nil, fmt.Errorf("footer: state: %w", err)
	}
	if len(b) > maxState {
		return nil, errors.New("footer: state too large")
	}
	return b, nil
}
