package promsource

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// queryEach runs an instant query and hands each sample of its vector to
// each as it is decoded from the response body, so an answer of 8,000
// series never sits in memory whole: not as the body, not as a
// decoded vector (client_golang's Query holds both, and a copy of the body).
// each may be called from several queries at once; it must lock.
func (s *Source) queryEach(ctx context.Context, q string, at time.Time, each func(metric, float64)) error {
	form := url.Values{"query": {q}, "time": {unixSeconds(at)}}
	err := s.post(ctx, "/api/v1/query", form, func(dec *json.Decoder) error {
		var smp struct {
			Metric metric     `json:"metric"`
			Value  samplePair `json:"value"`
		}
		if err := dec.Decode(&smp); err != nil {
			return err
		}
		each(smp.Metric, smp.Value.Value)
		return nil
	}, "vector")
	if err != nil {
		return fmt.Errorf("query %s: %w", q, err)
	}
	return nil
}

// queryRangeEach runs a range query and hands each series to each as it
// is decoded (see queryEach).
func (s *Source) queryRangeEach(ctx context.Context, q string, from, to time.Time, step time.Duration, each func(*sampleStream)) error {
	form := url.Values{"query": {q}, "start": {unixSeconds(from)}, "end": {unixSeconds(to)},
		"step": {strconv.FormatFloat(step.Seconds(), 'f', -1, 64)}}
	err := s.post(ctx, "/api/v1/query_range", form, func(dec *json.Decoder) error {
		var ss sampleStream
		if err := dec.Decode(&ss); err != nil {
			return err
		}
		each(&ss)
		return nil
	}, "matrix")
	if err != nil {
		return fmt.Errorf("query_range %s: %w", q, err)
	}
	return nil
}

func unixSeconds(t time.Time) string {
	return strconv.FormatFloat(float64(t.UnixMilli())/1e3, 'f', 3, 64)
}

// post sends one query (POST, or GET to a proxy that refuses POST) and
// decodes the answer's result elements one by one with elem.
func (s *Source) post(ctx context.Context, path string, form url.Values, elem func(*json.Decoder) error, resultType string) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.endpoint(path), strings.NewReader(form.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := s.hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusMethodNotAllowed { // a proxy that takes GET only
		resp.Body.Close()
		if req, err = http.NewRequestWithContext(ctx, http.MethodGet, s.endpoint(path)+"?"+form.Encode(), nil); err != nil {
			return err
		}
		if resp, err = s.hc.Do(req); err != nil {
			return err
		}
		defer resp.Body.Close()
	}
	return decodeResult(resp, resultType, elem)
}

func (s *Source) endpoint(path string) string { return strings.TrimRight(s.url, "/") + path }

// decodeResult walks {"status", "data": {"resultType", "result": [...]}}
// token by token, decoding one result element at a time.
func decodeResult(resp *http.Response, resultType string, elem func(*json.Decoder) error) error {
	dec := json.NewDecoder(resp.Body)
	var status, errType, errMsg string
	err := object(dec, func(key string) error {
		switch key {
		case "status":
			return dec.Decode(&status)
		case "errorType":
			return dec.Decode(&errType)
		case "error":
			return dec.Decode(&errMsg)
		case "data":
			return object(dec, func(key string) error {
				switch key {
				case "resultType":
					var t string
					if err := dec.Decode(&t); err != nil {
						return err
					}
					if t != resultType {
						return fmt.Errorf("got a %s, want a %s", t, resultType)
					}
					return nil
				case "result":
					return elements(dec, elem)
				}
				return skip(dec)
			})
		}
		return skip(dec)
	})
	switch {
	case errMsg != "":
		return fmt.Errorf("%s: %s (HTTP %d)", errType, errMsg, resp.StatusCode)
	case err != nil:
		return fmt.Errorf("HTTP %d: decoding the answer: %w", resp.StatusCode, err)
	case resp.StatusCode/100 != 2 || status != "success":
		return fmt.Errorf("HTTP %d, status %q", resp.StatusCode, status)
	}
	return nil
}

// object reads one JSON object, calling field for each key with the
// decoder at its value.
func object(dec *json.Decoder, field func(key string) error) error {
	if err := delim(dec, '{'); err != nil {
		return err
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		key, ok := t.(string)
		if !ok {
			return fmt.Errorf("object key %v", t)
		}
		if err := field(key); err != nil {
			return err
		}
	}
	return delim(dec, '}')
}

func elements(dec *json.Decoder, elem func(*json.Decoder) error) error {
	if err := delim(dec, '['); err != nil {
		return err
	}
	for dec.More() {
		if err := elem(dec); err != nil {
			return err
		}
	}
	return delim(dec, ']')
}

func delim(dec *json.Decoder, want json.Delim) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	if d, ok := t.(json.Delim); !ok || d != want {
		return fmt.Errorf("want %q, got %v", want, t)
	}
	return nil
}

// skip discards one value (warnings, stats, a field added later).
func skip(dec *json.Decoder) error {
	var v json.RawMessage
	return dec.Decode(&v)
}
