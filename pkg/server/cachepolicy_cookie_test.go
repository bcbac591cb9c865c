package server

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gofiber/fiber/v3"
)

// An answer that sets a cookie is the caller's alone, whatever its path:
// a shared cache that kept it would hand the cookie (a session, a share
// link's grant) to everyone after. It is never public, not even for a
// guest's GET of a public page or list.
func TestCachePolicyAnswerSettingACookieIsPrivate(t *testing.T) {
	s := &Server{}
	app := fiber.New()
	app.Use(s.cachePolicy)
	handler := func(c fiber.Ctx) error {
		c.Cookie(&fiber.Cookie{Name: "grant", Value: "secret", HTTPOnly: true})
		return c.JSON(fiber.Map{"ok": true})
	}
	app.Get("/api/blog/x", handler)
	app.Get("/feed.xml", handler)
	app.Get("/page", func(c fiber.Ctx) error {
		c.Cookie(&fiber.Cookie{Name: "grant", Value: "secret", HTTPOnly: true})
		c.Type("html", "utf-8")
		return c.SendString("<!doctype html><p>hi</p>")
	})
	for _, path := range []string{"/api/blog/x", "/feed.xml", "/page"} {
		resp, err := app.Test(httptest.NewRequest("GET", path, nil))
		if err != nil {
			t.Fatal(err)
		}
		if resp.Header.Get("Set-Cookie") == "" {
			t.Fatalf("%s: the handler's cookie is gone", path)
		}
		cc := resp.Header.Get("Cache-Control")
		if !strings.HasPrefix(cc, "private") || strings.Contains(cc, "public") || strings.Contains(cc, "s-maxage") {
			t.Errorf("%s: Cache-Control %q with a Set-Cookie, want private", path, cc)
		}
	}
}
