package trace

import (
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
)

// number is a numeric field read leniently: traces from other tools write
// some ids as strings ("stream": "7" in ROCm traces) or objects, and one odd
// field must not make the whole trace unreadable. ok is false when the field
// is absent or not a number.
type number struct {
	v  float64
	ok bool
}

func (n *number) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	if k := dec.PeekKind(); k == '{' || k == '[' {
		return dec.SkipValue()
	}
	tok, err := dec.ReadToken()
	if err != nil {
		return err
	}
	// A number's String is its JSON text, so one parse serves both kinds
	// (and both builds: Token.Float's signature differs between
	// go-json-experiment and GOEXPERIMENT=jsonv2's encoding/json/jsontext).
	if k := tok.Kind(); k == '0' || k == '"' {
		if v, err := strconv.ParseFloat(tok.String(), 64); err == nil {
			n.v, n.ok = v, true
		}
	}
	return nil
}

// int is the number as an integer, or def when absent.
func (n number) int(def int64) int64 {
	if !n.ok {
		return def
	}
	return int64(n.v)
}
