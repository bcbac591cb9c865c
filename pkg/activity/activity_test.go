package activity

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/store/storetest"
)

func openStore(tb testing.TB) *store.Store {
	tb.Helper()
	st := storetest.Open(tb)
	return st
}

func newService(tb testing.TB, st *store.Store, o Options) *Service {
	tb.Helper()
	svc, err := New(st, o)
	if err != nil {
		tb.Fatal(err)
	}
	return svc
}

var ip1 = netip.MustParseAddr("203.0.113.5")

func TestLogValidation(t *testing.T) {
	ok := func(t *testing.T, ev *Event) {}
	tests := []struct {
		name      string
		in        string
		wantField string // "" = accepted
		check     func(t *testing.T, ev *Event)
	}{
		{name: "minimal", in: `{"action":"page_load"}`, check: func(t *testing.T, ev *Event) {
			if string(ev.Details) != `{}` || ev.ClientTimestamp != nil {
				t.Fatalf("defaults: details %s ts %v", ev.Details, ev.ClientTimestamp)
			}
		}},
		{name: "missing action", in: `{"details":{}}`, wantField: "action"},
		{name: "blank action", in: `{"action":"   "}`, wantField: "action"},
		{name: "action too long", in: `{"action":"` + strings.Repeat("a", MaxActionLen+1) + `"}`, wantField: "action"},
		{name: "action at the length limit", in: `{"action":"` + strings.Repeat("a", MaxActionLen) + `"}`, check: ok},
		{name: "action with spaces", in: `{"action":"drop table"}`, wantField: "action"},
		{name: "action with markup", in: `{"action":"<script>"}`, wantField: "action"},
		{name: "action starting with a digit", in: `{"action":"1st"}`, wantField: "action"},
		{name: "action with dots and colons", in: `{"action":"tools.camera:start-1"}`, check: ok},
		{name: "details array", in: `{"action":"x","details":[1,2]}`, wantField: "details"},
		{name: "details string", in: `{"action":"x","details":"hi"}`, wantField: "details"},
		{name: "details null", in: `{"action":"x","details":null}`, check: func(t *testing.T, ev *Event) {
			if string(ev.Details) != `{}` {
				t.Fatalf("details = %s", ev.Details)
			}
		}},
		{name: "details compacted", in: `{"action":"x","details": { "from" : "/a",  "to":"/b" }}`, check: func(t *testing.T, ev *Event) {
			if string(ev.Details) != `{"from":"/a","to":"/b"}` {
				t.Fatalf("details = %s", ev.Details)
			}
		}},
		{name: "details too big", in: `{"action":"x","details":{"k":"` + strings.Repeat("a", MaxDetailsBytes) + `"}}`, wantField: "details"},
		{name: "timestamp ISO", in: `{"action":"x","timestamp":"2026-03-01T10:20:30.123Z"}`, check: func(t *testing.T, ev *Event) {
			want := time.Date(2026, 3, 1, 10, 20, 30, 123e6, time.UTC)
			if ev.ClientTimestamp == nil || !ev.ClientTimestamp.Equal(want) {
				t.Fatalf("timestamp = %v, want %v", ev.ClientTimestamp, want)
			}
		}},
		{name: "timestamp with offset", in: `{"action":"x","timestamp":"2026-03-01T12:20:30+02:00"}`, check: func(t *testing.T, ev *Event) {
			if ev.ClientTimestamp == nil || !ev.ClientTimestamp.Equal(time.Date(2026, 3, 1, 10, 20, 30, 0, time.UTC)) {
				t.Fatalf("timestamp = %v", ev.ClientTimestamp)
			}
		}},
		{name: "timestamp epoch ms", in: `{"action":"x","timestamp":1767225600000}`, check: func(t *testing.T, ev *Event) {
			if ev.ClientTimestamp == nil || !ev.ClientTimestamp.Equal(time.UnixMilli(1767225600000)) {
				t.Fatalf("timestamp = %v", ev.ClientTimestamp)
			}
		}},
		{name: "timestamp garbage", in: `{"action":"x","timestamp":"yesterday"}`, wantField: "timestamp"},
		{name: "timestamp wrong type", in: `{"action":"x","timestamp":true}`, wantField: "timestamp"},
		{name: "timestamp negative", in: `{"action":"x","timestamp":-5}`, wantField: "timestamp"},
		{name: "unknown fields ignored", in: `{"action":"x","evil":{"a":1},"userId":99,"ip":"1.2.3.4","at":"2000-01-01T00:00:00Z"}`, check: func(t *testing.T, ev *Event) {
			if ev.UserID != 0 || ev.IP != ip1.String() || ev.At.Year() == 2000 {
				t.Fatalf("client overrode server fields: %+v", ev)
			}
		}},
		{name: "bad device type", in: `{"action":"x","clientInfo":{"deviceType":"toaster"}}`, wantField: "clientInfo.deviceType"},
		{name: "negative screen", in: `{"action":"x","clientInfo":{"screenWidth":-1}}`, wantField: "clientInfo.screenWidth"},
		{name: "full client info", in: `{"action":"page_load","clientInfo":{"userAgent":"UA/1","language":"uk-UA","timeZone":"Europe/Kyiv",
			"screenWidth":1920,"screenHeight":1080,"colorDepth":24,"referrer":"https://example.com/","platform":"Linux x86_64","vendor":"Google Inc.",
			"connection":{"effectiveType":"4g","downlink":10,"rtt":50},"deviceMemory":8,"hardwareConcurrency":4,"deviceType":"desktop"}}`,
			check: func(t *testing.T, ev *Event) {
				ci := ev.ClientInfo
				if ci.UserAgent != "UA/1" || ci.Language != "uk-UA" || ci.TimeZone != "Europe/Kyiv" || ci.ScreenWidth != 1920 ||
					ci.ScreenHeight != 1080 || ci.ColorDepth != 24 || ci.Referrer != "https://example.com/" || ci.Platform != "Linux x86_64" ||
					ci.Vendor != "Google Inc." || ci.Connection == nil || ci.Connection.EffectiveType != "4g" || *ci.Connection.Downlink != 10 ||
					*ci.Connection.RTT != 50 || *ci.DeviceMemory != 8 || *ci.HardwareConcurrency != 4 || ci.DeviceType != "desktop" {
					t.Fatalf("client info not kept: %+v", ci)
				}
			}},
		{name: "null client info numbers", in: `{"action":"x","clientInfo":{"connection":null,"deviceMemory":null,"hardwareConcurrency":null,"deviceType":"mobile"}}`,
			check: func(t *testing.T, ev *Event) {
				if ev.ClientInfo.Connection != nil || ev.ClientInfo.DeviceMemory != nil || ev.ClientInfo.HardwareConcurrency != nil {
					t.Fatalf("nulls became values: %+v", ev.ClientInfo)
				}
			}},
		{name: "huge user agent is clipped, not refused", in: `{"action":"x","clientInfo":{"userAgent":"` + strings.Repeat("é", 2000) + `"}}`,
			check: func(t *testing.T, ev *Event) {
				ua := ev.ClientInfo.UserAgent
				if len(ua) > maxLongString || len(ua) < maxLongString-1 || !strings.HasPrefix(ua, "éé") || strings.ContainsRune(ua, '\uFFFD') {
					t.Fatalf("user agent clipped to %d bytes: %q…", len(ua), ua[:8])
				}
			}},
	}
	svc := newService(t, openStore(t), Options{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var in Input
			if err := json.Unmarshal([]byte(tc.in), &in); err != nil {
				t.Fatalf("test input: %v", err)
			}
			ev, err := svc.Log(context.Background(), in, Meta{IP: ip1})
			if tc.wantField != "" {
				var verr *store.ValidationError
				if !errors.As(err, &verr) {
					t.Fatalf("err = %v, want a ValidationError on %s", err, tc.wantField)
				}
				if _, ok := verr.Fields[tc.wantField]; !ok {
					t.Fatalf("fields = %v, want %s", verr.Fields, tc.wantField)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ev.ID == 0 || ev.IP != ip1.String() || ev.At.IsZero() {
				t.Fatalf("server fields missing: %+v", ev)
			}
			tc.check(t, ev)
			// What List returns is what was stored.
			got, err := svc.List(context.Background(), Filter{Limit: 1})
			if err != nil {
				t.Fatal(err)
			}
			a, _ := json.Marshal(got[0])
			b, _ := json.Marshal(ev)
			if string(a) != string(b) {
				t.Fatalf("stored\n %s\nreturned\n %s", a, b)
			}
		})
	}
}

func TestLogStampsServerFields(t *testing.T) {
	at := time.Date(2026, 5, 4, 3, 2, 1, 0, time.FixedZone("X", 3600))
	svc := newService(t, openStore(t), Options{Now: func() time.Time { return at }})
	ev, err := svc.Log(context.Background(), Input{Action: "page_load"},
		Meta{IP: netip.MustParseAddr("::ffff:198.51.100.7"), UserID: 42})
	if err != nil {
		t.Fatal(err)
	}
	if ev.IP != "198.51.100.7" || ev.UserID != 42 || !ev.At.Equal(at) || ev.At.Location() != time.UTC {
		t.Fatalf("event = %+v", ev)
	}
}

func TestRetentionDropsOldest(t *testing.T) {
	st := openStore(t)
	ctx := context.Background()
	svc := newService(t, st, Options{MaxEvents: 5})
	for i := 1; i <= 12; i++ {
		if _, err := svc.Log(ctx, Input{Action: fmt.Sprintf("e%d", i)}, Meta{IP: ip1}); err != nil {
			t.Fatal(err)
		}
	}
	assertActions(t, svc, Filter{}, "e12", "e11", "e10", "e9", "e8")

	// Lowering the limit trims the backlog on the next append.
	svc2 := newService(t, st, Options{MaxEvents: 2})
	if _, err := svc2.Log(ctx, Input{Action: "e13"}, Meta{}); err != nil {
		t.Fatal(err)
	}
	assertActions(t, svc2, Filter{}, "e13", "e12")
	if n, _ := svc2.Count(); n != 2 {
		t.Fatalf("Count = %d, want 2", n)
	}
}

func TestRetentionUnderConcurrency(t *testing.T) {
	svc := newService(t, openStore(t), Options{MaxEvents: 10})
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 10; i++ {
				if _, err := svc.Log(context.Background(), Input{Action: "burst"}, Meta{}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	evs, _ := svc.List(context.Background(), Filter{})
	if len(evs) != 10 || evs[0].ID != 80 || evs[9].ID != 71 {
		t.Fatalf("kept %d events, ids %d..%d; want the newest 10 (80..71)", len(evs), evs[0].ID, evs[len(evs)-1].ID)
	}
}

func TestListFilter(t *testing.T) {
	svc := newService(t, openStore(t), Options{})
	for _, a := range []string{"page_load", "route_change", "guest_visit", "route_change", "route_change"} {
		if _, err := svc.Log(context.Background(), Input{Action: a}, Meta{}); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		f    Filter
		want []uint64
	}{
		{Filter{}, []uint64{5, 4, 3, 2, 1}},
		{Filter{Limit: 2}, []uint64{5, 4}},
		{Filter{Action: "route_change"}, []uint64{5, 4, 2}},
		{Filter{Action: "route_change", Limit: 1}, []uint64{5}},
		{Filter{Action: "nothing"}, []uint64{}},
	}
	for _, tc := range tests {
		evs, err := svc.List(context.Background(), tc.f)
		if err != nil {
			t.Fatal(err)
		}
		ids := []uint64{}
		for _, e := range evs {
			ids = append(ids, e.ID)
		}
		if fmt.Sprint(ids) != fmt.Sprint(tc.want) {
			t.Errorf("List(%+v) ids = %v, want %v", tc.f, ids, tc.want)
		}
	}
}

func assertActions(t *testing.T, svc *Service, f Filter, want ...string) {
	t.Helper()
	evs, err := svc.List(context.Background(), f)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range evs {
		got = append(got, e.Action)
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("actions = %v, want %v", got, want)
	}
}

// BenchmarkLog measures the append path one request takes: validation,
// JSON encoding and one bbolt write (with fsync) including retention.
func BenchmarkLog(b *testing.B) {
	svc := newService(b, openStore(b), Options{MaxEvents: 1000})
	in := benchInput(b)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := svc.Log(ctx, in, Meta{IP: ip1}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLogParallel shows what Batch buys when many visitors log at once:
// concurrent appends share transactions and fsyncs.
func BenchmarkLogParallel(b *testing.B) {
	svc := newService(b, openStore(b), Options{MaxEvents: 1000})
	in := benchInput(b)
	b.ReportAllocs()
	b.SetParallelism(16)
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := svc.Log(context.Background(), in, Meta{IP: ip1}); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

func BenchmarkLimiterAllow(b *testing.B) {
	l := NewLimiter(1<<30, time.Minute, 0, nil)
	addrs := make([]netip.Addr, 4096)
	for i := range addrs {
		addrs[i] = netip.AddrFrom4([4]byte{198, 51, byte(i >> 8), byte(i)})
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		l.Allow(addrs[i%len(addrs)])
		i++
	}
}

func benchInput(b *testing.B) Input {
	var in Input
	raw := `{"action":"route_change","details":{"from":"/blog","to":"/filecloud"},"timestamp":"2026-03-01T10:20:30.123Z",
	"clientInfo":{"userAgent":"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36",
	"language":"uk-UA","timeZone":"Europe/Kyiv","screenWidth":1920,"screenHeight":1080,"colorDepth":24,"referrer":"",
	"platform":"Linux x86_64","vendor":"Google Inc.","connection":{"effectiveType":"4g","downlink":10,"rtt":50},
	"deviceMemory":8,"hardwareConcurrency":4,"deviceType":"desktop"}}`
	if err := json.Unmarshal([]byte(raw), &in); err != nil {
		b.Fatal(err)
	}
	return in
}

// Stored events are as large as what was checked, not six times larger:
// markup in the details is kept as it came, not escaped to \u003c.
func TestStoredSizeIsNotAmplified(t *testing.T) {
	st := openStore(t)
	svc := newService(t, st, Options{})
	details := `{"note":"` + strings.Repeat("<", MaxDetailsBytes-20) + `"}`
	ev, err := svc.Log(context.Background(), Input{Action: "x", Details: json.RawMessage(details)}, Meta{IP: ip1})
	if err != nil {
		t.Fatal(err)
	}
	var size int
	_ = st.View(func(tx *bolt.Tx) error {
		size = len(tx.Bucket([]byte(bucketName)).Get(store.Itob(ev.ID)))
		return nil
	})
	if size > MaxDetailsBytes+1024 {
		t.Fatalf("an event with %d bytes of details is stored in %d bytes", len(details), size)
	}
}

// Strings that JSON must escape (control characters, six bytes each) could
// still blow an event up; the stored size is capped and such an event is a
// validation error, not a 6× record.
func TestStoredSizeIsCapped(t *testing.T) {
	svc := newService(t, openStore(t), Options{})
	ctrl := strings.Repeat("\x01", 1024)
	in := Input{Action: "x", Details: json.RawMessage(`{"a":"` + strings.Repeat("b", MaxDetailsBytes-16) + `"}`),
		ClientInfo: ClientInfo{UserAgent: ctrl, Referrer: ctrl}}
	_, err := svc.Log(context.Background(), in, Meta{IP: ip1})
	var ve *store.ValidationError
	if !errors.As(err, &ve) || ve.Fields["event"].Code != "too_large" {
		t.Fatalf("err = %v, want a too_large validation error on event", err)
	}
	if n, _ := svc.Count(); n != 0 {
		t.Fatalf("%d events stored after a refused one", n)
	}
}

// Retention is bounded in bytes as well as in count, and the running total
// stays equal to what is stored.
func TestRetentionByBytes(t *testing.T) {
	st := openStore(t)
	svc := newService(t, st, Options{MaxEvents: 1000, MaxBytes: 20 << 10})
	big := json.RawMessage(`{"a":"` + strings.Repeat("z", 4000) + `"}`)
	for i := 0; i < 30; i++ {
		if _, err := svc.Log(context.Background(), Input{Action: "big", Details: big}, Meta{IP: ip1}); err != nil {
			t.Fatal(err)
		}
	}
	var total, counted uint64
	var n int
	_ = st.View(func(tx *bolt.Tx) error {
		total = store.Btoi(tx.Bucket([]byte(metaBucket)).Get(bytesKey))
		return tx.Bucket([]byte(bucketName)).ForEach(func(_, v []byte) error {
			counted += uint64(len(v))
			n++
			return nil
		})
	})
	if counted > 20<<10 || n < 3 || n > 5 {
		t.Fatalf("%d events in %d bytes kept, want 3–5 within 20 KiB", n, counted)
	}
	if total != counted {
		t.Fatalf("running total %d, stored %d", total, counted)
	}
	// The newest survive.
	evs, _ := svc.List(context.Background(), Filter{Limit: 1})
	if len(evs) != 1 || evs[0].ID != 30 {
		t.Fatalf("newest event %+v, want id 30", evs)
	}
}

func TestGlobalRateAcrossAddresses(t *testing.T) {
	svc := newService(t, openStore(t), Options{RatePerMinute: 100, GlobalRatePerMinute: 3})
	for i := 0; i < 3; i++ {
		if ok, _ := svc.Allow(netip.AddrFrom4([4]byte{198, 51, 100, byte(i)})); !ok {
			t.Fatalf("event %d refused", i)
		}
	}
	if ok, wait := svc.Allow(netip.MustParseAddr("198.51.100.200")); ok || wait < time.Second {
		t.Fatalf("a new address passed the spent global budget (ok=%v wait=%s)", ok, wait)
	}
}
