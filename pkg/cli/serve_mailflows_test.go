package cli

import (
	"strings"
	"testing"
)

// auth.verify_email is read from the environment like every key, an
// unknown value is refused, and "required" stops serve where no link can
// be mailed: nobody who registers could ever sign in.
func TestVerifyEmailConfigRefused(t *testing.T) {
	mailOn := map[string]string{"DEVHUB_MAIL_HOST": "127.0.0.1", "DEVHUB_MAIL_FROM": "devhub@example.org"}
	with := func(m map[string]string, kv ...string) map[string]string {
		out := map[string]string{}
		for k, v := range m {
			out[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			out[kv[i]] = kv[i+1]
		}
		return out
	}
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"unknown value", map[string]string{"DEVHUB_AUTH_VERIFY_EMAIL": "always"}, "auth.verify_email must be off, optional or required"},
		{"required with mail off", map[string]string{"DEVHUB_AUTH_VERIFY_EMAIL": "required"}, "auth.verify_email is required but mail is off"},
		{"required without public_url", with(mailOn, "DEVHUB_AUTH_VERIFY_EMAIL", "required"), "server.public_url is empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			serveRefused(t, tc.env, tc.want)
		})
	}
}

// Accounts the owner makes at the terminal count as verified, whatever
// the policy: "required" never locks the owner's own accounts out.
func TestUserCreateIsVerifiedUnderRequired(t *testing.T) {
	ti := newTestInstance(t)
	t.Setenv("DEVHUB_AUTH_VERIFY_EMAIL", "required")
	if _, stderr, code := ti.run("password 123\n", "user", "create", "--email", "ann@example.org", "--name", "Ann", "--password-stdin"); code != 0 {
		t.Fatalf("user create: %d %s", code, stderr)
	}
	out, stderr, code := ti.run("", "user", "list", "--json")
	if code != 0 || !strings.Contains(out, `"emailVerified": true`) && !strings.Contains(out, `"emailVerified":true`) {
		t.Fatalf("user list: %d %s %s", code, out, stderr)
	}
}
