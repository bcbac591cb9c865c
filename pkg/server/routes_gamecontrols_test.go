package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/gamecontrols"
	"github.com/devhub/devhub/pkg/store/storetest"
)

func TestGameControlsAPI(t *testing.T) {
	controls, err := gamecontrols.New(storetest.Open(t))
	if err != nil {
		t.Fatal(err)
	}
	f := newGamesFixture(t, func(o *Options) { o.Services.Controls = controls })
	jsonHdr := []string{"Content-Type", "application/json"}
	huge := `{"keys":{"KeyK":8},"pad":"` + strings.Repeat("x", gamecontrols.MaxBytes) + `"}`
	for _, tc := range []struct {
		name, method, target, token, body string
		hdr                               []string
		want                              int
		inAnswer                          string
	}{
		{"guest cannot read", "GET", "/api/games/controls/nes", "", "", nil, 401, ""},
		{"guest cannot save", "PUT", "/api/games/controls/nes", "", `{"keys":{"KeyK":8}}`, jsonHdr, 401, ""},
		{"guest cannot reset", "DELETE", "/api/games/controls/nes", "", "", nil, 401, ""},
		{"nothing saved: the defaults", "GET", "/api/games/controls/nes", userToken, "", nil, 200, `"keys":null`},
		{"unknown console", "GET", "/api/games/controls/dreamcast64", userToken, "", nil, 404, "unknown console"},
		{"unknown console on save", "PUT", "/api/games/controls/dreamcast64", userToken, `{"keys":{"KeyK":8}}`, jsonHdr, 404, "unknown console"},
		{"traversal as a console", "GET", "/api/games/controls/..%2fnes", userToken, "", nil, 404, ""},
		{"malformed JSON", "PUT", "/api/games/controls/nes", userToken, `{"keys":`, jsonHdr, 400, "malformed"},
		{"not JSON", "PUT", "/api/games/controls/nes", userToken, `keys=KeyK`, []string{"Content-Type", "text/plain"}, 415, ""},
		{"keys not a map", "PUT", "/api/games/controls/nes", userToken, `{"keys":["KeyK"]}`, jsonHdr, 400, ""},
		{"button id past R", "PUT", "/api/games/controls/nes", userToken, `{"keys":{"KeyK":42}}`, jsonHdr, 400, "joypad button"},
		{"bad key code", "PUT", "/api/games/controls/nes", userToken, `{"keys":{"Key K":8}}`, jsonHdr, 400, "key code"},
		{"bad gamepad index", "PUT", "/api/games/controls/nes", userToken, `{"gamepad":{"x":8}}`, jsonHdr, 400, "gamepad"},
		{"over the size limit", "PUT", "/api/games/controls/nes", userToken, huge, jsonHdr, 413, "at most"},
		{"saves keys and gamepad", "PUT", "/api/games/controls/nes", userToken, `{"keys":{"KeyK":8,"ArrowUp":4},"gamepad":{"2":8}}`, jsonHdr, 200, `"KeyK":8`},
		{"reads them back", "GET", "/api/games/controls/nes", userToken, "", nil, 200, `"gamepad":{"2":8}`},
		{"an alias names the same console", "GET", "/api/games/controls/famicom", userToken, "", nil, 200, `"KeyK":8`},
		{"another console has the defaults", "GET", "/api/games/controls/snes", userToken, "", nil, 200, `"keys":null`},
		{"another user has the defaults", "GET", "/api/games/controls/nes", adminToken, "", nil, 200, `"keys":null`},
		{"reset", "DELETE", "/api/games/controls/nes", userToken, "", nil, 204, ""},
		{"reset twice", "DELETE", "/api/games/controls/nes", userToken, "", nil, 204, ""},
		{"after reset: the defaults", "GET", "/api/games/controls/nes", userToken, "", nil, 200, `"keys":null`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var body []byte
			if tc.body != "" {
				body = []byte(tc.body)
			}
			resp, answer := f.req(t, tc.method, tc.target, tc.token, body, tc.hdr...)
			if resp.StatusCode != tc.want {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.want, answer)
			}
			if tc.inAnswer != "" && !strings.Contains(string(answer), tc.inAnswer) {
				t.Fatalf("answer %s lacks %s", answer, tc.inAnswer)
			}
			if tc.method == "GET" && resp.StatusCode == 200 {
				var m gamecontrols.Mapping
				if err := json.Unmarshal(answer, &m); err != nil {
					t.Fatalf("answer %s: %v", answer, err)
				}
				if resp.Header.Get("Cache-Control") != "no-store" {
					t.Fatalf("Cache-Control %q", resp.Header.Get("Cache-Control"))
				}
			}
		})
	}
}
