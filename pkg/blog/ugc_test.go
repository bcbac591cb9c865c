package blog

import (
	"strings"
	"testing"
)

// What visitors write passes the same XSS corpus as articles.
func TestRenderUGCXSS(t *testing.T) {
	checkXSSCorpus(t, func(src string) (string, error) {
		html, _, err := RenderUGC(src)
		return html, err
	})
}

func TestRenderUGC(t *testing.T) {
	tests := []struct {
		name      string
		md        string
		want      []string
		notWanted []string
		links     int
	}{
		{"link marked", "[site](https://example.com)", []string{`<a href="https://example.com" rel="nofollow ugc noopener">site</a>`}, nil, 1},
		{"bare URL marked", "see https://example.com/x", []string{`rel="nofollow ugc noopener">https://example.com/x</a>`}, nil, 1},
		{"angle autolink marked", "<https://example.com>", []string{`rel="nofollow ugc noopener"`}, nil, 1},
		{"image becomes its alt text", "![a cat](https://tracker.example/p.png)", []string{"a cat"}, []string{"<img", "tracker"}, 0},
		{"unsafe link not counted", "[x](javascript:alert(1)) [y](https://a.example)", []string{`href="https://a.example"`}, []string{"javascript"}, 1},
		{"raw HTML dropped", "<b onclick=x>hi</b>", []string{"hi"}, []string{"<b", "onclick"}, 0},
		{"three links", "https://a.example https://b.example [c](https://c.example)", nil, nil, 3},
		{"emphasis kept", "*so* **much**", []string{"<em>so</em>", "<strong>much</strong>"}, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			html, links, err := RenderUGC(tt.md)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range tt.want {
				if !strings.Contains(html, w) {
					t.Errorf("output lacks %q:\n%s", w, html)
				}
			}
			for _, w := range tt.notWanted {
				if strings.Contains(html, w) {
					t.Errorf("output holds %q:\n%s", w, html)
				}
			}
			if links != tt.links {
				t.Errorf("links = %d, want %d", links, tt.links)
			}
		})
	}
}
