package store

import (
	"errors"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/devhub/devhub/pkg/internal/text"
)

// FieldError describes what is wrong with one input field. Code is stable
// for clients ("required", "invalid", "too_long", …); Message is for people.
type FieldError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// Used and Limit are set only on a quota error (data.quota): what the
	// user stores and what they may store ({bytes, files}).
	Used  any `json:"used,omitempty"`
	Limit any `json:"limit,omitempty"`
	// Held is set on a quota error when the user's unfinished resumable
	// uploads took part in the refusal: what they may still bring.
	Held any `json:"held,omitempty"`
}

// ValidationError is returned by domain services when input is rejected.
// The HTTP layer answers 400 with Fields as the error's data; the CLI prints
// the message and each field.
type ValidationError struct {
	Message string
	Fields  map[string]FieldError
}

func (e *ValidationError) Error() string {
	if len(e.Fields) == 0 {
		return e.Message
	}
	keys := make([]string, 0, len(e.Fields))
	for k := range e.Fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+": "+e.Fields[k].Message)
	}
	return e.Message + " (" + strings.Join(parts, "; ") + ")"
}

// Invalid builds a ValidationError for a single field.
func Invalid(field, code, message string) *ValidationError {
	return &ValidationError{Message: "validation failed", Fields: map[string]FieldError{field: {Code: code, Message: message}}}
}

// Validator collects field errors; Err returns nil when there are none.
type Validator struct{ fields map[string]FieldError }

// Add records a problem with field (the first problem per field wins).
func (v *Validator) Add(field, code, message string) {
	if v.fields == nil {
		v.fields = map[string]FieldError{}
	}
	if _, ok := v.fields[field]; !ok {
		v.fields[field] = FieldError{Code: code, Message: message}
	}
}

// Err returns the collected errors as a *ValidationError, or nil.
func (v *Validator) Err() error {
	if len(v.fields) == 0 {
		return nil
	}
	return &ValidationError{Message: "validation failed", Fields: v.fields}
}

// Kind is what went wrong, in the one vocabulary every adapter maps from:
// the HTTP API to a status (one table in pkg/server), the CLI to its
// message on stderr and a non-zero exit.
type Kind int

const (
	KindUnknown Kind = iota
	// KindInvalid: the input is wrong (a *ValidationError names the fields).
	KindInvalid
	KindNotFound
	KindForbidden
	KindConflict
	KindTooLarge
	// KindRateLimited: try again after Refusal.RetryAfter.
	KindRateLimited
	// KindUnauthenticated: the caller is not signed in, or their credentials
	// or token are not valid.
	KindUnauthenticated
)

// Refusal is an action refused for a reason its kind names.
type Refusal struct {
	Kind    Kind
	Message string
	// RetryAfter is the wait of a KindRateLimited refusal.
	RetryAfter time.Duration
}

func (e *Refusal) Error() string { return e.Message }

// Refuse builds a Refusal.
func Refuse(k Kind, message string) *Refusal { return &Refusal{Kind: k, Message: message} }

// TooMany is the refusal of a caller over a rate limit, who may try again
// after wait.
func TooMany(message string, wait time.Duration) *Refusal {
	return &Refusal{Kind: KindRateLimited, Message: message, RetryAfter: wait}
}

// TooLarge is the refusal of a body over its limit of limit bytes, what
// naming the body: "upload larger than the limit of 4 GiB (4294967296
// bytes)", the limit the way people read it and exactly. Every size limit
// of a body refuses with it, so a 413 reads alike whichever limit refused.
func TooLarge(what string, limit int64) *Refusal {
	exact := strconv.FormatInt(limit, 10) + " bytes"
	if limit >= 1024 {
		exact = text.Bytes(limit) + " (" + exact + ")"
	}
	return Refuse(KindTooLarge, what+" larger than the limit of "+exact)
}

// RetryAfterSeconds is a wait as the whole seconds a client is told to
// wait (Retry-After, "try again in N s"): rounded up, at least one.
func RetryAfterSeconds(d time.Duration) int {
	s := int((d + time.Second - 1) / time.Second)
	if s < 1 {
		s = 1
	}
	return s
}

// KindOf classifies err in the vocabulary: a Refusal by its kind, the
// store's sentinels and validation errors by theirs, anything else unknown.
func KindOf(err error) Kind {
	var r *Refusal
	var verr *ValidationError
	switch {
	case errors.As(err, &r):
		return r.Kind
	case errors.As(err, &verr):
		return KindInvalid
	case errors.Is(err, ErrNotFound):
		return KindNotFound
	case errors.Is(err, ErrConflict):
		return KindConflict
	}
	return KindUnknown
}
