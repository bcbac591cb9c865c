package auth

import (
	"strconv"

	"github.com/golang-jwt/jwt/v5"

	"github.com/devhub/devhub/pkg/internal/random"
)

// tokenIssuer is the iss claim of every access token devhub signs.
const tokenIssuer = "devhub"

// MaxAccessTokenBytes bounds what Authenticate even tries to parse; real
// tokens are ~300 bytes, so anything far larger is refused before decoding.
const MaxAccessTokenBytes = 4096

// accessClaims are the claims of an access token: the standard ones (sub is
// the user id, exp/iat/jti) plus the user's token version and the refresh
// session the token belongs to, both checked on every request so that a
// revoked session or a version bump ends the token before its exp.
type accessClaims struct {
	jwt.RegisteredClaims
	Ver uint64 `json:"ver"`
	Sid string `json:"sid"`
}

// parser accepts only HS256 (no "none", no algorithm confusion), requires
// exp, checks the issuer and rejects non-canonical base64.
func (s *Service) parser() *jwt.Parser {
	return jwt.NewParser(
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}),
		jwt.WithExpirationRequired(),
		jwt.WithStrictDecoding(),
		jwt.WithIssuer(tokenIssuer),
		jwt.WithTimeFunc(s.now),
	)
}

// signAccess issues an access token for rec within session sid.
func (s *Service) signAccess(rec *userRecord, sid string) (string, error) {
	now := s.now()
	c := accessClaims{
		RegisteredClaims: jwt.RegisteredClaims{
			Issuer:    tokenIssuer,
			Subject:   strconv.FormatUint(rec.ID, 10),
			IssuedAt:  jwt.NewNumericDate(now),
			ExpiresAt: jwt.NewNumericDate(now.Add(s.accessTTL)),
			ID:        random.Token(16),
		},
		Ver: rec.TokenVersion,
		Sid: sid,
	}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(s.secret)
}

// parseAccess verifies signature and claims; it does not consult the store.
func (s *Service) parseAccess(token string) (*accessClaims, uint64, error) {
	if token == "" || len(token) > MaxAccessTokenBytes {
		return nil, 0, ErrInvalidToken
	}
	var c accessClaims
	_, err := s.parser().ParseWithClaims(token, &c, func(*jwt.Token) (any, error) { return s.secret, nil })
	if err != nil {
		return nil, 0, ErrInvalidToken
	}
	id, err := strconv.ParseUint(c.Subject, 10, 64)
	if err != nil || id == 0 || c.Sid == "" {
		return nil, 0, ErrInvalidToken
	}
	return &c, id, nil
}
