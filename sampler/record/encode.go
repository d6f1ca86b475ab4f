package record

import (
	"bytes"
	"encoding"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	jsonv1 "github.com/go-json-experiment/json/v1"

	"github.com/gpuscope/gpuscope/sampler"
)

// lineEncoder writes a line as jsonv1's Encoder (HTML unescaped) writes
// it, byte for byte, by a plan of each struct's fields made once from
// their tags: json/v2's general encoding (its arshalers, a MarshalJSON call
// per reading, allocated and validated again) was ~20 % of recording a
// day (docs/benchmarks.md, "Recording a day: the encoder and the
// findings"), and code written field by field cost the binary ~40 KB.
// Fields are read through reflect.Value without allocating; a value of a
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
	key  string // `"name":`
	idx  []int  // the field, through embedded structs
	omit byte   // 0 never, 'e' omitempty, 'z' omitzero
	kind byte   // below
	skip uint8  // the skip bits that leave it out (skipGroup)
	elem plan   // kStruct, kPtr, kSlice: the element's plan
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
)

var entryPlan = planOf(reflect.TypeFor[wireEntry](), nil)

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

func planOf(t reflect.Type, at []int) plan {
	var p plan
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		idx := append(slices.Clone(at), i)
		switch {
		case name == "-" || !f.IsExported() && !f.Anonymous:
			continue
		case f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct:
			p = append(p, planOf(f.Type, idx)...)
			continue
		case name == "":
			name = f.Name
		}
		pf := planField{key: `"` + name + `":`, idx: idx, skip: skipGroup(t, f.Name)}
		if strings.Contains(opts, "omitempty") {
			pf.omit = 'e'
		} else if strings.Contains(opts, "omitzero") {
			pf.omit = 'z'
		}
		pf.kind, pf.elem = kindOf(f.Type)
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
	case t == reflect.TypeFor[map[int]*sampler.Proc]():
		return kProcs, planOf(reflect.TypeFor[sampler.Proc](), nil)
	case t == reflect.TypeFor[[]sampler.GPU]():
		return kGPUs, planOf(reflect.TypeFor[sampler.GPU](), nil)
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
		return kStruct, planOf(t, nil)
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
	e.object(reflect.ValueOf(l).Elem(), entryPlan, 0)
	e.skip, e.same = nil, nil
	e.b = append(e.b, '\n')
	return e.b, e.err
}

// object writes v by p, less the fields that skip's bits leave out.
func (e *lineEncoder) object(v reflect.Value, p plan, skip uint8) {
	e.b = append(e.b, '{')
	n := 0
	for i := range p {
		f := &p[i]
		if f.skip&skip != 0 {
			continue
		}
		fv := v.Field(f.idx[0])
		for _, j := range f.idx[1:] {
			fv = fv.Field(j)
		}
		if f.omit != 0 && omitted(fv, f) {
			continue
		}
		if n > 0 {
			e.b = append(e.b, ',')
		}
		n++
		e.b = append(e.b, f.key...)
		e.value(fv, f.kind, f.elem)
	}
	e.b = append(e.b, '}')
}

// omitted: omitempty by kind, as jsonv1; omitzero by IsZero where the type
// has one, else the zero value.
func omitted(v reflect.Value, f *planField) bool {
	switch {
	case f.kind == kMetric:
		return f.omit == 'z' && !v.Field(1).Bool()
	case f.omit == 'z':
		// Asked through a pointer where it can be: a struct put in an
		// interface is allocated (a pod per GPU and process every line).
		x := v
		if v.CanAddr() {
			x = v.Addr()
		}
		if z, ok := x.Interface().(interface{ IsZero() bool }); ok {
			return z.IsZero()
		}
		return v.IsZero()
	}
	switch v.Kind() {
	case reflect.String, reflect.Slice, reflect.Map:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Pointer, reflect.Interface:
		return v.IsNil()
	}
	return false
}

func (e *lineEncoder) value(v reflect.Value, kind byte, elem plan) {
	switch kind {
	case kMetric: // Metric.MarshalJSON: 'g', null where n/a or not finite
		if x := v.Field(0).Float(); v.Field(1).Bool() && !math.IsNaN(x) && !math.IsInf(x, 0) {
			var ok bool
			if e.b, ok = appendDecimal(e.b, x, 1e6); !ok { // 'g' writes 1e+06
				e.b = strconv.AppendFloat(e.b, x, 'g', -1, 64)
			}
		} else {
			e.b = append(e.b, "null"...)
		}
	case kTime:
		e.time(v.Addr().Interface().(*time.Time))
	case kString:
		e.str(v.String())
	case kBool:
		e.b = strconv.AppendBool(e.b, v.Bool())
	case kInt:
		e.b = strconv.AppendInt(e.b, v.Int(), 10)
	case kUint:
		e.b = strconv.AppendUint(e.b, v.Uint(), 10)
	case kFloat:
		e.float(v.Float())
	case kStruct:
		e.object(v, elem, 0)
	case kPtr, kSlice, kInts, kFloats, kGPUs:
		if v.IsNil() {
			e.b = append(e.b, "null"...)
			return
		}
		if kind == kPtr {
			e.object(v.Elem(), elem, 0)
			return
		}
		e.b = append(e.b, '[')
		for i := range v.Len() {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			switch x := v.Index(i); kind {
			case kSlice:
				e.object(x, elem, 0)
			case kGPUs: // less what its skip bits leave out
				e.object(x, elem, e.skip[i])
			case kInts:
				e.b = strconv.AppendInt(e.b, x.Int(), 10)
			default:
				e.float(x.Float())
			}
		}
		e.b = append(e.b, ']')
	case kProcs:
		e.procs(v.Interface().(map[int]*sampler.Proc), elem)
	default:
		e.any(v.Interface())
	}
}
