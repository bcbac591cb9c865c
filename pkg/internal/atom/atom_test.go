package atom

import "testing"

func TestSiteLinksAndIDs(t *testing.T) {
	for _, tc := range []struct {
		public, url, id string
	}{
		{"https://example.org/", "https://example.org/forum/t/7", "https://example.org/forum/t/7"},
		{"https://example.org", "https://example.org/forum/t/7", "https://example.org/forum/t/7"},
		{"", "/forum/t/7", "urn:devhub:forum:t:7"},
	} {
		s := NewSite(tc.public)
		if got := s.URL("/forum/t/7"); got != tc.url {
			t.Errorf("%q: URL = %q, want %q", tc.public, got, tc.url)
		}
		if got := s.ID("/forum/t/7"); got != tc.id {
			t.Errorf("%q: ID = %q, want %q", tc.public, got, tc.id)
		}
	}
}
