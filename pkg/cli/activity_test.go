package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devhub/devhub/pkg/activity"
	"github.com/devhub/devhub/pkg/store"
)

// seedActivity writes events straight into the instance's store, the way
// the server's POST /api/activity/log would.
func seedActivity(t *testing.T, ti *testInstance, events ...activity.Input) {
	t.Helper()
	st, err := store.Open(filepath.Join(ti.dataDir, "devhub.db"), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc, err := activity.New(st, activity.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, in := range events {
		meta := activity.Meta{IP: netip.MustParseAddr("203.0.113.4")}
		if i == 0 {
			meta.UserID = 7
		}
		if _, err := svc.Log(context.Background(), in, meta); err != nil {
			t.Fatal(err)
		}
	}
}

func TestActivityListCommand(t *testing.T) {
	ti := newTestInstance(t)
	seedActivity(t, ti,
		activity.Input{Action: "page_load", Details: json.RawMessage(`{"path":"/"}`),
			ClientInfo: activity.ClientInfo{UserAgent: "UA", DeviceType: "desktop"}},
		activity.Input{Action: "route_change", Details: json.RawMessage(`{"from":"/","to":"/blog"}`)},
		activity.Input{Action: "guest_visit"},
		activity.Input{Action: "route_change", Details: json.RawMessage(`{"from":"/blog","to":"/games"}`)},
	)

	type row struct {
		ID         uint64          `json:"id"`
		Action     string          `json:"action"`
		Details    json.RawMessage `json:"details"`
		ClientInfo map[string]any  `json:"clientInfo"`
		IP         string          `json:"ip"`
		UserID     *uint64         `json:"userId"`
		At         *time.Time      `json:"at"`
	}
	tests := []struct {
		name        string
		args        []string
		wantActions []string
	}{
		{"all, newest first", []string{"activity", "list", "--json"}, []string{"route_change", "guest_visit", "route_change", "page_load"}},
		{"by action", []string{"activity", "list", "--json", "--action", "route_change"}, []string{"route_change", "route_change"}},
		{"limit", []string{"activity", "list", "--json", "--limit", "1"}, []string{"route_change"}},
		{"no match is an empty array", []string{"activity", "list", "--json", "--action", "nope"}, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := ti.run("", tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var rows []row
			if err := json.Unmarshal([]byte(out), &rows); err != nil {
				t.Fatalf("not a JSON array: %v\n%s", err, out)
			}
			got := []string{}
			for _, r := range rows {
				got = append(got, r.Action)
				if r.IP != "203.0.113.4" || r.UserID == nil || r.At == nil || r.At.IsZero() || r.ClientInfo == nil || len(r.Details) == 0 {
					t.Fatalf("row lacks fields: %+v", r)
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.wantActions, ",") {
				t.Fatalf("actions %v, want %v", got, tc.wantActions)
			}
		})
	}

	// The first event carries its user and client info through to the JSON.
	out, _, _ := ti.run("", "activity", "list", "--json", "--action", "page_load")
	var rows []row
	json.Unmarshal([]byte(out), &rows)
	var details bytes.Buffer
	if len(rows) == 1 {
		json.Compact(&details, rows[0].Details)
	}
	if len(rows) != 1 || *rows[0].UserID != 7 || rows[0].ClientInfo["userAgent"] != "UA" || details.String() != `{"path":"/"}` {
		t.Fatalf("page_load row: %s", out)
	}
}

func TestActivityListHuman(t *testing.T) {
	ti := newTestInstance(t)
	out, errOut, code := ti.run("", "activity", "list")
	if code != 0 || !strings.Contains(out, "no activity events") {
		t.Fatalf("empty store: exit %d, out %q, err %q", code, out, errOut)
	}
	seedActivity(t, ti, activity.Input{Action: "page_load", Details: json.RawMessage(`{"path":"/"}`),
		ClientInfo: activity.ClientInfo{DeviceType: "mobile"}})
	out, errOut, code = ti.run("", "activity", "list")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"ACTION", "page_load", "203.0.113.4", "mobile", `{"path":"/"}`} {
		if !strings.Contains(out, want) {
			t.Fatalf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestActivityListBadFlags(t *testing.T) {
	ti := newTestInstance(t)
	for _, args := range [][]string{
		{"activity", "list", "--limit", "-1"},
		{"activity", "list", "--limit", "many"},
		{"activity", "list", "extra-arg"},
	} {
		_, errOut, code := ti.run("", args...)
		if code == 0 || errOut == "" {
			t.Errorf("%v: exit %d, stderr %q; want a failure on stderr", args, code, errOut)
		}
	}
}
