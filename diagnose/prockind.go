package diagnose

import "github.com/gpuscope/gpuscope/sampler"

// procKind is what a column keeps of its GPU's main process between an
// Engine's evaluations: whether it (or its parent) is an inference server,
// whether it is a notebook, and the names and command lines that said so.
// The main process rarely changes from one second to the next, and the
// markers' search (a lower-cased copy, a dozen substrings) was most of
// initGPU's own time; comparing the strings is less (docs/benchmarks.md,
// "Recording a day: the diagnosis's walks").
type procKind struct {
	cmd, name, pcmd, pname string
	parent, ok             bool
	server, notebook       bool
}

// kindOf is isServer(p) || isServer(parent) and isNotebook(p), p not nil,
// from what col kept where the strings are the same.
func (col *column) kindOf(p, parent *sampler.Proc) (server, notebook bool) {
	k := procKind{cmd: p.Cmdline, name: p.Name, parent: parent != nil, ok: true}
	if parent != nil {
		k.pcmd, k.pname = parent.Cmdline, parent.Name
	}
	c := &col.kind
	if c.ok && c.cmd == k.cmd && c.name == k.name && c.parent == k.parent && c.pcmd == k.pcmd && c.pname == k.pname {
		return c.server, c.notebook
	}
	k.server = isServer(p) || isServer(parent)
	k.notebook = isNotebook(p)
	*c = k
	return k.server, k.notebook
}
