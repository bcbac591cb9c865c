package server

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/devhub/devhub/pkg/audit"
)

func TestTwoFactorHTTP(t *testing.T) {
	a := newAuthApp(t, nil)
	me := a.register(t, "two@example.com", "password1")
	tok := bearer(me.Tokens.AccessToken)

	for _, r := range []struct{ method, path string }{
		{"GET", "/api/auth/2fa"}, {"POST", "/api/auth/2fa/totp"}, {"POST", "/api/auth/2fa/totp/confirm"}, {"DELETE", "/api/auth/2fa/totp"},
	} {
		if st := a.status(t, r.method, r.path, map[string]string{"code": "123456"}); st != 401 {
			t.Errorf("%s %s without a session: %d", r.method, r.path, st)
		}
	}
	if st := a.status(t, "POST", "/api/auth/2fa/totp/confirm", map[string]string{"code": "123456"}, tok); st != 409 {
		t.Fatalf("confirm before enrolling: %d", st)
	}
	resp, raw := a.call(t, "POST", "/api/auth/2fa/totp", nil, tok)
	var en struct{ Secret, OtpauthUrl string }
	if json.Unmarshal(raw, &en); resp.StatusCode != 200 || en.Secret == "" || en.OtpauthUrl == "" || resp.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("enrol: %d %s", resp.StatusCode, raw)
	}
	resp, raw = a.call(t, "POST", "/api/auth/2fa/totp/confirm", map[string]string{"code": "abc"}, tok)
	if resp.StatusCode != 400 || apiErr(t, raw).Data["code"].Code != "invalid_code" {
		t.Fatalf("confirm with a bad code: %d %s", resp.StatusCode, raw)
	}
	code, _ := totp.GenerateCode(en.Secret, time.Now())
	resp, raw = a.call(t, "POST", "/api/auth/2fa/totp/confirm", map[string]string{"code": code}, tok)
	var conf struct{ RecoveryCodes []string }
	if json.Unmarshal(raw, &conf); resp.StatusCode != 200 || len(conf.RecoveryCodes) != 10 {
		t.Fatalf("confirm: %d %s", resp.StatusCode, raw)
	}

	// Sign-in now stops after the password: no session, no cookie.
	resp, raw = a.call(t, "POST", "/api/auth/login", map[string]string{"email": "two@example.com", "password": "password1"})
	var ch struct {
		MFARequired bool   `json:"mfaRequired"`
		MFAToken    string `json:"mfaToken"`
	}
	if json.Unmarshal(raw, &ch); resp.StatusCode != 200 || !ch.MFARequired || ch.MFAToken == "" || cookieOf(resp, refreshCookie) != nil {
		t.Fatalf("password step: %d %s", resp.StatusCode, raw)
	}
	if st := a.status(t, "GET", "/api/auth/profile", nil, bearer(ch.MFAToken)); st != 401 {
		t.Fatalf("the mfa token opened the profile: %d", st)
	}
	if st := a.status(t, "POST", "/api/auth/login/2fa", map[string]string{"mfaToken": ch.MFAToken, "code": "000000"}); st != 401 && st != 400 {
		t.Fatalf("wrong code: %d", st)
	}
	// The confirming code was spent; the recovery code signs in.
	resp, raw = a.call(t, "POST", "/api/auth/login/2fa", map[string]string{"mfaToken": ch.MFAToken, "code": conf.RecoveryCodes[0]})
	var signed authAnswer
	if json.Unmarshal(raw, &signed); resp.StatusCode != 200 || signed.Tokens.AccessToken == "" || cookieOf(resp, refreshCookie) == nil {
		t.Fatalf("second step: %d %s", resp.StatusCode, raw)
	}
	if st := a.status(t, "POST", "/api/auth/login/2fa", map[string]string{"mfaToken": ch.MFAToken, "code": conf.RecoveryCodes[0]}); st != 401 {
		t.Fatalf("a used recovery code: %d", st)
	}
	// The token started its session: with a code that is still good it is
	// refused exactly like a token that never was one, and spends nothing.
	_, invalid := a.call(t, "POST", "/api/auth/login/2fa", map[string]string{"mfaToken": "not-a-token", "code": conf.RecoveryCodes[2]})
	resp, raw = a.call(t, "POST", "/api/auth/login/2fa", map[string]string{"mfaToken": ch.MFAToken, "code": conf.RecoveryCodes[2]})
	if resp.StatusCode != 401 || string(raw) != string(invalid) || cookieOf(resp, refreshCookie) != nil {
		t.Fatalf("the used mfa token with an unused recovery code: %d %s (an invalid token: %s)", resp.StatusCode, raw, invalid)
	}
	resp, raw = a.call(t, "GET", "/api/auth/2fa", nil, bearer(signed.Tokens.AccessToken))
	if resp.StatusCode != 200 || string(raw) != `{"totp":true,"recoveryCodesLeft":9}` {
		t.Fatalf("status: %d %s", resp.StatusCode, raw)
	}
	if st := a.status(t, "DELETE", "/api/auth/2fa/totp", map[string]string{"code": conf.RecoveryCodes[1]}, bearer(signed.Tokens.AccessToken)); st != http.StatusNoContent {
		t.Fatalf("disable: %d", st)
	}
	if resp, _ := a.login(t, "two@example.com", "password1"); resp.StatusCode != 200 {
		t.Fatalf("plain sign-in after disabling: %d", resp.StatusCode)
	}
}

// Confirming two-factor sign-in ends the account's other sessions unless the
// body says signOutOthers: false; an absent field means true. The
// confirming session stays.
func TestTwoFactorConfirmSignsOutOthersHTTP(t *testing.T) {
	tests := []struct {
		name       string
		body       func(code string) map[string]any
		signOutOld bool
	}{
		{"field absent", func(code string) map[string]any { return map[string]any{"code": code} }, true},
		{"field true", func(code string) map[string]any { return map[string]any{"code": code, "signOutOthers": true} }, true},
		{"field false", func(code string) map[string]any { return map[string]any{"code": code, "signOutOthers": false} }, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := newAuthApp(t, nil)
			me := a.register(t, "two@example.com", "password1")
			resp, old := a.login(t, "two@example.com", "password1")
			if resp.StatusCode != 200 {
				t.Fatalf("second sign-in: %d", resp.StatusCode)
			}
			resp, raw := a.call(t, "POST", "/api/auth/2fa/totp", nil, bearer(me.Tokens.AccessToken))
			var en struct{ Secret string }
			if json.Unmarshal(raw, &en); resp.StatusCode != 200 {
				t.Fatalf("enrol: %d %s", resp.StatusCode, raw)
			}
			code, _ := totp.GenerateCode(en.Secret, time.Now())
			resp, raw = a.call(t, "POST", "/api/auth/2fa/totp/confirm", tc.body(code), bearer(me.Tokens.AccessToken))
			var conf struct {
				RecoveryCodes []string `json:"recoveryCodes"`
				SignedOut     *int     `json:"signedOut"`
			}
			want := 0
			if tc.signOutOld {
				want = 1
			}
			if json.Unmarshal(raw, &conf); resp.StatusCode != 200 || len(conf.RecoveryCodes) != 10 || conf.SignedOut == nil || *conf.SignedOut != want {
				t.Fatalf("confirm: %d %s; want signedOut %d", resp.StatusCode, raw, want)
			}
			if st := a.status(t, "GET", "/api/auth/profile", nil, bearer(me.Tokens.AccessToken)); st != 200 {
				t.Fatalf("the confirming session: %d", st)
			}
			wantOld := 200
			if tc.signOutOld {
				wantOld = 401
			}
			if st := a.status(t, "GET", "/api/auth/profile", nil, bearer(old.Tokens.AccessToken)); st != wantOld {
				t.Fatalf("the session from before, its access token: %d, want %d", st, wantOld)
			}
			if st := a.status(t, "POST", "/api/auth/refresh", map[string]string{"refreshToken": old.Tokens.RefreshToken}); st != wantOld {
				t.Fatalf("the session from before, its refresh token: %d, want %d", st, wantOld)
			}
			// The audit log says what ended, when something did.
			evs, _, err := a.services.Audit.List(context.Background(), audit.Query{Type: audit.SessionsRevoked})
			if err != nil {
				t.Fatal(err)
			}
			if tc.signOutOld && (len(evs) != 1 || evs[0].Target != "two@example.com" || evs[0].Details["count"] != "1") {
				t.Fatalf("audit after signing the others out: %+v", evs)
			}
			if !tc.signOutOld && len(evs) != 0 {
				t.Fatalf("audit after keeping the others: %+v", evs)
			}
		})
	}
}
