package safe

import "reflect"

// Clean returns v with String applied to every exported string it holds,
// however deep (struct fields, slices, arrays, maps, pointers, interfaces):
// a snapshot or a list of findings made safe in one call, including fields
// added later. Values that need no change are shared with v, never written:
// snapshots are shared between goroutines, so Clean copies a struct, slice or
// map only on the path to a string it changes.
func Clean[T any](v T) T {
	out, changed := clean(reflect.ValueOf(&v).Elem())
	if !changed {
		return v
	}
	return out.Interface().(T)
}

// clean returns a cleaned copy of v and true, or v and false when nothing in
// it needs escaping.
func clean(v reflect.Value) (reflect.Value, bool) {
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
		return cleanStruct(v)
	case reflect.Slice:
		if v.IsNil() || !mayHoldStrings(v.Type().Elem()) {
			return v, false
		}
		return cleanElems(v, func() reflect.Value {
			out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(out, v)
			return out
		})
	case reflect.Array:
		if !mayHoldStrings(v.Type().Elem()) {
			return v, false
		}
		return cleanElems(v, func() reflect.Value {
			out := reflect.New(v.Type()).Elem()
			out.Set(v)
			return out
		})
	case reflect.Pointer:
		if v.IsNil() {
			return v, false
		}
		e, changed := clean(v.Elem())
		if !changed {
			return v, false
		}
		out := reflect.New(v.Type().Elem())
		out.Elem().Set(e)
		return out, true
	case reflect.Interface:
		if v.IsNil() {
			return v, false
		}
		e, changed := clean(v.Elem())
		if !changed {
			return v, false
		}
		out := reflect.New(v.Type()).Elem()
		out.Set(e)
		return out, true
	case reflect.Map:
		return cleanMap(v)
	}
	return v, false
}

func cleanStruct(v reflect.Value) (reflect.Value, bool) {
	var out reflect.Value
	t := v.Type()
	for i := range v.NumField() {
		if !t.Field(i).IsExported() {
			continue // time.Time and the like: nothing a user wrote
		}
		f, changed := clean(v.Field(i))
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
func cleanElems(v reflect.Value, dup func() reflect.Value) (reflect.Value, bool) {
	var out reflect.Value
	for i := range v.Len() {
		e, changed := clean(v.Index(i))
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

func cleanMap(v reflect.Value) (reflect.Value, bool) {
	if v.IsNil() {
		return v, false
	}
	t := v.Type()
	if !mayHoldStrings(t.Key()) && !mayHoldStrings(t.Elem()) {
		return v, false
	}
	changed := false
	out := reflect.MakeMapWithSize(t, v.Len())
	for it := v.MapRange(); it.Next(); {
		k, kc := clean(it.Key())
		e, ec := clean(it.Value())
		changed = changed || kc || ec
		out.SetMapIndex(k, e)
	}
	if !changed {
		return v, false
	}
	return out, true
}

// mayHoldStrings is false for element types that cannot hold a string
// (numbers, bools, []byte): their slices are skipped without a walk.
func mayHoldStrings(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.Func, reflect.Chan:
		return false
	}
	return true
}
