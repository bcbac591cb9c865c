// Package readiness is the small registry of named checks behind GET
// /readyz: the store, the storage, the certificate, and whatever a later
// part of the server (backups, mail) adds. A check answers whether its
// part works now; its error is shown to whoever asks /readyz, so it names
// what failed and never a path or a secret.
package readiness

import (
	"context"
	"sync"
	"time"
)

// Timeout bounds one check: a part that does not answer within it is not
// ready.
const Timeout = 5 * time.Second

// Check reports whether one part of the server works now.
type Check func(ctx context.Context) error

// Registry holds the named checks, run in the order they were added.
type Registry struct {
	mu     sync.Mutex
	names  []string
	checks map[string]Check
}

// Add registers (or replaces) the check called name.
func (r *Registry) Add(name string, c Check) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.checks == nil {
		r.checks = map[string]Check{}
	}
	if _, ok := r.checks[name]; !ok {
		r.names = append(r.names, name)
	}
	r.checks[name] = c
}

// Result is one check's outcome.
type Result struct {
	Name  string `json:"name"`
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
}

// Run runs every check at once, each within Timeout, and reports whether
// all passed.
func (r *Registry) Run(ctx context.Context) (bool, []Result) {
	r.mu.Lock()
	names := append([]string(nil), r.names...)
	checks := make([]Check, len(names))
	for i, n := range names {
		checks[i] = r.checks[n]
	}
	r.mu.Unlock()
	results := make([]Result, len(names))
	var wg sync.WaitGroup
	for i := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cctx, cancel := context.WithTimeout(ctx, Timeout)
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- checks[i](cctx) }()
			var err error
			select {
			case err = <-done:
			case <-cctx.Done():
				err = errTimeout
			}
			results[i] = Result{Name: names[i], OK: err == nil}
			if err != nil {
				results[i].Error = err.Error()
			}
		}()
	}
	wg.Wait()
	ok := true
	for _, res := range results {
		ok = ok && res.OK
	}
	return ok, results
}

type timeoutError struct{}

func (timeoutError) Error() string { return "no answer in time" }

var errTimeout = timeoutError{}
