package auth

import (
	"context"
	"errors"
	"testing"
)

// A reset link sent to an address stops working once the account moves to
// another address: whoever reads the old mailbox cannot take the account.
func TestEmailChangeSpendsResetLinks(t *testing.T) {
	s, _ := newTestService(t)
	res := register(t, s, "old@example.com", "password1")
	req, err := s.CreatePasswordReset(context.Background(), "old@example.com")
	if err != nil || req == nil {
		t.Fatalf("reset link: %v %v", req, err)
	}
	if _, err := s.SetEmail(context.Background(), res.User.ID, "new@example.com"); err != nil {
		t.Fatal(err)
	}
	_, err = s.ResetPassword(context.Background(), req.Token, "a new password 1", client)
	if !errors.Is(err, errResetToken) {
		t.Fatalf("the old address's link still reset the password: %v", err)
	}
}
