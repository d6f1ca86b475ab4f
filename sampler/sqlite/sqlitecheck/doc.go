// Package sqlitecheck holds sampler/sqlite's reader equal to SQLite itself:
// its tests write databases with modernc.org/sqlite (a test dependency
// only, never linked into gpuscope: TestOneWayFlow in the root package) and
// read every table both ways. It is a package of its own so that
// sampler/sqlite's fuzzing binary does not carry that engine, which made
// the fuzzer crawl.
package sqlitecheck
