package promsource

import (
	"math"
	"slices"
	"sync"
	"time"
)

// scrapeRing is one target's recent scrapes, which stand in for the
// server's storage under `--nodes`: every scrape of the last FineSpan (what
// a node's diagnosis and dashboard read), then one per CoarseStep back to
// Horizon (the hour the fleet's figures span). Nothing is held as a map:
// a label set (the text between a line's braces) is kept once however
// many names carry it, a series is a name's number and a label set's (4
// bytes), and a scrape is its values in the order of a layout it shares
// with the scrapes before while the exporter answers the same series in
// the same order; label maps are built when read (streams, latest) and
// dropped. docs/benchmarks.md, "`--nodes` over 1,000 targets".
type scrapeRing struct {
	instance string
	sets     labelSets
	layouts  *layoutCache // shared by the fleet's rings; nil: none
	scrapes  []scrapeRec
}

// seriesRef is one series: seriesNames' index and the label set's.
type seriesRef struct{ name, set uint16 }

type scrapeRec struct {
	at     time.Time
	series []seriesRef // each value's series; shared by scrapes of one layout
	vals   packed      // in that order
}

// scrapeBatch is one scrape as fetch files it: each label text once, and
// the kept samples.
type scrapeBatch struct {
	sets  []string
	pairs int // at most how many label pairs sets hold
	vals  []batchVal
	// fetch's: sets by text, and the names the scrape holds (seriesNames)
	index   map[string]int32
	present []bool
	// add's room: the values packed and their layout before they are kept
	packed packed
	layout []seriesRef
}

// reset empties b for the next scrape, its room kept.
func (b *scrapeBatch) reset() {
	clear(b.sets)
	b.sets, b.pairs, b.vals = b.sets[:0], 0, b.vals[:0]
	clear(b.index)
	clear(b.present)
}

type batchVal struct {
	name uint16 // seriesNames' index
	set  int32  // the batch's sets' index
	v    float64
}

// The ring's bounds: at a 1 s refresh, 180 scrapes of the last 3 minutes
// and 114 older ones, about 300 of ~350 series (one name set of 8 GPUs and
// their processes): ~0.7 MB a node (docs/cluster.md, "Without a server").
const (
	Horizon    = time.Hour
	FineSpan   = 3 * time.Minute
	CoarseStep = 30 * time.Second
	// fineStep thins the last FineSpan at a faster refresh than 2 a second
	// (--interval 100ms): 360 recent scrapes at most.
	fineStep = 500 * time.Millisecond
	// maxSets bounds the label sets and pairs a ring holds (processes come
	// and go) and one scrape brings; both are numbered in 16 bits.
	maxSets = 20000
)

func newScrapeRing(instance string, layouts *layoutCache) *scrapeRing {
	return &scrapeRing{instance: instance, layouts: layouts}
}

// add files one scrape taken at at and drops what the bounds no longer
// keep.
func (r *scrapeRing) add(at time.Time, b *scrapeBatch) {
	if r.sets.len()+len(b.sets) > math.MaxUint16 || len(r.sets.pairs)+b.pairs > math.MaxUint16 {
		// Only an exporter whose labels change at every scrape (fetch
		// bounds one scrape's) gets here: its history is dropped rather
		// than a series misnumbered.
		*r = scrapeRing{instance: r.instance, layouts: r.layouts}
	}
	sets := r.sets.len()
	setOf := make([]uint16, len(b.sets))
	for i, text := range b.sets {
		setOf[i] = r.sets.index(text)
	}
	if r.sets.len() > sets {
		r.sets.clip()
	}
	rec := scrapeRec{at: at}
	var prev []seriesRef
	if n := len(r.scrapes); n > 0 {
		prev = r.scrapes[n-1].series
	}
	same := len(prev) == len(b.vals)
	b.packed, b.layout = b.packed[:0], b.layout[:0]
	for i, v := range b.vals {
		ref := seriesRef{v.name, setOf[v.set]}
		b.packed = appendValue(b.packed, v.v)
		b.layout = append(b.layout, ref)
		same = same && prev[i] == ref
	}
	rec.vals = slices.Clone(b.packed) // no spare capacity kept
	if rec.series = prev; !same {
		rec.series = r.layouts.intern(b.layout)
	}
	r.scrapes = append(r.scrapes, rec)
	r.trim(at)
}

// layoutCache lets the rings of one fleet share their layouts: a thousand
// nodes of one exporter version answer the same series in the same order,
// numbered alike (label sets are numbered as they first appear), and hold
// one layout (~1.2 KB) instead of a thousand. It remembers the last few:
// no map grows with the fleet.
type layoutCache struct {
	mu     sync.Mutex
	recent [8][]seriesRef
	next   int
}

// intern is a layout equal to l (its own copy when new): read only.
func (c *layoutCache) intern(l []seriesRef) []seriesRef {
	if c == nil {
		return slices.Clone(l)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.recent {
		if slices.Equal(r, l) {
			return r
		}
	}
	own := slices.Clone(l)
	c.recent[c.next] = own
	c.next = (c.next + 1) % len(c.recent)
	return own
}

// trim keeps the scrapes of the last FineSpan fineStep apart, one per
// CoarseStep before that, none older than Horizon, and always the newest.
// Each is judged against the one kept before it, so what is kept stays
// kept until it ages into a sparser span or out.
func (r *scrapeRing) trim(now time.Time) {
	out := r.scrapes[:0]
	var prev time.Time
	for i, s := range r.scrapes {
		age := now.Sub(s.at)
		if age > Horizon {
			continue
		}
		step := fineStep
		if age > FineSpan {
			step = CoarseStep
		}
		if !prev.IsZero() && s.at.Sub(prev) < step && i < len(r.scrapes)-1 {
			continue
		}
		prev = s.at
		out = append(out, s)
	}
	clear(r.scrapes[len(out):])
	r.scrapes = out
	if r.sets.len() > maxSets || len(r.sets.pairs) > maxSets {
		r.compact()
	}
}

// compact drops the label sets and pairs no kept scrape holds.
func (r *scrapeRing) compact() {
	setTo := map[uint16]uint16{}
	var sets labelSets
	// Layouts are shared (by this ring's scrapes, and the fleet's rings):
	// renumbered into copies, each once.
	done := map[*seriesRef][]seriesRef{}
	for si := range r.scrapes {
		old := r.scrapes[si].series
		if len(old) == 0 {
			continue
		}
		lay, ok := done[&old[0]]
		if !ok {
			lay = slices.Clone(old)
			for i, ref := range lay {
				ns, ok := setTo[ref.set]
				if !ok {
					ns = sets.index(r.sets.text(ref.set))
					setTo[ref.set] = ns
				}
				lay[i].set = ns
			}
			done[&old[0]] = lay
		}
		r.scrapes[si].series = lay
	}
	sets.clip()
	r.sets = sets
}

// setMetric is label set i as a server would hold it, without a series
// name: built once a read into built (by set) and shared by the set's
// series (a GPU's forty fields), read only. Names and values are
// substrings of the kept pairs, so what the fleet keeps of them (a GPU's
// UUID and model) holds no copy.
func (r *scrapeRing) setMetric(built []metric, i uint16) metric {
	if m := built[i]; m != nil {
		return m
	}
	pairs := r.sets.setPairs(i)
	m := make(metric, len(pairs)+1)
	for _, p := range pairs {
		name, value := pairLabel(r.sets.pairs[p])
		m[name] = value
	}
	// The target names the node, as Prometheus's labels would.
	m["instance"] = r.instance
	delete(m, "job")
	built[i] = m
	return m
}

// streams turns the scrapes from from on into one stream per series, what
// a range query would have answered; only, when not nil, names the series
// wanted.
func (r *scrapeRing) streams(from time.Time, only map[string]bool) []*sampleStream {
	byRef := map[seriesRef]*sampleStream{}
	built := make([]metric, r.sets.len())
	var out []*sampleStream
	for _, s := range r.scrapes {
		if s.at.Before(from) {
			continue
		}
		t := promTime(s.at.UnixMilli())
		s.vals.each(func(i int, v float64) {
			ref := s.series[i]
			ss := byRef[ref]
			if ss == nil {
				if only != nil && !only[seriesNames[ref.name]] {
					return
				}
				ss = &sampleStream{Metric: r.setMetric(built, ref.set), name: seriesNames[ref.name]}
				byRef[ref] = ss
				out = append(out, ss)
			}
			ss.Values = append(ss.Values, samplePair{t, v})
		})
	}
	return out
}

// scraped is one series of the newest scrape: its name, labels (shared
// by the set's series, read only) and value.
type scraped struct {
	m    metric
	v    float64
	name string
}

// latest is the newest scrape's series that keep accepts by name (nil:
// all), nil before any.
func (r *scrapeRing) latest(keep func(name string) bool) []scraped {
	if len(r.scrapes) == 0 {
		return nil
	}
	s := r.scrapes[len(r.scrapes)-1]
	built := make([]metric, r.sets.len())
	var out []scraped
	s.vals.each(func(i int, v float64) {
		ref := s.series[i]
		if name := seriesNames[ref.name]; keep == nil || keep(name) {
			out = append(out, scraped{m: r.setMetric(built, ref.set), v: v, name: name})
		}
	})
	return out
}

// span is how far back the kept scrapes reach from now.
func (r *scrapeRing) span(now time.Time) time.Duration {
	if len(r.scrapes) == 0 {
		return 0
	}
	return now.Sub(r.scrapes[0].at)
}
