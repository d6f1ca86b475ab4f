package record

// Readable says whether a reader takes line, as Writer hands it to its
// tee, as a whole snapshot: not so long that the reader refuses it (the
// limit is checked a buffer at a time, so a line within a buffer of it is
// counted as refused) and not refused by the shape check. Record's footer
// is built from the values written only while every line is
// (ui/cli/recfooter.go).
func Readable(line []byte) bool {
	return len(line) <= maxLineBytes-readBufBytes && checkShape(line) == nil
}
