package promsource

import (
	"slices"
	"strings"
	"time"
)

// scrapeRing is one target's recent scrapes, which stand in for the
// server's storage under `--nodes`: every scrape of the last FineSpan (what
// a node's diagnosis and dashboard read), then one per CoarseStep back to
// Horizon (the hour the fleet's figures span). Series are interned: a
// scrape holds (series index, value) pairs of the series the fleet reads.
type scrapeRing struct {
	series  []metric       // label sets, __name__ included, by index
	keys    []string       // each series' key in index
	index   map[string]int // a label set's key → its index
	scrapes []scrapeRec    // oldest first
}

type scrapeRec struct {
	at   time.Time
	vals []seriesVal
}

type seriesVal struct {
	i int32
	v float64
}

// The ring's bounds: at a 1 s refresh, 180 scrapes of the last 3 minutes
// and 114 older ones, about 300 of ~350 series (one name set of 8 GPUs and
// their processes): ~1.7 MB a node (docs/cluster.md, "Without a server").
const (
	Horizon    = time.Hour
	FineSpan   = 3 * time.Minute
	CoarseStep = 30 * time.Second
	// fineStep thins the last FineSpan at a faster refresh than 2 a second
	// (--interval 100ms): 360 recent scrapes at most.
	fineStep  = 500 * time.Millisecond
	maxSeries = 20000
)

func newScrapeRing() *scrapeRing { return &scrapeRing{index: map[string]int{}} }

// seriesKey is a label set's identity: its pairs, sorted.
func seriesKey(m metric) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k)
		b.WriteByte(0)
		b.WriteString(m[k])
		b.WriteByte(0)
	}
	return b.String()
}

// add files one scrape of instance taken at at and drops what the bounds
// no longer keep.
func (r *scrapeRing) add(at time.Time, instance string, samples []scraped) {
	rec := scrapeRec{at: at, vals: make([]seriesVal, 0, len(samples))}
	for _, s := range samples {
		k := s.key
		if k == "" {
			k = seriesKey(s.m)
		}
		i, ok := r.index[k]
		if !ok {
			i = len(r.series)
			r.series = append(r.series, s.metricOf(instance))
			r.keys = append(r.keys, k)
			r.index[k] = i
		}
		rec.vals = append(rec.vals, seriesVal{int32(i), s.v})
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
	if len(r.series) > maxSeries {
		r.compact()
	}
}

// compact drops the series no kept scrape holds (processes come and go).
func (r *scrapeRing) compact() {
	used := map[int32]int32{}
	var series []metric
	var keys []string
	index := map[string]int{}
	for si := range r.scrapes {
		for vi, v := range r.scrapes[si].vals {
			ni, ok := used[v.i]
			if !ok {
				ni = int32(len(series))
				used[v.i] = ni
				series, keys = append(series, r.series[v.i]), append(keys, r.keys[v.i])
				index[r.keys[v.i]] = int(ni)
			}
			r.scrapes[si].vals[vi].i = ni
		}
	}
	r.series, r.keys, r.index = series, keys, index
}

// streams turns the scrapes from from on into one stream per series, what
// a range query would have answered; only, when not nil, names the series
// wanted.
func (r *scrapeRing) streams(from time.Time, only map[string]bool) []*sampleStream {
	byIdx := map[int32]*sampleStream{}
	var out []*sampleStream
	for _, s := range r.scrapes {
		if s.at.Before(from) {
			continue
		}
		t := promTime(s.at.UnixMilli())
		for _, v := range s.vals {
			ss := byIdx[v.i]
			if ss == nil && only != nil && !only[r.series[v.i][metricNameLabel]] {
				continue
			}
			if ss == nil {
				ss = &sampleStream{Metric: r.series[v.i]}
				byIdx[v.i] = ss
				out = append(out, ss)
			}
			ss.Values = append(ss.Values, samplePair{t, v.v})
		}
	}
	return out
}

// latest is the newest scrape's series and values, nil before any.
func (r *scrapeRing) latest() []scraped {
	if len(r.scrapes) == 0 {
		return nil
	}
	s := r.scrapes[len(r.scrapes)-1]
	out := make([]scraped, len(s.vals))
	for i, v := range s.vals {
		out[i] = scraped{m: r.series[v.i], v: v.v, name: r.series[v.i][metricNameLabel]}
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
