package record

import (
	"bufio"
	"bytes"
	"fmt"
	"io"

	// klauspost's gzip decompresses a day's recording (63 MB -> 876 MB) in
	// 1.4 s where compress/gzip takes 1.9-2.1 s (measured side by side,
	// docs/benchmarks.md); the reading goroutine's decompression is the
	// one part of a report that does not run on several cores.
	"github.com/klauspost/compress/gzip"
)

// IsGzip reports whether data starts with the gzip magic bytes (RFC 1952
// §2.3.1: 0x1f 0x8b). Recordings and other tools' logs are both looked
// through when compressed; this is the one test for it.
func IsGzip(head []byte) bool { return len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b }

// TextHead is the start of a file as text, for telling formats apart:
// gzip looked through (at most n bytes of what it holds; a cut stream
// still yields its start), then a UTF-8 byte-order mark and leading
// blanks dropped. False when gzip data does not open.
func TextHead(head []byte, n int) ([]byte, bool) {
	if IsGzip(head) {
		zr, err := gzip.NewReader(bytes.NewReader(head))
		if err != nil {
			return nil, false
		}
		inner, _ := io.ReadAll(io.LimitReader(zr, int64(n)))
		return TextHead(inner, n)
	}
	return bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n"), true
}

// Decompressed returns br itself for plain data and a reader of the same
// buffer size over the decompressed stream for gzip; name is used in the
// error of a damaged header.
func Decompressed(br *bufio.Reader, name string) (*bufio.Reader, error) {
	if magic, _ := br.Peek(2); !IsGzip(magic) {
		return br, nil
	}
	gz, err := gzip.NewReader(br)
	if err != nil {
		return nil, fmt.Errorf("%s: gzip file with a damaged header: %w", name, err)
	}
	return bufio.NewReaderSize(gz, br.Size()), nil
}

// decompressedResync is Decompressed for a recording: where the gzip data
// is damaged (a flipped byte makes deflate fail, or the member's CRC
// differ), it goes on at the next gzip member (the Writer starts one every
// linesPerMember lines) and tells damaged why. Without a member after the
// damage, the read error stands, as in Decompressed.
func decompressedResync(br *bufio.Reader, name string, damaged func(error)) (*bufio.Reader, error) {
	if magic, _ := br.Peek(2); !IsGzip(magic) {
		return br, nil
	}
	gz, err := gzip.NewReader(br)
	if err != nil {
		return nil, fmt.Errorf("%s: gzip file with a damaged header: %w", name, err)
	}
	return bufio.NewReaderSize(&resyncReader{src: br, gz: gz, damaged: damaged}, br.Size()), nil
}

// resyncReader reads gzip members, skipping a damaged one.
type resyncReader struct {
	src     *bufio.Reader // the compressed bytes: gzip reads them through its ByteReader
	gz      *gzip.Reader
	damaged func(error)
	newline bool // owed after a skip: it ends the line the damage cut
}

func (r *resyncReader) Read(p []byte) (int, error) {
	if r.newline && len(p) > 0 {
		r.newline, p[0] = false, '\n'
		return 1, nil
	}
	n, err := r.gz.Read(p)
	if err == nil || err == io.EOF || !r.nextMember() {
		return n, err
	}
	r.damaged(err)
	r.newline = true
	return n, nil
}

// nextMember skips to the next gzip member header (RFC 1952 §2.3.1: ID1
// ID2 and CM 8, deflate) whose header reads, and starts reading it.
func (r *resyncReader) nextMember() bool {
	for {
		head, _ := r.src.Peek(3)
		if len(head) < 3 {
			return false
		}
		if IsGzip(head) && head[2] == 8 && r.gz.Reset(r.src) == nil {
			return true
		}
		if _, err := r.src.Discard(1); err != nil {
			return false
		}
	}
}
