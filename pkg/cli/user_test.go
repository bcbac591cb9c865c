package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/store"
)

// userCLI runs one command line through NewRootCmd + SetArgs + Execute with
// buffers for stdout/stderr, the way the binary does, and returns them.
func userCLI(t *testing.T, stdin string, tty bool, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	return userCLIPrompt(t, nil, stdin, tty, args...)
}

// userCLIPrompt is userCLI with the password prompt answered by prompt.
func userCLIPrompt(t *testing.T, prompt func(string) (string, error), stdin string, tty bool, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &Env{
		In: strings.NewReader(stdin), Out: &out, Err: &errb, Cwd: t.TempDir(), InTTY: tty, Prompt: prompt,
		log: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	root := NewRootCmd(env, args)
	root.SetArgs(args)
	root.SetIn(env.In)
	root.SetOut(env.Out)
	root.SetErr(env.Err)
	err = root.Execute()
	if env.closeLocal != nil {
		env.closeLocal()
	}
	var remote errRemoteDone
	if errors.As(err, &remote) {
		err = nil
		if remote.code != 0 {
			err = errors.New("remote exit " + errb.String())
		}
	}
	return out.String(), errb.String(), err
}

// openAccounts opens the instance's store directly (no command running).
func openAccounts(t *testing.T) (*auth.Service, func()) {
	t.Helper()
	cfg, err := loadConfig("", nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(cfg.DBPath(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := auth.New(st, cfg.Auth)
	if err != nil {
		t.Fatal(err)
	}
	return svc, func() { st.Close() }
}

var testClient = auth.Client{IP: netip.MustParseAddr("127.0.0.1")}

func listUsers(t *testing.T) []auth.User {
	t.Helper()
	out, stderr, err := userCLI(t, "", false, "user", "list", "--json")
	if err != nil {
		t.Fatalf("list: %v %s", err, stderr)
	}
	var users []auth.User
	if err := json.Unmarshal([]byte(out), &users); err != nil {
		t.Fatalf("list --json output does not parse: %v\n%s", err, out)
	}
	return users
}

func TestUserCreateAndList(t *testing.T) {
	newTestInstance(t)
	if users := listUsers(t); len(users) != 0 {
		t.Fatalf("fresh store lists %v", users)
	}
	out, stderr, err := userCLI(t, "s3cret-pass\n", false, "user", "create", "--email", "Boss@Example.com", "--name", "Boss", "--admin", "--password-stdin")
	if err != nil || !strings.Contains(out, "boss@example.com") {
		t.Fatalf("create: %v out=%q err=%q", err, out, stderr)
	}
	out, _, err = userCLI(t, "another-pass", false, "user", "create", "--email", "dev@example.com", "--name", "Dev Person", "--json")
	if err != nil {
		t.Fatalf("create without trailing newline, stdin not a terminal: %v", err)
	}
	var created auth.User
	if err := json.Unmarshal([]byte(out), &created); err != nil || created.Role != "user" || created.Email != "dev@example.com" {
		t.Fatalf("create --json: %q", out)
	}
	users := listUsers(t)
	if len(users) != 2 || users[0].Email != "boss@example.com" || users[0].Role != "admin" || users[1].Name != "Dev Person" || users[0].CreatedAt.IsZero() {
		t.Fatalf("list: %+v", users)
	}
	out, _, _ = userCLI(t, "", false, "user", "list")
	for _, want := range []string{"EMAIL", "boss@example.com", "admin", "Dev Person"} {
		if !strings.Contains(out, want) {
			t.Fatalf("table lacks %q:\n%s", want, out)
		}
	}

	svc, done := openAccounts(t)
	defer done()
	if _, err := svc.Login(context.Background(), "boss@example.com", "s3cret-pass", testClient); err != nil {
		t.Fatalf("password from stdin does not log in: %v", err)
	}
	if _, err := svc.Login(context.Background(), "dev@example.com", "another-pass", testClient); err != nil {
		t.Fatalf("second user: %v", err)
	}
}

func TestUserCreateErrors(t *testing.T) {
	newTestInstance(t)
	if _, _, err := userCLI(t, "password1\n", false, "user", "create", "--email", "a@example.com", "--name", "A", "--password-stdin"); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"duplicate e-mail", "password1\n", []string{"--email", "A@EXAMPLE.com", "--name", "A2", "--password-stdin"}, "a@example.com already exists"},
		{"weak password", "short\n", []string{"--email", "b@example.com", "--name", "B", "--password-stdin"}, "password must be at least 8 characters"},
		{"empty stdin", "", []string{"--email", "b@example.com", "--name", "B", "--password-stdin"}, "no password on stdin"},
		{"bad e-mail", "password1\n", []string{"--email", "not-an-email", "--name", "B", "--password-stdin"}, "e-mail address is not valid"},
		{"missing name", "password1\n", []string{"--email", "b@example.com", "--password-stdin"}, "--email and --name are required"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := userCLI(t, tc.stdin, false, append([]string{"user", "create"}, tc.args...)...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err %v, want it to mention %q", err, tc.want)
			}
		})
	}
	// The same through `run`, as the binary reports it: stderr, exit 1.
	ti := &testInstance{t: t}
	_, stderr, code := ti.run("password1\n", "user", "create", "--email", "a@example.com", "--name", "A", "--password-stdin")
	if code == 0 || !strings.Contains(stderr, "a@example.com") {
		t.Fatalf("duplicate through run: code %d stderr %q", code, stderr)
	}
	// --if-not-exists: exit 0, nothing changes, the password is not read.
	out, _, err := userCLI(t, "", false, "user", "create", "--email", "a@example.com", "--name", "Other", "--password-stdin", "--if-not-exists")
	if err != nil || !strings.Contains(out, "already exists") {
		t.Fatalf("--if-not-exists: %v %q", err, out)
	}
	if users := listUsers(t); len(users) != 1 || users[0].Name != "A" {
		t.Fatalf("users after the failures: %+v", users)
	}
}

func TestUserSetRolePasswdRmSessions(t *testing.T) {
	newTestInstance(t)
	userCLI(t, "password1\n", false, "user", "create", "--email", "u@example.com", "--name", "U", "--password-stdin")

	if _, _, err := userCLI(t, "", false, "user", "set-role", "U@example.com", "admin"); err != nil {
		t.Fatal(err)
	}
	if u := listUsers(t); u[0].Role != "admin" {
		t.Fatalf("role %q", u[0].Role)
	}
	if _, _, err := userCLI(t, "", false, "user", "set-role", "u@example.com", "root"); err == nil || !strings.Contains(err.Error(), "admin or user") {
		t.Fatalf("bad role: %v", err)
	}

	// A live session, then passwd ends it.
	svc, done := openAccounts(t)
	res, err := svc.Login(context.Background(), "u@example.com", "password1", testClient)
	done()
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := userCLI(t, "password2\n", false, "user", "passwd", "u@example.com", "--password-stdin"); err != nil {
		t.Fatal(err)
	}
	svc, done = openAccounts(t)
	if _, err := svc.Authenticate(res.Tokens.AccessToken); err == nil {
		t.Fatal("access token survived passwd")
	}
	if _, err := svc.Login(context.Background(), "u@example.com", "password1", testClient); err == nil {
		t.Fatal("old password still works")
	}
	res, err = svc.Login(context.Background(), "u@example.com", "password2", testClient)
	done()
	if err != nil {
		t.Fatalf("new password: %v", err)
	}
	if _, _, err := userCLI(t, "weak\n", false, "user", "passwd", "u@example.com", "--password-stdin"); err == nil || !strings.Contains(err.Error(), "at least 8") {
		t.Fatalf("weak passwd: %v", err)
	}

	out, _, err := userCLI(t, "", false, "user", "sessions", "list", "u@example.com", "--json")
	var sessions []auth.Session
	if err != nil || json.Unmarshal([]byte(out), &sessions) != nil || len(sessions) != 1 || sessions[0].IP != "127.0.0.1" {
		t.Fatalf("sessions list: %v %q", err, out)
	}
	out, _, err = userCLI(t, "", false, "user", "sessions", "revoke", "u@example.com")
	if err != nil || !strings.Contains(out, "ended 1 session") {
		t.Fatalf("revoke: %v %q", err, out)
	}
	svc, done = openAccounts(t)
	if _, err := svc.Authenticate(res.Tokens.AccessToken); err == nil {
		t.Fatal("access token survived sessions revoke")
	}
	done()

	if _, _, err := userCLI(t, "", false, "user", "rm", "u@example.com"); err != nil {
		t.Fatal(err)
	}
	if u := listUsers(t); len(u) != 0 {
		t.Fatalf("after rm: %+v", u)
	}
	for _, args := range [][]string{
		{"user", "rm", "ghost@example.com"},
		{"user", "set-role", "ghost@example.com", "user"},
		{"user", "passwd", "ghost@example.com", "--password-stdin"},
		{"user", "sessions", "revoke", "ghost@example.com"},
	} {
		if _, _, err := userCLI(t, "password1\n", false, args...); err == nil || !strings.Contains(err.Error(), "ghost@example.com") {
			t.Errorf("%v: %v", args, err)
		}
	}
}

// On a terminal the password is prompted (twice) instead of read from stdin.
func TestUserPromptsOnTerminal(t *testing.T) {
	newTestInstance(t)
	answers := []string{}
	prompts := []string{}
	prompt := func(prompt string) (string, error) {
		prompts = append(prompts, prompt)
		a := answers[0]
		answers = answers[1:]
		return a, nil
	}
	userCLI := func(t *testing.T, stdin string, tty bool, args ...string) (string, string, error) {
		t.Helper()
		return userCLIPrompt(t, prompt, stdin, tty, args...)
	}

	answers = []string{"password1", "password2"}
	if _, _, err := userCLI(t, "", true, "user", "create", "--email", "t@example.com", "--name", "T"); err == nil || !strings.Contains(err.Error(), "do not match") {
		t.Fatalf("mismatched prompts: %v", err)
	}
	answers = []string{"password1", "password1"}
	if _, _, err := userCLI(t, "", true, "user", "create", "--email", "t@example.com", "--name", "T"); err != nil {
		t.Fatal(err)
	}
	if len(prompts) != 4 {
		t.Fatalf("prompts %q", prompts)
	}
	// --password-stdin on a terminal reads stdin, no prompt.
	if _, _, err := userCLI(t, "password3\n", true, "user", "passwd", "t@example.com", "--password-stdin"); err != nil || len(prompts) != 4 {
		t.Fatalf("passwd --password-stdin: %v, prompts %d", err, len(prompts))
	}
	// Commands without a password never prompt.
	if _, _, err := userCLI(t, "", true, "user", "list"); err != nil || len(prompts) != 4 {
		t.Fatalf("list prompted: %v", err)
	}
	svc, done := openAccounts(t)
	if _, err := svc.Login(context.Background(), "t@example.com", "password3", testClient); err != nil {
		t.Fatal(err)
	}
	done()

	// No prompt when the command will not use the password: it says why
	// at once instead of after the owner typed a password twice.
	for _, tc := range []struct {
		name    string
		args    []string
		wantErr string // "" = exit 0
		wantOut string
	}{
		{"create --if-not-exists, account exists", []string{"user", "create", "--email", "T@example.com", "--name", "T", "--if-not-exists"}, "", "already exists"},
		{"create, account exists", []string{"user", "create", "--email", "t@example.com", "--name", "T"}, "t@example.com already exists", ""},
		{"create without --name", []string{"user", "create", "--email", "new@example.com"}, "--email and --name are required", ""},
		{"passwd, unknown e-mail", []string{"user", "passwd", "ghost@example.com"}, "ghost@example.com", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(prompts)
			out, _, err := userCLI(t, "", true, tc.args...)
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("err %v, want %q", err, tc.wantErr)
			}
			if !strings.Contains(out, tc.wantOut) {
				t.Fatalf("out %q, want %q", out, tc.wantOut)
			}
			if len(prompts) != before {
				t.Fatalf("prompted %q", prompts[before:])
			}
		})
	}
	// --if-not-exists for a new account still prompts, and creates it.
	answers = []string{"password4", "password4"}
	if _, _, err := userCLI(t, "", true, "user", "create", "--email", "n@example.com", "--name", "N", "--if-not-exists"); err != nil || len(prompts) != 6 {
		t.Fatalf("create --if-not-exists, new account: %v, prompts %d", err, len(prompts))
	}
	svc, done = openAccounts(t)
	defer done()
	if _, err := svc.Login(context.Background(), "n@example.com", "password4", testClient); err != nil {
		t.Fatal(err)
	}
}

// While a server runs (holding the bbolt lock) the commands run inside it
// over the owner socket, including a password prompted on the caller's
// terminal.
func TestUserThroughRunningServer(t *testing.T) {
	newTestInstance(t)
	cfg, err := loadConfig("", nil)
	if err != nil {
		t.Fatal(err)
	}
	var logs bytes.Buffer
	log := slog.New(slog.NewTextHandler(&logs, nil))
	st, err := store.Open(cfg.DBPath(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	svc, err := newServices(context.Background(), cfg, st, log)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()

	svc.authStartup(context.Background())
	if !strings.Contains(logs.String(), "no admin account yet") || !strings.Contains(logs.String(), "devhub user create") {
		t.Fatalf("serve on a store without admin should say how to create one:\n%s", logs.String())
	}

	sock, err := listenOwnerSocket(cfg, svc, log)
	if err != nil {
		t.Fatal(err)
	}
	defer sock.Close()

	if _, stderr, err := userCLI(t, "password1\n", false, "user", "create", "--email", "admin@example.com", "--name", "Admin", "--admin", "--password-stdin"); err != nil {
		t.Fatalf("create through the socket: %v %s", err, stderr)
	}
	answer := func(string) (string, error) { return "password2", nil }
	if _, stderr, err := userCLIPrompt(t, answer, "", true, "user", "create", "--email", "tty@example.com", "--name", "Tty"); err != nil {
		t.Fatalf("prompted create through the socket: %v %s", err, stderr)
	}
	if users := listUsers(t); len(users) != 2 {
		t.Fatalf("users %+v", users)
	}
	// Re-seeding on a terminal: the running server is asked first, no prompt.
	refuse := func(string) (string, error) { return "", errors.New("prompted for an existing account") }
	if out, stderr, err := userCLIPrompt(t, refuse, "", true, "user", "create", "--email", "tty@example.com", "--name", "Tty", "--if-not-exists"); err != nil || !strings.Contains(out, "already exists") {
		t.Fatalf("create --if-not-exists through the socket: %v %q %s", err, out, stderr)
	}
	// The running server's own service sees them at once.
	res, err := svc.Auth.Login(context.Background(), "tty@example.com", "password2", testClient)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := userCLI(t, "", false, "user", "sessions", "revoke", "tty@example.com"); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Auth.Authenticate(res.Tokens.AccessToken); err == nil {
		t.Fatal("session survived revoke through the socket")
	}
	if _, _, err := userCLI(t, "", false, "user", "create", "--email", "admin@example.com", "--name", "Again", "--password-stdin"); err == nil {
		t.Fatal("duplicate through the socket succeeded")
	}

	logs.Reset()
	svc.authStartup(context.Background())
	if strings.Contains(logs.String(), "no admin account") {
		t.Fatal("warned although an admin exists")
	}
}

func TestUser2FA(t *testing.T) {
	newTestInstance(t)
	userCLI(t, "password1\n", false, "user", "create", "--email", "z@example.com", "--name", "Z", "--password-stdin")
	out, _, err := userCLI(t, "", false, "user", "2fa", "status", "z@example.com")
	if err != nil || !strings.Contains(out, "off") {
		t.Fatalf("status while off: %v %q", err, out)
	}
	if _, _, err := userCLI(t, "", false, "user", "2fa", "disable", "z@example.com"); err == nil || !strings.Contains(err.Error(), "off") {
		t.Fatalf("disable while off: %v", err)
	}
	// Turn it on through the service, as the profile page does.
	svc, done := openAccounts(t)
	res, err := svc.Login(context.Background(), "z@example.com", "password1", testClient)
	if err != nil {
		t.Fatal(err)
	}
	p, _ := svc.Authenticate(res.Tokens.AccessToken)
	en, err := svc.BeginTOTP(context.Background(), p)
	if err != nil {
		t.Fatal(err)
	}
	code, _ := totp.GenerateCode(en.Secret, time.Now())
	if _, _, err := svc.ConfirmTOTP(context.Background(), p, code, false, testClient); err != nil {
		t.Fatal(err)
	}
	done()
	out, _, err = userCLI(t, "", false, "user", "2fa", "status", "z@example.com", "--json")
	var st auth.TwoFactorStatus
	if err != nil || json.Unmarshal([]byte(out), &st) != nil || !st.TOTP || st.RecoveryCodesLeft != 10 {
		t.Fatalf("status --json: %v %q", err, out)
	}
	if out, _, err := userCLI(t, "", false, "user", "2fa", "disable", "Z@example.com"); err != nil || !strings.Contains(out, "turned off") {
		t.Fatalf("disable: %v %q", err, out)
	}
	if out, _, _ := userCLI(t, "", false, "user", "2fa", "status", "z@example.com"); !strings.Contains(out, "off") {
		t.Fatalf("status after disable: %q", out)
	}
	for _, args := range [][]string{{"user", "2fa", "status"}, {"user", "2fa", "status", "nobody@example.com"}, {"user", "2fa", "disable", "nobody@example.com"}} {
		if _, _, err := userCLI(t, "", false, args...); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

func TestUserInvite(t *testing.T) {
	newTestInstance(t)
	out, stderr, err := userCLI(t, "", false, "user", "invite", "--expires", "2d")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if err != nil || len(lines) != 2 || len(lines[0]) < 20 || !strings.Contains(lines[1], "valid until") {
		t.Fatalf("invite: %v %q", err, out)
	}
	if !strings.Contains(stderr, `auth.registration is "open"`) {
		t.Fatalf("no note that invitations are not in use: %q", stderr)
	}
	out, _, err = userCLI(t, "", false, "user", "invite", "--json")
	var inv auth.NewInvite
	if err != nil || json.Unmarshal([]byte(out), &inv) != nil || inv.Code == "" || time.Until(inv.ExpiresAt) < 6*24*time.Hour {
		t.Fatalf("invite --json: %v %q", err, out)
	}
	for _, bad := range []string{"soon", "0d", "-1h", "400d"} {
		if _, _, err := userCLI(t, "", false, "user", "invite", "--expires", bad); err == nil {
			t.Errorf("--expires %s: no error", bad)
		}
	}
}

func TestUserRmDeleteFiles(t *testing.T) {
	newTestInstance(t)
	for _, e := range []string{"keep@example.com", "gone@example.com"} {
		userCLI(t, "password1\n", false, "user", "create", "--email", e, "--name", "N", "--password-stdin")
	}
	// Files uploaded by each account, through the service as the site's upload does.
	cfg, svc := openInstance(t)
	for _, e := range []string{"keep@example.com", "gone@example.com"} {
		u, _ := svc.Auth.UserByEmail(e)
		if _, err := svc.Files.Save(context.Background(), e+".txt", strings.NewReader("x"), files.Uploader{ID: u.ID, Name: e}); err != nil {
			t.Fatal(err)
		}
	}
	svc.Close()
	if out, _, err := userCLI(t, "", false, "user", "rm", "keep@example.com"); err != nil || !strings.Contains(out, "deleted keep@example.com") {
		t.Fatalf("rm: %v %q", err, out)
	}
	if out, _, err := userCLI(t, "", false, "user", "rm", "gone@example.com", "--delete-files"); err != nil || !strings.Contains(out, "and 1 file(s)") {
		t.Fatalf("rm --delete-files: %v %q", err, out)
	}
	svc = openServices(t, cfg)
	all, _ := svc.Files.List()
	if len(all) != 1 || all[0].OriginalName != "keep@example.com.txt" {
		t.Fatalf("files left: %+v", all)
	}
	if _, _, err := userCLI(t, "", false, "user", "rm", "nobody@example.com"); err == nil {
		t.Fatal("rm of an unknown account")
	}
}

// `user sessions list` prints each session's User-Agent, which the client
// chose: a right-to-left override in it must not reorder the owner's table.
func TestSessionsListEscapesTheUserAgent(t *testing.T) {
	newTestInstance(t)
	if _, _, err := userCLI(t, "password1\n", false, "user", "create", "--email", "ua@example.com", "--name", "U", "--password-stdin"); err != nil {
		t.Fatal(err)
	}
	svc, done := openAccounts(t)
	_, err := svc.Login(context.Background(), "ua@example.com", "password1",
		auth.Client{IP: testClient.IP, UserAgent: "Firefox\u202eexe.evil"})
	done()
	if err != nil {
		t.Fatal(err)
	}
	out, _, err := userCLI(t, "", false, "user", "sessions", "list", "ua@example.com")
	if err != nil || strings.ContainsRune(out, '\u202e') || !strings.Contains(out, `Firefox\u202eexe.evil`) {
		t.Fatalf("sessions list: %v %q", err, out)
	}
}
