package report

import (
	"encoding/json"
	"fmt"
	"io"
)

// writeJSON is how every JSON document of report and compare is written:
// indented by two spaces, one document per call, an error naming what was
// being written (what: "report" or "compare").
func writeJSON(w io.Writer, what string, doc any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("%s json: %w", what, err)
	}
	return nil
}
