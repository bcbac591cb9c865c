package auth

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"testing"

	"github.com/fxamacker/cbor/v2"
)

// softKey is a software authenticator for tests: one ES256 passkey, no
// attestation ("none"), a signature counter the test controls.
type softKey struct {
	key     *ecdsa.PrivateKey
	credID  []byte
	handle  []byte
	counter uint32
	rp      RelyingParty
}

var b64u = base64.RawURLEncoding

func newSoftKey(t *testing.T, rp RelyingParty) *softKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id := make([]byte, 16)
	rand.Read(id)
	return &softKey{key: k, credID: id, rp: rp}
}

// options reads the challenge (and the user handle, when present) from a
// ceremony's options as the browser would.
func options(t *testing.T, c *Ceremony) (challenge string, userID []byte) {
	t.Helper()
	raw, _ := json.Marshal(c.Options)
	var o struct {
		PublicKey struct {
			Challenge string `json:"challenge"`
			User      struct {
				ID string `json:"id"`
			} `json:"user"`
		} `json:"publicKey"`
	}
	if err := json.Unmarshal(raw, &o); err != nil || o.PublicKey.Challenge == "" {
		t.Fatalf("options %s: %v", raw, err)
	}
	uid, _ := b64u.DecodeString(o.PublicKey.User.ID)
	return o.PublicKey.Challenge, uid
}

func (k *softKey) clientData(typ, challenge string) []byte {
	cd, _ := json.Marshal(map[string]any{"type": typ, "challenge": challenge, "origin": k.rp.Origin, "crossOrigin": false})
	return cd
}

func (k *softKey) authData(withCredential bool) []byte {
	rpHash := sha256.Sum256([]byte(k.rp.ID))
	flags := byte(0x01 | 0x04) // user present, user verified
	if withCredential {
		flags |= 0x40
	}
	out := append(rpHash[:], flags)
	out = binary.BigEndian.AppendUint32(out, k.counter)
	if withCredential {
		cose, _ := cbor.Marshal(map[int]any{1: 2, 3: -7, -1: 1, -2: k.key.X.FillBytes(make([]byte, 32)), -3: k.key.Y.FillBytes(make([]byte, 32))})
		out = append(out, make([]byte, 16)...) // AAGUID
		out = binary.BigEndian.AppendUint16(out, uint16(len(k.credID)))
		out = append(out, k.credID...)
		out = append(out, cose...)
	}
	return out
}

// create answers a registration ceremony.
func (k *softKey) create(t *testing.T, c *Ceremony) []byte {
	t.Helper()
	challenge, uid := options(t, c)
	k.handle = uid
	att, _ := cbor.Marshal(map[string]any{"fmt": "none", "attStmt": map[string]any{}, "authData": k.authData(true)})
	resp, _ := json.Marshal(map[string]any{
		"id": b64u.EncodeToString(k.credID), "rawId": b64u.EncodeToString(k.credID), "type": "public-key",
		"response": map[string]string{
			"clientDataJSON":    b64u.EncodeToString(k.clientData("webauthn.create", challenge)),
			"attestationObject": b64u.EncodeToString(att),
		},
	})
	return resp
}

// get answers a sign-in ceremony, with the counter moved on by step.
func (k *softKey) get(t *testing.T, c *Ceremony, step int) []byte {
	t.Helper()
	challenge, _ := options(t, c)
	k.counter = uint32(int(k.counter) + step)
	ad := k.authData(false)
	cd := k.clientData("webauthn.get", challenge)
	cdHash := sha256.Sum256(cd)
	digest := sha256.Sum256(append(append([]byte{}, ad...), cdHash[:]...))
	sig, err := ecdsa.SignASN1(rand.Reader, k.key, digest[:])
	if err != nil {
		t.Fatal(err)
	}
	resp, _ := json.Marshal(map[string]any{
		"id": b64u.EncodeToString(k.credID), "rawId": b64u.EncodeToString(k.credID), "type": "public-key",
		"response": map[string]string{
			"clientDataJSON": b64u.EncodeToString(cd), "authenticatorData": b64u.EncodeToString(ad),
			"signature": b64u.EncodeToString(sig), "userHandle": b64u.EncodeToString(k.handle),
		},
	})
	return resp
}

var testRP = RelyingParty{ID: "localhost", Origin: "http://localhost:8080"}

func registerPasskey(t *testing.T, s *Service, p *Principal) *softKey {
	t.Helper()
	k := newSoftKey(t, testRP)
	c, err := s.BeginPasskeyRegistration(context.Background(), p, testRP)
	if err != nil {
		t.Fatal(err)
	}
	k.counter = 1
	pk, err := s.FinishPasskeyRegistration(context.Background(), p, testRP, c.CeremonyID, "  Laptop\u202e ", k.create(t, c))
	if err != nil {
		t.Fatalf("finish registration: %v", err)
	}
	if pk.Name != "Laptop" {
		t.Fatalf("name %q", pk.Name)
	}
	return k
}

func TestPasskeyRegisterAndSignIn(t *testing.T) {
	s, _ := newTestService(t)
	res := register(t, s, "pk@example.com", "password1")
	p, _ := s.Authenticate(res.Tokens.AccessToken)
	k := registerPasskey(t, s, p)
	if list, _ := s.Passkeys(p.User.ID); len(list) != 1 || list[0].Name != "Laptop" {
		t.Fatalf("passkeys %+v", list)
	}
	// Sign-in with the passkey alone.
	c, err := s.BeginPasskeyLogin(context.Background(), testRP)
	if err != nil {
		t.Fatal(err)
	}
	answer := k.get(t, c, 1)
	out, err := s.FinishPasskeyLogin(context.Background(), testRP, c.CeremonyID, answer, client)
	if err != nil || out.User.Email != "pk@example.com" || out.Tokens.AccessToken == "" {
		t.Fatalf("passkey sign-in: %+v %v", out, err)
	}
	// The same assertion again: its challenge is spent.
	if _, err := s.FinishPasskeyLogin(context.Background(), testRP, c.CeremonyID, answer, client); !errors.Is(err, ErrCeremonyUnknown) {
		t.Fatalf("replayed assertion: %v", err)
	}
	// A counter that goes backwards: a cloned key.
	c, _ = s.BeginPasskeyLogin(context.Background(), testRP)
	if _, err := s.FinishPasskeyLogin(context.Background(), testRP, c.CeremonyID, k.get(t, c, -1), client); !errors.Is(err, ErrPasskeyFailed) {
		t.Fatalf("counter backwards: %v", err)
	}
	// Another site's origin.
	c, _ = s.BeginPasskeyLogin(context.Background(), testRP)
	evil := *k
	evil.rp = RelyingParty{ID: "localhost", Origin: "http://evil.example"}
	if _, err := s.FinishPasskeyLogin(context.Background(), testRP, c.CeremonyID, evil.get(t, c, 5), client); !errors.Is(err, ErrPasskeyFailed) {
		t.Fatalf("foreign origin: %v", err)
	}
	// Garbage and an unknown ceremony.
	c, _ = s.BeginPasskeyLogin(context.Background(), testRP)
	if _, err := s.FinishPasskeyLogin(context.Background(), testRP, c.CeremonyID, []byte(`{"id":1}`), client); !errors.Is(err, ErrPasskeyFailed) {
		t.Fatalf("garbage: %v", err)
	}
	if _, err := s.FinishPasskeyLogin(context.Background(), testRP, "nope", k.get(t, c, 1), client); !errors.Is(err, ErrCeremonyUnknown) {
		t.Fatalf("unknown ceremony: %v", err)
	}
	// Removed, it signs in no more.
	list, _ := s.Passkeys(p.User.ID)
	if err := s.DeletePasskey(context.Background(), p.User.ID, list[0].ID); err != nil {
		t.Fatal(err)
	}
	c, _ = s.BeginPasskeyLogin(context.Background(), testRP)
	if _, err := s.FinishPasskeyLogin(context.Background(), testRP, c.CeremonyID, k.get(t, c, 10), client); !errors.Is(err, ErrPasskeyFailed) {
		t.Fatalf("removed passkey: %v", err)
	}
	if err := s.DeletePasskey(context.Background(), p.User.ID, list[0].ID); err == nil {
		t.Fatal("deleted twice")
	}
}

func TestPasskeyAsSecondFactor(t *testing.T) {
	s, clk, p, _, _ := enrolTOTP(t)
	k := registerPasskey(t, s, p)
	res, err := s.Login(context.Background(), "mfa@example.com", "password1", client)
	if err != nil || res.Challenge == nil {
		t.Fatalf("password step: %+v %v", res, err)
	}
	c, err := s.BeginPasskeySecondFactor(context.Background(), testRP, res.Challenge.MFAToken)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.FinishPasskeySecondFactor(context.Background(), testRP, "bad-token", c.CeremonyID, k.get(t, c, 1), client); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("a bad mfa token: %v", err)
	}
	c, _ = s.BeginPasskeySecondFactor(context.Background(), testRP, res.Challenge.MFAToken)
	out, err := s.FinishPasskeySecondFactor(context.Background(), testRP, res.Challenge.MFAToken, c.CeremonyID, k.get(t, c, 1), client)
	if err != nil || out.Tokens.AccessToken == "" {
		t.Fatalf("passkey as the second factor: %v", err)
	}
	// Another account's passkey does not pass this account's step.
	other := register(t, s, "other@example.com", "password1")
	op, _ := s.Authenticate(other.Tokens.AccessToken)
	ok := registerPasskey(t, s, op)
	if res, err = s.Login(context.Background(), "mfa@example.com", "password1", client); err != nil || res.Challenge == nil {
		t.Fatalf("password step: %+v %v", res, err)
	}
	c, _ = s.BeginPasskeySecondFactor(context.Background(), testRP, res.Challenge.MFAToken)
	if _, err := s.FinishPasskeySecondFactor(context.Background(), testRP, res.Challenge.MFAToken, c.CeremonyID, ok.get(t, c, 1), client); !errors.Is(err, ErrPasskeyFailed) {
		t.Fatalf("another account's passkey: %v", err)
	}
	_ = clk
}
