package timeline

// class is what a GPU event's name says about it, worked out once per
// distinct name: a trace repeats a few hundred names millions of times, and
// the regular expressions are most of the analysis' time otherwise.
type class struct {
	typ        string // kernelType
	matmul     bool   // a GEMM or convolution
	tensorCore bool   // in a tensor-core variant
}

// classOf is the class of the interned name id.
func (b *Builder) classOf(id int32) class {
	for int(id) >= len(b.classes) {
		b.classes = append(b.classes, nil)
	}
	if c := b.classes[id]; c != nil {
		return *c
	}
	c := classify(b.names[id])
	b.classes[id] = &c
	return c
}
