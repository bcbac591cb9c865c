package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"

	"golang.org/x/crypto/argon2"
)

// HashParams are the argon2id cost parameters. They are written into every
// stored hash (PHC string format), so raising them later still verifies old
// hashes, and a successful login re-hashes with the new cost.
type HashParams struct {
	Memory  uint32 // KiB
	Time    uint32 // iterations
	Threads uint8
	SaltLen uint32
	KeyLen  uint32
}

// DefaultHashParams is OWASP's first recommended argon2id configuration
// (m=19 MiB, t=2, p=1): strong enough against offline guessing while one
// login costs a few tens of milliseconds and 19 MiB of RAM on a small server.
var DefaultHashParams = HashParams{Memory: 19 * 1024, Time: 2, Threads: 1, SaltLen: 16, KeyLen: 32}

// Bounds for parameters read back from a stored hash, so a corrupted or
// hostile database row cannot make verification allocate gigabytes.
const (
	maxHashMemory  = 1 << 20 // 1 GiB in KiB
	maxHashTime    = 64
	maxHashThreads = 16
)

var errMalformedHash = errors.New("malformed password hash")

var b64 = base64.RawStdEncoding

// hashPassword derives an argon2id hash with a fresh random salt and encodes
// it as $argon2id$v=19$m=…,t=…,p=…$salt$hash.
func hashPassword(password string, p HashParams) (string, error) {
	salt := make([]byte, p.SaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	releaseHashMemory()
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, p.Memory, p.Time, p.Threads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// decodeHash parses a PHC-format argon2id string.
func decodeHash(encoded string) (p HashParams, salt, key []byte, err error) {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return p, nil, nil, errMalformedHash
	}
	var version int
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return p, nil, nil, errMalformedHash
	}
	var threads uint32
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &p.Memory, &p.Time, &threads); err != nil {
		return p, nil, nil, errMalformedHash
	}
	if p.Memory == 0 || p.Memory > maxHashMemory || p.Time == 0 || p.Time > maxHashTime || threads == 0 || threads > maxHashThreads {
		return p, nil, nil, errMalformedHash
	}
	p.Threads = uint8(threads)
	if salt, err = b64.Strict().DecodeString(parts[4]); err != nil || len(salt) < 8 {
		return p, nil, nil, errMalformedHash
	}
	if key, err = b64.Strict().DecodeString(parts[5]); err != nil || len(key) < 16 || len(key) > 128 {
		return p, nil, nil, errMalformedHash
	}
	p.SaltLen, p.KeyLen = uint32(len(salt)), uint32(len(key))
	return p, salt, key, nil
}

// verifyPassword reports whether password matches encoded, comparing in
// constant time, and whether the hash was made with other parameters than
// want (so the caller can upgrade it).
func verifyPassword(password, encoded string, want HashParams) (ok, rehash bool, err error) {
	p, salt, key, err := decodeHash(encoded)
	if err != nil {
		return false, false, err
	}
	got := argon2.IDKey([]byte(password), salt, p.Time, p.Memory, p.Threads, p.KeyLen)
	releaseHashMemory()
	ok = subtle.ConstantTimeCompare(got, key) == 1
	rehash = p.Memory != want.Memory || p.Time != want.Time || p.Threads != want.Threads || p.KeyLen != want.KeyLen
	return ok, rehash, nil
}

// releaseHashMemory hands argon2id's working memory (m = 19 MiB, garbage
// once the hash is made) back to the operating system at once. Without it
// every sign-in, and the equal-time dummy hash at start-up, left the server
// ~20 MiB larger until the runtime's background scavenger got round to it,
// which on a small host is most of the memory budget (DESIGN.md: 64 MiB
// during a 1 GiB upload). The cost, a collection of a small heap, is a few
// milliseconds beside the hash's own tens.
func releaseHashMemory() { debug.FreeOSMemory() }
