package record

import (
	"bytes"
	"encoding"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"
	"unsafe"

	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/gpuscope/gpuscope/sampler"
)

// lineEncoder writes a line as jsonv1's Encoder (HTML unescaped) writes
// it, byte for byte, by a plan of each struct's fields made once from
// their tags: json/v2's general encoding (its arshalers, a MarshalJSON call
// per reading, allocated and validated again) was ~20 % of recording a
// day (docs/benchmarks.md, "Recording a day: the encoder and the
// findings"), and code written field by field cost the binary ~40 KB.
// Fields are read at their offsets (encodefield.go); a value of a
// type the plan does not know (a MarshalJSON of its own but Metric's, a
// nested list, non-ASCII text, odd numbers and times) goes through the
// kept jsonv1 encoder, so any value encodes as before.
// TestLineEncoderAgrees holds the two equal on random entries.
type lineEncoder struct {
	b   []byte
	err error // the first fallback's error: the line does not encode
	fb  bytes.Buffer
	fe  *jsonv1.Encoder
	// The line's marks (statics.go): what to skip of each GPU, and the
	// PIDs whose static fields to skip, sorted.
	skip []uint8
	same []int
	// keys: the process map's keys in the order written, kept while the
	// next line's map has the same ones (a node's processes seldom change).
	keys []int
}

// plan is how a struct's fields are written, in jsonv1's order.
type plan []planField

type planField struct {
	key  string       // `"name":`
	off  uintptr      // the field's offset, through embedded structs
	typ  reflect.Type // the field's, for jsonv1 and what the kinds below do not read
	omit byte         // 0 never, 'e' omitempty, 'z' omitzero
	kind byte         // below
	skip uint8        // the skip bits that leave it out (skipGroup)
	elem plan         // kStruct, kPtr, kSlice: the element's plan
	esz  uintptr      // kSlice: the element's size
}

const (
	kOther  byte = iota // jsonv1's
	kMetric             // sampler.Metric
	kTime
	kString
	kBool
	kInt
	kUint
	kFloat
	kStruct
	kPtr    // to a struct
	kSlice  // of structs
	kInts   // []int
	kFloats // []float64
	kProcs  // map[int]*sampler.Proc
	kGPUs   // []sampler.GPU, each less what its skip bits leave out
	kClock  // sampler.ClockEvents
)

var entryPlan = planOf(reflect.TypeFor[wireEntry](), 0)

// skipGroup is the skip bit (statics.go) that leaves field name of t out:
// a field a blanked copy would omit as zero (TestSkipsWriteTheBlankedCopy).
func skipGroup(t reflect.Type, name string) uint8 {
	var groups []reflect.Type // the skip bits' fields, in the bits' order
	switch t {
	case reflect.TypeFor[sampler.Proc]():
		groups = []reflect.Type{reflect.TypeFor[procStatic]()}
	case reflect.TypeFor[sampler.GPU]():
		groups = []reflect.Type{reflect.TypeFor[gpuStatic](), reflect.TypeFor[gpuSteady](), reflect.TypeFor[struct{ NVLinks int }]()}
	}
	for i, g := range groups {
		if f, ok := g.FieldByName(name); ok && !f.Anonymous {
			return 1 << i
		}
	}
	return 0
}

// planOf is t's plan, its fields' offsets from base (where t sits in the
// struct that embeds it).
func planOf(t reflect.Type, base uintptr) plan {
	var p plan
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		off := base + f.Offset
		switch {
		case name == "-" || !f.IsExported() && !f.Anonymous:
			continue
		case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
			p = append(p, planOf(f.Type, off)...)
			continue
		case name == "":
			name = f.Name
		}
		pf := planField{key: `"` + name + `":`, off: off, typ: f.Type, skip: skipGroup(t, f.Name)}
		if strings.Contains(opts, "omitempty") {
			pf.omit = 'e'
		} else if strings.Contains(opts, "omitzero") {
			pf.omit = 'z'
		}
		pf.kind, pf.elem = kindOf(f.Type)
		if pf.kind == kSlice {
			pf.esz = f.Type.Elem().Size()
		}
		p = append(p, pf)
	}
	return p
}

func kindOf(t reflect.Type) (byte, plan) {
	pt := reflect.PointerTo(t)
	marshals := pt.Implements(reflect.TypeFor[json.Marshaler]()) || pt.Implements(reflect.TypeFor[encoding.TextMarshaler]())
	switch {
	case t == reflect.TypeFor[sampler.Metric]():
		return kMetric, nil
	case t == reflect.TypeFor[time.Time]():
		return kTime, nil
	case t == reflect.TypeFor[sampler.ClockEvents]():
		return kClock, nil
	case t == reflect.TypeFor[map[int]*sampler.Proc]():
		return kProcs, planOf(reflect.TypeFor[sampler.Proc](), 0)
	case t == reflect.TypeFor[[]sampler.GPU]():
		return kGPUs, planOf(reflect.TypeFor[sampler.GPU](), 0)
	case t == reflect.TypeFor[[]int]():
		return kInts, nil
	case t == reflect.TypeFor[[]float64]():
		return kFloats, nil
	case marshals:
	case t.Kind() == reflect.String:
		return kString, nil
	case t.Kind() == reflect.Bool:
		return kBool, nil
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Int64:
		return kInt, nil
	case t.Kind() >= reflect.Uint && t.Kind() <= reflect.Uint64:
		return kUint, nil
	case t.Kind() == reflect.Float64:
		return kFloat, nil
	case t.Kind() == reflect.Struct:
		return kStruct, planOf(t, 0)
	case t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct:
		if k, p := kindOf(t.Elem()); k == kStruct {
			return kPtr, p
		}
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct:
		if k, p := kindOf(t.Elem()); k == kStruct {
			return kSlice, p
		}
	}
	return kOther, nil
}

// entry encodes l, newline included; the bytes are e's until the next call.
func (e *lineEncoder) entry(l *wireEntry) ([]byte, error) {
	e.b, e.err = e.b[:0], nil
	e.skip, e.same = l.gpuSkip, l.skipProcs
	if len(e.skip) < len(l.GPUs) { // not marked: nothing skipped
		e.skip = make([]uint8, len(l.GPUs))
	}
	e.object(unsafe.Pointer(l), entryPlan, 0)
	e.skip, e.same = nil, nil
	e.b = append(e.b, '\n')
	return e.b, e.err
}

// object writes the struct at v by p, less the fields that skip's bits
// leave out. Fields are read at their offsets as the types the plan made
// from reflect's own: reflect.Value.Field (its checks of the field's
// name and flags each call) was ~40 % of the encoder's time
// (docs/benchmarks.md, "Recording a day: the findings' JSON").
func (e *lineEncoder) object(v unsafe.Pointer, p plan, skip uint8) {
	e.b = append(e.b, '{')
	n := 0
	for i := range p {
		f := &p[i]
		if f.skip&skip != 0 {
			continue
		}
		fv := unsafe.Add(v, f.off)
		if f.omit != 0 && omitted(fv, f) {
			continue
		}
		if n > 0 {
			e.b = append(e.b, ',')
		}
		n++
		e.b = append(e.b, f.key...)
		e.value(fv, f)
	}
	e.b = append(e.b, '}')
}

func (e *lineEncoder) value(v unsafe.Pointer, f *planField) {
	switch f.kind {
	case kMetric: // Metric.MarshalJSON: 'g', null where n/a or not finite
		if m := (*sampler.Metric)(v); m.OK && !math.IsNaN(m.V) && !math.IsInf(m.V, 0) {
			var ok bool
			if e.b, ok = appendDecimal(e.b, m.V, 1e6); !ok { // 'g' writes 1e+06
				if e.b, ok = appendWhole(e.b, m.V); !ok {
					e.b = strconv.AppendFloat(e.b, m.V, 'g', -1, 64)
				}
			}
		} else {
			e.b = append(e.b, "null"...)
		}
	case kTime:
		e.time((*time.Time)(v))
	case kClock:
		e.clock((*sampler.ClockEvents)(v))
	case kString:
		e.str(*(*string)(v))
	case kBool:
		e.b = strconv.AppendBool(e.b, *(*bool)(v))
	case kInt:
		e.b = strconv.AppendInt(e.b, intAt(v, f.typ.Size()), 10)
	case kUint:
		e.b = strconv.AppendUint(e.b, uintAt(v, f.typ.Size()), 10)
	case kFloat:
		e.float(*(*float64)(v))
	case kStruct:
		e.object(v, f.elem, 0)
	case kPtr:
		if p := *(*unsafe.Pointer)(v); p != nil {
			e.object(p, f.elem, 0)
		} else {
			e.b = append(e.b, "null"...)
		}
	case kSlice, kInts, kFloats, kGPUs:
		e.list(v, f)
	case kProcs:
		e.procs(*(*map[int]*sampler.Proc)(v), f.elem)
	default:
		e.any(reflect.NewAt(f.typ, v).Elem().Interface())
	}
}
