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
	"path/filepath"
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
//   - Unfinished uploads are staged on local disk (tusStaging, laid out as
//     tusd's filestore), in <uploads_dir>/.tus (Services.TusDir): on the
//     uploads' disk, never beside the store, which a full disk would leave
//     without room for sign-ins. An S3 object cannot be appended to; staging keeps the
//     protocol simple and the bytes reach the storage layer exactly once, at
//     the end, through files.Service.Save — so a finished upload becomes a
//     file record exactly like a multipart one (type sniffing, sha256,
//     quota, groups) before the final PATCH is answered, whose answer names
//     it in Devhub-File-Id.
//   - tusd has no expiration extension: an upload whose last byte arrived
//     more than files.tus_expiry ago is refused with 410 and its bytes are
//     deleted, by the request that finds it and by a sweep every few
//     minutes; responses carry Upload-Expires.
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

// Metadata keys the server sets on every upload (client values replaced):
// the owner and the file name, and for a ROM the target and console (the
// one resolved at creation) and the display name.
const (
	tusMetaUser     = "devhub-user"
	tusMetaFilename = "filename"
	tusMetaTarget   = "target"
	tusMetaConsole  = "console"
	tusMetaName     = "name"
	// tusMetaVisibility is the file's visibility, public or private, as the
	// client asked at creation (checked then; absent: public).
	tusMetaVisibility = "visibility"
	// tusMetaReplace is "true" on a ROM upload that replaces the ROM of its
	// file name (checked at creation, as replaceFlag reads it).
	tusMetaReplace = "replace"
)

// tusTargetROM is the target of an admin's ROM upload (no target: a file
// of the file cloud).
const tusTargetROM = "rom"

type tusUserKey struct{}

// tusArea is the tus endpoint's state.
type tusArea struct {
	handler  *tusd.UnroutedHandler
	store    *tusStaging
	composer *tusd.StoreComposer
	dir      string
	expiry   time.Duration
	log      *slog.Logger
}

// mountTus binds the tus endpoint under /api/files/tus/ and starts its
// expiry sweep (stopped when the app shuts down).
func (s *Server) mountTus(app *fiber.App, api fiber.Router) error {
	dir := s.svc.TusDir
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := os.Chmod(dir, 0o700); err != nil { // made 0750 by earlier versions
		return err
	}
	staging := &tusStaging{dir: dir, reserve: s.svc.Reserve, log: s.log,
		fail: func(err error) error { return tusError(s.asAPIError(err)) }}
	t := &tusArea{store: staging, dir: dir, expiry: s.cfg.Files.TusExpiry, log: s.log}
	if t.expiry <= 0 {
		t.expiry = 24 * time.Hour
	}
	t.composer = tusd.NewStoreComposer()
	t.composer.UseCore(t.store)
	t.composer.UseTerminater(t.store)
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
	if n := t.sweep(); n > 0 {
		t.log.Info("deleted expired unfinished uploads", slog.Int("uploads", n))
	}
	stop := make(chan struct{})
	go t.sweepEvery(stop, min(t.expiry/4, 10*time.Minute))
	var once sync.Once
	app.Hooks().OnPostShutdown(func(error) error { once.Do(func() { close(stop) }); return nil })
	return nil
}

// tusMaxSize is tusd's own limit: the larger of a file's and (when the
// games library is on) a ROM's; tusCreate holds each upload to its own.
func (s *Server) tusMaxSize() int64 {
	limit := s.svc.Files.MaxBytes()
	if s.svc.Roms != nil {
		limit = max(limit, s.cfg.Emulator.MaxROMBytes)
	}
	return limit
}

// limitTusUploadRate is limitUploadRate (files.uploads_per_minute) for a
// new upload, except an admin's ROM: as on POST /api/games/roms, a dropped
// folder is one upload per ROM. tusCreate checks the rest.
func (s *Server) limitTusUploadRate(c fiber.Ctx) error {
	meta := tusd.ParseMetadataHeader(c.Get("Upload-Metadata"))
	if meta[tusMetaTarget] == tusTargetROM && currentUser(c).IsAdmin() {
		return c.Next()
	}
	return s.limitUploadRate(c)
}

// validTusID is the shape of the ids tusd's filestore makes (32 hex
// digits); anything else never reaches the store, so no path can be made
// from a request.
func validTusID(id string) bool {
	if len(id) != 32 {
		return false
	}
	for _, c := range id {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// own admits a request for an upload only from the user who created it,
// and ends an expired upload with 410.
func (t *tusArea) own(c fiber.Ctx) error {
	id := c.Params("id")
	notFound := NewError(fiber.StatusNotFound, "no such upload (it may have finished, been cancelled or expired)")
	if !validTusID(id) {
		return notFound
	}
	info, modified, err := t.info(c.Context(), id)
	if err != nil {
		return notFound
	}
	if info.MetaData[tusMetaUser] != strconv.FormatUint(currentUser(c).ID, 10) {
		return notFound
	}
	if time.Since(modified) > t.expiry {
		t.remove(id)
		return NewError(fiber.StatusGone, "this upload expired; start it again")
	}
	c.Locals(tusInfoKey, info)
	return c.Next()
}

const tusInfoKey = "devhub.tusInfo"

// info reads an upload's record and when its bytes last changed.
func (t *tusArea) info(ctx context.Context, id string) (tusd.FileInfo, time.Time, error) {
	up, err := t.store.GetUpload(ctx, id)
	if err != nil {
		return tusd.FileInfo{}, time.Time{}, err
	}
	info, err := up.GetInfo(ctx)
	if err != nil {
		return tusd.FileInfo{}, time.Time{}, err
	}
	fi, err := os.Stat(filepath.Join(t.dir, id))
	if err != nil {
		return tusd.FileInfo{}, time.Time{}, err
	}
	return info, fi.ModTime(), nil
}

// remove deletes an upload's bytes and record.
func (t *tusArea) remove(id string) {
	for _, p := range []string{filepath.Join(t.dir, id), filepath.Join(t.dir, id+".info")} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			t.log.Warn("could not remove an unfinished upload", slog.String("path", p), slog.Any("err", err))
		}
	}
}

// sweep deletes unfinished uploads that expired, and stray files; it
// returns how many uploads went.
func (t *tusArea) sweep() int {
	entries, err := os.ReadDir(t.dir)
	if err != nil {
		t.log.Warn("tus sweep", slog.Any("err", err))
		return 0
	}
	n := 0
	for _, e := range entries {
		id := strings.TrimSuffix(e.Name(), ".info")
		fi, err := os.Stat(filepath.Join(t.dir, id))
		switch {
		case !validTusID(id):
			continue
		case err == nil && time.Since(fi.ModTime()) <= t.expiry:
			continue
		case errors.Is(err, os.ErrNotExist) && e.Name() == id+".info":
			// A record whose bytes are gone is only worth keeping while it is
			// young (tusd writes the record first).
			if info, ierr := e.Info(); ierr == nil && time.Since(info.ModTime()) <= t.expiry {
				continue
			}
		}
		if e.Name() == id { // count each upload once
			n++
		}
		t.remove(id)
	}
	return n
}

func (t *tusArea) sweepEvery(stop <-chan struct{}, every time.Duration) {
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
			if n := t.sweep(); n > 0 {
				t.log.Info("deleted expired unfinished uploads", slog.Int("uploads", n))
			}
		}
	}
}

// tusCreate checks a new upload against the size limit and the quota (by
// its Upload-Length, with the user's other unfinished uploads) and records
// its owner and file name; a ROM goes to tusCreateROM.
func (s *Server) tusCreate(t *tusArea, ev tusd.HookEvent) (tusd.HTTPResponse, tusd.FileInfoChanges, error) {
	id, _ := ev.Context.Value(tusUserKey{}).(*auth.Principal)
	if id == nil {
		return tusd.HTTPResponse{}, tusd.FileInfoChanges{}, tusError(NewError(fiber.StatusUnauthorized, "sign in to upload"))
	}
	switch ev.Upload.MetaData[tusMetaTarget] {
	case "":
	case tusTargetROM:
		return s.tusCreateROM(t, ev, id)
	default:
		return tusd.HTTPResponse{}, tusd.FileInfoChanges{}, tusError(NewError(fiber.StatusBadRequest, "unknown upload target; leave it out for a file, or rom"))
	}
	visibility, given := ev.Upload.MetaData[tusMetaVisibility]
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
	if err := s.svc.Files.CheckSpace(ev.Upload.Size, t.dir); err != nil {
		return tusd.HTTPResponse{}, tusd.FileInfoChanges{}, tusError(s.asAPIError(err))
	}
	meta := tusd.MetaData{
		tusMetaUser:       strconv.FormatUint(id.ID, 10),
		tusMetaFilename:   files.SanitizeName(ev.Upload.MetaData[tusMetaFilename]),
		tusMetaVisibility: visibility,
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
	if s.svc.Roms == nil {
		return refuse(NewError(fiber.StatusNotFound, "the games library is not enabled"))
	}
	if limit := s.cfg.Emulator.MaxROMBytes; ev.Upload.Size > limit {
		return refuse(refusalError(store.TooLarge("ROM", limit)))
	}
	meta := ev.Upload.MetaData
	replace, bad := replaceFlag(meta[tusMetaReplace])
	if bad != nil {
		return refuse(bad)
	}
	console, err := s.svc.Roms.CheckUpload(meta[tusMetaFilename], meta[tusMetaConsole], replace)
	if err != nil {
		return refuse(s.asAPIError(err))
	}
	// Room for the staged bytes and, when the upload finishes, the ROM.
	if err := s.svc.Roms.CheckSpace(ev.Upload.Size, t.dir); err != nil {
		return refuse(s.asAPIError(err))
	}
	kept := tusd.MetaData{
		tusMetaUser:     strconv.FormatUint(id.ID, 10),
		tusMetaTarget:   tusTargetROM,
		tusMetaFilename: meta[tusMetaFilename],
		tusMetaConsole:  console,
		tusMetaName:     meta[tusMetaName],
	}
	if replace {
		kept[tusMetaReplace] = "true"
	}
	return tusd.HTTPResponse{}, tusd.FileInfoChanges{MetaData: kept}, nil
}

// tusRoom refuses a PATCH once the user's quota no longer has room for the
// whole upload (other uploads may have filled it since the creation). A ROM
// is not counted in the quota.
func (s *Server) tusRoom(t *tusArea) fiber.Handler {
	return func(c fiber.Ctx) error {
		info, _ := c.Locals(tusInfoKey).(tusd.FileInfo)
		if s.svc.Quota == nil || info.MetaData[tusMetaTarget] == tusTargetROM {
			return c.Next()
		}
		if err := s.tusQuotaCheck(c.Context(), t, currentUser(c).ID, info.ID, info.Size); err != nil {
			t.remove(info.ID)
			return err
		}
		return c.Next()
	}
}

// tusQuotaCheck refuses an upload of size bytes (except: its id, when it
// exists) when the user's quota has no room for it beside what the user's
// other unfinished uploads may still bring. Staged bytes are not stored
// files, but they fill the server's disk all the same: without counting
// them, one account could stage any number of uploads each just under its
// quota and keep them for files.tus_expiry. data.quota.held says what they
// hold, so the refusal can be explained (used stays what the user stores).
func (s *Server) tusQuotaCheck(ctx context.Context, t *tusArea, userID uint64, except string, size int64) *APIError {
	if s.svc.Quota == nil {
		return nil
	}
	if l, err := s.svc.Quota.Limit(userID); err == nil && l.Bytes == nil && l.Files == nil {
		return nil // unlimited: no need to read the staged uploads' records
	}
	held := t.held(ctx, userID, except)
	err := s.svc.Quota.Check(userID, quota.Amount{Bytes: size, Files: 1}.Add(held))
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

// held is what a user's unfinished uploads of files (not ROMs, not expired,
// not except) may still bring: their announced lengths, one file each.
func (t *tusArea) held(ctx context.Context, userID uint64, except string) quota.Amount {
	var a quota.Amount
	entries, err := os.ReadDir(t.dir)
	if err != nil {
		return a
	}
	owner := strconv.FormatUint(userID, 10)
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".info")
		if !ok || id == except || !validTusID(id) {
			continue
		}
		info, modified, err := t.info(ctx, id)
		if err != nil || info.MetaData[tusMetaUser] != owner || info.MetaData[tusMetaTarget] == tusTargetROM ||
			time.Since(modified) > t.expiry {
			continue
		}
		a = a.Add(quota.Amount{Bytes: info.Size, Files: 1})
	}
	return a
}

// tusFinish turns a finished upload into a file record through the same
// path as every upload, then deletes the staged bytes whatever happened:
// a refused import keeps nothing.
func (s *Server) tusFinish(t *tusArea, ev tusd.HookEvent) (tusd.HTTPResponse, error) {
	defer t.remove(ev.Upload.ID)
	owner, err := strconv.ParseUint(ev.Upload.MetaData[tusMetaUser], 10, 64)
	id, _ := ev.Context.Value(tusUserKey{}).(*auth.Principal)
	if err != nil || id == nil || id.ID != owner {
		return tusd.HTTPResponse{}, tusError(NewError(fiber.StatusNotFound, "no such upload"))
	}
	if ev.Upload.MetaData[tusMetaTarget] == tusTargetROM {
		return s.tusFinishROM(t, ev, id)
	}
	f, err := os.Open(filepath.Join(t.dir, ev.Upload.ID))
	if err != nil {
		return tusd.HTTPResponse{}, tusError(s.asAPIError(err))
	}
	defer f.Close()
	// An upload staged before visibility was recorded has none: public.
	visibility := cmp.Or(ev.Upload.MetaData[tusMetaVisibility], files.Public)
	saved, err := s.svc.Files.Save(context.WithoutCancel(ev.Context), ev.Upload.MetaData[tusMetaFilename], f,
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
	if s.svc.Roms == nil {
		return tusd.HTTPResponse{}, tusError(NewError(fiber.StatusNotFound, "the games library is not enabled"))
	}
	meta := ev.Upload.MetaData
	g, err := s.svc.Roms.Upload(context.WithoutCancel(ev.Context), roms.UploadInput{
		FileName: meta[tusMetaFilename], Console: meta[tusMetaConsole], Name: meta[tusMetaName],
		Staged: filepath.Join(t.dir, ev.Upload.ID), MaxBytes: s.cfg.Emulator.MaxROMBytes, Replace: meta[tusMetaReplace] == "true",
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
			w.header.Set("Upload-Expires", time.Now().Add(t.expiry).UTC().Format(http.TimeFormat))
			if c.Method() == fiber.MethodHead {
				if _, modified, err := t.info(c.Context(), c.Params("id")); err == nil {
					w.header.Set("Upload-Expires", modified.Add(t.expiry).UTC().Format(http.TimeFormat))
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
				if tusd.ParseMetadataHeader(c.Get("Upload-Metadata"))[tusMetaTarget] == tusTargetROM {
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
