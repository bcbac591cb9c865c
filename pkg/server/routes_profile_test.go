package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/devhub/devhub/pkg/profile"
)

func TestProfileEndpoints(t *testing.T) {
	loaded := &profile.Loaded{
		Profile: profile.Profile{
			Name: profile.Text{"en": "Ann", "uk": "Анна"}, Headline: profile.Text{"en": "Dev"}, Bio: profile.Text{"en": "Hi"},
			Avatar:   "a.png",
			Services: []profile.Item{{Name: profile.Text{"en": "Backend"}, Description: profile.Text{"en": "APIs"}, Icon: "go"}},
			DevTools: profile.DevTools{Intro: profile.Text{"en": "i"}, Philosophy: profile.Text{"en": "p"},
				Groups: []profile.Group{{Title: profile.Text{"en": "g"}, Tools: []profile.Item{{Name: profile.Text{"en": "Git"}, Icon: "git"}}}}},
		},
		Avatar:     []byte("\x89PNG\r\n\x1a\n-not-a-real-picture"),
		AvatarType: "image/png",
	}
	ta := newTestApp(t, func(o *Options) { o.Services = &Services{Profile: loaded} })

	resp, body := ta.do(t, httptest.NewRequest(http.MethodGet, "/api/profile", nil))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var got struct {
		Name      map[string]string `json:"name"`
		AvatarURL string            `json:"avatarUrl"`
	}
	if err := json.Unmarshal(body, &got); err != nil || got.Name["uk"] != "Анна" || got.AvatarURL == "" {
		t.Fatalf("profile %s (%v)", body, err)
	}
	etag := resp.Header.Get("ETag")
	req := httptest.NewRequest(http.MethodGet, "/api/profile", nil)
	req.Header.Set("If-None-Match", etag)
	if resp, _ := ta.do(t, req); resp.StatusCode != http.StatusNotModified {
		t.Fatalf("revalidation: %d, want 304", resp.StatusCode)
	}

	resp, body = ta.do(t, httptest.NewRequest(http.MethodGet, got.AvatarURL, nil))
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/png" || string(body) != string(loaded.Avatar) {
		t.Fatalf("avatar: %d %s %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if csp := resp.Header.Get("Content-Security-Policy"); csp == "" || resp.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Fatalf("avatar headers: %v", resp.Header)
	}

	bare := newTestApp(t, nil)
	for _, path := range []string{"/api/profile", "/api/profile/avatar"} {
		if resp, body := bare.do(t, httptest.NewRequest(http.MethodGet, path, nil)); resp.StatusCode != http.StatusNotFound {
			t.Fatalf("%s without a profile: %d %s", path, resp.StatusCode, body)
		}
	}
}
