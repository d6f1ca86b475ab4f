package record

import (
	"reflect"
	"strconv"
	"time"
	"unsafe"

	"github.com/gpuscope/gpuscope/sampler"
)

// How lineEncoder (encode.go) reads a field at its offset: as the type
// its plan recorded from reflect's, never another.

// omitted: omitempty by kind, as jsonv1; omitzero by IsZero where the type
// has one, else the zero value.
func omitted(v unsafe.Pointer, f *planField) bool {
	switch {
	case f.kind == kMetric:
		return f.omit == 'z' && !(*sampler.Metric)(v).OK
	case f.kind == kTime && f.omit == 'z':
		return (*time.Time)(v).IsZero()
	case f.omit == 'z':
		x := reflect.NewAt(f.typ, v) // a pointer: put in an interface unallocated
		if z, ok := x.Interface().(interface{ IsZero() bool }); ok {
			return z.IsZero()
		}
		return x.Elem().IsZero()
	}
	switch f.typ.Kind() {
	case reflect.String:
		return len(*(*string)(v)) == 0
	case reflect.Slice:
		return len(*(*[]byte)(v)) == 0 // any slice's length sits where a []byte's does
	case reflect.Map:
		return reflect.NewAt(f.typ, v).Elem().Len() == 0
	case reflect.Interface:
		return reflect.NewAt(f.typ, v).Elem().IsNil()
	case reflect.Bool:
		return !*(*bool)(v)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return intAt(v, f.typ.Size()) == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return intAt(v, f.typ.Size()) == 0 // zero whatever its sign
	case reflect.Float32:
		return *(*float32)(v) == 0
	case reflect.Float64:
		return *(*float64)(v) == 0
	case reflect.Pointer:
		return *(*unsafe.Pointer)(v) == nil
	}
	return false
}

// intAt is the integer of size bytes at v, its bits as an int64.
func intAt(v unsafe.Pointer, size uintptr) int64 {
	switch size {
	case 1:
		return int64(*(*int8)(v))
	case 2:
		return int64(*(*int16)(v))
	case 4:
		return int64(*(*int32)(v))
	}
	return *(*int64)(v)
}

// uintAt is the unsigned integer of size bytes at v.
func uintAt(v unsafe.Pointer, size uintptr) uint64 {
	switch size {
	case 1:
		return uint64(*(*uint8)(v))
	case 2:
		return uint64(*(*uint16)(v))
	case 4:
		return uint64(*(*uint32)(v))
	}
	return *(*uint64)(v)
}

// list writes a slice of structs, ints, floats or GPUs (each less what
// its skip bits leave out).
func (e *lineEncoder) list(v unsafe.Pointer, f *planField) {
	s := *(*[]byte)(v) // the slice's header: nil, its length, its first element
	if s == nil {
		e.b = append(e.b, "null"...)
		return
	}
	e.b = append(e.b, '[')
	at := unsafe.Pointer(unsafe.SliceData(s))
	for i := range len(s) {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		switch f.kind {
		case kSlice:
			e.object(unsafe.Add(at, uintptr(i)*f.esz), f.elem, 0)
		case kGPUs:
			e.object(unsafe.Pointer(&(*(*[]sampler.GPU)(v))[i]), f.elem, e.skip[i])
		case kInts:
			e.b = strconv.AppendInt(e.b, int64((*(*[]int)(v))[i]), 10)
		default:
			e.float((*(*[]float64)(v))[i])
		}
	}
	e.b = append(e.b, ']')
}
