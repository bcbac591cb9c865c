package mail

import (
	"strings"
	"testing"
)

// Every letter of the flows is written in every language, fills its
// blanks, and escapes what a person typed in its HTML.
func TestFlowLettersInEveryLanguage(t *testing.T) {
	d := Data{Site: "devhub.test", Link: "https://devhub.test/verify-email?token=abc", Email: "new@example.org",
		From: "Eve <eve@example.org>", Detail: "<script>hi</script>", Count: 2, Items: []string{"one <b>", "two"}}
	for _, kind := range []Kind{KindVerifyEmail, KindEmailChange, KindEmailChanged, KindContact, KindDigest} {
		for _, lang := range Languages {
			subject, text, html := Render(kind, lang, d)
			if subject == "" || strings.Contains(subject+text, "{{") || strings.Contains(subject+text, "<no value>") {
				t.Errorf("%s/%s: blanks left: %q %q", kind, lang, subject, text)
			}
			if !strings.Contains(subject+text, "devhub.test") {
				t.Errorf("%s/%s does not name the site", kind, lang)
			}
			if strings.Contains(html, "<script>") || strings.Contains(html, "one <b>") {
				t.Errorf("%s/%s: HTML not escaped", kind, lang)
			}
			if l := letters[kind][lang]; l.LinkLabel != "" && !strings.Contains(text, d.Link) {
				t.Errorf("%s/%s: the link is missing from the text", kind, lang)
			}
		}
	}
	if _, text, _ := Render(KindDigest, "en", d); !strings.Contains(text, "- one <b>\n- two\n") {
		t.Errorf("digest items not listed: %q", text)
	}
}

func TestDigestItem(t *testing.T) {
	for _, tc := range []struct{ lang, kind, by, want string }{
		{"en", "friend.request", "Ann", "Ann wants to be your friend"},
		{"en", "dm.message", "Ann", "a new message from Ann"},
		// Unnamed: left out after a preposition, "someone" as the subject.
		{"uk-UA", "dm.message", "", "нове повідомлення"},
		{"ru", "comment.new", "", "новый комментарий"},
		{"uk", "mention", "", "хтось згадав(-ла) вас"},
		{"ru", "no.such.kind", "Ann", "новое уведомление"},
		{"de", "mention", "Bob", "Bob згадав(-ла) вас"},
	} {
		if got := DigestItem(tc.lang, tc.kind, tc.by); got != tc.want {
			t.Errorf("DigestItem(%q, %q, %q) = %q, want %q", tc.lang, tc.kind, tc.by, got, tc.want)
		}
	}
}
