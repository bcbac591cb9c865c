package server

import (
	"context"
	"errors"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/devhub/devhub/pkg/readiness"
	"github.com/devhub/devhub/pkg/store/storetest"
)

func TestReadyz(t *testing.T) {
	dir := t.TempDir()
	openStore := func(t *testing.T) func() error {
		st := storetest.OpenPath(t, filepath.Join(dir, t.Name(), "devhub.db"))
		return st.Ping
	}
	withChecks := func(checks func(t *testing.T, r *readiness.Registry)) func(t *testing.T) *testApp {
		return func(t *testing.T) *testApp {
			r := &readiness.Registry{}
			checks(t, r)
			return newTestApp(t, func(o *Options) { o.Services = &Services{Ready: r} })
		}
	}
	ok := func(context.Context) error { return nil }
	for _, tc := range []struct {
		name string
		app  func(t *testing.T) *testApp
		sc   apiScenario
	}{
		{"no checks", func(t *testing.T) *testApp { return newTestApp(t, nil) },
			apiScenario{ExpectedStatus: http.StatusOK, ExpectedContent: []string{`"status":"ready"`}}},
		{"store and storage answer", withChecks(func(t *testing.T, r *readiness.Registry) {
			ping := openStore(t)
			r.Add("store", func(context.Context) error { return ping() })
			r.Add("storage", ok)
		}), apiScenario{ExpectedStatus: http.StatusOK,
			ExpectedContent: []string{`"status":"ready"`, `{"name":"store","ok":true}`, `{"name":"storage","ok":true}`},
			ExpectedHeaders: map[string]string{"Cache-Control": "no-store"}}},
		{"store closed", withChecks(func(t *testing.T, r *readiness.Registry) {
			st := storetest.OpenPath(t, filepath.Join(dir, "closed", "devhub.db"))
			st.Close()
			r.Add("store", func(context.Context) error { return st.Ping() })
			r.Add("storage", ok)
		}), apiScenario{ExpectedStatus: http.StatusServiceUnavailable,
			ExpectedContent:    []string{`"status":"not ready"`, `{"name":"store","ok":false,"error":"the store refuses writes"}`, `{"name":"storage","ok":true}`},
			NotExpectedContent: []string{dir, "devhub.db"}}},
		{"a later part's check fails", withChecks(func(t *testing.T, r *readiness.Registry) {
			r.Add("store", ok)
			r.Add("backup", func(context.Context) error { return errors.New("the last scheduled backup failed") })
		}), apiScenario{ExpectedStatus: http.StatusServiceUnavailable,
			ExpectedContent: []string{`{"name":"backup","ok":false,"error":"the last scheduled backup failed"}`}}},
		{"a check that hangs", withChecks(func(t *testing.T, r *readiness.Registry) {
			r.Add("storage", func(ctx context.Context) error { <-ctx.Done(); return ctx.Err() })
		}), apiScenario{ExpectedStatus: http.StatusServiceUnavailable, NoHead: true,
			ExpectedContent: []string{`{"name":"storage","ok":false`}}},
	} {
		tc.sc.Name, tc.sc.URL = tc.name, "/readyz"
		runScenarios(t, tc.app, []apiScenario{tc.sc})
	}
}
