package auth

import (
	"net/netip"
	"unicode/utf8"

	"github.com/devhub/devhub/pkg/store"
)

// Secrets that are not account passwords — a share link's password — guard
// something all the same, so they get what a sign-in gets: the same
// argon2id cost and hash slots, and the same throttling of wrong guesses
// (per secret from one client network, and per network). pkg/shares reaches
// them through these two methods, wired by the CLI, so it needs neither
// this package nor its own copy of the rules.

// HashSecret hashes a secret (1 to MaxPasswordBytes bytes of UTF-8 text)
// for storage; field names it in a validation error.
func (s *Service) HashSecret(field, secret string) (string, error) {
	var v store.Validator
	switch {
	case secret == "":
		v.Add(field, "required", "password must not be empty")
	case len(secret) > MaxPasswordBytes:
		v.Add(field, "too_long", "password must be at most 1024 bytes")
	case !utf8.ValidString(secret):
		v.Add(field, "invalid", "password must be valid UTF-8 text")
	}
	if err := v.Err(); err != nil {
		return "", err
	}
	return s.hash(secret)
}

// CheckSecret verifies secret against encoded (from HashSecret) for a
// client at ip, throttled like a sign-in whose account is key (for example
// "share:"+token): true when it matches, false when not, and a
// *ThrottledError (nothing checked) when too many wrong guesses came lately.
func (s *Service) CheckSecret(key, secret, encoded string, ip netip.Addr) (bool, error) {
	acct, network := "secret:"+key, networkKey(ip)
	if err := s.startSignIn(acct, network); err != nil {
		return false, err
	}
	verified := false
	defer func() { s.endSignIn(acct, network, verified) }()
	if secret == "" || len(secret) > MaxPasswordBytes {
		return false, nil
	}
	ok, _, err := s.verify(secret, encoded)
	if err != nil || !ok {
		return false, nil
	}
	verified = true
	return true, nil
}
