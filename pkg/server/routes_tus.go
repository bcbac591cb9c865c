package server

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gofiber/fiber/v3"
	tusd "github.com/tus/tusd/v2/pkg/handler"
	"github.com/tus/tusd/v2/pkg/memorylocker"
	expslog "golang.org/x/exp/slog"

	"github.com/devhub/devhub/pkg/auth"
	"github.com/devhub/devhub/pkg/files"
	"github.com/devhub/devhub/pkg/files/resumable"
	"github.com/devhub/devhub/pkg/internal/freespace"
	"github.com/devhub/devhub/pkg/internal/text"
	"github.com/devhub/devhub/pkg/quota"
	"github.com/devhub/devhub/pkg/roms"
	"github.com/devhub/devhub/pkg/store"
)

// Resumable uploads: tus 1.0 at /api/files/tus/ through the tusd library.
//
// Why it looks like this:
//   - tusd is a net/http handler. Fiber's adaptor would read every PATCH
//     body into memory (fasthttpadaptor calls PostBody), so tusBridge hands
//     tusd the request body as the stream it is and collects tusd's (small)
//     answers.
//   - Unfinished uploads are the file cloud's (pkg/files/resumable: the
//     staging in <uploads_dir>/.tus, Services.TusDir, its expiry sweep and
//     what the uploads hold of their owners' quotas); this file is the bridge
//     to tusd. A finished upload's bytes reach the storage layer exactly
//     once, through files.Service.Save — so it becomes a file record exactly
//     like a multipart one (type sniffing, sha256, quota, groups) before the
//     final PATCH is answered, whose answer names it in Devhub-File-Id.
//   - tusd has no expiration extension: an upload whose last byte arrived
//     more than files.tus_expiry ago is refused with 410 and its bytes are
//     deleted, by the request that finds it and by the staging's sweep;
//     responses carry Upload-Expires.
//   - Only the creation and termination extensions are composed in: no
//     deferred length (the quota is checked against Upload-Length at
//     creation, and again before every PATCH) and no concatenation.
//   - An upload belongs to the user who created it (recorded in its
//     metadata by the server); anyone else gets 404 for it.
//   - An admin's ROM from the games page comes this way too, created with
//     the metadata target "rom" (and filename, optionally console and
//     name). It is checked at creation as POST /api/games/roms checks it
//     (roms.Service.CheckUpload: name, console, extension, a ROM of that
//     name already there), limited by emulator.max_rom_bytes instead of
//     files.max_upload_bytes and kept out of the admin's file quota; its
//     last byte imports it through roms.Service.Upload, the function the
//     POST route ends in, and the answer names the game in Devhub-Game-Id.
//     tusd's own MaxSize is the larger of the two limits; each target's own
//     is checked at creation against Upload-Length.

// tusBase is where the tus endpoint lives.
const tusBase = "/api/files/tus/"

// tusFileIDHeader names the file record a finished upload became;
// tusGameIDHeader the game a finished ROM upload became.
const (
	tusFileIDHeader = "Devhub-File-Id"
	tusGameIDHeader = "Devhub-Game-Id"
)

type tusUserKey struct{}

// tusArea is the tus endpoint's state.
type tusArea struct {
	handler  *tusd.UnroutedHandler
	staging  *resumable.Staging
	composer *tusd.StoreComposer
}

// mountTus binds the tus endpoint under /api/files/tus/ and starts its
// expiry sweep (stopped when the app shuts down).
func (s *Server) mountTus(app *fiber.App, api fiber.Router) error {
	staging, err := resumable.New(resumable.Options{Dir: s.svc.TusDir, Expiry: s.cfg.Files.TusExpiry,
		Reserve: s.svc.Reserve, Quota: s.svc.Quota, Log: s.log,
		Fail: func(err error) error { return tusError(s.asAPIError(err)) }})
	if err != nil {
		return err
	}
	t := &tusArea{staging: staging}
	t.composer = tusd.NewStoreComposer()
	t.composer.UseCore(t.staging)
	t.composer.UseTerminater(t.staging)
	t.composer.UseLocker(memorylocker.New())
	base := tusBase
	if pub := strings.TrimRight(s.cfg.Server.PublicURL, "/"); pub != "" {
		base = pub + tusBase
	}
	h, err := tusd.NewUnroutedHandler(tusd.Config{
		StoreComposer:           t.composer,
		BasePath:                base,
		MaxSize:                 s.tusMaxSize(),
		DisableDownload:         true,
		Cors:                    &tusd.CorsConfig{Disable: true},
		RespectForwardedHeaders: len(s.trusted) > 0,
		NetworkTimeout:          minRateWindow,
		// tusd logs every request at info; devhub's request log already does.
		Logger:                    expslog.New(expslog.NewTextHandler(io.Discard, nil)),
		PreUploadCreateCallback:   func(ev tusd.HookEvent) (tusd.HTTPResponse, tusd.FileInfoChanges, error) { return s.tusCreate(t, ev) },
		PreFinishResponseCallback: func(ev tusd.HookEvent) (tusd.HTTPResponse, error) { return s.tusFinish(t, ev) },
	})
	if err != nil {
		return err
	}
	t.handler = h
	s.allowStreamingPrefix(tusBase)

	serve := func(fn http.HandlerFunc) fiber.Handler { return s.tusBridge(t, h.Middleware(fn)) }
	g := api.Group("/files/tus")
	g.Options("/", serve(func(http.ResponseWriter, *http.Request) {}))
	g.Post("/", s.requireUser, s.limitTusUploadRate, s.holdUploadSlot, serve(h.PostFile))
	g.Head("/:id", s.requireUser, t.own, serve(h.HeadFile))
	g.Patch("/:id", s.requireUser, t.own, s.tusRoom(t), s.holdUploadSlot, serve(h.PatchFile))
	g.Delete("/:id", s.requireUser, t.own, serve(h.DelFile))

	// The first sweep runs before any request is served.
	t.staging.Sweep()
	stop := make(chan struct{})
	go t.staging.SweepEvery(stop)
	var once sync.Once
	app.Hooks().OnPostShutdown(func(error) error { once.Do(func() { close(stop) }); return nil })
	return nil
}

// tusMaxSize is tusd's own limit: the larger of a file's and (when the
// games library is on) a ROM's; tusCreate holds each upload to its own.
func (s *Server) tusMaxSize() int64 {
	return max(s.svc.Files.MaxBytes(), s.cfg.Emulator.MaxROMBytes)
}

// limitTusUploadRate is limitUploadRate (files.uploads_per_minute) for a
// new upload, except an admin's ROM: as on POST /api/games/roms, a dropped
// folder is one upload per ROM. tusCreate checks the rest.
func (s *Server) limitTusUploadRate(c fiber.Ctx) error {
	meta := tusd.ParseMetadataHeader(c.Get("Upload-Metadata"))
	if meta[resumable.MetaTarget] == resumable.TargetROM && currentUser(c).IsAdmin() {
		return c.Next()
	}
	return s.limitUploadRate(c)
}

// own admits a request for an upload only from the user who created it,
// and ends an expired upload with 410.
func (t *tusArea) own(c fiber.Ctx) error {
	id := c.Params("id")
	notFound := NewError(fiber.StatusNotFound, "no such upload (it may have finished, been cancelled or expired)")
	if !resumable.ValidID(id) {
		return notFound
	}
	info, modified, err := t.staging.Info(c.Context(), id)
	if err != nil {
		return notFound
	}
	if info.MetaData[resumable.MetaUser] != strconv.FormatUint(currentUser(c).ID, 10) {
		return notFound
	}
	if t.staging.Expired(modified) {
		t.staging.Remove(id)
		return NewError(fiber.StatusGone, "this upload expired; start it again")
	}
	c.Locals(tusInfoKey, info)
	return c.Next()
}

const tusInfoKey = "devhub.tusInfo"

// tusCreate checks a new upload against the size limit and the quota (by
// its Upload-Length, with the user's other unfinished uploads) and records
// its owner and file name; a ROM goes to tusCreateROM.
func (s *Server) tusCreate(t *tusArea, ev tusd.HookEvent) (tusd.HTTPResponse, tusd.FileInfoChanges, error) {
	id, _ := ev.Context.Value(tusUserKey{}).(*auth.Principal)
	if id == nil {
		return tusd.HTTPResponse{}, tusd.FileInfoChanges{}, tusError(NewError(fiber.StatusUnauthorized, "sign in to upload"))
	}
	switch ev.Upload.MetaData[resumable.MetaTarget] {
	case "":
	case resumable.TargetROM:
		return s.tusCreateROM(t, ev, id)
	default:
		return tusd.HTTPResponse{}, tusd.FileInfoChanges{}, tusError(NewError(fiber.StatusBadRequest, "unknown upload target; leave it out for a file, or rom"))
	}
	visibility, given := ev.Upload.MetaData[resumable.MetaVisibility]
	if !given {
		visibility = files.Public
	}
	if err := files.CheckVisibility(visibility); err != nil {
		return tusd.HTTPResponse{}, tusd.FileInfoChanges{}, tusError(s.asAPIError(err))
	}
	if ev.Upload.Size > s.svc.Files.MaxBytes() {
		return tusd.HTTPResponse{}, tusd.FileInfoChanges{}, tusError(refusalError(store.TooLarge("upload", s.svc.Files.MaxBytes())))
	}
	if err := s.tusQuotaCheck(ev.Context, t, id.ID, "", ev.Upload.Size); err != nil {
		return tusd.HTTPResponse{}, tusd.FileInfoChanges{}, tusError(err)
	}
	// Room for the staged bytes and, when the upload finishes, the file.
	if err := s.svc.Files.CheckSpace(ev.Upload.Size, t.staging.Dir()); err != nil {
		return tusd.HTTPResponse{}, tusd.FileInfoChanges{}, tusError(s.asAPIError(err))
	}
	meta := tusd.MetaData{
		resumable.MetaUser:       strconv.FormatUint(id.ID, 10),
		resumable.MetaFilename:   files.SanitizeName(ev.Upload.MetaData[resumable.MetaFilename]),
		resumable.MetaVisibility: visibility,
	}
	return tusd.HTTPResponse{}, tusd.FileInfoChanges{MetaData: meta}, nil
}

// tusCreateROM admits an admin's ROM: checked now as POST
// /api/games/roms checks it, so nothing is sent for a ROM that would be
// refused, and held to emulator.max_rom_bytes. The file quota does not
// count it.
func (s *Server) tusCreateROM(t *tusArea, ev tusd.HookEvent, id *auth.Principal) (tusd.HTTPResponse, tusd.FileInfoChanges, error) {
	refuse := func(e *APIError) (tusd.HTTPResponse, tusd.FileInfoChanges, error) {
		return tusd.HTTPResponse{}, tusd.FileInfoChanges{}, tusError(e)
	}
	if !id.IsAdmin() {
		return refuse(NewError(fiber.StatusForbidden, "administrator rights required"))
	}
	if limit := s.cfg.Emulator.MaxROMBytes; ev.Upload.Size > limit {
		return refuse(refusalError(store.TooLarge("ROM", limit)))
	}
	meta := ev.Upload.MetaData
	replace, bad := replaceFlag(meta[resumable.MetaReplace])
	if bad != nil {
		return refuse(bad)
	}
	console, err := s.svc.Roms.CheckUpload(meta[resumable.MetaFilename], meta[resumable.MetaConsole], replace)
	if err != nil {
		return refuse(s.asAPIError(err))
	}
	// Room for the staged bytes and, when the upload finishes, the ROM.
	if err := s.svc.Roms.CheckSpace(ev.Upload.Size, t.staging.Dir()); err != nil {
		return refuse(s.asAPIError(err))
	}
	kept := tusd.MetaData{
		resumable.MetaUser:     strconv.FormatUint(id.ID, 10),
		resumable.MetaTarget:   resumable.TargetROM,
		resumable.MetaFilename: meta[resumable.MetaFilename],
		resumable.MetaConsole:  console,
		resumable.MetaName:     meta[resumable.MetaName],
	}
	if replace {
		kept[resumable.MetaReplace] = "true"
	}
	return tusd.HTTPResponse{}, tusd.FileInfoChanges{MetaData: kept}, nil
}

// tusRoom refuses a PATCH once the user's quota no longer has room for the
// whole upload (other uploads may have filled it since the creation). A ROM
// is not counted in the quota.
func (s *Server) tusRoom(t *tusArea) fiber.Handler {
	return func(c fiber.Ctx) error {
		info, _ := c.Locals(tusInfoKey).(tusd.FileInfo)
		if !t.staging.Counted(info) {
			return c.Next()
		}
		if err := s.tusQuotaCheck(c.Context(), t, currentUser(c).ID, info.ID, info.Size); err != nil {
			t.staging.Remove(info.ID)
			return err
		}
		return c.Next()
	}
}

// tusQuotaCheck answers an upload of size bytes (except: its id, when it
// exists) the staging's quota check refuses (resumable.CheckQuota):
// data.quota.held says what the user's unfinished uploads hold, so the
// refusal can be explained (used stays what the user stores).
func (s *Server) tusQuotaCheck(ctx context.Context, t *tusArea, userID uint64, except string, size int64) *APIError {
	held, err := t.staging.CheckQuota(ctx, userID, except, size)
	var qerr *quota.ExceededError
	if errors.As(err, &qerr) && (held.Bytes > 0 || held.Files > 0) {
		msg := "storage quota exceeded (" + quotaFigures(qerr.Used, qerr.Limit) + ", and " + text.Bytes(held.Bytes) +
			" held by unfinished uploads: finish or cancel them); nothing was kept"
		e := NewError(fiber.StatusRequestEntityTooLarge, msg)
		e.Data["quota"] = store.FieldError{Code: "quota_exceeded", Message: msg, Used: qerr.Used, Limit: qerr.Limit, Held: held}
		return e
	}
	if err != nil {
		return s.asAPIError(err)
	}
	return nil
}

// tusFinish turns a finished upload into a file record through the same
// path as every upload, then deletes the staged bytes whatever happened:
// a refused import keeps nothing.
func (s *Server) tusFinish(t *tusArea, ev tusd.HookEvent) (tusd.HTTPResponse, error) {
	defer t.staging.Remove(ev.Upload.ID)
	owner, err := strconv.ParseUint(ev.Upload.MetaData[resumable.MetaUser], 10, 64)
	id, _ := ev.Context.Value(tusUserKey{}).(*auth.Principal)
	if err != nil || id == nil || id.ID != owner {
		return tusd.HTTPResponse{}, tusError(NewError(fiber.StatusNotFound, "no such upload"))
	}
	if ev.Upload.MetaData[resumable.MetaTarget] == resumable.TargetROM {
		return s.tusFinishROM(t, ev, id)
	}
	f, err := os.Open(t.staging.Path(ev.Upload.ID))
	if err != nil {
		return tusd.HTTPResponse{}, tusError(s.asAPIError(err))
	}
	defer f.Close()
	// An upload staged before visibility was recorded has none: public.
	visibility := cmp.Or(ev.Upload.MetaData[resumable.MetaVisibility], files.Public)
	saved, err := s.svc.Files.Save(context.WithoutCancel(ev.Context), ev.Upload.MetaData[resumable.MetaFilename], f,
		files.Uploader{ID: id.ID, Name: id.Email}, files.WithVisibility(visibility))
	if err != nil {
		return tusd.HTTPResponse{}, tusError(s.asAPIError(err))
	}
	if s.metrics != nil {
		s.metrics.uploaded.Add(float64(saved.Size))
	}
	s.log.Info("file uploaded", slog.Uint64("id", saved.ID), slog.String("name", saved.OriginalName),
		slog.Int64("size", saved.Size), slog.String("by", id.Email), slog.String("via", "tus"))
	return tusd.HTTPResponse{Header: tusd.HTTPHeader{tusFileIDHeader: strconv.FormatUint(saved.ID, 10)}}, nil
}

// tusFinishROM imports a finished ROM upload through roms.Service.Upload
// (the end of POST /api/games/roms), which checks the name, console and
// folder again; tusFinish deletes the staged bytes afterwards either way.
func (s *Server) tusFinishROM(t *tusArea, ev tusd.HookEvent, id *auth.Principal) (tusd.HTTPResponse, error) {
	if !id.IsAdmin() {
		return tusd.HTTPResponse{}, tusError(NewError(fiber.StatusForbidden, "administrator rights required"))
	}
	meta := ev.Upload.MetaData
	g, err := s.svc.Roms.Upload(context.WithoutCancel(ev.Context), roms.UploadInput{
		FileName: meta[resumable.MetaFilename], Console: meta[resumable.MetaConsole], Name: meta[resumable.MetaName],
		Staged: t.staging.Path(ev.Upload.ID), MaxBytes: s.cfg.Emulator.MaxROMBytes, Replace: meta[resumable.MetaReplace] == "true",
	})
	if err != nil {
		return tusd.HTTPResponse{}, tusError(s.asAPIError(err))
	}
	s.log.Info("ROM uploaded", slog.Uint64("id", g.ID), slog.String("console", g.Console), slog.String("path", g.Path),
		slog.Int64("size", ev.Upload.Size), slog.String("by", id.Email), slog.String("via", "tus"))
	return tusd.HTTPResponse{Header: tusd.HTTPHeader{tusGameIDHeader: strconv.FormatUint(g.ID, 10)}}, nil
}

// asAPIError maps what a tus hook met to the API's error answer, the way
// the upload route does.
func (s *Server) asAPIError(err error) *APIError {
	var qerr *quota.ExceededError
	var verr *store.ValidationError
	var exists *roms.ExistsError
	var refusal *store.Refusal
	switch {
	case errors.As(err, &qerr):
		return quotaError(qerr)
	case errors.As(err, &verr):
		return validationError(verr)
	case errors.As(err, &exists):
		return romExists(exists)
	case errors.Is(err, store.ErrConflict):
		return NewError(fiber.StatusConflict, err.Error())
	case errors.Is(err, roms.ErrTooLarge):
		return refusalError(store.TooLarge("ROM", s.cfg.Emulator.MaxROMBytes))
	case errors.Is(err, files.ErrTooLarge):
		return refusalError(store.TooLarge("upload", s.svc.Files.MaxBytes()))
	case errors.Is(err, freespace.ErrNoSpace):
		return s.noSpace(s.log, err)
	case errors.As(err, &refusal):
		return refusalError(refusal)
	}
	s.log.Error("resumable upload failed", slog.Any("err", err))
	return NewError(fiber.StatusInternalServerError, "internal server error")
}

// tusError hands tusd an answer in the API's one error shape.
func tusError(e *APIError) error {
	body, _ := json.Marshal(e)
	return tusd.Error{ErrorCode: "devhub", Message: e.Message, HTTPResponse: tusd.HTTPResponse{
		StatusCode: e.Status, Body: string(body), Header: tusd.HTTPHeader{"Content-Type": "application/json"},
	}}
}

// tusBridge runs a tusd handler for a Fiber request: the body is passed on
// as a stream and tusd's answer copied back. tusd's own plain-text errors
// are rewritten into the API's JSON error shape.
func (s *Server) tusBridge(t *tusArea, h http.Handler) fiber.Handler {
	return func(c fiber.Ctx) error {
		req := c.Request()
		body := requestBody(c)
		if left, ok := tusBytesLeft(c); ok && req.Header.ContentLength() < 0 {
			body = &exactBody{r: body, left: left}
		}
		ctx := c.Context()
		if id := currentUser(c); id != nil {
			ctx = context.WithValue(ctx, tusUserKey{}, id)
		}
		// tusd takes the upload id from the whole path (it expects to be
		// mounted behind http.StripPrefix).
		path := "/" + c.Params("id")
		r, err := http.NewRequestWithContext(ctx, c.Method(), path, io.NopCloser(body))
		if err != nil {
			return err
		}
		for k, v := range req.Header.All() {
			r.Header.Add(string(k), string(v))
		}
		r.Host = string(req.Host())
		r.RequestURI = path
		r.ContentLength = int64(req.Header.ContentLength())
		conn := c.RequestCtx().Conn()
		if conn != nil {
			r.RemoteAddr = conn.RemoteAddr().String()
		}
		w := &tusResponse{header: http.Header{}, conn: conn}
		h.ServeHTTP(w, r)
		if conn != nil {
			// tusd moved the read deadline while reading; the server sets its
			// own again before the next request on this connection.
			conn.SetReadDeadline(time.Time{})
			conn.SetWriteDeadline(time.Time{})
		}
		status := cmpStatus(w.status)
		if ext := w.header.Get("Tus-Extension"); ext != "" {
			w.header.Set("Tus-Extension", ext+",expiration")
		}
		if status < 300 && c.Method() != fiber.MethodOptions && c.Method() != fiber.MethodDelete {
			w.header.Set("Upload-Expires", t.staging.Expires(time.Now()).UTC().Format(http.TimeFormat))
			if c.Method() == fiber.MethodHead {
				if _, modified, err := t.staging.Info(c.Context(), c.Params("id")); err == nil {
					w.header.Set("Upload-Expires", t.staging.Expires(modified).UTC().Format(http.TimeFormat))
				}
			}
		}
		if status >= 400 && c.Method() != fiber.MethodHead && !strings.HasPrefix(w.header.Get("Content-Type"), "application/json") {
			// tusd's "ERR_CODE: message" becomes the API's error shape.
			msg := strings.TrimSpace(w.body.String())
			code, rest, ok := strings.Cut(msg, ": ")
			if ok && strings.HasPrefix(msg, "ERR_") {
				msg = rest
			}
			e := NewError(status, msg)
			if code == "ERR_MAX_SIZE_EXCEEDED" {
				// Over tusd's limit (the larger of the two): the target's own message.
				e = refusalError(store.TooLarge("upload", s.svc.Files.MaxBytes()))
				if tusd.ParseMetadataHeader(c.Get("Upload-Metadata"))[resumable.MetaTarget] == resumable.TargetROM {
					e = refusalError(store.TooLarge("ROM", s.cfg.Emulator.MaxROMBytes))
				}
			}
			w.body.Reset()
			json.NewEncoder(&w.body).Encode(e)
			w.header.Set("Content-Type", "application/json")
		}
		for k, vs := range w.header {
			if strings.EqualFold(k, "Content-Length") {
				continue
			}
			for _, v := range vs {
				c.Response().Header.Add(k, v)
			}
		}
		c.Status(status)
		if c.Method() == fiber.MethodHead {
			return nil
		}
		return c.Send(w.body.Bytes())
	}
}

func cmpStatus(code int) int {
	if code == 0 {
		return http.StatusOK
	}
	return code
}

// tusResponse collects tusd's answer (headers and a short body) and lets it
// move the connection's deadlines through http.ResponseController.
type tusResponse struct {
	header http.Header
	status int
	body   bytes.Buffer
	conn   net.Conn
}

func (w *tusResponse) Header() http.Header { return w.header }

func (w *tusResponse) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}

func (w *tusResponse) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(p)
}

func (w *tusResponse) SetReadDeadline(t time.Time) error {
	if w.conn == nil {
		return http.ErrNotSupported
	}
	return w.conn.SetReadDeadline(t)
}

func (w *tusResponse) SetWriteDeadline(t time.Time) error {
	if w.conn == nil {
		return http.ErrNotSupported
	}
	return w.conn.SetWriteDeadline(t)
}

// tusBytesLeft is how many bytes a PATCH (or a creation with its first
// piece) may still bring: the rest of the announced length.
func tusBytesLeft(c fiber.Ctx) (int64, bool) {
	switch c.Method() {
	case fiber.MethodPatch:
		info, ok := c.Locals(tusInfoKey).(tusd.FileInfo)
		return info.Size - info.Offset, ok
	case fiber.MethodPost:
		n, err := strconv.ParseInt(c.Get("Upload-Length"), 10, 64)
		return n, err == nil && n >= 0
	}
	return 0, false
}

// exactBody holds a chunked body (no Content-Length, so tusd cannot refuse
// it up front) to the bytes its upload has left: the last of them is handed
// on only once the body has ended. tusd writes what it is given and
// finishes an upload that reached its length even when the body went on, so
// a body longer than announced used to become a file — and then be answered
// 413. Held back, the upload stays one byte short, the answer is 413 and a
// resumed PATCH with the right bytes finishes it.
type exactBody struct {
	r    io.Reader
	left int64
	done bool
}

func (b *exactBody) Read(p []byte) (int, error) {
	if b.done || b.left <= 0 {
		return b.end()
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.r.Read(p)
	b.left -= int64(n)
	if b.left > 0 || n == 0 {
		return n, err
	}
	// The last byte is in p[n-1]: hand it on only if the body ends here.
	if err == nil {
		var one [1]byte
		var m int
		for m == 0 && err == nil {
			m, err = b.r.Read(one[:])
		}
		if m > 0 {
			b.done = true
			return n - 1, tusd.ErrSizeExceeded
		}
	}
	if errors.Is(err, io.EOF) {
		err = nil
	}
	b.done = true
	if err != nil {
		return n - 1, err // the body broke off: the last byte is not known to be the last
	}
	return n, io.EOF
}

func (b *exactBody) end() (int, error) {
	if b.left > 0 {
		return 0, io.ErrUnexpectedEOF
	}
	return 0, io.EOF
}
