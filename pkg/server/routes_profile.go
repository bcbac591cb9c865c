package server

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/profile"
)

// profileAssets is the owner's portfolio as served: the JSON encoded once at start (the file is
// read and checked once, by `serve`), with validators so a revisit costs a 304.
type profileAssets struct {
	// profile is the portfolio itself, for the site's name in heads, feeds and letters.
	profile              *profile.Profile
	json, avatar         []byte
	jsonETag, avatarETag string
	avatarType           string
}

func etagOf(b []byte) string {
	sum := sha256.Sum256(b)
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}

func newProfileAssets(l *profile.Loaded) (*profileAssets, error) {
	if l == nil {
		return nil, nil
	}
	out := struct {
		profile.Profile
		// AvatarURL is where the avatar is served; empty when the profile has none.
		AvatarURL string `json:"avatarUrl"`
	}{Profile: l.Profile}
	// Lists are [] rather than null, so the SPA need not guard each one.
	p := &out.Profile
	for _, list := range []*[]profile.Item{&p.Services, &p.Technologies, &p.Tools} {
		if *list == nil {
			*list = []profile.Item{}
		}
	}
	if p.Links == nil {
		p.Links = []profile.Link{}
	}
	if p.Projects == nil {
		p.Projects = []profile.Project{}
	}
	own := l.Profile
	pa := &profileAssets{profile: &own, avatar: l.Avatar, avatarType: l.AvatarType}
	if len(l.Avatar) > 0 {
		pa.avatarETag = etagOf(l.Avatar)
		out.AvatarURL = "/api/profile/avatar?v=" + pa.avatarETag[1:9]
	}
	var err error
	if pa.json, err = json.Marshal(out); err != nil {
		return nil, err
	}
	pa.jsonETag = etagOf(pa.json)
	return pa, nil
}

// siteProfile is the portfolio whose site block names the site; nil (the
// defaults) without a portfolio.
func (pa *profileAssets) siteProfile() *profile.Profile {
	if pa == nil {
		return nil
	}
	return pa.profile
}

// mountProfile serves GET /api/profile (the portfolio, docs/profile.md) and its avatar. Without
// a content/profile.yaml both answer 404 and the pages show the site without an owner. An admin's
// PUT /api/profile (routes_portfolio_edit.go) swaps what they serve.
func (s *Server) mountProfile(api fiber.Router, pa *profileAssets) {
	s.portfolio.set(pa)
	api.Get("/profile", func(c fiber.Ctx) error {
		pa := s.portfolio.get()
		if pa == nil {
			return NewError(fiber.StatusNotFound, "no profile: add content/profile.yaml")
		}
		return sendContent(c, &content{contentType: fiber.MIMEApplicationJSONCharsetUTF8, cacheControl: cacheNoCache,
			etag: pa.jsonETag, identity: memory(pa.json)})
	})
	api.Get("/profile/avatar", func(c fiber.Ctx) error {
		pa := s.portfolio.get()
		if pa == nil || len(pa.avatar) == 0 {
			return NewError(fiber.StatusNotFound, "no avatar")
		}
		// An SVG avatar is the owner's file, but it is still never allowed to run script.
		c.Set(fiber.HeaderContentSecurityPolicy, "default-src 'none'; style-src 'unsafe-inline'")
		// The URL carries the version, so the image may be kept for a year.
		return sendContent(c, &content{contentType: pa.avatarType, cacheControl: cacheImmutable,
			etag: pa.avatarETag, identity: memory(pa.avatar)})
	})
	s.mountPortfolioEdit(api)
}
