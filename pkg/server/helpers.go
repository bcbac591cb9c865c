package server

import (
	"strconv"
	"strings"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/internal/paging"
	"github.com/devhub/devhub/pkg/store"
)

// Helpers shared by the areas' routes: reading query parameters and
// optional body fields.

// maxQueryInt bounds what queryInt returns: far past any page or limit a
// list has, and small enough that a page times a limit cannot overflow an
// int (page=2^63-1&limit=2 made the offset negative and the slice panic).
const maxQueryInt = 1<<31 - 1

// queryInt reads an optional positive integer query parameter, at most
// maxQueryInt (a larger one is simply past the end); a present but
// non-numeric value is a 400 naming the parameter.
func queryInt(c fiber.Ctx, name string, v *store.Validator) int {
	raw := strings.TrimSpace(c.Query(name))
	if raw == "" {
		return 0
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 {
		v.Add(name, "invalid", name+" must be a whole number of at least 1")
		return 0
	}
	return min(n, maxQueryInt)
}

// queryPage reads ?page= and ?limit= (queryInt each; absent is 0, which
// the list's paging.Rule fills in).
func queryPage(c fiber.Ctx, v *store.Validator) paging.Query {
	return paging.Query{Page: queryInt(c, "page", v), Limit: queryInt(c, "limit", v)}
}

// queryID is the query parameter name as an id (0 when absent).
func queryID(c fiber.Ctx, name string, v *store.Validator) uint64 {
	raw := strings.TrimSpace(c.Query(name))
	if raw == "" {
		return 0
	}
	n, err := strconv.ParseUint(raw, 10, 64)
	if err != nil || n == 0 {
		v.Add(name, "invalid", name+" must be an id")
	}
	return n
}

// deref is an optional body field's value, "" when it is absent.
func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
