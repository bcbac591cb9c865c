package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// apiScenario is one request and what its answer must be, in the style of
// PocketBase's tests.ApiScenario: a route test is a table of these, run by
// runScenarios. Every GET scenario also runs as HEAD (unless NoHead), which
// must answer the same status, Content-Type and length without a body.
type apiScenario struct {
	Name string
	// Method is GET when empty.
	Method string
	URL    string
	// Token is sent as the bearer token when set.
	Token   string
	Headers map[string]string
	// Body is the request body; it is sent as application/json unless
	// Headers name another Content-Type.
	Body string

	ExpectedStatus int
	// ExpectedContent must each occur in the answer's body, and
	// NotExpectedContent must not.
	ExpectedContent    []string
	NotExpectedContent []string
	// ExpectedHeaders are header values the answer must carry exactly;
	// "" means the header must be absent.
	ExpectedHeaders map[string]string

	// NoHead skips the HEAD variant of a GET.
	NoHead bool
	// AfterTest checks more of the answer (the GET's, never the HEAD's).
	AfterTest func(t *testing.T, resp *http.Response, body string)
}

// runScenarios runs each scenario as a subtest on the app app(t) returns:
// a fresh one per scenario, or the same one when the table is a sequence
// whose steps build on each other.
func runScenarios(t *testing.T, app func(t *testing.T) *testApp, scenarios []apiScenario) {
	t.Helper()
	for _, sc := range scenarios {
		method := sc.Method
		if method == "" {
			method = http.MethodGet
		}
		name := sc.Name
		if name == "" {
			name = method + " " + sc.URL
		}
		t.Run(name, func(t *testing.T) {
			ta := app(t)
			resp, body := sc.send(t, ta, method)
			sc.check(t, resp, body)
			if sc.AfterTest != nil {
				sc.AfterTest(t, resp, string(body))
			}
			if method != http.MethodGet || sc.NoHead {
				return
			}
			t.Run("HEAD", func(t *testing.T) {
				head, headBody := sc.send(t, ta, http.MethodHead)
				if head.StatusCode != resp.StatusCode {
					t.Fatalf("HEAD status %d, GET %d", head.StatusCode, resp.StatusCode)
				}
				if len(headBody) != 0 {
					t.Fatalf("HEAD sent %d body bytes", len(headBody))
				}
				if h, g := head.Header.Get("Content-Type"), resp.Header.Get("Content-Type"); h != g {
					t.Fatalf("HEAD Content-Type %q, GET %q", h, g)
				}
				if g := resp.Header.Get("Content-Length"); g != "" && head.Header.Get("Content-Length") != g {
					t.Fatalf("HEAD Content-Length %q, GET %q", head.Header.Get("Content-Length"), g)
				}
				for k, want := range sc.ExpectedHeaders {
					if got := head.Header.Get(k); got != want {
						t.Errorf("HEAD header %s = %q, want %q", k, got, want)
					}
				}
			})
		})
	}
}

func (sc *apiScenario) send(t *testing.T, ta *testApp, method string) (*http.Response, []byte) {
	t.Helper()
	req := jsonRequest(method, sc.URL, sc.Token, sc.Body)
	for k, v := range sc.Headers {
		req.Header.Set(k, v)
	}
	return ta.do(t, req)
}

// jsonRequest is a request as the SPA sends it: a JSON body when body is
// not empty, the bearer token when token is not.
func jsonRequest(method, path, token, body string) *http.Request {
	var req *http.Request
	if body != "" {
		req = httptest.NewRequest(method, path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
	} else {
		req = httptest.NewRequest(method, path, nil)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	return req
}

// scenarioT is what check needs of a *testing.T (so the runner's own test
// can watch it fail).
type scenarioT interface {
	Helper()
	Fatalf(format string, args ...any)
	Errorf(format string, args ...any)
}

func (sc *apiScenario) check(t scenarioT, resp *http.Response, raw []byte) {
	t.Helper()
	body := string(raw)
	if resp.StatusCode != sc.ExpectedStatus {
		t.Fatalf("status %d, want %d: %s", resp.StatusCode, sc.ExpectedStatus, body)
	}
	for _, want := range sc.ExpectedContent {
		if !strings.Contains(body, want) {
			t.Errorf("body lacks %q: %s", want, body)
		}
	}
	for _, bad := range sc.NotExpectedContent {
		if strings.Contains(body, bad) {
			t.Errorf("body contains %q: %s", bad, body)
		}
	}
	for k, want := range sc.ExpectedHeaders {
		if got := resp.Header.Get(k); got != want {
			t.Errorf("header %s = %q, want %q", k, got, want)
		}
	}
}

// limitScenarios is n POSTs to url (the i-th with body(i)) that the limit
// lets through with status pass, then one more (body over) that it refuses:
// 429 with a Retry-After.
func limitScenarios(url string, n, pass int, body func(i int) string, over string) []apiScenario {
	var out []apiScenario
	for i := range n {
		out = append(out, apiScenario{Name: fmt.Sprintf("request %d", i), Method: http.MethodPost, URL: url, Body: body(i), ExpectedStatus: pass})
	}
	return append(out, apiScenario{Name: "one more from the network", Method: http.MethodPost, URL: url, Body: over,
		ExpectedStatus: http.StatusTooManyRequests, AfterTest: func(t *testing.T, resp *http.Response, _ string) {
			if resp.Header.Get("Retry-After") == "" {
				t.Fatal("no Retry-After")
			}
		}})
}

// sameApp is runScenarios' app for a table whose steps build on each other.
func sameApp(ta *testApp) func(*testing.T) *testApp {
	return func(*testing.T) *testApp { return ta }
}

// The runner itself: a HEAD variant is generated for GETs only, and a
// scenario whose expectation does not hold fails.
func TestScenarioRunner(t *testing.T) {
	ta := newTestApp(t, nil)
	var afterTests int
	runScenarios(t, sameApp(ta), []apiScenario{
		{Name: "site settings", URL: "/api/site", ExpectedStatus: 200, ExpectedContent: []string{`"contacts"`},
			ExpectedHeaders: map[string]string{"Content-Type": "application/json; charset=utf-8"},
			AfterTest:       func(t *testing.T, resp *http.Response, body string) { afterTests++ }},
		{Name: "unknown API path", URL: "/api/nope", ExpectedStatus: 404, ExpectedContent: []string{"no such API endpoint"}},
		{Name: "POST is not HEADed", Method: "POST", URL: "/api/nope", Body: `{}`, ExpectedStatus: 404},
	})
	if afterTests != 1 {
		t.Fatalf("AfterTest ran %d times, want once (the GET, not its HEAD)", afterTests)
	}
	// Failing expectations are reported, not ignored.
	for _, sc := range []apiScenario{
		{URL: "/api/site", ExpectedStatus: 404},
		{URL: "/api/site", ExpectedStatus: 200, ExpectedContent: []string{"no such text"}},
		{URL: "/api/site", ExpectedStatus: 200, NotExpectedContent: []string{"contacts"}},
		{URL: "/api/site", ExpectedStatus: 200, ExpectedHeaders: map[string]string{"X-Nope": "1"}},
	} {
		resp, body := sc.send(t, ta, http.MethodGet)
		var rec failures
		sc.check(&rec, resp, body)
		if len(rec) == 0 {
			t.Errorf("scenario %+v passed", sc)
		}
	}
}

// failures records what check reports instead of failing the test.
type failures []string

func (f *failures) Helper()                           {}
func (f *failures) Fatalf(format string, args ...any) { *f = append(*f, fmt.Sprintf(format, args...)) }
func (f *failures) Errorf(format string, args ...any) { *f = append(*f, fmt.Sprintf(format, args...)) }
