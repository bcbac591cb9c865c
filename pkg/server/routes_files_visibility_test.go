package server

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"testing"

	"github.com/devhub/devhub/pkg/files"
)

func visibilityPart(value string) part {
	return part{disposition: `name="visibility"`, data: []byte(value)}
}

// guestListed reports whether a visitor who is not signed in finds file id
// in GET /api/files, and whether GET /api/files/:id answers them.
func (fa *filesTestApp) guestListed(t *testing.T, id uint64) (listed, detail bool) {
	t.Helper()
	resp, body := fa.do(t, get("/api/files"))
	if resp.StatusCode != 200 {
		t.Fatalf("guest list: %d %s", resp.StatusCode, body)
	}
	var groups map[string]json.RawMessage
	if err := json.Unmarshal(body, &groups); err != nil {
		t.Fatal(err)
	}
	for name, raw := range groups {
		if name == "totals" {
			continue
		}
		var items []files.Info
		if err := json.Unmarshal(raw, &items); err != nil {
			t.Fatal(err)
		}
		for _, it := range items {
			listed = listed || it.ID == id
		}
	}
	resp, _ = fa.do(t, get("/api/files/"+strconv.FormatUint(id, 10)))
	return listed, resp.StatusCode == 200
}

// A file uploaded as private — by a multipart `visibility` field before or
// after its files, or by the tus `visibility` metadata key — is private
// from the moment it exists: absent from a guest's list and 404 to them,
// listed for its uploader. A value other than public or private is 400 and
// keeps nothing.
func TestUploadVisibilityHTTP(t *testing.T) {
	data := []byte("some notes")
	multipartUpload := func(parts ...part) func(*testing.T, *filesTestApp) (int, []byte, uint64) {
		return func(t *testing.T, fa *filesTestApp) (int, []byte, uint64) {
			resp, body := fa.do(t, uploadRequest("/api/files/upload", userToken, multipartBody(parts...)))
			var out struct{ Files []files.Info }
			if json.Unmarshal(body, &out); resp.StatusCode == 201 && len(out.Files) == 1 {
				return resp.StatusCode, body, out.Files[0].ID
			}
			return resp.StatusCode, body, 0
		}
	}
	tusMetaVis := func(value string) string {
		return tusMeta("notes.txt") + ",visibility " + base64.StdEncoding.EncodeToString([]byte(value))
	}
	// tusUpload creates the upload (with meta) and sends its bytes in a PATCH.
	tusUpload := func(meta string) func(*testing.T, *filesTestApp) (int, []byte, uint64) {
		return func(t *testing.T, fa *filesTestApp) (int, []byte, uint64) {
			resp, body := fa.do(t, tusReq("POST", "/api/files/tus/", userToken, nil, "Upload-Length", strconv.Itoa(len(data)), "Upload-Metadata", meta))
			if resp.StatusCode != 201 {
				return resp.StatusCode, body, 0
			}
			resp, body = fa.do(t, tusReq("PATCH", resp.Header.Get("Location"), userToken, data, "Upload-Offset", "0"))
			id, _ := strconv.ParseUint(resp.Header.Get(tusFileIDHeader), 10, 64)
			if resp.StatusCode == 204 {
				return 201, body, id
			}
			return resp.StatusCode, body, id
		}
	}
	// tusWhole sends the whole file with the creation.
	tusWhole := func(meta string) func(*testing.T, *filesTestApp) (int, []byte, uint64) {
		return func(t *testing.T, fa *filesTestApp) (int, []byte, uint64) {
			resp, body := fa.do(t, tusReq("POST", "/api/files/tus/", userToken, data, "Upload-Length", strconv.Itoa(len(data)), "Upload-Metadata", meta))
			id, _ := strconv.ParseUint(resp.Header.Get(tusFileIDHeader), 10, 64)
			return resp.StatusCode, body, id
		}
	}
	tests := []struct {
		name    string
		send    func(*testing.T, *filesTestApp) (int, []byte, uint64)
		want    int
		private bool
	}{
		{"multipart without the field", multipartUpload(filePart("notes.txt", data)), 201, false},
		{"multipart private before the file", multipartUpload(visibilityPart("private"), filePart("notes.txt", data)), 201, true},
		{"multipart private after the file", multipartUpload(filePart("notes.txt", data), visibilityPart("private")), 201, true},
		{"multipart public", multipartUpload(visibilityPart("public"), filePart("notes.txt", data)), 201, false},
		{"multipart unknown value before the file", multipartUpload(visibilityPart("secret"), filePart("notes.txt", data)), 400, false},
		{"multipart unknown value after the file", multipartUpload(filePart("notes.txt", data), visibilityPart("PRIVATE")), 400, false},
		{"tus without the key", tusUpload(tusMeta("notes.txt")), 201, false},
		{"tus private", tusUpload(tusMetaVis("private")), 201, true},
		{"tus private, the whole file with the creation", tusWhole(tusMetaVis("private")), 201, true},
		{"tus public", tusUpload(tusMetaVis("public")), 201, false},
		{"tus unknown value", tusUpload(tusMetaVis("friends")), 400, false},
		{"tus the key without a value", tusUpload(tusMeta("notes.txt") + ",visibility"), 400, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fa := newFilesTestApp(t, 1<<20)
			status, body, id := tc.send(t, fa)
			if status != tc.want {
				t.Fatalf("status %d, want %d: %s", status, tc.want, body)
			}
			if tc.want == 400 {
				if e := apiErr(t, body); e.Data["visibility"].Code != "invalid" {
					t.Fatalf("the 400 does not name the field: %s", body)
				}
				fa.assertNothingKept(t)
				if n := fa.stagedEntries(t); n != 0 {
					t.Fatalf("%d staged entries after a refusal", n)
				}
				return
			}
			f, err := fa.svc.Get(id)
			if err != nil || f.IsPrivate() != tc.private {
				t.Fatalf("file %d: %+v %v; want private %v", id, f, err, tc.private)
			}
			listed, detail := fa.guestListed(t, id)
			if listed == tc.private || detail == tc.private {
				t.Fatalf("a guest: listed %v, detail %v; the file is private: %v", listed, detail, tc.private)
			}
			resp, body := fa.do(t, withToken(get("/api/files/"+strconv.FormatUint(id, 10)), userToken))
			var info files.Info
			want := files.Public
			if tc.private {
				want = files.Private
			}
			if json.Unmarshal(body, &info); resp.StatusCode != http.StatusOK || info.Visibility != want {
				t.Fatalf("the uploader's detail: %d %s", resp.StatusCode, body)
			}
		})
	}
}
