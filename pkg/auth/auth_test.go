package auth

import (
	"context"
	"errors"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	bolt "go.etcd.io/bbolt"

	"github.com/devhub/devhub/pkg/config"
	"github.com/devhub/devhub/pkg/store"
	"github.com/devhub/devhub/pkg/store/storetest"
)

// cheapParams keep tests fast; TestHashUsesOWASPParameters covers the real cost.
var cheapParams = HashParams{Memory: 64, Time: 1, Threads: 1, SaltLen: 16, KeyLen: 32}

type clock struct {
	mu    sync.Mutex
	now   time.Time
	slept []time.Duration
}

// Sleep advances the clock instead of waiting and records the wait.
func (c *clock) Sleep(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.slept = append(c.slept, d)
	c.mu.Unlock()
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func openStore(t testing.TB) *store.Store {
	t.Helper()
	st := storetest.Open(t)
	return st
}

func newTestService(t testing.TB) (*Service, *clock) {
	t.Helper()
	clk := &clock{now: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}
	s, err := New(openStore(t), config.Default().Auth, WithHashParams(cheapParams), WithClock(clk.Now), WithSleep(clk.Sleep))
	if err != nil {
		t.Fatal(err)
	}
	return s, clk
}

var client = Client{IP: netip.MustParseAddr("192.0.2.1"), UserAgent: "test"}

func register(t *testing.T, s *Service, email, password string) *AuthResult {
	t.Helper()
	res, err := s.Register(context.Background(), RegisterInput{Name: "N", Email: email, Password: password, ConfirmPassword: password}, client)
	if err != nil {
		t.Fatalf("register %s: %v", email, err)
	}
	return res
}

func fieldCode(t *testing.T, err error, field string) string {
	t.Helper()
	var verr *store.ValidationError
	if !errors.As(err, &verr) {
		t.Fatalf("want a ValidationError, got %v", err)
	}
	return verr.Fields[field].Code
}

func TestHashUsesOWASPParameters(t *testing.T) {
	h, err := hashPassword("correct horse", DefaultHashParams)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q does not carry the OWASP argon2id parameters", h)
	}
	for _, tc := range []struct {
		pw   string
		want bool
	}{{"correct horse", true}, {"correct horsf", false}, {"", false}, {"correct horse ", false}} {
		ok, rehash, err := verifyPassword(tc.pw, h, DefaultHashParams)
		if err != nil || ok != tc.want || rehash {
			t.Errorf("verify(%q) = %v, %v, %v; want %v", tc.pw, ok, rehash, err, tc.want)
		}
	}
	if _, rehash, _ := verifyPassword("correct horse", h, cheapParams); !rehash {
		t.Error("a hash made with other parameters should ask for a rehash")
	}
	h2, _ := hashPassword("correct horse", DefaultHashParams)
	if h == h2 {
		t.Error("two hashes of one password must differ (random salt)")
	}
}

func TestDecodeHashRejectsMalformed(t *testing.T) {
	good, _ := hashPassword("password1", cheapParams)
	parts := strings.Split(good, "$")
	for name, enc := range map[string]string{
		"empty":       "",
		"bcrypt":      "$2a$10$abcdefghijklmnopqrstuu",
		"argon2i":     strings.Replace(good, "argon2id", "argon2i", 1),
		"version":     strings.Replace(good, "v=19", "v=16", 1),
		"huge memory": "$argon2id$v=19$m=99999999,t=2,p=1$" + parts[4] + "$" + parts[5],
		"zero time":   "$argon2id$v=19$m=64,t=0,p=1$" + parts[4] + "$" + parts[5],
		"bad salt":    "$argon2id$v=19$m=64,t=1,p=1$!!!$" + parts[5],
		"short key":   "$argon2id$v=19$m=64,t=1,p=1$" + parts[4] + "$AAAA",
		"extra part":  good + "$x",
	} {
		if _, _, err := verifyPassword("password1", enc, cheapParams); err == nil {
			t.Errorf("%s: %q accepted", name, enc)
		}
	}
}

// A 73-byte password is accepted whole: changing only its last byte must
// make it wrong (bcrypt would have silently ignored byte 73).
func TestLongPasswordIsNotTruncated(t *testing.T) {
	s, _ := newTestService(t)
	pw := strings.Repeat("a", 72) + "b"
	if len(pw) != 73 {
		t.Fatal("test password must be 73 bytes")
	}
	register(t, s, "long@example.com", pw)
	if _, err := s.Login(context.Background(), "long@example.com", pw, client); err != nil {
		t.Fatalf("73-byte password: %v", err)
	}
	if _, err := s.Login(context.Background(), "long@example.com", strings.Repeat("a", 72)+"c", client); !errors.Is(err, ErrInvalidCredentials) {
		t.Fatalf("password differing in byte 73 accepted: %v", err)
	}
	if _, err := s.Login(context.Background(), "long@example.com", strings.Repeat("a", 72), client); !errors.Is(err, ErrInvalidCredentials) {
		t.Fatalf("72-byte prefix accepted: %v", err)
	}
}

func TestRegisterValidation(t *testing.T) {
	long := strings.Repeat("x", MaxPasswordBytes+1)
	cases := []struct {
		name  string
		in    RegisterInput
		field string
		code  string
	}{
		{"all empty", RegisterInput{}, "name", "required"},
		{"no email", RegisterInput{Name: "A", Password: "password1", ConfirmPassword: "password1"}, "email", "required"},
		{"bad email", RegisterInput{Name: "A", Email: "not-an-email", Password: "password1", ConfirmPassword: "password1"}, "email", "invalid"},
		{"display name email", RegisterInput{Name: "A", Email: "Bob <b@example.com>", Password: "password1", ConfirmPassword: "password1"}, "email", "invalid"},
		{"email too long", RegisterInput{Name: "A", Email: strings.Repeat("a", 250) + "@example.com", Password: "password1", ConfirmPassword: "password1"}, "email", "invalid"},
		{"short password", RegisterInput{Name: "A", Email: "a@example.com", Password: "short", ConfirmPassword: "short"}, "password", "too_short"},
		{"7 runes", RegisterInput{Name: "A", Email: "a@example.com", Password: "пароль1", ConfirmPassword: "пароль1"}, "password", "too_short"},
		{"password too long", RegisterInput{Name: "A", Email: "a@example.com", Password: long, ConfirmPassword: long}, "password", "too_long"},
		{"mismatch", RegisterInput{Name: "A", Email: "a@example.com", Password: "password1", ConfirmPassword: "password2"}, "confirmPassword", "mismatch"},
		{"no confirmation", RegisterInput{Name: "A", Email: "a@example.com", Password: "password1"}, "confirmPassword", "required"},
		{"name too long", RegisterInput{Name: strings.Repeat("я", MaxNameChars+1), Email: "a@example.com", Password: "password1", ConfirmPassword: "password1"}, "name", "too_long"},
		{"name control char", RegisterInput{Name: "a\x00b", Email: "a@example.com", Password: "password1", ConfirmPassword: "password1"}, "name", "invalid"},
		{"name with a right-to-left override", RegisterInput{Name: "admin\u202enimda", Email: "a@example.com", Password: "password1", ConfirmPassword: "password1"}, "name", "invalid"},
		{"name with a bidi isolate", RegisterInput{Name: "\u2067Olena", Email: "a@example.com", Password: "password1", ConfirmPassword: "password1"}, "name", "invalid"},
		{"name with a zero-width space", RegisterInput{Name: "Ole\u200bna", Email: "a@example.com", Password: "password1", ConfirmPassword: "password1"}, "name", "invalid"},
		{"name with a line separator", RegisterInput{Name: "a\u2028b", Email: "a@example.com", Password: "password1", ConfirmPassword: "password1"}, "name", "invalid"},
		{"name with a private-use char", RegisterInput{Name: "a\ue000", Email: "a@example.com", Password: "password1", ConfirmPassword: "password1"}, "name", "invalid"},
		{"blank name", RegisterInput{Name: "   ", Email: "a@example.com", Password: "password1", ConfirmPassword: "password1"}, "name", "required"},
	}
	s, _ := newTestService(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Register(context.Background(), tc.in, client)
			if got := fieldCode(t, err, tc.field); got != tc.code {
				t.Fatalf("field %s: code %q, want %q (err %v)", tc.field, got, tc.code, err)
			}
		})
	}
	if users, _ := s.Users(); len(users) != 0 {
		t.Fatalf("invalid registrations stored users: %v", users)
	}
}

func TestEmailsAreCaseInsensitive(t *testing.T) {
	s, _ := newTestService(t)
	res := register(t, s, "  Me@Example.COM ", "password1")
	if res.User.Email != "me@example.com" || res.User.Role != RoleUser {
		t.Fatalf("stored user %+v", res.User)
	}
	if _, err := s.Login(context.Background(), "ME@example.com", "password1", client); err != nil {
		t.Fatalf("login with other case: %v", err)
	}
	_, err := s.Register(context.Background(), RegisterInput{Name: "B", Email: "me@EXAMPLE.com", Password: "password1", ConfirmPassword: "password1"}, client)
	// The guest's answer does not echo the address back.
	if !errors.Is(err, store.ErrConflict) || strings.Contains(strings.ToLower(err.Error()), "me@example.com") {
		t.Fatalf("duplicate e-mail: %v", err)
	}
}

func TestLoginUnknownEmailLooksLikeWrongPassword(t *testing.T) {
	s, _ := newTestService(t)
	register(t, s, "known@example.com", "password1")
	_, errUnknown := s.Login(context.Background(), "unknown@example.com", "password1", Client{IP: netip.MustParseAddr("192.0.2.10")})
	_, errWrong := s.Login(context.Background(), "known@example.com", "password2", Client{IP: netip.MustParseAddr("192.0.2.11")})
	if !errors.Is(errUnknown, ErrInvalidCredentials) || !errors.Is(errWrong, ErrInvalidCredentials) || errUnknown.Error() != errWrong.Error() {
		t.Fatalf("unknown: %v, wrong: %v", errUnknown, errWrong)
	}
	_, err := s.Login(context.Background(), "", "", client)
	if fieldCode(t, err, "email") != "required" || fieldCode(t, err, "password") != "required" {
		t.Fatalf("empty login: %v", err)
	}
}

// An e-mail no account can have is refused before the throttle sees it:
// it would otherwise be kept as a key (account, account and network) for
// the failure window, a megabyte per attempt when the body is one.
func TestLoginRefusesOverlongEmailBeforeThrottle(t *testing.T) {
	tests := []struct {
		name, email string
		wantCode    string
	}{
		{"a body-sized e-mail", strings.Repeat("a", 1<<20) + "@example.com", "too_long"},
		{"one byte over", strings.Repeat("a", MaxEmailBytes-len("@example.com")+1) + "@example.com", "too_long"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := newTestService(t)
			register(t, s, "owner@example.com", "password1")
			from := Client{IP: netip.MustParseAddr("198.51.100.7")}
			for range LoginMaxFailures + 1 {
				if _, err := s.Login(context.Background(), tc.email, "wrong-pass", from); fieldCode(t, err, "email") != tc.wantCode {
					t.Fatalf("login: %v, want email %s", err, tc.wantCode)
				}
			}
			if n := len(s.throttle.hits) + len(s.accountFailures.hits); n != 0 {
				t.Fatalf("%d throttle keys kept", n)
			}
			if _, err := s.Login(context.Background(), "owner@example.com", "password1", from); err != nil {
				t.Fatalf("the network was throttled by refused forms: %v", err)
			}
		})
	}
}

func TestLoginThrottling(t *testing.T) {
	t.Run("per account from one network: hard", func(t *testing.T) {
		s, clk := newTestService(t)
		register(t, s, "victim@example.com", "password1")
		attacker := Client{IP: netip.MustParseAddr("198.51.100.1")}
		for i := range LoginMaxFailures {
			if _, err := s.Login(context.Background(), "victim@example.com", "wrong-pass", attacker); !errors.Is(err, ErrInvalidCredentials) {
				t.Fatalf("attempt %d: %v", i+1, err)
			}
		}
		_, err := s.Login(context.Background(), "victim@example.com", "password1", attacker)
		var te *ThrottledError
		if !errors.As(err, &te) || te.RetryAfter <= 0 || te.RetryAfter > LoginWindow {
			t.Fatalf("6th attempt from the guessing network (right password) = %v, want throttled", err)
		}
		clk.Add(te.RetryAfter)
		if _, err := s.Login(context.Background(), "victim@example.com", "password1", attacker); err != nil {
			t.Fatalf("after Retry-After: %v", err)
		}
	})
	// Five wrong passwords a minute from anywhere used to lock the owner out
	// from everywhere. Now the guessers are slowed and the owner, signing in
	// from a clean network, gets in.
	t.Run("per account from many networks: soft", func(t *testing.T) {
		s, clk := newTestService(t)
		register(t, s, "victim@example.com", "password1")
		for i := range 3 * LoginMaxFailures {
			c := Client{IP: netip.MustParseAddr("198.51.100." + strconv.Itoa(i+1))}
			if _, err := s.Login(context.Background(), "victim@example.com", "wrong-pass", c); !errors.Is(err, ErrInvalidCredentials) {
				t.Fatalf("guess %d from its own network: %v", i+1, err)
			}
		}
		// The guesses after the fifth each waited longer, up to the cap.
		if len(clk.slept) != 2*LoginMaxFailures {
			t.Fatalf("%d guesses were slowed, want %d: %v", len(clk.slept), 2*LoginMaxFailures, clk.slept)
		}
		for i := 1; i < len(clk.slept); i++ {
			if clk.slept[i] < clk.slept[i-1] || clk.slept[i] > AccountDelayCap {
				t.Fatalf("delays %v do not grow up to the %s cap", clk.slept, AccountDelayCap)
			}
		}
		if clk.slept[0] != AccountDelayBase || clk.slept[len(clk.slept)-1] != AccountDelayCap {
			t.Fatalf("delays %v, want from %s to %s", clk.slept, AccountDelayBase, AccountDelayCap)
		}
		owner := Client{IP: netip.MustParseAddr("203.0.113.9")}
		if _, err := s.Login(context.Background(), "victim@example.com", "password1", owner); err != nil {
			t.Fatalf("the owner from a clean network: %v", err)
		}
		// A right password forgives the account: the next check is not slowed.
		clk.slept = nil
		s.Login(context.Background(), "victim@example.com", "password1", owner)
		if len(clk.slept) != 0 {
			t.Fatalf("slowed after a successful sign-in: %v", clk.slept)
		}
	})
	t.Run("per address, over many accounts", func(t *testing.T) {
		s, _ := newTestService(t)
		for i := range LoginMaxFailures {
			if _, err := s.Login(context.Background(), "user"+strconv.Itoa(i)+"@example.com", "wrong-pass", client); !errors.Is(err, ErrInvalidCredentials) {
				t.Fatalf("attempt %d: %v", i+1, err)
			}
		}
		var te *ThrottledError
		if _, err := s.Login(context.Background(), "other@example.com", "wrong-pass", client); !errors.As(err, &te) {
			t.Fatalf("6th attempt from one address = %v, want throttled", err)
		}
		// Another address is not affected.
		if _, err := s.Login(context.Background(), "other@example.com", "wrong-pass", Client{IP: netip.MustParseAddr("192.0.2.200")}); !errors.Is(err, ErrInvalidCredentials) {
			t.Fatalf("other address: %v", err)
		}
	})
	t.Run("IPv6 counts per /64", func(t *testing.T) {
		s, _ := newTestService(t)
		for i := range LoginMaxFailures {
			c := Client{IP: netip.MustParseAddr("2001:db8::" + strconv.Itoa(i+1))}
			s.Login(context.Background(), "u"+strconv.Itoa(i)+"@example.com", "wrong-pass", c)
		}
		var te *ThrottledError
		if _, err := s.Login(context.Background(), "x@example.com", "wrong-pass", Client{IP: netip.MustParseAddr("2001:db8::ffff")}); !errors.As(err, &te) {
			t.Fatalf("same /64: %v", err)
		}
	})
	t.Run("window slides", func(t *testing.T) {
		s, clk := newTestService(t)
		for range LoginMaxFailures {
			s.Login(context.Background(), "a@example.com", "wrong-pass", client)
			clk.Add(10 * time.Second)
		}
		// Failures at t=0,10,20,30,40; now t=50: blocked until t=60.
		var te *ThrottledError
		_, err := s.Login(context.Background(), "a@example.com", "wrong-pass", client)
		if !errors.As(err, &te) || te.RetryAfter != 10*time.Second {
			t.Fatalf("got %v", err)
		}
		var r *store.Refusal
		if !errors.As(err, &r) || r.Kind != store.KindRateLimited || r.RetryAfter != 10*time.Second {
			t.Fatalf("a throttled sign-in is the rate-limit refusal: %+v", r)
		}
	})
}

// parallelLogins signs in n times at once from the test client, the i-th
// time as email(i) with password, and returns each attempt's error.
func parallelLogins(s *Service, n int, email func(i int) string, password string) []error {
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = s.Login(context.Background(), email(i), password, client)
		}()
	}
	wg.Wait()
	return errs
}

// A burst of parallel wrong guesses cannot slip past the count: attempts
// are counted before the hash runs, so exactly LoginMaxFailures of them are
// checked and the rest are refused unhashed.
func TestLoginThrottleHoldsUnderParallelBurst(t *testing.T) {
	for name, email := range map[string]func(i int) string{
		"one account":   func(int) string { return "victim@example.com" },
		"many accounts": func(i int) string { return "user" + strconv.Itoa(i) + "@example.com" },
	} {
		t.Run(name, func(t *testing.T) {
			s, _ := newTestService(t)
			register(t, s, "victim@example.com", "password1")
			const burst = 40
			errs := parallelLogins(s, burst, email, "wrong-pass")
			wrong, throttled := 0, 0
			for _, err := range errs {
				var te *ThrottledError
				switch {
				case errors.Is(err, ErrInvalidCredentials):
					wrong++
				case errors.As(err, &te) && te.What == ThrottledLogin:
					throttled++
				default:
					t.Fatalf("unexpected %v", err)
				}
			}
			if wrong != LoginMaxFailures || throttled != burst-LoginMaxFailures {
				t.Fatalf("%d guesses checked, %d throttled; want %d checked", wrong, throttled, LoginMaxFailures)
			}
			noPending(t, s)
		})
	}
}

// Successful sign-ins do not use up the address's budget: many people
// behind one address sign in all day.
func TestSuccessfulLoginsAreNotThrottled(t *testing.T) {
	s, _ := newTestService(t)
	for i := range 3 * LoginMaxFailures {
		email := "u" + strconv.Itoa(i) + "@example.com"
		if _, err := s.CreateUser(context.Background(), NewUser{Email: email, Name: "U", Password: "password1"}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Login(context.Background(), email, "password1", client); err != nil {
			t.Fatalf("login %d: %v", i+1, err)
		}
	}
	// A wrong guess after them is still only the first failure.
	if _, err := s.Login(context.Background(), "u0@example.com", "wrong-pass", client); !errors.Is(err, ErrInvalidCredentials) {
		t.Fatalf("first failure: %v", err)
	}
}

// Every password check costs a hash, so even correct sign-ins from one
// network have a budget: one account cannot keep the hashing busy in a loop.
func TestSignInBudget(t *testing.T) {
	s, clk := newTestService(t)
	register(t, s, "loop@example.com", "password1")
	for i := range SignInMaxPerWindow {
		if _, err := s.Login(context.Background(), "loop@example.com", "password1", client); err != nil {
			t.Fatalf("sign-in %d: %v", i+1, err)
		}
	}
	_, err := s.Login(context.Background(), "loop@example.com", "password1", client)
	var te *ThrottledError
	if !errors.As(err, &te) || te.What != ThrottledSignIns || te.RetryAfter <= 0 || te.RetryAfter > SignInWindow {
		t.Fatalf("sign-in %d = %v, want the budget refusal", SignInMaxPerWindow+1, err)
	}
	if !strings.Contains(te.Error(), "sign-in attempts") {
		t.Fatalf("message %q", te.Error())
	}
	// Password changes draw on the same budget.
	p, _ := s.Authenticate(register(t, s, "cp@example.com", "password1").Tokens.AccessToken)
	if _, err := s.ChangePassword(context.Background(), p, "password1", "password2", client); !errors.As(err, &te) || te.What != ThrottledSignIns {
		t.Fatalf("password change over the budget: %v", err)
	}
	// Other networks are not affected; the budget comes back.
	if _, err := s.Login(context.Background(), "loop@example.com", "password1", Client{IP: netip.MustParseAddr("198.51.100.3")}); err != nil {
		t.Fatalf("another network: %v", err)
	}
	clk.Add(te.RetryAfter)
	if _, err := s.Login(context.Background(), "loop@example.com", "password1", client); err != nil {
		t.Fatalf("after Retry-After: %v", err)
	}
	noPending(t, s)
}

// A parallel burst of correct sign-ins runs no more checks than the budget
// allows; the rest are refused unhashed, those that only met attempts still
// in progress with a short wait.
func TestSignInBudgetHoldsUnderParallelBurst(t *testing.T) {
	s, _ := newTestService(t)
	register(t, s, "loop@example.com", "password1")
	const burst = 3 * SignInMaxPerWindow
	errs := parallelLogins(s, burst, func(int) string { return "loop@example.com" }, "password1")
	ok := 0
	for _, err := range errs {
		var te *ThrottledError
		switch {
		case err == nil:
			ok++
		case errors.As(err, &te) && te.What == ThrottledSignIns:
		case errors.As(err, &te) && te.What == ThrottledLogin && te.RetryAfter == minRetry:
		default:
			t.Fatalf("unexpected %v", err)
		}
	}
	if ok < 1 || ok > SignInMaxPerWindow {
		t.Fatalf("%d of %d parallel sign-ins ran, want 1..%d", ok, burst, SignInMaxPerWindow)
	}
	noPending(t, s)
}

// noPending fails when a finished attempt left its reservation behind (it
// would block its keys for good).
func noPending(t *testing.T, s *Service) {
	t.Helper()
	for name, l := range map[string]*limiter{"throttle": s.throttle, "signIns": s.signIns, "registrations": s.registrations, "accountFailures": s.accountFailures} {
		l.mu.Lock()
		n := len(l.pending)
		l.mu.Unlock()
		if n != 0 {
			t.Errorf("%s: %d keys still reserved", name, n)
		}
	}
}

func TestLimiterReservations(t *testing.T) {
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	l := newLimiter(3, time.Minute)
	for i := range 3 {
		if w := l.reserve(now, "k"); w != 0 {
			t.Fatalf("reservation %d refused: %s", i+1, w)
		}
	}
	// Full of attempts still running: a moment's wait, not a window.
	if w := l.reserve(now, "k"); w != minRetry {
		t.Fatalf("full of pending attempts: wait %s, want %s", w, minRetry)
	}
	l.cancel("k")
	if w := l.reserve(now, "k"); w != 0 {
		t.Fatalf("after a cancel: %s", w)
	}
	l.commit(now, "k", "k", "k")
	if w := l.reserve(now.Add(10*time.Second), "k"); w != 50*time.Second {
		t.Fatalf("full of counted attempts: wait %s, want 50s", w)
	}
	if w := l.reserve(now.Add(time.Minute), "k"); w != 0 {
		t.Fatalf("after the window: %s", w)
	}
	if len(l.pending) != 1 || l.pending["k"] != 1 {
		t.Fatalf("pending %v", l.pending)
	}
	l.cancel("k")
	if len(l.pending) != 0 {
		t.Fatalf("pending left: %v", l.pending)
	}
}

func TestRegisterThrottling(t *testing.T) {
	reg := func(s *Service, email string, c Client) error {
		_, err := s.Register(context.Background(), RegisterInput{Name: "N", Email: email, Password: "password1", ConfirmPassword: "password1"}, c)
		return err
	}
	t.Run("per network, a taken e-mail counts, an invalid form does not", func(t *testing.T) {
		s, clk := newTestService(t)
		for i := range RegisterMaxPerWindow - 1 {
			if err := reg(s, "r"+strconv.Itoa(i)+"@example.com", client); err != nil {
				t.Fatalf("registration %d: %v", i+1, err)
			}
		}
		if err := reg(s, "r0@example.com", client); !errors.Is(err, store.ErrConflict) {
			t.Fatalf("taken e-mail: %v", err)
		}
		for range 3 * RegisterMaxPerWindow {
			_, err := s.Register(context.Background(), RegisterInput{Name: "N", Email: "x@example.com", Password: "password1", ConfirmPassword: "password2"}, client)
			if fieldCode(t, err, "confirmPassword") != "mismatch" {
				t.Fatalf("invalid form: %v", err)
			}
		}
		err := reg(s, "one-more@example.com", client)
		var te *ThrottledError
		if !errors.As(err, &te) || te.What != ThrottledRegister || te.RetryAfter <= 0 || te.RetryAfter > RegisterWindow {
			t.Fatalf("registration %d = %v, want throttled", RegisterMaxPerWindow+1, err)
		}
		if !strings.Contains(te.Error(), "registrations") {
			t.Fatalf("message %q", te.Error())
		}
		if _, err := s.UserByEmail("one-more@example.com"); !errors.Is(err, store.ErrNotFound) {
			t.Fatal("the throttled registration stored an account")
		}
		// Other networks register; logins from the throttled one still work.
		if err := reg(s, "elsewhere@example.com", Client{IP: netip.MustParseAddr("198.51.100.7")}); err != nil {
			t.Fatalf("another address: %v", err)
		}
		if _, err := s.Login(context.Background(), "r0@example.com", "password1", client); err != nil {
			t.Fatalf("login from the throttled address: %v", err)
		}
		clk.Add(te.RetryAfter)
		if err := reg(s, "one-more@example.com", client); err != nil {
			t.Fatalf("after Retry-After: %v", err)
		}
	})
	t.Run("IPv6 counts per /64", func(t *testing.T) {
		s, _ := newTestService(t)
		for i := range RegisterMaxPerWindow {
			c := Client{IP: netip.MustParseAddr("2001:db8:1:2::" + strconv.Itoa(i+1))}
			if err := reg(s, "v"+strconv.Itoa(i)+"@example.com", c); err != nil {
				t.Fatal(err)
			}
		}
		var te *ThrottledError
		if err := reg(s, "w@example.com", Client{IP: netip.MustParseAddr("2001:db8:1:2:ffff::1")}); !errors.As(err, &te) {
			t.Fatalf("same /64: %v", err)
		}
	})
	t.Run("a parallel burst registers no more than the budget", func(t *testing.T) {
		s, _ := newTestService(t)
		const burst = 30
		var wg sync.WaitGroup
		for i := range burst {
			wg.Add(1)
			go func() {
				defer wg.Done()
				reg(s, "b"+strconv.Itoa(i)+"@example.com", client)
			}()
		}
		wg.Wait()
		if users, _ := s.Users(); len(users) != RegisterMaxPerWindow {
			t.Fatalf("%d accounts registered by one burst", len(users))
		}
	})
}

func TestAccessTokenBadInputs(t *testing.T) {
	s, clk := newTestService(t)
	res := register(t, s, "tok@example.com", "password1")
	good := res.Tokens.AccessToken
	p, err := s.Authenticate(good)
	if err != nil || p.User.Email != "tok@example.com" {
		t.Fatalf("good token: %v", err)
	}
	claims, _, _ := s.parseAccess(good)

	sign := func(m jwt.SigningMethod, key any, c jwt.Claims) string {
		tok, err := jwt.NewWithClaims(m, c).SignedString(key)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	noExp := *claims
	noExp.ExpiresAt = nil
	expired := *claims
	expired.ExpiresAt = jwt.NewNumericDate(clk.Now().Add(-time.Second))
	otherIss := *claims
	otherIss.Issuer = "someone-else"
	noSid := *claims
	noSid.Sid = ""
	oldVer := *claims
	oldVer.Ver = 0
	parts := strings.Split(good, ".")
	sig := []byte(parts[2])
	if sig[10] == 'A' {
		sig[10] = 'B'
	} else {
		sig[10] = 'A'
	}
	changedSig := parts[0] + "." + parts[1] + "." + string(sig)

	cases := map[string]string{
		"empty":               "",
		"alg none":            sign(jwt.SigningMethodNone, jwt.UnsafeAllowNoneSignatureType, claims),
		"HS512":               sign(jwt.SigningMethodHS512, s.secret, claims),
		"HS384":               sign(jwt.SigningMethodHS384, s.secret, claims),
		"no exp":              sign(jwt.SigningMethodHS256, s.secret, &noExp),
		"expired":             sign(jwt.SigningMethodHS256, s.secret, &expired),
		"other issuer":        sign(jwt.SigningMethodHS256, s.secret, &otherIss),
		"other secret":        sign(jwt.SigningMethodHS256, []byte(strings.Repeat("k", 32)), claims),
		"no session":          sign(jwt.SigningMethodHS256, s.secret, &noSid),
		"old version":         sign(jwt.SigningMethodHS256, s.secret, &oldVer),
		"changed signature":   changedSig,
		"padded signature":    good + "=",
		"1 MiB of dots":       strings.Repeat(".", 1<<20),
		"garbage":             "not.a.token",
		"two parts":           parts[0] + "." + parts[1],
		"refresh token as AT": res.Tokens.RefreshToken,
	}
	for name, tok := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := s.Authenticate(tok); !errors.Is(err, ErrInvalidToken) {
				t.Fatalf("accepted or wrong error: %v", err)
			}
		})
	}
	clk.Add(s.AccessTTL() + time.Second)
	if _, err := s.Authenticate(good); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("token past its exp accepted: %v", err)
	}
}

// Access tokens carry exp, iat, sub and a unique jti, signed with HS256, and
// live auth.access_ttl; refresh sessions live auth.refresh_ttl.
func TestTokenClaimsAndConfiguredLifetimes(t *testing.T) {
	clk := &clock{now: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)}
	cfg := config.Default().Auth
	cfg.AccessTTL, cfg.RefreshTTL = 5*time.Minute, 48*time.Hour
	s, err := New(openStore(t), cfg, WithHashParams(cheapParams), WithClock(clk.Now))
	if err != nil {
		t.Fatal(err)
	}
	a := register(t, s, "claims@example.com", "password1")
	b, err := s.Login(context.Background(), "claims@example.com", "password1", client)
	if err != nil {
		t.Fatal(err)
	}
	if a.Tokens.ExpiresIn != 300 {
		t.Fatalf("expiresIn %d, want 300", a.Tokens.ExpiresIn)
	}
	var claims jwt.MapClaims
	tok, _, err := jwt.NewParser().ParseUnverified(a.Tokens.AccessToken, &claims)
	if err != nil {
		t.Fatal(err)
	}
	if tok.Header["alg"] != "HS256" {
		t.Fatalf("alg %v", tok.Header["alg"])
	}
	want := map[string]any{
		"sub": strconv.FormatUint(a.User.ID, 10),
		"iat": float64(clk.Now().Unix()),
		"exp": float64(clk.Now().Add(5 * time.Minute).Unix()),
	}
	for k, v := range want {
		if claims[k] != v {
			t.Errorf("claim %s = %v, want %v", k, claims[k], v)
		}
	}
	var other jwt.MapClaims
	jwt.NewParser().ParseUnverified(b.Tokens.AccessToken, &other)
	if jti, _ := claims["jti"].(string); len(jti) < 16 || jti == other["jti"] {
		t.Errorf("jti %q / %q: want long and unique", claims["jti"], other["jti"])
	}
	sessions, _ := s.Sessions("claims@example.com")
	if len(sessions) != 2 || !sessions[0].ExpiresAt.Equal(clk.Now().Add(48*time.Hour)) {
		t.Fatalf("sessions %+v", sessions)
	}
	clk.Add(5*time.Minute - time.Second)
	if _, err := s.Authenticate(a.Tokens.AccessToken); err != nil {
		t.Fatalf("token within its lifetime: %v", err)
	}
	clk.Add(2 * time.Second)
	if _, err := s.Authenticate(a.Tokens.AccessToken); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("token past access_ttl: %v", err)
	}
	if _, err := s.Refresh(context.Background(), b.Tokens.RefreshToken, client); err != nil {
		t.Fatalf("refresh within refresh_ttl: %v", err)
	}
	clk.Add(48 * time.Hour)
	if _, err := s.Refresh(context.Background(), a.Tokens.RefreshToken, client); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("refresh past refresh_ttl: %v", err)
	}
}

func TestRefreshRotatesAndDetectsReuse(t *testing.T) {
	s, clk := newTestService(t)
	first := register(t, s, "r@example.com", "password1")
	other, err := s.Login(context.Background(), "r@example.com", "password1", client)
	if err != nil {
		t.Fatal(err)
	}
	second, err := s.Refresh(context.Background(), first.Tokens.RefreshToken, client)
	if err != nil {
		t.Fatalf("refresh: %v", err)
	}
	if second.Tokens.RefreshToken == first.Tokens.RefreshToken {
		t.Fatal("refresh token was not rotated")
	}
	if _, err := s.Authenticate(second.Tokens.AccessToken); err != nil {
		t.Fatalf("new access token: %v", err)
	}
	// The old refresh token comes back after the grace: a stolen copy.
	// Everything ends.
	clk.Add(RefreshGrace)
	if _, err := s.Refresh(context.Background(), first.Tokens.RefreshToken, client); !errors.Is(err, ErrTokenReused) {
		t.Fatalf("reuse: %v", err)
	}
	for name, tok := range map[string]string{"rotated": second.Tokens.RefreshToken, "other device": other.Tokens.RefreshToken} {
		if _, err := s.Refresh(context.Background(), tok, client); !errors.Is(err, ErrInvalidToken) {
			t.Errorf("%s refresh token survived reuse detection: %v", name, err)
		}
	}
	for name, tok := range map[string]string{"first": first.Tokens.AccessToken, "second": second.Tokens.AccessToken, "other": other.Tokens.AccessToken} {
		if _, err := s.Authenticate(tok); !errors.Is(err, ErrInvalidToken) {
			t.Errorf("%s access token survived reuse detection", name)
		}
	}
	if n, _ := s.Sessions("r@example.com"); len(n) != 0 {
		t.Fatalf("sessions left: %v", n)
	}
}

// Two tabs refresh with the same cookie at once: the second, inside the
// grace, gets the same new refresh token instead of tripping reuse
// detection; only the token just rotated away has the grace, not older ones.
func TestRefreshGraceForConcurrentTabs(t *testing.T) {
	s, clk := newTestService(t)
	first := register(t, s, "tabs@example.com", "password1")
	a, err := s.Refresh(context.Background(), first.Tokens.RefreshToken, client)
	if err != nil {
		t.Fatal(err)
	}
	clk.Add(RefreshGrace - time.Second)
	b, err := s.Refresh(context.Background(), first.Tokens.RefreshToken, client)
	if err != nil {
		t.Fatalf("second tab inside the grace: %v", err)
	}
	if b.Tokens.RefreshToken != a.Tokens.RefreshToken {
		t.Fatal("the second tab got another refresh token than the first")
	}
	for _, tok := range []string{a.Tokens.AccessToken, b.Tokens.AccessToken} {
		if _, err := s.Authenticate(tok); err != nil {
			t.Fatalf("access token of a tab: %v", err)
		}
	}
	// The pair moves on; the first token is now two rotations old: reuse.
	c, err := s.Refresh(context.Background(), a.Tokens.RefreshToken, client)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Refresh(context.Background(), first.Tokens.RefreshToken, client); !errors.Is(err, ErrTokenReused) {
		t.Fatalf("a token two rotations old: %v, want reuse detected", err)
	}
	if _, err := s.Refresh(context.Background(), c.Tokens.RefreshToken, client); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("session survived reuse detection: %v", err)
	}
}

func TestRefreshBadInputs(t *testing.T) {
	s, clk := newTestService(t)
	res := register(t, s, "rb@example.com", "password1")
	tok := res.Tokens.RefreshToken
	parts := strings.Split(tok, ".")
	for name, bad := range map[string]string{
		"empty":        "",
		"garbage":      "abc",
		"forged mac":   parts[0] + "." + parts[1] + ".AAAA",
		"next gen":     parts[0] + ".2." + parts[2],
		"leading zero": parts[0] + ".01." + parts[2],
		"access token": res.Tokens.AccessToken,
		"huge":         strings.Repeat("a", 10000),
		"unknown sid":  s.refreshToken("nosuchsession", 1),
		"future gen":   s.refreshToken(parts[0], 5),
	} {
		if _, err := s.Refresh(context.Background(), bad, client); !errors.Is(err, ErrInvalidToken) {
			t.Errorf("%s: %v", name, err)
		}
	}
	clk.Add(s.RefreshTTL() + time.Second)
	if _, err := s.Refresh(context.Background(), tok, client); !errors.Is(err, ErrInvalidToken) {
		t.Fatalf("expired session refreshed: %v", err)
	}
	if err := s.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
	if all, _ := s.Sessions("rb@example.com"); len(all) != 0 {
		t.Fatalf("sweep left %v", all)
	}
}

func TestLogoutEndsSessionAndAccessToken(t *testing.T) {
	s, _ := newTestService(t)
	a := register(t, s, "lo@example.com", "password1")
	b, _ := s.Login(context.Background(), "lo@example.com", "password1", client)
	p, err := s.Authenticate(a.Tokens.AccessToken)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Logout(context.Background(), p.SessionID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Authenticate(a.Tokens.AccessToken); !errors.Is(err, ErrInvalidToken) {
		t.Fatal("access token survived logout")
	}
	if _, err := s.Refresh(context.Background(), a.Tokens.RefreshToken, client); !errors.Is(err, ErrInvalidToken) {
		t.Fatal("refresh token survived logout")
	}
	if _, err := s.Authenticate(b.Tokens.AccessToken); err != nil {
		t.Fatalf("logout ended another device: %v", err)
	}
	if err := s.LogoutRefresh(context.Background(), b.Tokens.RefreshToken); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Authenticate(b.Tokens.AccessToken); !errors.Is(err, ErrInvalidToken) {
		t.Fatal("access token survived logout by refresh token")
	}
}

func TestChangePassword(t *testing.T) {
	s, _ := newTestService(t)
	a := register(t, s, "cp@example.com", "password1")
	b, _ := s.Login(context.Background(), "cp@example.com", "password1", client)
	p, _ := s.Authenticate(a.Tokens.AccessToken)

	_, err := s.ChangePassword(context.Background(), p, "wrong-old", "password2", client)
	if fieldCode(t, err, "oldPassword") != "wrong_password" {
		t.Fatalf("wrong old password: %v", err)
	}
	_, err = s.ChangePassword(context.Background(), p, "password1", "short", client)
	if fieldCode(t, err, "newPassword") != "too_short" {
		t.Fatalf("weak new password: %v", err)
	}
	_, err = s.ChangePassword(context.Background(), p, "", "", client)
	if fieldCode(t, err, "oldPassword") != "required" || fieldCode(t, err, "newPassword") != "required" {
		t.Fatalf("empty: %v", err)
	}
	fresh, err := s.ChangePassword(context.Background(), p, "password1", "password2", client)
	if err != nil {
		t.Fatal(err)
	}
	for name, tok := range map[string]string{"own old": a.Tokens.AccessToken, "other device": b.Tokens.AccessToken} {
		if _, err := s.Authenticate(tok); !errors.Is(err, ErrInvalidToken) {
			t.Errorf("%s access token survived the password change", name)
		}
	}
	if _, err := s.Refresh(context.Background(), b.Tokens.RefreshToken, client); !errors.Is(err, ErrInvalidToken) {
		t.Error("other session survived the password change")
	}
	if _, err := s.Authenticate(fresh.Tokens.AccessToken); err != nil {
		t.Errorf("fresh token for the caller's new session: %v", err)
	}
	// The caller's own old session ends too: a copy of its refresh token
	// is worth nothing after the password change.
	if _, err := s.Refresh(context.Background(), a.Tokens.RefreshToken, client); !errors.Is(err, ErrInvalidToken) {
		t.Errorf("caller's old session survived the password change: %v", err)
	}
	if _, err := s.Refresh(context.Background(), fresh.Tokens.RefreshToken, client); err != nil {
		t.Errorf("caller's new session: %v", err)
	}
	if _, err := s.Login(context.Background(), "cp@example.com", "password1", client); !errors.Is(err, ErrInvalidCredentials) {
		t.Error("old password still works")
	}
	if _, err := s.Login(context.Background(), "cp@example.com", "password2", client); err != nil {
		t.Errorf("new password: %v", err)
	}
}

func TestOwnerOperations(t *testing.T) {
	s, _ := newTestService(t)
	u, err := s.CreateUser(context.Background(), NewUser{Email: "Admin@Example.com", Name: "Admin", Password: "password1", Role: RoleAdmin})
	if err != nil || u.Role != RoleAdmin || u.Email != "admin@example.com" || u.ID == 0 {
		t.Fatalf("create admin: %+v %v", u, err)
	}
	if _, err := s.CreateUser(context.Background(), NewUser{Email: "x@example.com", Name: "X", Password: "password1", Role: "root"}); fieldCode(t, err, "role") != "invalid" {
		t.Fatalf("bad role: %v", err)
	}
	if n, _ := s.CountAdmins(); n != 1 {
		t.Fatalf("admins = %d", n)
	}
	res, err := s.Login(context.Background(), "admin@example.com", "password1", client)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetRole(context.Background(), "admin@example.com", RoleUser); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Authenticate(res.Tokens.AccessToken); !errors.Is(err, ErrInvalidToken) {
		t.Fatal("access token survived a role change")
	}
	if _, err := s.SetRole(context.Background(), "nobody@example.com", RoleAdmin); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("unknown e-mail: %v", err)
	}
	res, _ = s.Login(context.Background(), "admin@example.com", "password1", client)
	if err := s.SetPassword(context.Background(), "admin@example.com", "password9"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Authenticate(res.Tokens.AccessToken); !errors.Is(err, ErrInvalidToken) {
		t.Fatal("access token survived passwd")
	}
	res, _ = s.Login(context.Background(), "admin@example.com", "password9", client)
	s.Login(context.Background(), "admin@example.com", "password9", client)
	if n, err := s.RevokeSessions(context.Background(), "admin@example.com"); err != nil || n != 2 {
		t.Fatalf("revoke = %d, %v", n, err)
	}
	if _, err := s.Authenticate(res.Tokens.AccessToken); !errors.Is(err, ErrInvalidToken) {
		t.Fatal("access token survived sessions revoke")
	}
	if err := s.DeleteUser(context.Background(), "admin@example.com"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UserByEmail("admin@example.com"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("deleted user still there: %v", err)
	}
	if err := s.DeleteUser(context.Background(), "admin@example.com"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("double delete: %v", err)
	}
}

func TestSessionsAreBounded(t *testing.T) {
	s, clk := newTestService(t)
	register(t, s, "many@example.com", "password1")
	for range MaxSessionsPerUser + 5 {
		clk.Add(time.Second)
		if _, err := s.Login(context.Background(), "many@example.com", "password1", client); err != nil {
			t.Fatal(err)
		}
	}
	if all, _ := s.Sessions("many@example.com"); len(all) != MaxSessionsPerUser {
		t.Fatalf("%d sessions kept", len(all))
	}
}

func TestSecretIsGeneratedOnceAndKept(t *testing.T) {
	st := openStore(t)
	cfg := config.Default().Auth
	a, err := New(st, cfg, WithHashParams(cheapParams))
	if err != nil {
		t.Fatal(err)
	}
	if len(a.secret) < 32 {
		t.Fatalf("secret has %d bytes", len(a.secret))
	}
	b, _ := New(st, cfg, WithHashParams(cheapParams))
	if string(a.secret) != string(b.secret) {
		t.Fatal("secret changed between restarts")
	}
	res, _ := a.Register(context.Background(), RegisterInput{Name: "S", Email: "s@example.com", Password: "password1", ConfirmPassword: "password1"}, client)
	if _, err := b.Authenticate(res.Tokens.AccessToken); err != nil {
		t.Fatalf("token from before the restart: %v", err)
	}
	cfg.JWTSecret = strings.Repeat("z", 32)
	c, _ := New(st, cfg, WithHashParams(cheapParams))
	if string(c.secret) != cfg.JWTSecret {
		t.Fatal("configured secret not used")
	}
	if _, err := c.Authenticate(res.Tokens.AccessToken); err == nil {
		t.Fatal("token signed with another secret accepted")
	}
	cfg.JWTSecret = "short"
	if _, err := New(st, cfg); err == nil {
		t.Fatal("short secret accepted")
	}
}

func TestLoginRehashesOldParameters(t *testing.T) {
	st := openStore(t)
	old, _ := New(st, config.Default().Auth, WithHashParams(cheapParams))
	old.CreateUser(context.Background(), NewUser{Email: "re@example.com", Name: "R", Password: "password1"})
	stronger := cheapParams
	stronger.Time = 2
	s, _ := New(st, config.Default().Auth, WithHashParams(stronger))
	if _, err := s.Login(context.Background(), "re@example.com", "password1", client); err != nil {
		t.Fatal(err)
	}
	var h string
	st.View(func(tx *bolt.Tx) error { r, _ := getByEmail(tx, "re@example.com"); h = r.PasswordHash; return nil })
	if !strings.Contains(h, "t=2") {
		t.Fatalf("hash not upgraded: %s", h)
	}
}

// BenchmarkHashPassword shows the cost of one argon2id hash with the
// production parameters (the price of every login and registration).
func BenchmarkHashPassword(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := hashPassword("correct horse battery staple", DefaultHashParams); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLogin is a full successful login with production parameters:
// lookup, argon2id verification, session write, token signing.
func BenchmarkLogin(b *testing.B) {
	s, err := New(openStore(b), config.Default().Auth)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.CreateUser(context.Background(), NewUser{Email: "bench@example.com", Name: "B", Password: "password1"}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		// A new client address each time, or the sign-in budget would stop the loop.
		i++
		c := Client{IP: netip.AddrFrom4([4]byte{10, byte(i >> 16), byte(i >> 8), byte(i)})}
		if _, err := s.Login(context.Background(), "bench@example.com", "password1", c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAuthenticate is the per-request cost of checking an access token.
func BenchmarkAuthenticate(b *testing.B) {
	s, err := New(openStore(b), config.Default().Auth, WithHashParams(cheapParams))
	if err != nil {
		b.Fatal(err)
	}
	res, err := s.Register(context.Background(), RegisterInput{Name: "B", Email: "b@example.com", Password: "password1", ConfirmPassword: "password1"}, client)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.Authenticate(res.Tokens.AccessToken); err != nil {
			b.Fatal(err)
		}
	}
}

func TestAccountDelay(t *testing.T) {
	for _, tc := range []struct {
		failures int
		want     time.Duration
	}{
		{0, 0}, {AccountSlowAfter - 1, 0}, {AccountSlowAfter, AccountDelayBase},
		{AccountSlowAfter + 1, 2 * AccountDelayBase}, {AccountSlowAfter + 3, 8 * AccountDelayBase},
		{AccountSlowAfter + 4, AccountDelayCap}, {AccountSlowAfter + 70, AccountDelayCap}, {1 << 30, AccountDelayCap},
	} {
		if got := accountDelay(tc.failures); got != tc.want {
			t.Errorf("accountDelay(%d) = %s, want %s", tc.failures, got, tc.want)
		}
	}
}

// The writes honour their context: a request that has gone changes
// nothing (and no password is hashed for it).
func TestWritesHonourContext(t *testing.T) {
	s, _ := newTestService(t)
	bg := context.Background()
	if _, err := s.CreateUser(bg, NewUser{Email: "a@example.com", Name: "A", Password: "password1"}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(bg)
	cancel()
	if _, err := s.CreateUser(ctx, NewUser{Email: "b@example.com", Name: "B", Password: "password1"}); !errors.Is(err, context.Canceled) {
		t.Errorf("create user: %v", err)
	}
	if _, err := s.Login(ctx, "a@example.com", "password1", client); !errors.Is(err, context.Canceled) {
		t.Errorf("login: %v", err)
	}
	if _, err := s.SetRole(ctx, "a@example.com", RoleAdmin); !errors.Is(err, context.Canceled) {
		t.Errorf("set role: %v", err)
	}
	if err := s.DeleteUser(ctx, "a@example.com"); !errors.Is(err, context.Canceled) {
		t.Errorf("delete user: %v", err)
	}
	users, err := s.Users()
	if err != nil || len(users) != 1 || users[0].Email != "a@example.com" || users[0].Role != RoleUser {
		t.Fatalf("after cancelled writes: %+v %v", users, err)
	}
	if sessions, _ := s.Sessions("a@example.com"); len(sessions) != 0 {
		t.Fatalf("a cancelled login made a session: %+v", sessions)
	}
}
