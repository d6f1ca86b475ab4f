package promsource

import (
	"slices"
	"strings"
	"time"

	"github.com/gpuscope/gpuscope/sampler/promtext"
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
	sets     []string // label sets: the text between a line's braces
	bySet    []uint16 // sets' indices in the order of their text
	scrapes  []scrapeRec
}

// seriesRef is one series: seriesNames' index and the label set's.
type seriesRef struct{ name, set uint16 }

type scrapeRec struct {
	at     time.Time
	series []seriesRef // each value's series; shared by scrapes of one layout
	vals   []float64   // in that order
}

// scrapeBatch is one scrape as fetch files it: each label text once, and
// the kept samples.
type scrapeBatch struct {
	sets []string
	vals []batchVal
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
	// maxSets bounds the label sets a ring holds (processes come and go);
	// a seriesRef numbers them in 16 bits.
	maxSets = 20000
)

func newScrapeRing(instance string) *scrapeRing { return &scrapeRing{instance: instance} }

// set is text's index in sets, added if new.
func (r *scrapeRing) set(text string) uint16 {
	i, found := slices.BinarySearchFunc(r.bySet, text, func(j uint16, t string) int { return strings.Compare(r.sets[j], t) })
	if found {
		return r.bySet[i]
	}
	j := uint16(len(r.sets))
	r.sets = append(r.sets, text)
	r.bySet = slices.Insert(r.bySet, i, j)
	return j
}

// add files one scrape taken at at and drops what the bounds no longer
// keep.
func (r *scrapeRing) add(at time.Time, b *scrapeBatch) {
	setOf := make([]uint16, len(b.sets))
	for i, text := range b.sets {
		setOf[i] = r.set(text)
	}
	rec := scrapeRec{at: at, vals: make([]float64, len(b.vals))}
	var prev []seriesRef
	if n := len(r.scrapes); n > 0 {
		prev = r.scrapes[n-1].series
	}
	same := len(prev) == len(b.vals)
	for i, v := range b.vals {
		rec.vals[i] = v.v
		same = same && prev[i] == seriesRef{v.name, setOf[v.set]}
	}
	if rec.series = prev; !same {
		rec.series = make([]seriesRef, len(b.vals))
		for i, v := range b.vals {
			rec.series[i] = seriesRef{v.name, setOf[v.set]}
		}
	}
	r.scrapes = append(r.scrapes, rec)
	r.trim(at)
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
	if len(r.sets) > maxSets {
		r.compact()
	}
}

// compact drops the label sets no kept scrape holds.
func (r *scrapeRing) compact() {
	setTo := map[uint16]uint16{}
	var sets []string
	done := map[*seriesRef]bool{} // layouts renumbered already: scrapes share them
	for si := range r.scrapes {
		lay := r.scrapes[si].series
		if len(lay) == 0 || done[&lay[0]] {
			continue
		}
		done[&lay[0]] = true
		for i, ref := range lay {
			ns, ok := setTo[ref.set]
			if !ok {
				ns = uint16(len(sets))
				setTo[ref.set] = ns
				sets = append(sets, r.sets[ref.set])
			}
			lay[i].set = ns
		}
	}
	r.sets = sets
	r.bySet = make([]uint16, len(sets))
	for i := range r.bySet {
		r.bySet[i] = uint16(i)
	}
	slices.SortFunc(r.bySet, func(a, b uint16) int { return strings.Compare(sets[a], sets[b]) })
}

// metricOf is a series' label set as a server would hold it; values are
// substrings of the kept text.
func (r *scrapeRing) metricOf(ref seriesRef) metric {
	ls, _ := promtext.Labels(r.sets[ref.set]) // ParseRaw checked them
	m := make(metric, len(ls)+2)
	for _, l := range ls {
		m[l.Name] = l.Value
	}
	// The target names the node, as Prometheus's labels would.
	m[metricNameLabel], m["instance"] = seriesNames[ref.name], r.instance
	delete(m, "job")
	return m
}

// streams turns the scrapes from from on into one stream per series, what
// a range query would have answered; only, when not nil, names the series
// wanted.
func (r *scrapeRing) streams(from time.Time, only map[string]bool) []*sampleStream {
	byRef := map[seriesRef]*sampleStream{}
	var out []*sampleStream
	for _, s := range r.scrapes {
		if s.at.Before(from) {
			continue
		}
		t := promTime(s.at.UnixMilli())
		for i, ref := range s.series {
			ss := byRef[ref]
			if ss == nil {
				if only != nil && !only[seriesNames[ref.name]] {
					continue
				}
				ss = &sampleStream{Metric: r.metricOf(ref)}
				byRef[ref] = ss
				out = append(out, ss)
			}
			ss.Values = append(ss.Values, samplePair{t, s.vals[i]})
		}
	}
	return out
}

// scraped is one series of the newest scrape: its name, labels and value.
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
	var out []scraped
	for i, ref := range s.series {
		if name := seriesNames[ref.name]; keep == nil || keep(name) {
			out = append(out, scraped{m: r.metricOf(ref), v: s.vals[i], name: name})
		}
	}
	return out
}

// span is how far back the kept scrapes reach from now.
func (r *scrapeRing) span(now time.Time) time.Duration {
	if len(r.scrapes) == 0 {
		return 0
	}
	return now.Sub(r.scrapes[0].at)
}
