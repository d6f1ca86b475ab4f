package safe

import "reflect"

// Clean returns v with String applied to every exported string it holds,
// however deep (struct fields, slices, arrays, maps, pointers, interfaces):
// a snapshot or a list of findings made safe in one call, including fields
// added later. Values that need no change are shared with v, never written:
// snapshots are shared between goroutines, so Clean copies a struct, slice or
// map only on the path to a string it changes. A pointer reached twice (a
// process both in Host.Procs and under its GPU) stays one pointer.
func Clean[T any](v T) T {
	c := cleaner{Types: NewTypes()}
	out, changed := c.clean(reflect.ValueOf(&v).Elem())
	if !changed {
		return v
	}
	return out.Interface().(T)
}

// CleanWith is Clean with what ts learnt of the types in earlier calls:
// the dashboard cleans a snapshot of the same types on every tick, and
// learning them anew was most of Clean's cost (docs/benchmarks.md, "The
// dashboard's cost while it watches: the width of a line", 2026-12-07).
//
// It also remembers, for the next call, the slices, maps and pointees it
// walked, where they were (docs/benchmarks.md, "The dashboard at 100 ms,
// again"): a snapshot shares with the one before what did not change (the
// NVML reader's NVLinks and n/a reasons, the host's processes under the
// GPUs), and a part met again is answered from the memo, not walked. That
// needs what v refers to never to be written once handed over, as
// snapshots are (shared between goroutines); the memo holds each part it
// remembers, so its memory cannot be reused for another while it does.
func CleanWith[T any](ts *Types, v T) T {
	c := cleaner{Types: ts, remember: true}
	defer ts.rotate()
	out, changed := c.clean(reflect.ValueOf(&v).Elem())
	if !changed {
		return v
	}
	return out.Interface().(T)
}

// Types is Clean's memo of types: which can hold a string at all (most of
// a snapshot is numbers, skipped without a walk) and which fields of a
// struct can. One caller keeps it across calls; not for concurrent use.
type Types struct {
	strs   map[reflect.Type]bool
	fields map[reflect.Type][]int // a struct's exported fields that can hold a string
	// seen are the parts this call and the call before walked (CleanWith),
	// each with what it became. One Types for one stream of values: the
	// dashboard keeps one for its snapshots and one for its diagnoses.
	seen, before map[part]cleaned
}

// part is a slice, map or pointee by its type and where it is.
type part struct {
	t reflect.Type
	p uintptr
	n int // a slice's length
}

// cleaned is a part as it was met (held, so its memory stays its own) and
// what it became (the same value when nothing in it needed escaping).
type cleaned struct {
	orig, out reflect.Value
	changed   bool
}

// rotate starts the memo of a new call.
func (ts *Types) rotate() {
	if len(ts.seen) == 0 {
		return
	}
	clear(ts.before)
	ts.seen, ts.before = ts.before, ts.seen
	if ts.seen == nil {
		ts.seen = map[part]cleaned{}
	}
}

// recall is what part k became in this call or the one before.
func (c *cleaner) recall(k part) (cleaned, bool) {
	if !c.remember {
		return cleaned{}, false
	}
	if d, ok := c.seen[k]; ok {
		return d, true
	}
	d, ok := c.before[k]
	if ok {
		c.seen[k] = d
	}
	return d, ok
}

// keep remembers what part k, met as orig, became.
func (c *cleaner) keep(k part, orig, out reflect.Value, changed bool) {
	if c.remember {
		if c.seen == nil {
			c.seen = map[part]cleaned{}
		}
		c.seen[k] = cleaned{orig, out, changed}
	}
}

// remembered walks the slice, map or pointer v through walk unless it was
// met in this call or the one before.
func (c *cleaner) remembered(v reflect.Value, n int, walk func(reflect.Value) (reflect.Value, bool)) (reflect.Value, bool) {
	k := part{v.Type(), v.Pointer(), n}
	if d, ok := c.recall(k); ok {
		return d.out, d.changed
	}
	out, changed := walk(v)
	c.keep(k, v, out, changed)
	return out, changed
}

// NewTypes is an empty memo for CleanWith.
func NewTypes() *Types {
	return &Types{strs: map[reflect.Type]bool{}, fields: map[reflect.Type][]int{}}
}

// cleaner is one Clean call: the memo of types, and what each pointer
// became.
type cleaner struct {
	*Types
	ptrs     map[uintptr]reflect.Value // pointer → its cleaned copy, or itself
	remember bool                      // CleanWith: parts met are answered from Types.seen
}

// clean returns a cleaned copy of v and true, or v and false when nothing in
// it needs escaping.
func (c *cleaner) clean(v reflect.Value) (reflect.Value, bool) {
	if !c.holdsStrings(v.Type()) {
		return v, false
	}
	return c.cleanHolding(v)
}

// cleanHolding is clean of a v whose type can hold a string: a struct's
// fields in Types.fields, a slice's, array's or pointer's element when the
// slice, array or pointer can (asked once, not of each value).
func (c *cleaner) cleanHolding(v reflect.Value) (reflect.Value, bool) {
	switch v.Kind() {
	case reflect.String:
		s := v.String()
		e := String(s)
		if e == s {
			return v, false
		}
		out := reflect.New(v.Type()).Elem()
		out.SetString(e)
		return out, true
	case reflect.Struct:
		return c.cleanStruct(v)
	case reflect.Slice:
		if v.Len() == 0 {
			return v, false
		}
		return c.remembered(v, v.Len(), c.cleanSlice)
	case reflect.Array:
		return c.cleanElems(v, func() reflect.Value {
			out := reflect.New(v.Type()).Elem()
			out.Set(v)
			return out
		})
	case reflect.Pointer:
		if v.IsNil() {
			return v, false
		}
		return c.remembered(v, 0, c.cleanPointer)
	case reflect.Interface:
		if v.IsNil() {
			return v, false
		}
		e, changed := c.clean(v.Elem())
		if !changed {
			return v, false
		}
		out := reflect.New(v.Type()).Elem()
		out.Set(e)
		return out, true
	case reflect.Map:
		if v.Len() == 0 {
			return v, false
		}
		return c.remembered(v, 0, c.cleanMap)
	}
	return v, false
}

func (c *cleaner) cleanSlice(v reflect.Value) (reflect.Value, bool) {
	return c.cleanElems(v, func() reflect.Value {
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		reflect.Copy(out, v)
		return out
	})
}

func (c *cleaner) cleanPointer(v reflect.Value) (reflect.Value, bool) {
	if done, ok := c.ptrs[v.Pointer()]; ok {
		return done, done.Pointer() != v.Pointer()
	}
	if c.ptrs == nil {
		c.ptrs = map[uintptr]reflect.Value{}
	}
	c.ptrs[v.Pointer()] = v // a cycle back here sees the original
	e, changed := c.cleanHolding(v.Elem())
	if !changed {
		return v, false
	}
	out := reflect.New(v.Type().Elem())
	out.Elem().Set(e)
	c.ptrs[v.Pointer()] = out
	return out, true
}

func (c *cleaner) cleanStruct(v reflect.Value) (reflect.Value, bool) {
	var out reflect.Value
	t := v.Type()
	for _, i := range c.fields[t] { // filled by holdsStrings, which clean asked first
		f, changed := c.cleanHolding(v.Field(i))
		if !changed {
			continue
		}
		if !out.IsValid() {
			out = reflect.New(t).Elem()
			out.Set(v)
		}
		out.Field(i).Set(f)
	}
	if !out.IsValid() {
		return v, false
	}
	return out, true
}

// cleanElems cleans a slice's or array's elements, copying it (dup) at the
// first change.
func (c *cleaner) cleanElems(v reflect.Value, dup func() reflect.Value) (reflect.Value, bool) {
	var out reflect.Value
	for i := range v.Len() {
		e, changed := c.cleanHolding(v.Index(i))
		if !changed {
			continue
		}
		if !out.IsValid() {
			out = dup()
		}
		out.Index(i).Set(e)
	}
	if !out.IsValid() {
		return v, false
	}
	return out, true
}

// cleanMap copies the map only when a key or value changes.
func (c *cleaner) cleanMap(v reflect.Value) (reflect.Value, bool) {
	if v.IsNil() {
		return v, false
	}
	var out reflect.Value
	for it := v.MapRange(); it.Next(); {
		k, kc := c.clean(it.Key())
		e, ec := c.clean(it.Value())
		if !kc && !ec {
			continue
		}
		if !out.IsValid() {
			out = reflect.MakeMapWithSize(v.Type(), v.Len())
			for all := v.MapRange(); all.Next(); {
				out.SetMapIndex(all.Key(), all.Value())
			}
		}
		if kc {
			out.SetMapIndex(it.Key(), reflect.Value{}) // the escaped key replaces it
		}
		out.SetMapIndex(k, e)
	}
	if !out.IsValid() {
		return v, false
	}
	return out, true
}

// holdsStrings reports whether a value of type t can hold a string, so
// that numbers, readings (sampler.Metric) and []float64 are skipped without
// a walk. Computed once per type and Types.
func (c *cleaner) holdsStrings(t reflect.Type) bool {
	if h, ok := c.strs[t]; ok {
		return h
	}
	c.strs[t] = true // assumed while computing: a recursive type is walked
	h := false
	switch t.Kind() {
	case reflect.String, reflect.Interface:
		h = true
	case reflect.Pointer, reflect.Slice, reflect.Array:
		h = c.holdsStrings(t.Elem())
	case reflect.Map:
		h = c.holdsStrings(t.Key()) || c.holdsStrings(t.Elem())
	case reflect.Struct:
		var idx []int
		for i := range t.NumField() {
			// Unexported fields (time.Time's) hold nothing a user wrote.
			if f := t.Field(i); f.IsExported() && c.holdsStrings(f.Type) {
				idx = append(idx, i)
			}
		}
		c.fields[t] = idx
		h = len(idx) > 0
	}
	c.strs[t] = h
	return h
}
