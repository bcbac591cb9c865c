package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/activity"
	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/store/storetest"
)

// activityTestApp is the app with a real activity service on a temp store,
// a fake authenticator (token "valid-token" is user 42), and — so tests can
// act as many clients through app.Test, whose peer is always 0.0.0.0 — that
// peer trusted as a proxy, so X-Forwarded-For names the client.
type activityTestApp struct {
	*testApp
	svc *activity.Service
}

func newActivityTestApp(t *testing.T, ratePerMinute, maxEvents int) *activityTestApp {
	t.Helper()
	st := storetest.Open(t)
	svc, err := activity.New(st, activity.Options{MaxEvents: maxEvents, RatePerMinute: ratePerMinute})
	if err != nil {
		t.Fatal(err)
	}
	ta := newTestApp(t, func(o *Options) {
		o.Config.Server.TrustedProxies = []string{"0.0.0.0"}
		o.Services = &Services{
			Store:    st,
			Activity: svc,
			Authenticate: func(tok string) (*auth.Principal, error) {
				if tok == "valid-token" {
					return &auth.Principal{User: auth.User{ID: 42, Email: "u@example.com", Role: "user"}}, nil
				}
				return nil, errors.New("invalid token")
			},
		}
	})
	return &activityTestApp{testApp: ta, svc: svc}
}

// post sends body from client ip (via X-Forwarded-For) with extra headers.
func (a *activityTestApp) post(t *testing.T, ip, body string, hdr ...string) (*http.Response, []byte) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/api/activity/log", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Forwarded-For", ip)
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	return a.do(t, req)
}

func (a *activityTestApp) events(t *testing.T) []activity.Event {
	t.Helper()
	evs, err := a.svc.List(context.Background(), activity.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// padJSON returns a valid event body of exactly n bytes (whitespace padding,
// which JSON ignores).
func padJSON(t *testing.T, n int) string {
	t.Helper()
	base := `{"action":"page_load","details":{"path":"/"}}`
	if n < len(base) {
		t.Fatalf("padJSON(%d) below the minimal body", n)
	}
	return base[:len(base)-1] + strings.Repeat(" ", n-len(base)) + "}"
}

func TestActivityLogRequests(t *testing.T) {
	tests := []struct {
		name       string
		body       string
		wantStatus int
		wantField  string // field named in the 400's data
	}{
		{"valid event", `{"action":"route_change","details":{"from":"/","to":"/blog"},"timestamp":"2026-01-02T03:04:05.678Z","clientInfo":{"deviceType":"desktop"}}`, 204, ""},
		{"missing action", `{"details":{}}`, 400, "action"},
		{"action too long", `{"action":"` + strings.Repeat("x", 65) + `"}`, 400, "action"},
		{"action at 64 chars", `{"action":"` + strings.Repeat("x", 64) + `"}`, 204, ""},
		{"details not an object", `{"action":"x","details":[]}`, 400, "details"},
		{"bad timestamp", `{"action":"x","timestamp":"not a time"}`, 400, "timestamp"},
		{"bad device type", `{"action":"x","clientInfo":{"deviceType":"fridge"}}`, 400, "clientInfo.deviceType"},
		{"malformed JSON", `{"action":"x"`, 400, ""},
		{"not JSON at all", `action=page_load`, 400, ""},
		{"JSON array", `[{"action":"x"}]`, 400, ""},
		{"wrong field type", `{"action":"x","clientInfo":{"screenWidth":"wide"}}`, 400, ""},
		{"empty body", ``, 400, ""},
		{"unknown fields ignored", `{"action":"x","surprise":true,"userId":7}`, 204, ""},
		{"body exactly at 16 KiB", padJSON(t, activity.MaxBodyBytes), 204, ""},
		{"body 16 KiB + 1", padJSON(t, activity.MaxBodyBytes+1), 413, ""},
		{"body far over the limit", padJSON(t, 200<<10), 413, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := newActivityTestApp(t, 1000, 100)
			resp, body := a.post(t, "203.0.113.10", tc.body)
			if resp.StatusCode != tc.wantStatus {
				t.Fatalf("status %d, want %d (%s)", resp.StatusCode, tc.wantStatus, body)
			}
			stored := len(a.events(t))
			if tc.wantStatus == 204 {
				if stored != 1 {
					t.Fatalf("%d events stored, want 1", stored)
				}
				if len(body) != 0 {
					t.Fatalf("204 with a body: %s", body)
				}
				return
			}
			if stored != 0 {
				t.Fatalf("a refused request stored %d events", stored)
			}
			var e APIError
			if err := json.Unmarshal(body, &e); err != nil || e.Status != tc.wantStatus || e.Message == "" {
				t.Fatalf("error body %s does not have the error shape", body)
			}
			if tc.wantField != "" {
				if _, ok := e.Data[tc.wantField]; !ok {
					t.Fatalf("error data %v lacks field %s", e.Data, tc.wantField)
				}
			}
		})
	}
}

// What the handler stores: the client's payload plus server time, the
// client IP and the user id from a valid bearer token (0 otherwise); a
// client cannot choose its own ip, userId or server time.
func TestActivityLogStoresServerFields(t *testing.T) {
	a := newActivityTestApp(t, 1000, 100)
	payload := `{"action":"page_load","details":{"path":"/"},"timestamp":"2026-01-02T03:04:05Z","userId":999,"ip":"6.6.6.6",
		"clientInfo":{"userAgent":"TestAgent/1.0","language":"uk","timeZone":"Europe/Kyiv","screenWidth":390,"screenHeight":844,
		"colorDepth":24,"referrer":"","platform":"iPhone","vendor":"Apple Computer, Inc.","connection":{"effectiveType":"4g","downlink":2.5,"rtt":100},
		"deviceMemory":null,"hardwareConcurrency":6,"deviceType":"mobile"}}`
	tests := []struct {
		name     string
		hdr      []string
		wantUser uint64
	}{
		{"valid token attaches the user", []string{"Authorization", "Bearer valid-token"}, 42},
		{"no token is anonymous", nil, 0},
		{"invalid token is anonymous, not refused", []string{"Authorization", "Bearer forged"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := time.Now().UTC().Add(-time.Second)
			resp, body := a.post(t, "198.51.100.23", payload, tc.hdr...)
			if resp.StatusCode != 204 {
				t.Fatalf("status %d (%s)", resp.StatusCode, body)
			}
			ev := a.events(t)[0]
			if ev.UserID != tc.wantUser {
				t.Fatalf("userId %d, want %d", ev.UserID, tc.wantUser)
			}
			if ev.IP != "198.51.100.23" {
				t.Fatalf("ip %q, want the client's", ev.IP)
			}
			if ev.At.Before(before) || ev.At.After(time.Now().Add(time.Second)) {
				t.Fatalf("at %v is not server time", ev.At)
			}
			if ev.ClientTimestamp == nil || !ev.ClientTimestamp.Equal(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)) {
				t.Fatalf("clientTimestamp %v", ev.ClientTimestamp)
			}
			ci := ev.ClientInfo
			if ci.UserAgent != "TestAgent/1.0" || ci.DeviceType != "mobile" || ci.ScreenWidth != 390 || ci.Connection == nil ||
				*ci.Connection.Downlink != 2.5 || ci.DeviceMemory != nil || *ci.HardwareConcurrency != 6 {
				t.Fatalf("client info %+v", ci)
			}
			if string(ev.Details) != `{"path":"/"}` {
				t.Fatalf("details %s", ev.Details)
			}
		})
	}
}

func TestActivityLogRateLimit(t *testing.T) {
	const rate = 5
	a := newActivityTestApp(t, rate, 100)
	ev := `{"action":"route_change"}`
	for i := 1; i <= rate; i++ {
		if resp, body := a.post(t, "203.0.113.7", ev); resp.StatusCode != 204 {
			t.Fatalf("event %d of %d: status %d (%s)", i, rate, resp.StatusCode, body)
		}
	}
	resp, body := a.post(t, "203.0.113.7", ev)
	if resp.StatusCode != 429 {
		t.Fatalf("event %d: status %d, want 429 (%s)", rate+1, resp.StatusCode, body)
	}
	if secs, err := strconv.Atoi(resp.Header.Get("Retry-After")); err != nil || secs < 1 || secs > 60 {
		t.Fatalf("Retry-After %q, want whole seconds in 1..60", resp.Header.Get("Retry-After"))
	}
	var e APIError
	if err := json.Unmarshal(body, &e); err != nil || e.Status != 429 {
		t.Fatalf("429 body %s", body)
	}
	// Invalid requests spend the budget too (they cost the server as much).
	if resp, _ := a.post(t, "203.0.113.7", `{`); resp.StatusCode != 429 {
		t.Fatalf("limited client's malformed request: status %d, want 429", resp.StatusCode)
	}
	// Another client is not affected.
	if resp, body := a.post(t, "198.51.100.1", ev); resp.StatusCode != 204 {
		t.Fatalf("other IP: status %d (%s)", resp.StatusCode, body)
	}
	if n := len(a.events(t)); n != rate+1 {
		t.Fatalf("%d events stored, want %d", n, rate+1)
	}
}

// X-Forwarded-For from an untrusted peer must not buy a fresh budget: with
// no trusted proxies every forged header maps to the real peer.
func TestActivityLogRateLimitIgnoresForgedForwardedFor(t *testing.T) {
	a := newActivityTestApp(t, 2, 100)
	a.testApp = newTestApp(t, func(o *Options) {
		o.Services = &Services{Activity: a.svc} // no trusted proxies
	})
	codes := []int{}
	for i := 0; i < 4; i++ {
		resp, _ := a.post(t, "192.0.2."+strconv.Itoa(i+1), `{"action":"x"}`)
		codes = append(codes, resp.StatusCode)
	}
	if codes[0] != 204 || codes[1] != 204 || codes[2] != 429 || codes[3] != 429 {
		t.Fatalf("statuses %v: rotating a forged X-Forwarded-For escaped the limit", codes)
	}
	for _, ev := range a.events(t) {
		if ev.IP != "0.0.0.0" {
			t.Fatalf("stored ip %q from a forged header", ev.IP)
		}
	}
}

func TestActivityLogRetention(t *testing.T) {
	a := newActivityTestApp(t, 1000, 3)
	for i := 1; i <= 7; i++ {
		body := `{"action":"e` + strconv.Itoa(i) + `"}`
		if resp, b := a.post(t, "203.0.113.9", body); resp.StatusCode != 204 {
			t.Fatalf("status %d (%s)", resp.StatusCode, b)
		}
	}
	var got []string
	for _, ev := range a.events(t) {
		got = append(got, ev.Action)
	}
	if strings.Join(got, ",") != "e7,e6,e5" {
		t.Fatalf("kept %v, want the newest three", got)
	}
}

// A chunked body (no Content-Length) over the route's limit is refused once
// read; over a real connection, since app.Test always sets a length.
func TestActivityLogChunkedOverLimit(t *testing.T) {
	a := newActivityTestApp(t, 1000, 100)
	base := a.listen(t)
	for _, tc := range []struct {
		size int
		want int
	}{{activity.MaxBodyBytes, 204}, {activity.MaxBodyBytes + 1, 413}} {
		body := padJSON(t, tc.size)
		// An io.Reader of unknown length makes net/http send it chunked.
		req, _ := http.NewRequest(http.MethodPost, base+"/api/activity/log", io.MultiReader(bytes.NewReader([]byte(body))))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if req.ContentLength != 0 && req.ContentLength != -1 {
			t.Fatalf("request was not chunked (length %d)", req.ContentLength)
		}
		if resp.StatusCode != tc.want {
			t.Fatalf("chunked %d bytes: status %d, want %d", tc.size, resp.StatusCode, tc.want)
		}
	}
}

func TestActivityLogMethodAndMount(t *testing.T) {
	a := newActivityTestApp(t, 1000, 100)
	resp, _ := a.do(t, httptest.NewRequest(http.MethodGet, "/api/activity/log", nil))
	if resp.StatusCode == 204 || resp.StatusCode == 200 {
		t.Fatalf("GET answered %d", resp.StatusCode)
	}
}

// Fiber decodes a gzip-encoded body; what counts against the limit is the
// decoded size, so a small compressed body cannot smuggle a large event.
func TestActivityLogCompressedBody(t *testing.T) {
	a := newActivityTestApp(t, 1000, 100)
	for _, tc := range []struct {
		name string
		size int
		want int
	}{{"small event", 200, 204}, {"decodes past the limit", 64 << 10, 413}} {
		t.Run(tc.name, func(t *testing.T) {
			packed := gz(t, padJSON(t, tc.size))
			if len(packed) > activity.MaxBodyBytes {
				t.Fatalf("test body compresses to %d bytes, not under the limit", len(packed))
			}
			req := httptest.NewRequest(http.MethodPost, "/api/activity/log", bytes.NewReader(packed))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Content-Encoding", "gzip")
			resp, body := a.do(t, req)
			if resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d (%s)", resp.StatusCode, tc.want, body)
			}
		})
	}
}
