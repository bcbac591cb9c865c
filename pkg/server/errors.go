package server

import (
	"errors"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/gofiber/fiber/v3"

	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/internal/freespace"
	"github.com/devhub/devhub/pkg/internal/text"
	"github.com/devhub/devhub/pkg/quota"
	"github.com/devhub/devhub/pkg/roms"
	"github.com/devhub/devhub/pkg/store"
)

// APIError is the one error shape every API answer uses:
// {"status":N,"message":"...","data":{field:{code,message}}}.
type APIError struct {
	Status  int                         `json:"status"`
	Message string                      `json:"message"`
	Data    map[string]store.FieldError `json:"data"`
}

func (e *APIError) Error() string { return e.Message }

// NewError builds an APIError with no field data.
func NewError(status int, message string) *APIError {
	return &APIError{Status: status, Message: message, Data: map[string]store.FieldError{}}
}

// errorHandler turns any error a handler returns into the JSON error shape.
// Domain sentinel errors map to their status; anything unknown is logged and
// answered as a 500 without leaking its text.
func (s *Server) errorHandler(c fiber.Ctx, err error) error {
	apiErr := s.toAPIError(c, err)
	c.Status(apiErr.Status)
	return c.JSON(apiErr)
}

// kindStatus is the HTTP status of each kind of refusal.
var kindStatus = map[store.Kind]int{
	store.KindUnknown:         http.StatusInternalServerError,
	store.KindInvalid:         http.StatusBadRequest,
	store.KindNotFound:        http.StatusNotFound,
	store.KindForbidden:       http.StatusForbidden,
	store.KindConflict:        http.StatusConflict,
	store.KindTooLarge:        http.StatusRequestEntityTooLarge,
	store.KindRateLimited:     http.StatusTooManyRequests,
	store.KindUnauthenticated: http.StatusUnauthorized,
}

func (s *Server) toAPIError(c fiber.Ctx, err error) *APIError {
	var apiErr *APIError
	var verr *store.ValidationError
	var ferr *fiber.Error
	var qerr *quota.ExceededError
	var refusal *store.Refusal
	var exists *roms.ExistsError
	switch {
	case errors.Is(err, auth.ErrEmailUnverified):
		// The sign-in page tells this refusal by its field code and offers
		// to send the link again.
		return &APIError{Status: http.StatusForbidden, Message: err.Error(),
			Data: map[string]store.FieldError{"email": {Code: "unverified", Message: err.Error()}}}
	case errors.As(err, &qerr):
		return quotaError(qerr)
	case errors.As(err, &exists):
		return romExists(exists)
	case errors.As(err, &refusal):
		if refusal.Kind == store.KindRateLimited {
			c.Set(fiber.HeaderRetryAfter, strconv.Itoa(store.RetryAfterSeconds(refusal.RetryAfter)))
		}
		return refusalError(refusal)
	case errors.As(err, &apiErr):
		if apiErr.Data == nil {
			apiErr.Data = map[string]store.FieldError{}
		}
		return apiErr
	case errors.As(err, &verr):
		return validationError(verr)
	case errors.Is(err, store.ErrNotFound):
		return NewError(http.StatusNotFound, "not found")
	case errors.Is(err, store.ErrConflict):
		return NewError(http.StatusConflict, err.Error())
	case errors.Is(err, freespace.ErrNoSpace):
		return s.noSpace(s.logFor(c), err)
	case errors.As(err, &ferr) && ferr.Code == http.StatusRequestEntityTooLarge:
		// fasthttp's own refusal of a body over server.body_limit.
		return refusalError(store.TooLarge("request body", int64(s.cfg.Server.BodyLimit)))
	case errors.As(err, &ferr):
		return NewError(ferr.Code, ferr.Message)
	default:
		s.logFor(c).Error("request failed", slog.String("method", c.Method()), slog.String("path", c.Path()), slog.Any("err", err))
		return NewError(http.StatusInternalServerError, "internal server error")
	}
}

// refusalError is a refusal's answer: the status of its kind, its message.
func refusalError(r *store.Refusal) *APIError { return NewError(kindStatus[r.Kind], r.Message) }

// noSpace is the one answer to a write the server's disks have no room for
// (a full disk, a filesystem quota, or the free-space reserve,
// storage.min_free_bytes): 507, nothing of the write kept. The cause, which
// names directories, goes to the log only.
func (s *Server) noSpace(log *slog.Logger, err error) *APIError {
	log.Error("write refused: storage full", slog.Any("err", err))
	return NewError(http.StatusInsufficientStorage, "not enough storage space on the server for this upload; nothing was kept")
}

// validationError is the 400 of a refused input, its fields in data.
func validationError(verr *store.ValidationError) *APIError {
	e := NewError(http.StatusBadRequest, verr.Message)
	if verr.Fields != nil {
		e.Data = verr.Fields
	}
	return e
}

// quotaError is the 413 of a write over the user's quota: data.quota says
// what they store and what they may, so a client can show both.
func quotaError(e *quota.ExceededError) *APIError {
	msg := "storage quota exceeded (" + quotaFigures(e.Used, e.Limit) + "); nothing was kept"
	apiErr := NewError(http.StatusRequestEntityTooLarge, msg)
	apiErr.Data["quota"] = store.FieldError{Code: "quota_exceeded", Message: msg, Used: e.Used, Limit: e.Limit}
	return apiErr
}

func quotaFigures(used quota.Amount, limit quota.Limit) string {
	out := text.Bytes(used.Bytes) + " used"
	if limit.Bytes != nil {
		out += " of " + text.Bytes(*limit.Bytes)
	}
	out += ", " + strconv.FormatInt(used.Files, 10) + " files"
	if limit.Files != nil {
		out += " of " + strconv.FormatInt(*limit.Files, 10)
	}
	return out
}
