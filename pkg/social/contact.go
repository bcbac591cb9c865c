package social

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"math/big"
	"net/mail"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/internal/random"
	"github.com/devhub/devhub/pkg/internal/ratelimit"
	"github.com/devhub/devhub/pkg/store"
)

// The contact form is guarded by ALTCHA's open proof-of-work scheme
// (version 1): the server picks a secret number up to a maximum, a random
// salt carrying its expiry, and publishes challenge = hex(SHA-256(salt +
// number)) signed with hex(HMAC-SHA-256(key, challenge)). The browser tries
// numbers from 0 until one hashes to the challenge and sends back
// base64(JSON{algorithm, challenge, number, salt, signature}). The server
// checks the signature (it made the challenge), the expiry, the hash, and
// that the challenge was not answered before.

// PowAlgorithm is the only hash the challenges use.
const PowAlgorithm = "SHA-256"

// Contact field limits, in characters.
const (
	MaxContactName  = 100
	MaxContactEmail = 254
)

// Challenge is what GET /api/contact/challenge hands the browser.
type Challenge struct {
	Algorithm string `json:"algorithm"`
	Challenge string `json:"challenge"`
	MaxNumber int    `json:"maxnumber"`
	Salt      string `json:"salt"`
	Signature string `json:"signature"`
}

// Solution is the browser's answer, decoded.
type Solution struct {
	Algorithm string `json:"algorithm"`
	Challenge string `json:"challenge"`
	Number    int    `json:"number"`
	Salt      string `json:"salt"`
	Signature string `json:"signature"`
}

func powHash(salt string, number int) string {
	sum := sha256.Sum256([]byte(salt + strconv.Itoa(number)))
	return hex.EncodeToString(sum[:])
}

func (s *Service) sign(challenge string) string {
	m := hmac.New(sha256.New, s.hmacKey)
	m.Write([]byte(challenge))
	return hex.EncodeToString(m.Sum(nil))
}

// NewChallenge makes a signed challenge that expires after PowTTL.
func (s *Service) NewChallenge() Challenge {
	n, err := rand.Int(rand.Reader, big.NewInt(int64(s.o.PowMaxNumber)+1))
	if err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	// The salt ends with "&" as ALTCHA's own library makes it, so that no
	// digits of the number can be read as part of the salt.
	salt := random.Hex(12) + "?expires=" + strconv.FormatInt(s.now().Add(s.o.PowTTL).Unix(), 10) + "&"
	ch := powHash(salt, int(n.Int64()))
	return Challenge{Algorithm: PowAlgorithm, Challenge: ch, MaxNumber: s.o.PowMaxNumber, Salt: salt, Signature: s.sign(ch)}
}

// SolveChallenge finds the number of c the way a browser does; for tests
// and scripts.
func SolveChallenge(c Challenge) (string, bool) {
	for n := 0; n <= c.MaxNumber; n++ {
		if powHash(c.Salt, n) == c.Challenge {
			raw, _ := json.Marshal(Solution{Algorithm: c.Algorithm, Challenge: c.Challenge, Number: n, Salt: c.Salt, Signature: c.Signature})
			return base64.StdEncoding.EncodeToString(raw), true
		}
	}
	return "", false
}

var errPow = store.Invalid("altcha", "invalid", "the anti-spam check failed; reload the form and try again")

// verifySolution checks payload and spends its challenge in tx.
func (s *Service) verifySolution(tx *bolt.Tx, payload string) error {
	raw, err := base64.StdEncoding.DecodeString(payload)
	if err != nil || len(payload) > 4096 {
		return errPow
	}
	var sol Solution
	if err := json.Unmarshal(raw, &sol); err != nil || sol.Algorithm != PowAlgorithm || sol.Number < 0 {
		return errPow
	}
	if !hmac.Equal([]byte(s.sign(sol.Challenge)), []byte(sol.Signature)) || powHash(sol.Salt, sol.Number) != sol.Challenge {
		return errPow
	}
	_, query, _ := strings.Cut(sol.Salt, "?")
	params, _ := url.ParseQuery(query)
	exp, err := strconv.ParseInt(params.Get("expires"), 10, 64)
	now := s.now().Unix()
	if err != nil || exp < now {
		return store.Invalid("altcha", "expired", "the anti-spam check expired; reload the form and try again")
	}
	b := tx.Bucket(bucketPow)
	if b.Get([]byte(sol.Challenge)) != nil {
		return errPow // answered before
	}
	if err := sweepPow(b, now); err != nil {
		return err
	}
	return b.Put([]byte(sol.Challenge), store.Itob(uint64(exp)))
}

// sweepPow forgets spent challenges that expired: they could not be
// answered again anyway.
func sweepPow(b *bolt.Bucket, now int64) error {
	var old [][]byte
	if err := b.ForEach(func(k, v []byte) error {
		if int64(store.Btoi(v)) < now {
			old = append(old, append([]byte(nil), k...))
		}
		return nil
	}); err != nil {
		return err
	}
	return deleteKeys(b, old)
}

// ContactInput is what the contact form sends.
type ContactInput struct {
	Name    string
	Email   string
	Message string
	// Website is the hidden field people never fill in.
	Website string
	// Altcha is the proof-of-work solution.
	Altcha string
	IP     netip.Addr
}

// Contact stores a contact form message in the contact conversation. The
// fields are checked first (name, a valid e-mail address, a message within
// its limit), then the client network's rate, then the proof of work. A
// filled hidden field is a robot's: it is answered as a success and nothing
// is kept (nil message).
func (s *Service) Contact(ctx context.Context, in ContactInput) (*Message, error) {
	var v store.Validator
	name := strings.TrimSpace(in.Name)
	switch {
	case name == "":
		v.Add("name", "required", "name is required")
	case !utf8.ValidString(name) || utf8.RuneCountInString(name) > MaxContactName:
		v.Add("name", "too_long", "name must be at most "+strconv.Itoa(MaxContactName)+" characters")
	}
	email := strings.TrimSpace(in.Email)
	if email == "" {
		v.Add("email", "required", "e-mail is required")
	} else if a, err := mail.ParseAddress(email); err != nil || a.Address != email || len(email) > MaxContactEmail {
		v.Add("email", "invalid", "enter a valid e-mail address")
	}
	if err := checkText("message", in.Message, s.o.ContactMaxLength); err != nil {
		f := err.(*store.ValidationError).Fields["message"]
		v.Add("message", f.Code, f.Message)
	}
	if strings.TrimSpace(in.Altcha) == "" {
		v.Add("altcha", "required", "the anti-spam check is missing; wait for it to finish")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if ok, wait := s.contact.AllowGrouped(ratelimit.Network(in.IP, false), ratelimit.Network(in.IP, true)); !ok {
		return nil, &store.Refusal{Kind: store.KindRateLimited, Message: "too many messages from your network; try again later", RetryAfter: wait}
	}
	if err := alive(ctx); err != nil {
		return nil, err
	}
	var out *Message
	err := s.st.Update(func(tx *bolt.Tx) error {
		if err := s.verifySolution(tx, in.Altcha); err != nil {
			return err
		}
		if in.Website != "" {
			return nil
		}
		out = &Message{From: ContactPeer, To: ContactPeer, Text: in.Message, Sender: &Sender{Name: name, Email: email}}
		return s.put(tx, out, ContactPeer, ContactPeer)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
