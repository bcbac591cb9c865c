package server

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/devhub/devhub/pkg/blog"
)

// TestBlogLanguageThroughAPI: articles carry a language and a translation key
// through create, edit, the list (the reader's language first) and the
// article answer (its translations).
func TestBlogLanguageThroughAPI(t *testing.T) {
	ta := newBlogTestApp(t, nil)
	create := []struct {
		name, body string
		want       int
		field      string
	}{
		{"english by default", `{"name":"Run","excerpt":"e","category":"c","content":"x","translationKey":"run"}`, 201, ""},
		{"ukrainian", `{"name":"Запуск","excerpt":"e","category":"c","content":"x","lang":"uk","translationKey":"run"}`, 201, ""},
		{"russian, alone", `{"name":"Один","excerpt":"e","category":"c","content":"x","lang":"RU"}`, 201, ""},
		{"not a language", `{"name":"n","excerpt":"e","category":"c","content":"x","lang":"klingon language"}`, 400, "lang"},
		{"bad key", `{"name":"n","excerpt":"e","category":"c","content":"x","translationKey":"Two Words"}`, 400, "translationKey"},
		{"lang of the wrong type", `{"name":"n","excerpt":"e","category":"c","content":"x","lang":5}`, 400, ""},
	}
	for _, tc := range create {
		t.Run("create "+tc.name, func(t *testing.T) {
			code, body := ta.do(t, "POST", "/api/blog", blogAdminToken, tc.body)
			if code != tc.want {
				t.Fatalf("status %d, want %d: %s", code, tc.want, body)
			}
			if tc.field != "" && !strings.Contains(body, `"`+tc.field+`":{"code"`) {
				t.Fatalf("body lacks field %q: %s", tc.field, body)
			}
		})
	}

	list := []struct{ query, want string }{
		{"", "Один,Запуск,Run"},
		{"?lang=uk", "Запуск,Один,Run"},
		{"?lang=en", "Run,Один,Запуск"},
		{"?lang=ru&limit=1", "Один"},
	}
	for _, tc := range list {
		t.Run("list "+tc.query, func(t *testing.T) {
			code, body := ta.do(t, "GET", "/api/blog"+tc.query, "", "")
			if code != 200 {
				t.Fatalf("%d %s", code, body)
			}
			var page blog.Page
			json.Unmarshal([]byte(body), &page)
			got := []string{}
			for _, a := range page.Articles {
				got = append(got, a.Name)
			}
			if strings.Join(got, ",") != tc.want || page.TotalCount != 3 {
				t.Fatalf("got %v (%d), want %s", got, page.TotalCount, tc.want)
			}
			if !strings.Contains(body, `"lang":"`) {
				t.Fatalf("no lang in %s", body)
			}
		})
	}

	get := []struct {
		id, lang, translations string
	}{
		{"1", "en", `[{"id":2,"slug":"запуск","name":"Запуск","lang":"uk"}]`},
		{"2", "uk", `[{"id":1,"slug":"run","name":"Run","lang":"en"}]`},
		{"3", "ru", `[]`},
	}
	for _, tc := range get {
		t.Run("get "+tc.id, func(t *testing.T) {
			code, body := ta.do(t, "GET", "/api/blog/"+tc.id, "", "")
			if code != 200 {
				t.Fatalf("%d %s", code, body)
			}
			var got struct {
				Lang         string          `json:"lang"`
				Translations json.RawMessage `json:"translations"`
			}
			json.Unmarshal([]byte(body), &got)
			if got.Lang != tc.lang || string(got.Translations) != tc.translations {
				t.Fatalf("lang %q translations %s", got.Lang, got.Translations)
			}
		})
	}

	// An edit moves an article to another language and unlinks it.
	code, body := ta.do(t, "PUT", "/api/blog/2", blogAdminToken, `{"lang":"de","translationKey":""}`)
	if code != 200 || !strings.Contains(body, `"lang":"de"`) || !strings.Contains(body, `"translationKey":""`) {
		t.Fatalf("edit: %d %s", code, body)
	}
	if _, body := ta.do(t, "GET", "/api/blog/1", "", ""); !strings.Contains(body, `"translations":[]`) {
		t.Fatalf("after unlinking: %s", body)
	}
	if code, body := ta.do(t, "PUT", "/api/blog/2", blogAdminToken, `{"lang":"x"}`); code != 400 || !strings.Contains(body, `"lang":{"code"`) {
		t.Fatalf("bad edit: %d %s", code, body)
	}
}
